import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { CORRIDORS, CUSTOMER_TYPES } from "../../reference-data/corridors.js";
import { errorResponses, isoDateTime, jsonSchema } from "../http.js";
import { createPartnerApiCredential } from "../../operations/credentials.js";
import { operationRoute } from "../operation-route.js";
import { createdCredential, createdCredentialResource } from "./api-credentials.js";
import { NO_DELEGATION } from "../../auth/delegation.js";

const manager = z.object({
  profileId: z.uuid(),
  allowedCorridors: z.array(z.enum(CORRIDORS)),
  allowedCustomerTypes: z.array(z.enum(CUSTOMER_TYPES)).nullable(),
  isActive: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
const managerBody = z.object({
  allowedCorridors: z.array(z.enum(CORRIDORS)),
  allowedCustomerTypes: z.array(z.enum(CUSTOMER_TYPES)).nullable().optional(),
  isActive: z.boolean(),
});
const partner = z.object({
  id: z.uuid(),
  name: z.string(),
  isActive: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
const pricingAssignment = z.object({ profileId: z.uuid(), pricingProfile: z.string(), updatedAt: isoDateTime });
const profileParams = z.object({ profileId: z.string() });
const partnerParams = z.object({ partnerId: z.string() });

/** The operator surface: `Authorization: Bearer <OPERATOR_TOKEN>` (CONTRACT.md, Managed profiles). */
export function adminRoutes(server: FastifyInstance, app: App) {
  const config = { capabilities: ["OPERATOR"] as const, delegation: NO_DELEGATION };
  const tags = ["Operator"];
  const params = (request: { params: unknown }) => request.params as { profileId: string; partnerId: string };

  server.put("/v1/admin/managers/:profileId", {
    config,
    schema: {
      operationId: "setManagerPolicy",
      summary: "Enable a profile as a manager, or change its policy",
      tags,
      params: jsonSchema(profileParams, "input"),
      body: jsonSchema(managerBody, "input"),
      response: {
        200: jsonSchema(z.object({ manager })),
        201: jsonSchema(z.object({ manager })),
        ...errorResponses(400, 401, 404),
      },
    },
    handler: async (request, reply) => {
      const { manager: policy, created } = await app.admin.putManager(params(request).profileId, request.body);
      return reply.code(created ? 201 : 200).send({ manager: policy });
    },
  });

  server.get("/v1/admin/managers/:profileId", {
    config,
    schema: {
      operationId: "getManagerPolicy",
      summary: "Get a manager's policy",
      tags,
      params: jsonSchema(profileParams, "input"),
      response: { 200: jsonSchema(z.object({ manager })), ...errorResponses(401, 404) },
    },
    handler: async (request) => ({ manager: await app.admin.getManager(params(request).profileId) }),
  });

  server.put("/v1/admin/pricing-assignments/:profileId", {
    config,
    schema: {
      operationId: "setPricingAssignment",
      summary: "Assign a pricing profile to a profile",
      tags,
      params: jsonSchema(profileParams, "input"),
      body: jsonSchema(z.object({ pricingProfile: z.string() }), "input"),
      response: { 200: jsonSchema(z.object({ pricingAssignment })), ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => {
      return { pricingAssignment: await app.admin.assignPricing(params(request).profileId, request.body) };
    },
  });

  server.get("/v1/admin/pricing-assignments/:profileId", {
    config,
    schema: {
      operationId: "getPricingAssignment",
      summary: "Get a profile's pricing assignment",
      tags,
      params: jsonSchema(profileParams, "input"),
      response: { 200: jsonSchema(z.object({ pricingAssignment })), ...errorResponses(401, 404) },
    },
    handler: async (request) => {
      return { pricingAssignment: await app.admin.getPricing(params(request).profileId) };
    },
  });

  server.post("/v1/admin/partners", {
    config,
    schema: {
      operationId: "createPartner",
      summary: "Create a partner",
      tags,
      body: jsonSchema(z.object({ name: z.string() }), "input"),
      response: { 201: jsonSchema(z.object({ partner })), ...errorResponses(400, 401) },
    },
    handler: async (request, reply) => reply.code(201).send({ partner: await app.admin.createPartner(request.body) }),
  });

  server.patch("/v1/admin/partners/:partnerId", {
    config,
    schema: {
      operationId: "updatePartner",
      summary: "Update a partner",
      tags,
      params: jsonSchema(partnerParams, "input"),
      body: jsonSchema(z.object({ isActive: z.boolean() }), "input"),
      response: { 200: jsonSchema(z.object({ partner })), ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => ({
      partner: await app.admin.setPartnerActive(params(request).partnerId, request.body),
    }),
  });

  operationRoute(server, app, createPartnerApiCredential, {
    method: "POST",
    url: "/v1/admin/partners/:partnerId/api-credentials",
    tags,
    status: 201,
    response: jsonSchema(createdCredentialResource),
    errors: [400, 401, 404, 409],
    reply: createdCredential,
  });
}
