import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { managerPolicyView } from "../../auth/delegation.js";
import { jsonSchema } from "../http.js";
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
    response: jsonSchema(z.object({ manager: managerPolicyView })),
    errors: [400, 401, 404],
    reply: ({ manager: policy }) => ({ manager: policy }),
  });

  operationRoute(server, app, getManagerPolicy, {
    method: "GET",
    url: "/v1/admin/managers/:profileId",
    tags,
    envelope: "manager",
    errors: [401, 404],
  });

  operationRoute(server, app, setPricingAssignment, {
    method: "PUT",
    url: "/v1/admin/pricing-assignments/:profileId",
    tags,
    envelope: "pricingAssignment",
    errors: [400, 401, 404],
  });

  operationRoute(server, app, getPricingAssignment, {
    method: "GET",
    url: "/v1/admin/pricing-assignments/:profileId",
    tags,
    envelope: "pricingAssignment",
    errors: [401, 404],
  });

  operationRoute(server, app, createPartner, {
    method: "POST",
    url: "/v1/admin/partners",
    tags,
    status: 201,
    envelope: "partner",
    errors: [400, 401],
  });

  operationRoute(server, app, updatePartner, {
    method: "PATCH",
    url: "/v1/admin/partners/:partnerId",
    tags,
    envelope: "partner",
    errors: [400, 401, 404],
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
