import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { SIGNATURE_SCHEME } from "../../webhooks/signing.js";
import { cacheable, errorResponses, jsonSchema } from "../http.js";
import { NO_DELEGATION } from "../../auth/delegation.js";

const publicKeyResponse = z.object({
  publicKey: z.string().describe("SPKI PEM of the key that signs webhook deliveries."),
  algorithm: z.literal(SIGNATURE_SCHEME.algorithm),
  hash: z.literal(SIGNATURE_SCHEME.hash).describe("Message digest, also used by MGF1."),
  saltLength: z.literal(SIGNATURE_SCHEME.saltLength),
});

/** True when an If-None-Match header names `etag` (weak comparison, `*` matches anything). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || value.replace(/^W\//, "") === etag;
  });
}

/** GET /v1/public-key (CONTRACT.md, Webhooks): public, like the reference data; a presented credential must still be valid. */
export function publicKeyRoutes(server: FastifyInstance, app: App) {
  server.get("/v1/public-key", {
    config: { capabilities: ["REFERENCE_DATA"] as const, delegation: NO_DELEGATION },
    schema: {
      operationId: "getPublicKey",
      summary: "Get the webhook signing public key",
      tags: ["Webhooks"],
      description: "The public key webhook signatures verify with. Answers 304 to a matching If-None-Match.",
      response: {
        200: jsonSchema(publicKeyResponse),
        304: { type: "null", description: "Not modified." },
        ...errorResponses(401, 403),
      },
    },
    handler: async (request, reply) => {
      const key = app.signingKeys.info();
      // Receivers may cache the key; after a rotation they refetch it when a signature stops verifying.
      const body = cacheable(reply.header("ETag", key.etag), { publicKey: key.publicKey, ...SIGNATURE_SCHEME });
      if (matches(request.headers["if-none-match"], key.etag)) return reply.code(304).send();
      return body;
    },
  });
}
