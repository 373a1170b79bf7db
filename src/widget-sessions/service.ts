import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { ActingContext } from "../auth/delegation.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { AMOUNT_PATTERN } from "../money.js";
import { ownerOf, type QuoteService } from "../quotes/service.js";
import { RAMP_TYPES } from "../quotes/types.js";
import { country, cryptocurrency, FIAT_SYMBOLS, NETWORKS, PAYMENT_METHOD_IDS } from "../reference-data/catalog.js";
import { canonicalId, parseInput } from "../validation.js";
import * as repo from "./repo.js";

const webUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2048);
const common = {
  callbackUrl: webUrl.optional(),
  externalSessionId: z.string().min(1).max(128).optional(),
  walletAddressLocked: z.string().min(1).max(128).optional(),
};
/** Attribution comes from the caller's headers; the reference's body fields for it are accepted and ignored. */
const ignoredAttribution = { apiKey: z.string().max(256).optional(), partnerId: z.string().max(256).optional() };
const lockedInput = z.object({ quoteId: z.string(), ...common, ...ignoredAttribution }).strict();
const refreshInput = z
  .object({
    rampType: z.enum(RAMP_TYPES),
    network: z.enum(NETWORKS),
    inputAmount: z.string().regex(AMOUNT_PATTERN, "must be a positive decimal string"),
    ...common,
    externalSessionId: z.string().min(1).max(128),
    fiat: z.enum(FIAT_SYMBOLS).optional(),
    cryptoLocked: z.string().max(16).optional(),
    paymentMethod: z.enum(PAYMENT_METHOD_IDS).optional(),
    countryCode: z
      .string()
      .refine((code) => country(code) !== undefined, "must be a supported country")
      .optional(),
    ...ignoredAttribution,
  })
  .strict()
  .refine((form) => form.cryptoLocked === undefined || cryptocurrency(form.cryptoLocked, form.network) !== undefined, {
    path: ["cryptoLocked"],
    message: "must be a token on the chosen network",
  });
/**
 * Either a locked quote, or the parameters the widget quotes with (the reference's two forms). A body
 * naming `quoteId` is the locked form, anything else the refresh form, so errors name the fields of the
 * form meant (a union would only say "Invalid input" for the whole body).
 */
const sessionInput = (input: unknown) =>
  typeof input === "object" && input !== null && "quoteId" in input ? lockedInput : refreshInput;

/** The two forms a session is created with, for the API documents. */
export const createWidgetSessionInput = z.union([lockedInput, refreshInput]);

export interface WidgetSessionView {
  sessionId: string;
  url: string;
}

/** Widget sessions: what a hosted widget opens with; ramps and webhooks refer to them by id. */
export class WidgetSessionService {
  constructor(
    private readonly db: Db,
    private readonly quotes: QuoteService,
    private readonly widgetBaseUrl: string,
  ) {}

  /** Whether the viewer may attach this session to a ramp (its own, or one nobody owns). */
  async isVisible(sessionId: string, viewerProfileId: string): Promise<boolean> {
    return (await repo.findVisibleWidgetSession(this.db, sessionId, viewerProfileId)) !== null;
  }

  async create(acting: ActingContext | null, input: unknown): Promise<WidgetSessionView> {
    const parameters = parseInput(sessionInput(input), input);
    const owner = ownerOf(acting);
    let quoteId: string | null = null;
    // The quote must be one the caller may see (NOT_FOUND otherwise).
    if ("quoteId" in parameters) quoteId = (await this.quotes.get(acting, parameters.quoteId)).id;
    const id = randomUUID();
    await repo.insertWidgetSession(this.db, {
      id,
      ownerProfileId: owner,
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

  /** A session the subject may follow: its own or an unowned one; anything else is NOT_FOUND. */
  async requireVisible(acting: ActingContext, sessionId: string): Promise<string> {
    const id = canonicalId(sessionId);
    if (!id || !(await repo.findVisibleWidgetSession(this.db, id, acting.subjectProfileId)))
      throw new AppError("NOT_FOUND", "Widget session not found.");
    return id;
  }
}
