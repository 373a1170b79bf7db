import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import {
  performCallback,
  receiveAlfredpayCallback,
  receiveAveniaCallback,
  type PartnerCallbackOperation,
} from "../../operations/partner-callbacks.js";
import { AVENIA_REPLAY_WINDOW_MS } from "../../partner-callbacks/service.js";
import { errorResponses, jsonSchema, rawBodyOf } from "../http.js";

/** A partner callback's body: far above any object a partner sends, far below the server's limit. */
const MAX_CALLBACK_BYTES = 100 * 1024;

const received = z.object({ received: z.literal(true) });

const ANSWERS =
  "200: stored, or a copy of one stored already (nothing changes). 400 INVALID_JSON or VALIDATION_FAILED (with " +
  "details): not a callback we read. 401 AUTHENTICATION_REQUIRED: not signed by the partner, or a replay. 404 NOT_FOUND: " +
  `no such partner is configured. 413 PAYLOAD_TOO_LARGE: over ${MAX_CALLBACK_BYTES / 1024} KB. 429 RATE_LIMITED ` +
  "(with Retry-After): past this partner's budget from this address. Only a 2xx ends the partner's retries.";

interface CallbackFace {
  url: string;
  description: string;
  /** The signature headers, for the document. */
  headers: Record<string, { type: "string"; maxLength: number; description: string }>;
  /** Error statuses beyond every callback route's 400, 401, 404, 413 and 429, for the document. */
  errors: number[];
}

/**
 * Partner callbacks (issue 41): verified (by the server, from the route's rule), stored once, answered. The body's
 * bytes are kept as they came, whatever the Content-Type: the signature is over them, and the stored copy is them.
 */
export function partnerCallbackRoutes(server: FastifyInstance, app: App) {
  return server.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

    callbackRoute(scope, app, receiveAveniaCallback, {
      url: "/v1/webhooks/avenia",
      description:
        "Partner-facing: Avenia's webhooks (TICKET and KYC subscriptions), in its management shape " +
        "`{subscription, subAccountId, data: {ticket | attempt}}` or its event shape " +
        "`{event: {accountId, subscription, data}}`. Avenia signs neither a time nor an event id: copies are known " +
        "by the body's SHA-256, and a callback about an object last updated more than " +
        `${AVENIA_REPLAY_WINDOW_MS / 3_600_000} hour before it arrives is refused as a replay (401; reconciliation ` +
        "reads such states from Avenia). 502 PROVIDER_UNAVAILABLE: Avenia's key could not be fetched (the partner " +
        `retries). ${ANSWERS}`,
      headers: {
        signature: { type: "string", maxLength: 1024, description: "Avenia's signature over the raw body." },
      },
      errors: [502],
    });

    callbackRoute(scope, app, receiveAlfredpayCallback, {
      url: "/v1/webhooks/alfredpay",
      description:
        "Partner-facing: Alfredpay's callbacks `{type: onramp | offramp | kyc | kyb, data}`, signed the Standard " +
        "Webhooks way. Copies keep their webhook-id, which stores them once; a webhook-timestamp more than 5 minutes from our " +
        `clock is refused as a replay (401). ${ANSWERS}`,
      headers: {
        "webhook-id": { type: "string", maxLength: 256, description: "The event's id, the same on every copy." },
        "webhook-timestamp": { type: "string", maxLength: 20, description: "Unix seconds of this send." },
        "webhook-signature": {
          type: "string",
          maxLength: 1024,
          description: "`v1,` and the signature; several, space-separated, while a secret rotates.",
        },
      },
      errors: [],
    });
  });
}

function callbackRoute(server: FastifyInstance, app: App, operation: PartnerCallbackOperation, face: CallbackFace) {
  server.route({
    method: "POST",
    url: face.url,
    config: { partnerSignature: operation.access.partnerSignature },
    // Fastify answers 413 PAYLOAD_TOO_LARGE before reading more.
    bodyLimit: MAX_CALLBACK_BYTES,
    schema: {
      operationId: operation.name,
      summary: operation.summary,
      description: face.description,
      tags: ["Partner callbacks"],
      headers: { type: "object", properties: face.headers, required: Object.keys(face.headers) },
      body: { content: { "application/json": { schema: jsonSchema(operation.input, "input") } } },
      response: { 200: jsonSchema(received), ...errorResponses(400, 401, 404, 413, 429, ...face.errors) },
    },
    handler: async (request: FastifyRequest) => {
      // The server verified the partner's signature over these bytes before the handler (the route's rule).
      await performCallback(operation, app, { rawBody: rawBodyOf(request), headers: request.headers });
      return { received: true };
    },
  });
}
