import { z } from "zod";
import { limitsInput } from "../onboarding/types.js";
import { defineOperation } from "./operation.js";

export const getRampInfo = defineOperation({
  name: "getRampInfo",
  summary: "Get KYC status and ramp eligibility per corridor",
  access: { requires: ["RAMP_INFO"], delegation: "DELEGATED" },
  input: z.object({}),
  run: (app, acting) => app.onboarding.rampInfo(acting),
});

export const getUserLimits = defineOperation({
  name: "getUserLimits",
  summary: "Get exact monthly limits and use per corridor",
  access: { requires: ["EXACT_LIMITS"], delegation: "DELEGATED" },
  input: limitsInput,
  run: (app, acting, input) => app.onboarding.limits(acting, input),
});

export const getOnboardingStatus = defineOperation({
  name: "getOnboardingStatus",
  summary: "Get the onboarding status across corridors",
  access: { requires: ["EXACT_LIMITS"], delegation: "DELEGATED" },
  input: z.object({}),
  run: (app, acting) => app.onboarding.status(acting),
});
