import { z } from "zod";
import {
  activeEntityInput,
  activeEntityView,
  limitsInput,
  onboardingStatusView,
  rampInfoView,
  userLimitList,
} from "../onboarding/types.js";
import { defineOperation } from "./operation.js";

export const getRampInfo = defineOperation({
  name: "getRampInfo",
  summary: "Get per corridor only the KYC status and whether buying and selling are possible",
  access: { requires: ["RAMP_INFO"], delegation: "DELEGATED" },
  input: z.object({}),
  output: rampInfoView,
  run: (app, acting) => app.onboarding.rampInfo(acting),
});

export const getUserLimits = defineOperation({
  name: "getUserLimits",
  summary:
    "Get the monthly maximum and use per corridor and direction; under delegation each corridor passes the manager's current policy",
  access: { requires: ["EXACT_LIMITS"], delegation: "DELEGATED" },
  input: limitsInput,
  output: userLimitList,
  run: (app, acting, input) => app.onboarding.limits(acting, input),
});

export const getOnboardingStatus = defineOperation({
  name: "getOnboardingStatus",
  summary:
    "Get the subject's entities and, per entity, its provider accounts (KYC/KYB cases under way or decided) in every corridor",
  access: { requires: ["EXACT_LIMITS"], delegation: "DELEGATED" },
  input: z.object({}),
  output: onboardingStatusView,
  run: (app, acting) => app.onboarding.status(acting),
});

export const selectActiveCustomerEntity = defineOperation({
  name: "selectActiveCustomerEntity",
  summary: "Choose the customer entity the profile acts as",
  // The signed-in profile chooses for itself (the reference: bearer only, no delegation); a child has one entity.
  access: { requires: ["ACTIVE_ENTITY"], delegation: "NONE" },
  input: activeEntityInput,
  output: activeEntityView,
  run: (app, acting, input) => app.onboarding.selectActiveEntity(acting, input),
});
