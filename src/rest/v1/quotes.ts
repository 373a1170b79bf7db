import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { createBestQuote, createQuote, createWidgetSession, getQuote } from "../../operations/quotes.js";
import { RAMP_TYPES } from "../../quotes/types.js";
import { isoDateTime, jsonSchema } from "../http.js";
import { operationRoute } from "../operation-route.js";

const amount = z.string().describe("Decimal string");
/** The fee breakdown, in the quote's fiat (`feeCurrency`) and in USD. */
const feeFields = {
  feeCurrency: z.string(),
  networkFeeFiat: amount,
  networkFeeUSD: amount,
  anchorFeeFiat: amount.describe("The rail's (anchor's) fee."),
  anchorFeeUSD: amount,
  vortexFeeFiat: amount.describe("The service fee."),
  vortexFeeUSD: amount,
  partnerFeeFiat: amount.describe("The partner's markup."),
  partnerFeeUSD: amount,
  processingFeeFiat: amount.describe("Anchor fee plus service fee."),
  processingFeeUSD: amount,
  totalFeeFiat: amount.describe("Network, processing and partner fees."),
  totalFeeUSD: amount,
};
/** What a quote fixes, shared by quotes and ramps. */
export const quoteTermFields = {
  from: z.string(),
  to: z.string(),
  network: z.string(),
  paymentMethod: z.string(),
  countryCode: z.string().nullable(),
  inputAmount: amount,
  inputCurrency: z.string(),
  outputAmount: amount,
  outputCurrency: z.string(),
  ...feeFields,
};
const quote = z.object({
  id: z.uuid(),
  rampType: z.enum(RAMP_TYPES),
  ...quoteTermFields,
  expiresAt: isoDateTime,
  createdAt: isoDateTime,
});
const widgetSession = z.object({ sessionId: z.uuid(), url: z.string() });

/** The reference names the service fee after its own brand: its shapes carry `vortexFee*`, ours `serviceFee*`. */
export function withReferenceFeeNames<Terms extends { serviceFeeFiat: string; serviceFeeUSD: string }>({
  serviceFeeFiat,
  serviceFeeUSD,
  ...terms
}: Terms) {
  return { vortexFeeFiat: serviceFeeFiat, vortexFeeUSD: serviceFeeUSD, ...terms };
}

/**
 * Quotes and widget sessions: anyone may ask; keys and sessions attribute (and own) what they create. Creation
 * also takes a public key in the reference's `apiKey` field.
 */
export function quoteRoutes(server: FastifyInstance, app: App) {
  operationRoute(server, app, createQuote, {
    method: "POST",
    url: "/v1/quotes",
    tags: ["Quotes"],
    status: 201,
    response: jsonSchema(quote),
    reply: withReferenceFeeNames,
    errors: [400, 401, 403],
    publicKeyField: "apiKey",
  });
  operationRoute(server, app, createBestQuote, {
    method: "POST",
    url: "/v1/quotes/best",
    tags: ["Quotes"],
    status: 201,
    response: jsonSchema(quote),
    reply: withReferenceFeeNames,
    errors: [400, 401, 403],
    publicKeyField: "apiKey",
  });
  operationRoute(server, app, getQuote, {
    method: "GET",
    url: "/v1/quotes/:id",
    tags: ["Quotes"],
    response: jsonSchema(quote),
    reply: withReferenceFeeNames,
    errors: [401, 403, 404],
    cachedResults: true,
  });
  operationRoute(server, app, createWidgetSession, {
    method: "POST",
    url: "/v1/session/create",
    tags: ["Widget"],
    status: 201,
    response: jsonSchema(widgetSession),
    errors: [400, 401, 403, 404],
    publicKeyField: "apiKey",
  });
}
