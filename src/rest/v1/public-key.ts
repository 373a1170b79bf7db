import type { FastifyInstance } from "fastify";
import type { App } from "../../app.js";
import { getPublicKey } from "../../operations/webhooks.js";
import { signingKeyView, signingKeyViewOf } from "../../webhooks/types.js";
import { jsonSchema } from "../http.js";
import { operationRoute } from "../operation-route.js";

/** GET /v1/public-key (CONTRACT.md, Webhooks): public, like the reference data; a presented credential must still be valid. */
export function publicKeyRoutes(server: FastifyInstance, app: App) {
  operationRoute(server, app, getPublicKey, {
    method: "GET",
    url: "/v1/public-key",
    tags: ["Webhooks"],
    response: jsonSchema(signingKeyView),
    errors: [401, 403],
    reply: signingKeyViewOf,
    // Receivers may cache the key; after a rotation they refetch it when a signature stops verifying.
    cacheable: true,
    etag: ({ etag }) => etag,
  });
}
