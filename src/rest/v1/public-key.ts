import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { getPublicKey } from "../../operations/webhooks.js";
import { SIGNATURE_SCHEME, type SigningKeyInfo } from "../../webhooks/signing.js";
import { jsonSchema } from "../http.js";
import { operationRoute } from "../operation-route.js";

const publicKeyResponse = z.object({
  publicKey: z.string().describe("SPKI PEM of the key that signs webhook deliveries."),
  algorithm: z.literal(SIGNATURE_SCHEME.algorithm),
  hash: z.literal(SIGNATURE_SCHEME.hash).describe("Message digest, also used by MGF1."),
  saltLength: z.literal(SIGNATURE_SCHEME.saltLength),
});

/** GET /v1/public-key (CONTRACT.md, Webhooks): public, like the reference data; a presented credential must still be valid. */
export function publicKeyRoutes(server: FastifyInstance, app: App) {
  operationRoute(server, app, getPublicKey, {
    method: "GET",
    url: "/v1/public-key",
    tags: ["Webhooks"],
    response: jsonSchema(publicKeyResponse),
    errors: [401, 403],
    reply: ({ publicKey }: SigningKeyInfo) => ({ publicKey, ...SIGNATURE_SCHEME }),
    // Receivers may cache the key; after a rotation they refetch it when a signature stops verifying.
    cacheable: true,
    etag: ({ etag }) => etag,
  });
}
