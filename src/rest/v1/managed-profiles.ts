import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import type { ManagerPolicy } from "../../managed-profiles/types.js";
import { CORRIDORS, CUSTOMER_TYPES } from "../../reference-data/corridors.js";
import { MANAGER_ONLY } from "../../auth/delegation.js";
import { actingOf, errorResponses, isoDateTime, jsonSchema } from "../http.js";
import { createManagedProfileApiCredential, revokeManagedProfileApiCredential } from "../../operations/credentials.js";
import { operationRoute } from "../operation-route.js";
import { createdCredential, createdCredentialResource, credentialList } from "./api-credentials.js";

const managedProfile = z.object({
  profileId: z.uuid(),
  externalSubjectId: z.string(),
  contactEmail: z.string(),
  customerType: z.enum(CUSTOMER_TYPES),
  status: z.enum(["active", "deleted"]),
  deletedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
const managedProfileEnvelope = z.object({ managedProfile });
const managerPolicy = z.object({
  profileId: z.uuid(),
  allowedCorridors: z.array(z.enum(CORRIDORS)),
  allowedCustomerTypes: z.array(z.enum(CUSTOMER_TYPES)).nullable(),
});
const list = z.object({
  managedProfiles: z.array(managedProfile),
  pagination: z.object({ limit: z.number().int(), offset: z.number().int(), total: z.number().int() }),
  manager: managerPolicy,
});
const createBody = z.object({
  externalSubjectId: z.string(),
  contactEmail: z.string(),
  customerType: z.enum(CUSTOMER_TYPES),
});
const listQuery = z.object({
  status: z.enum(["active", "deleted", "all"]).optional(),
  limit: z.string().optional(),
  offset: z.string().optional(),
});
const childParams = z.object({ profileId: z.string() });

/** The list envelope's policy object: what the manager may do, not its bookkeeping. */
const managerEnvelope = (policy: ManagerPolicy) => ({
  profileId: policy.profileId,
  allowedCorridors: policy.allowedCorridors,
  allowedCustomerTypes: policy.allowedCustomerTypes,
});

/** A manager's headless children and their credentials (CONTRACT.md, Managed profiles). */
export function managedProfileRoutes(server: FastifyInstance, app: App) {
  const lifecycle = { capabilities: ["MANAGED_PROFILES"] as const, delegation: MANAGER_ONLY };
  const childCredentials = { capabilities: ["MANAGE_CHILD_CREDENTIALS"] as const, delegation: MANAGER_ONLY };
  const tags = ["Managed profiles"];
  const manager = (request: Parameters<typeof actingOf>[0]) => actingOf(request).actorProfileId;
  const params = (request: { params: unknown }) => request.params as { profileId: string; credentialId: string };

  server.post("/v1/managed-profiles", {
    config: lifecycle,
    schema: {
      operationId: "createManagedProfile",
      summary: "Create a managed child profile",
      tags,
      body: jsonSchema(createBody, "input"),
      response: {
        200: jsonSchema(managedProfileEnvelope),
        201: jsonSchema(managedProfileEnvelope),
        ...errorResponses(400, 401, 403, 409),
      },
    },
    handler: async (request, reply) => {
      const { managedProfile: child, created } = await app.managedProfiles.create(manager(request), request.body);
      return reply.code(created ? 201 : 200).send({ managedProfile: child });
    },
  });

  server.get("/v1/managed-profiles", {
    config: lifecycle,
    schema: {
      operationId: "listManagedProfiles",
      summary: "List the caller's managed children",
      tags,
      querystring: jsonSchema(listQuery, "input"),
      response: { 200: jsonSchema(list), ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => {
      const page = await app.managedProfiles.list(manager(request), request.query);
      return { ...page, managedProfiles: page.managedProfiles, manager: managerEnvelope(page.manager) };
    },
  });

  server.get("/v1/managed-profiles/:profileId", {
    config: lifecycle,
    schema: {
      operationId: "getManagedProfile",
      summary: "Get a managed child",
      tags,
      params: jsonSchema(childParams, "input"),
      response: { 200: jsonSchema(managedProfileEnvelope), ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => ({
      managedProfile: await app.managedProfiles.get(manager(request), params(request).profileId),
    }),
  });

  server.delete("/v1/managed-profiles/:profileId", {
    config: lifecycle,
    schema: {
      operationId: "deleteManagedProfile",
      summary: "Delete a managed child",
      tags,
      params: jsonSchema(childParams, "input"),
      response: { 204: { type: "null" }, ...errorResponses(401, 403, 404) },
    },
    handler: async (request, reply) => {
      await app.managedProfiles.delete(manager(request), params(request).profileId);
      return reply.code(204).send();
    },
  });

  operationRoute(server, app, createManagedProfileApiCredential, {
    method: "POST",
    url: "/v1/managed-profiles/:profileId/api-credentials",
    tags,
    status: 201,
    response: jsonSchema(createdCredentialResource),
    errors: [400, 401, 403, 404, 409],
    reply: createdCredential,
  });

  server.get("/v1/managed-profiles/:profileId/api-credentials", {
    config: childCredentials,
    schema: {
      operationId: "listManagedProfileApiCredentials",
      summary: "List a managed child's credentials",
      tags,
      params: jsonSchema(childParams, "input"),
      response: { 200: jsonSchema(credentialList), ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => ({
      credentials: await app.managedProfiles.listCredentials(manager(request), params(request).profileId),
    }),
  });

  operationRoute(server, app, revokeManagedProfileApiCredential, {
    method: "DELETE",
    url: "/v1/managed-profiles/:profileId/api-credentials/:credentialId",
    tags,
    status: 204,
    response: null,
    errors: [401, 403, 404],
  });
}
