import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { actingOf, errorResponses, isoDateTime, jsonSchema } from "../http.js";
import { NO_DELEGATION } from "../../auth/delegation.js";

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
export const createCredentialBody = z.object({
  name: z.string().max(100).optional(),
  expiresAt: isoDateTime.optional(),
});

/** The session's own credential lifecycle (CONTRACT.md, API credentials). */
export function apiCredentialRoutes(server: FastifyInstance, app: App) {
  const config = { capabilities: ["OWN_CREDENTIALS"] as const, delegation: NO_DELEGATION };

  server.post("/v1/api-credentials", {
    config,
    schema: {
      operationId: "createApiCredential",
      summary: "Create an API credential",
      tags: ["Authentication"],
      body: jsonSchema(createCredentialBody, "input"),
      response: { 201: jsonSchema(createdCredentialResource), ...errorResponses(400, 401, 403, 409) },
    },
    handler: async (request, reply) => {
      const { credential, secretKey } = await app.credentials.create(actingOf(request).subjectProfileId, request.body);
      return reply.code(201).send({ ...credential, secretKey });
    },
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

  server.delete("/v1/api-credentials/:credentialId", {
    config,
    schema: {
      operationId: "revokeApiCredential",
      summary: "Revoke an API credential",
      tags: ["Authentication"],
      params: jsonSchema(z.object({ credentialId: z.string() }), "input"),
      response: { 204: { type: "null" }, ...errorResponses(401, 403, 404) },
    },
    handler: async (request, reply) => {
      await app.credentials.revoke(
        actingOf(request).subjectProfileId,
        (request.params as { credentialId: string }).credentialId,
      );
      return reply.code(204).send();
    },
  });
}
