import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { isoDateTime, jsonSchema } from "../http.js";
import { pagination } from "../../output.js";
import type { IssuedCredential } from "../../credentials/types.js";
import { createApiCredential, listApiCredentials, revokeApiCredential } from "../../operations/credentials.js";
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
export const credentialList = z.object({ credentials: z.array(credentialResource), pagination });

/** A new credential as REST answers it: the resource with its secret value beside it. */
export const createdCredential = ({ credential, secretKey }: IssuedCredential) => ({ ...credential, secretKey });

/** The session's own credential lifecycle (CONTRACT.md, API credentials). */
export function apiCredentialRoutes(server: FastifyInstance, app: App) {
  operationRoute(server, app, createApiCredential, {
    method: "POST",
    url: "/v1/api-credentials",
    tags: ["Authentication"],
    status: 201,
    response: jsonSchema(createdCredentialResource),
    errors: [400, 401, 403, 409],
    reply: createdCredential,
  });

  operationRoute(server, app, listApiCredentials, {
    method: "GET",
    url: "/v1/api-credentials",
    tags: ["Authentication"],
    response: jsonSchema(credentialList),
    errors: [400, 401, 403],
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
