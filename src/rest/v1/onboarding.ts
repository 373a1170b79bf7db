import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { CUSTOMER_TYPES } from "../../reference-data/corridors.js";
import {
  getOnboardingStatus,
  getRampInfo,
  getUserLimits,
  selectActiveCustomerEntity,
} from "../../operations/onboarding.js";
import { getOnboardingRequirements } from "../../operations/reference-data.js";
import { jsonSchema } from "../http.js";
import { operationRoute } from "../operation-route.js";

const accountState = z.enum(["pending", "approved", "rejected"]);
const onboardingStatus = z.object({
  activeEntityId: z.uuid().nullable(),
  selectionRequired: z.boolean(),
  roles: z.array(z.string()),
  entities: z.array(
    z.object({
      id: z.uuid(),
      type: z.enum(CUSTOMER_TYPES),
      status: z.enum(["active", "archived", "blocked"]),
      accounts: z.array(
        z.object({
          id: z.uuid(),
          provider: z.string(),
          country: z.string().nullable(),
          customerType: z.enum(CUSTOMER_TYPES),
          rail: z.string().nullable(),
          companyName: z.string().nullable(),
          taxReference: z.string().nullable(),
          status: accountState,
          state: accountState,
          statusExternal: z.string().nullable(),
          error: z.object({ code: z.string(), message: z.string() }).nullable(),
          kycCase: z.null(),
        }),
      ),
    }),
  ),
});

/** Eligibility, limits and onboarding of the acting subject (CONTRACT.md, Ramp domain). */
export function onboardingRoutes(server: FastifyInstance, app: App) {
  const tags = ["Account"];
  operationRoute(server, app, getRampInfo, {
    method: "GET",
    url: "/v1/ramp-info",
    tags,
    errors: [400, 401, 403],
    cachedResults: true,
  });
  operationRoute(server, app, getUserLimits, {
    method: "POST",
    url: "/v1/limits",
    tags,
    errors: [400, 401, 403],
  });
  operationRoute(server, app, getOnboardingStatus, {
    method: "GET",
    url: "/v1/onboarding/status",
    tags,
    response: jsonSchema(onboardingStatus),
    errors: [400, 401, 403],
  });
  operationRoute(server, app, selectActiveCustomerEntity, {
    method: "PUT",
    url: "/v1/onboarding/active-entity",
    tags,
    wire: { names: { customerType: "type" } },
    errors: [400, 401, 403, 404, 409],
  });
  operationRoute(server, app, getOnboardingRequirements, {
    method: "GET",
    url: "/v1/onboarding/requirements",
    tags: ["Reference data"],
    errors: [400, 401, 404],
    cacheable: true,
  });
}
