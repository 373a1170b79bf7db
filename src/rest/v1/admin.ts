import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { CORRIDORS, CUSTOMER_TYPES } from "../../reference-data/corridors.js";
import { isoDateTime, jsonSchema } from "../http.js";
import {
  createPartner,
  getManagerPolicy,
  getPricingAssignment,
  listAuditEvents,
  setManagerPolicy,
  setPricingAssignment,
  updatePartner,
} from "../../operations/admin.js";
import { createPartnerApiCredential } from "../../operations/credentials.js";
import { operationRoute } from "../operation-route.js";
import { createdCredential, createdCredentialResource } from "./api-credentials.js";

const manager = z.object({
  profileId: z.uuid(),
  allowedCorridors: z.array(z.enum(CORRIDORS)),
  allowedCustomerTypes: z.array(z.enum(CUSTOMER_TYPES)).nullable(),
  isActive: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
const partner = z.object({
  id: z.uuid(),
  name: z.string(),
  isActive: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
const pricingAssignment = z.object({ profileId: z.uuid(), pricingProfile: z.string(), updatedAt: isoDateTime });
/** The operator surface: `Authorization: Bearer <OPERATOR_TOKEN>` (CONTRACT.md, Managed profiles). */
export function adminRoutes(server: FastifyInstance, app: App) {
  const tags = ["Operator"];

  operationRoute(server, app, setManagerPolicy, {
    method: "PUT",
    url: "/v1/admin/managers/:profileId",
    tags,
    status: 201,
    // Changing an existing manager's policy.
    alternative: { status: 200, when: ({ created }) => !created },
    response: jsonSchema(z.object({ manager })),
    errors: [400, 401, 404],
    reply: ({ manager: policy }) => ({ manager: policy }),
  });

  operationRoute(server, app, getManagerPolicy, {
    method: "GET",
    url: "/v1/admin/managers/:profileId",
    tags,
    response: jsonSchema(z.object({ manager })),
    errors: [401, 404],
    reply: (policy) => ({ manager: policy }),
  });

  operationRoute(server, app, setPricingAssignment, {
    method: "PUT",
    url: "/v1/admin/pricing-assignments/:profileId",
    tags,
    response: jsonSchema(z.object({ pricingAssignment })),
    errors: [400, 401, 404],
    reply: (assignment) => ({ pricingAssignment: assignment }),
  });

  operationRoute(server, app, getPricingAssignment, {
    method: "GET",
    url: "/v1/admin/pricing-assignments/:profileId",
    tags,
    response: jsonSchema(z.object({ pricingAssignment })),
    errors: [401, 404],
    reply: (assignment) => ({ pricingAssignment: assignment }),
  });

  operationRoute(server, app, createPartner, {
    method: "POST",
    url: "/v1/admin/partners",
    tags,
    status: 201,
    response: jsonSchema(z.object({ partner })),
    errors: [400, 401],
    reply: (created) => ({ partner: created }),
  });

  operationRoute(server, app, updatePartner, {
    method: "PATCH",
    url: "/v1/admin/partners/:partnerId",
    tags,
    response: jsonSchema(z.object({ partner })),
    errors: [400, 401, 404],
    reply: (updated) => ({ partner: updated }),
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

  operationRoute(server, app, listAuditEvents, {
    method: "GET",
    url: "/v1/admin/audit-events",
    tags,
    errors: [400, 401],
  });
}
