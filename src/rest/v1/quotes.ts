import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { createBestQuote, createQuote, createWidgetSession, getQuote } from "../../operations/quotes.js";
import { quoteView } from "../../quotes/types.js";
import { jsonSchema } from "../http.js";
import { operationRoute } from "../operation-route.js";

/** The reference names the service fee after its own brand: its shapes carry `vortexFee*`, ours `serviceFee*`. */
const REFERENCE_FEE_NAMES: Record<string, string> = { serviceFeeFiat: "vortexFeeFiat", serviceFeeUSD: "vortexFeeUSD" };

export function withReferenceFeeNames<Terms extends { serviceFeeFiat: string; serviceFeeUSD: string }>({
  serviceFeeFiat,
  serviceFeeUSD,
  ...terms
}: Terms) {
  return { vortexFeeFiat: serviceFeeFiat, vortexFeeUSD: serviceFeeUSD, ...terms };
}

/** An output's schema with the service fee under the reference's names, in the same place. */
export const referenceFeeNamed = (output: z.ZodObject) =>
  z.object(
    Object.fromEntries(
      Object.entries(output.shape).map(([field, schema]) => [REFERENCE_FEE_NAMES[field] ?? field, schema]),
    ),
  );

const quote = referenceFeeNamed(quoteView);

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
    errors: [400, 401, 403, 404],
    publicKeyField: "apiKey",
  });
}
