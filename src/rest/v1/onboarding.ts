import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { NO_DELEGATION, DELEGATED } from "../../auth/delegation.js";
import { ELIGIBILITY_KYC_STATUSES } from "../../onboarding/service.js";
import { CORRIDORS, CUSTOMER_TYPES } from "../../reference-data/corridors.js";
import { actingOf, cacheable, errorResponses, isoDateTime, jsonSchema } from "../http.js";

const eligibility = z.object({
  kycStatus: z.enum(ELIGIBILITY_KYC_STATUSES),
  canBuy: z.boolean(),
  canSell: z.boolean(),
});
// Every corridor is always listed: an object with each one, not a record, so the document names them.
const rampInfo = z.object({
  corridors: z.object(Object.fromEntries(CORRIDORS.map((corridor) => [corridor, eligibility]))),
});
const limits = z.object({
  limits: z.array(
    z.object({
      corridor: z.enum(CORRIDORS),
      currency: z.string(),
      direction: z.enum(["BUY", "SELL"]),
      max: z.string(),
      used: z.string(),
      period: z.object({ type: z.literal("calendar_month"), startsAt: isoDateTime, endsAt: isoDateTime }),
    }),
  ),
});
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
const step = z.object({
  order: z.number().int(),
  kind: z.enum(["api", "direct-upload", "hosted"]),
  method: z.enum(["POST", "PUT"]),
  path: z.string(),
  operationId: z.string(),
  description: z.string(),
  fixedQuery: z.record(z.string(), z.string()).optional(),
});
const requirements = z.object({
  country: z.string(),
  customerType: z.enum(CUSTOMER_TYPES),
  provider: z.string(),
  flow: z.string(),
  mode: z.enum(["api", "hosted", "hybrid"]),
  requirementsVersion: z.string(),
  documentationUrl: z.string(),
  openapiUrl: z.string(),
  documents: z.array(
    z.object({
      type: z.string(),
      required: z.boolean(),
      collection: z.enum(["direct-upload", "hosted"]),
      acceptedMediaTypes: z.array(z.string()),
      description: z.string(),
    }),
  ),
  steps: z.array(step),
});

/** Eligibility, limits and onboarding of the acting subject (CONTRACT.md, Ramp domain). */
export function onboardingRoutes(server: FastifyInstance, app: App) {
  const tags = ["Account"];

  server.get("/v1/ramp-info", {
    config: { capabilities: ["RAMP_INFO"] as const, delegation: DELEGATED },
    schema: {
      operationId: "getRampInfo",
      summary: "Get KYC status and ramp eligibility per corridor",
      tags,
      response: { 200: jsonSchema(rampInfo), ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => app.onboarding.rampInfo(actingOf(request)),
  });

  server.post("/v1/limits", {
    config: { capabilities: ["EXACT_LIMITS"] as const, delegation: DELEGATED },
    schema: {
      operationId: "getUserLimits",
      summary: "Get exact monthly limits and use per corridor",
      tags,
      body: jsonSchema(z.object({ corridors: z.array(z.enum(["AR", "BR", "CO", "MX", "US"])) }), "input"),
      response: { 200: jsonSchema(limits), ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => {
      const result = await app.onboarding.limits(actingOf(request), request.body);
      return {
        limits: result.limits.map((limit) => ({
          ...limit,
          period: {
            ...limit.period,
            startsAt: limit.period.startsAt.toISOString(),
            endsAt: limit.period.endsAt.toISOString(),
          },
        })),
      };
    },
  });

  server.get("/v1/onboarding/status", {
    config: { capabilities: ["EXACT_LIMITS"] as const, delegation: DELEGATED },
    schema: {
      operationId: "getOnboardingStatus",
      summary: "Get the onboarding status across corridors",
      tags,
      response: { 200: jsonSchema(onboardingStatus), ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => app.onboarding.status(actingOf(request)),
  });

  server.get("/v1/onboarding/requirements", {
    config: { capabilities: ["REFERENCE_DATA"] as const, delegation: NO_DELEGATION },
    schema: {
      operationId: "getOnboardingRequirements",
      summary: "Get what KYC or KYB a corridor requires",
      tags: ["Reference data"],
      querystring: jsonSchema(z.object({ country: z.string(), customerType: z.string() }), "input"),
      response: { 200: jsonSchema(requirements), ...errorResponses(400, 401, 404) },
    },
    handler: async (request, reply) => cacheable(reply, app.onboarding.requirements(request.query)),
  });
}
