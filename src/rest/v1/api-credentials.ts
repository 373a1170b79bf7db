import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { actingOf, errorResponses, isoDateTime, jsonSchema } from "../http.js";
import { NO_DELEGATION } from "../../auth/delegation.js";
import type { IssuedCredential } from "../../credentials/types.js";
import { createApiCredential, revokeApiCredential } from "../../operations/credentials.js";
import { operationRoute } from "../operation-route.js";

const credentialResource = z.object({
  id: z.uuid(),
  name: z.string(),
  profileId: z.uuid(),
  partnerId: z.uuid().nullable(),
  environment: z.enum(["test", "live"]),
  publicKey: z.string(),
  secretKeyPrefix: z.string(),
  publicLastUsedAt: isoDateTime.nullable(),
  secretLastUsedAt: isoDateTime.nullable(),
  expiresAt: isoDateTime,
  revokedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export const createdCredentialResource = credentialResource.extend({ secretKey: z.string() });
export const credentialList = z.object({ credentials: z.array(credentialResource) });

/** A new credential as REST answers it: the resource with its secret value beside it. */
export const createdCredential = ({ credential, secretKey }: IssuedCredential) => ({ ...credential, secretKey });

/** The session's own credential lifecycle (CONTRACT.md, API credentials). */
export function apiCredentialRoutes(server: FastifyInstance, app: App) {
  const config = { capabilities: ["OWN_CREDENTIALS"] as const, delegation: NO_DELEGATION };

  operationRoute(server, app, createApiCredential, {
    method: "POST",
    url: "/v1/api-credentials",
    tags: ["Authentication"],
    status: 201,
    response: jsonSchema(createdCredentialResource),
    errors: [400, 401, 403, 409],
    reply: createdCredential,
  });

  server.get("/v1/api-credentials", {
    config,
    schema: {
      operationId: "listApiCredentials",
      summary: "List the caller's API credentials",
      tags: ["Authentication"],
      response: { 200: jsonSchema(credentialList), ...errorResponses(401, 403) },
    },
    handler: async (request) => ({ credentials: await app.credentials.list(actingOf(request).subjectProfileId) }),
  });

  operationRoute(server, app, revokeApiCredential, {
    method: "DELETE",
    url: "/v1/api-credentials/:credentialId",
    tags: ["Authentication"],
    status: 204,
    response: null,
    errors: [401, 403, 404],
  });
}
