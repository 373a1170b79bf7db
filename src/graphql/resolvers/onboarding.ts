import { Ctx, FieldResolver, Resolver } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import { z } from "zod";
import { activeEntityView, corridorEligibilityShape, onboardingStatusView } from "../../onboarding/types.js";
import { named, outputObject } from "../../output.js";
import { initialKycAttemptView } from "../../onboarding/kyc-attempts.js";
import { getLatestBrazilKycAttempt } from "../../operations/customers.js";
import {
  getOnboardingStatus,
  getRampInfo,
  getUserLimits,
  selectActiveCustomerEntity,
} from "../../operations/onboarding.js";
import { getOnboardingRequirements } from "../../operations/reference-data.js";
import { CORRIDORS } from "../../reference-data/corridors.js";
import { Acting } from "../acting.js";
import type { GraphQLContext } from "../context.js";
import { operationField, operationResolver, Performs, performField } from "../operation-field.js";
import { outputType } from "../types/output-type.js";

/** GraphQL lists ramp-info's corridors, each naming itself, where REST keys them by corridor. */
const corridorEligibilityView = outputObject("CorridorEligibility", "Whether the subject can ramp in one corridor.", {
  corridor: named("Corridor", z.enum(CORRIDORS)).describe("The corridor, by country code (EU: the euro area)."),
  ...corridorEligibilityShape,
});
const rampInfoList = outputObject("RampInfo", "The subject's ramp eligibility per corridor (no PII, ids or limits).", {
  corridors: z.array(corridorEligibilityView).describe("One entry per corridor: AR, BR, CO, EU, MX and US."),
});
const RampInfo = outputType(rampInfoList);
const OnboardingStatus = outputType(onboardingStatusView);
const BrazilKycAttempt = outputType(initialKycAttemptView);

/**
 * Eligibility, limits and onboarding of the acting subject: the same operations as GET /v1/ramp-info,
 * POST /v1/limits, GET /v1/onboarding/status, PUT /v1/onboarding/active-entity and
 * GET /v1/onboarding/requirements.
 */
export const OnboardingResolver = operationResolver("OnboardingResolver", [
  operationField(getRampInfo, {
    query: "rampInfo",
    returns: () => RampInfo,
    toResult: ({ corridors }) => ({ corridors: CORRIDORS.map((corridor) => ({ corridor, ...corridors[corridor] })) }),
  }),
  operationField(getUserLimits, {
    query: "limits",
    list: "limits",
  }),
  operationField(getOnboardingStatus, {
    query: "onboardingStatus",
  }),
  operationField(selectActiveCustomerEntity, {
    mutation: "selectActiveEntity",
    payload: { activeEntity: activeEntityView.describe("The entity the profile acts as from now on.") },
    description:
      "Makes the signed-in profile's individual or business entity the one it acts as, for good: the same choice again answers the same, another one is VALIDATION_FAILED; NOT_FOUND without such an entity (a business one comes with a business customer).",
    args: { customerType: { field: "type" } },
  }),
  operationField(getOnboardingRequirements, {
    query: "onboardingRequirements",
    nullable: true,
    args: { customerType: {}, country: {} },
  }),
]);

/** Where the subject last started Brazilian KYC: a field of OnboardingStatus, read only when asked for. */
@Resolver(() => OnboardingStatus)
export class OnboardingStatusResolver {
  @FieldResolver(() => BrazilKycAttempt, {
    nullable: true,
    description:
      "Where the subject last started Brazilian KYC from (recordBrazilKycAttempt); null when it never recorded it. Read only when asked for.",
  })
  @Performs(getLatestBrazilKycAttempt)
  async latestBrazilKycAttempt(
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof BrazilKycAttempt> | null> {
    return performField(getLatestBrazilKycAttempt, context, acting, {});
  }
}
