import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import {
  onboardingAccountView,
  onboardingEntityView,
  onboardingStatusView,
  type OnboardingAccountView,
  type OnboardingStatusView,
} from "../../onboarding/types.js";
import {
  getOnboardingStatus,
  getRampInfo,
  getUserLimits,
  selectActiveCustomerEntity,
} from "../../operations/onboarding.js";
import { getOnboardingRequirements } from "../../operations/reference-data.js";
import { jsonSchema } from "../http.js";
import { operationRoute } from "../operation-route.js";
import { toWire, wireSchema, type WireForm } from "../wire-form.js";

/** The reference names an entity's customer type its type, and an account's corridor its country. */
const ENTITY: WireForm = { names: { customerType: "type" } };
const ACCOUNT: WireForm = { names: { corridor: "country" } };

const leftEmpty = z.string().nullable();
const { id, customerType, status } = wireSchema(onboardingAccountView, ACCOUNT).shape;
/**
 * An account as the reference tells it: among fields it always leaves empty, its status again as its state, and its
 * provider and country typed as any text (a country may be null), as are the roles.
 */
const referenceAccount = z.object({
  id,
  provider: z.string(),
  country: leftEmpty,
  customerType,
  rail: leftEmpty,
  companyName: leftEmpty,
  taxReference: leftEmpty,
  status,
  state: status,
  statusExternal: leftEmpty,
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  kycCase: z.null(),
});
const referenceStatus = onboardingStatusView.extend({
  roles: z.array(z.string()),
  entities: z.array(wireSchema(onboardingEntityView, ENTITY).extend({ accounts: z.array(referenceAccount) })),
});

const referenceAccountOf = (account: OnboardingAccountView) => ({
  rail: null,
  companyName: null,
  taxReference: null,
  state: account.status,
  statusExternal: null,
  error: null,
  kycCase: null,
  ...(toWire(account, ACCOUNT) as object),
});
const referenceStatusOf = (view: OnboardingStatusView) => ({
  ...view,
  entities: view.entities.map((entity) => ({
    ...(toWire(entity, ENTITY) as object),
    accounts: entity.accounts.map(referenceAccountOf),
  })),
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
    response: jsonSchema(referenceStatus),
    errors: [400, 401, 403],
    reply: referenceStatusOf,
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
