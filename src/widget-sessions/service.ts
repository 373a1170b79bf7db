import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { ActingContext } from "../auth/delegation.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { AMOUNT_PATTERN } from "../money.js";
import { findVisibleQuote } from "../quotes/repo.js";
import { RAMP_TYPES } from "../quotes/types.js";
import { NETWORKS } from "../reference-data/catalog.js";
import { canonicalId, parseInput } from "../validation.js";
import * as repo from "./repo.js";

const webUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2048);
const common = {
  callbackUrl: webUrl.optional(),
  externalSessionId: z.string().min(1).max(128).optional(),
  walletAddressLocked: z.string().min(1).max(128).optional(),
};
/** Either a locked quote, or the parameters the widget quotes with (the reference's two forms). */
const sessionInput = z.union([
  z.object({ quoteId: z.string(), ...common }).strict(),
  z
    .object({
      rampType: z.enum(RAMP_TYPES),
      network: z.enum(NETWORKS),
      inputAmount: z.string().regex(AMOUNT_PATTERN, "must be a positive decimal string"),
      ...common,
      externalSessionId: z.string().min(1).max(128),
      fiat: z.string().max(8).optional(),
      cryptoLocked: z.string().max(16).optional(),
      paymentMethod: z.string().max(16).optional(),
      countryCode: z.string().length(2).optional(),
    })
    .strict(),
]);

export interface WidgetSessionView {
  sessionId: string;
  url: string;
}

/** Widget sessions: what a hosted widget opens with; ramps and webhooks refer to them by id. */
export class WidgetSessionService {
  constructor(
    private readonly db: Db,
    private readonly widgetBaseUrl: string,
  ) {}

  async create(acting: ActingContext | null, input: unknown): Promise<WidgetSessionView> {
    const parameters = parseInput(sessionInput, input);
    const viewer = acting?.subjectProfileId ?? null;
    let quoteId: string | null = null;
    if ("quoteId" in parameters) {
      quoteId = canonicalId(parameters.quoteId);
      if (!quoteId || !(await findVisibleQuote(this.db, quoteId, viewer))) throw new AppError("NOT_FOUND", "Quote not found.");
    }
    const id = randomUUID();
    await repo.insertWidgetSession(this.db, {
        id,
        ownerProfileId: acting && acting.principalKind !== "public" ? viewer : null,
        credentialId: acting?.credentialId ?? null,
        partnerId: acting?.partnerId ?? null,
        quoteId,
        externalSessionId: parameters.externalSessionId ?? null,
        parameters: JSON.stringify(parameters),
    });
    const url = new URL(this.widgetBaseUrl);
    url.searchParams.set("sessionId", id);
    return { sessionId: id, url: url.toString() };
  }
}
