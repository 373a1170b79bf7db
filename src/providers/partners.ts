import { CORRIDOR_FIAT, CORRIDORS, type Corridor } from "../reference-data/corridors.js";

/*
 * Which licensed partner serves each corridor in `live`. A corridor whose partner has no client here runs on the
 * in-process sandbox (src/providers/sandbox.ts): made-up prices and decisions, and test triggers that fail or
 * retry ramps. `live` refuses to start while any corridor would (src/config.ts).
 */

export type Partner = "Avenia" | "Alfredpay";

/** As in the production service (ARCHITECTURE.md, "Partners, a network away"); it serves EU through Monerium and Mykobo. */
const CORRIDOR_PARTNER: Readonly<Record<Corridor, Partner | null>> = {
  AR: "Alfredpay",
  BR: "Avenia",
  CO: "Alfredpay",
  EU: null,
  MX: "Alfredpay",
  US: "Alfredpay",
};

/** The partners this gateway has a client for: none yet, so the sandbox serves every corridor. */
const PARTNER_CLIENTS: ReadonlySet<Partner> = new Set();

/** One line per corridor that would run on the sandbox, naming what it needs instead; none when all are served. */
export function corridorsOnTheSandbox(partnerClients: ReadonlySet<Partner> = PARTNER_CLIENTS): string[] {
  return CORRIDORS.flatMap((corridor) => {
    const partner = CORRIDOR_PARTNER[corridor];
    if (partner === null)
      return [`${corridor}: needs a partner for ${CORRIDOR_FIAT[corridor]}; this gateway integrates none`];
    if (partnerClients.has(partner)) return [];
    return [`${corridor}: needs its partner ${partner}, which this gateway has no client for yet`];
  });
}
