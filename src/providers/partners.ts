import { AppError } from "../errors.js";
import { CORRIDORS, type Corridor } from "../reference-data/corridors.js";

/*
 * Which licensed partner serves each corridor. KYC and ramps go to the corridor's partner; the ramps of a corridor no
 * integrated partner serves (EU) run on the in-process sandbox (src/providers/sandbox.ts): made-up processing, and
 * test triggers that fail or retry ramps, unless CORRIDOR_PARTNERS closes it (`EU=none`). `live` refuses to start
 * while any open corridor's ramps would run on the sandbox (src/config.ts).
 */

export const PARTNERS = ["Avenia", "Alfredpay"] as const;
export type Partner = (typeof PARTNERS)[number];

/** The countries each partner serves (issue 41's facts: Avenia Brazil; Alfredpay Argentina, Colombia, Mexico, the US). */
const PARTNER_CORRIDORS: Readonly<Record<Partner, readonly Corridor[]>> = {
  Avenia: ["BR"],
  Alfredpay: ["AR", "CO", "MX", "US"],
};

export function partnerCorridors(partner: Partner): readonly Corridor[] {
  return PARTNER_CORRIDORS[partner];
}

/**
 * Which partner serves each corridor unless `CORRIDOR_PARTNERS` says otherwise: as in the production service
 * (ARCHITECTURE.md, "Partners, a network away"); it serves EU through Monerium and Mykobo.
 */
export const DEFAULT_CORRIDOR_PARTNERS: Readonly<Record<Corridor, Partner | null>> = {
  AR: "Alfredpay",
  BR: "Avenia",
  CO: "Alfredpay",
  EU: null,
  MX: "Alfredpay",
  US: "Alfredpay",
};

/** The corridors whose ramps run on the sandbox: no integrated partner serves them, and they are not closed. */
export function corridorsOnTheSandbox(
  corridors: Readonly<Record<Corridor, Partner | null>>,
  closed: readonly Corridor[],
): Corridor[] {
  return CORRIDORS.filter((corridor) => corridors[corridor] === null && !closed.includes(corridor));
}

/**
 * What the partner serving `corridor` does, among `wired` (a partner present but undefined there is not configured):
 * PROVIDER_UNAVAILABLE when no partner serves the corridor, when its partner is not among `wired` (what is asked is
 * another partner's), or when it is not configured. The one way calls find their partner.
 */
export function servingPartner<Calls>(
  corridors: Readonly<Record<Corridor, Partner | null>>,
  corridor: Corridor,
  wired: Partial<Record<Partner, Calls | undefined>>,
): Calls {
  const partner = corridors[corridor];
  if (partner === null || !Object.hasOwn(wired, partner))
    throw new AppError("PROVIDER_UNAVAILABLE", `No partner serves this in ${corridor} here.`);
  const calls = wired[partner];
  if (calls === undefined) throw new AppError("PROVIDER_UNAVAILABLE", `${partner} is not configured.`);
  return calls;
}
