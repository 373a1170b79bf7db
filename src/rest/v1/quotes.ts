import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { DELEGATED } from "../../auth/delegation.js";
import { bestQuoteInput, quoteInput } from "../../quotes/service.js";
import { RAMP_TYPES } from "../../quotes/types.js";
import { errorResponses, isoDateTime, jsonSchema } from "../http.js";
import { createWidgetSessionInput } from "../../widget-sessions/service.js";

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

/** Quotes and widget sessions: anyone may ask; keys and sessions attribute (and own) what they create. */
export function quoteRoutes(server: FastifyInstance, app: App) {
  const config = { capabilities: ["QUOTE"] as const, delegation: DELEGATED };

  server.post("/v1/quotes", {
    config,
    schema: {
      operationId: "createQuote",
      summary: "Create a quote",
      tags: ["Quotes"],
      body: jsonSchema(quoteInput, "input"),
      response: { 201: jsonSchema(quote), ...errorResponses(400, 401, 403) },
    },
    handler: async (request, reply) => reply.code(201).send(await app.quotes.create(request.acting, request.body)),
  });

  server.post("/v1/quotes/best", {
    config,
    schema: {
      operationId: "createBestQuote",
      summary: "Create a quote on the network that pays out the most",
      tags: ["Quotes"],
      body: jsonSchema(bestQuoteInput, "input"),
      response: { 201: jsonSchema(quote), ...errorResponses(400, 401, 403) },
    },
    handler: async (request, reply) => reply.code(201).send(await app.quotes.createBest(request.acting, request.body)),
  });

  server.get("/v1/quotes/:id", {
    config,
    schema: {
      operationId: "getQuote",
      summary: "Get a quote",
      tags: ["Quotes"],
      params: jsonSchema(z.object({ id: z.string() }), "input"),
      response: { 200: jsonSchema(quote), ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => await app.quotes.get(request.acting, (request.params as { id: string }).id),
  });

  server.post("/v1/session/create", {
    config,
    schema: {
      operationId: "createWidgetSession",
      summary: "Create a hosted widget session",
      tags: ["Widget"],
      body: jsonSchema(createWidgetSessionInput, "input"),
      response: { 201: jsonSchema(widgetSession), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await app.widgetSessions.create(request.acting, request.body)),
  });
}
