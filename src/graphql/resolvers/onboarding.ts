import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import { getLatestBrazilKycAttempt } from "../../operations/customers.js";
import {
  getOnboardingStatus,
  getRampInfo,
  getUserLimits,
  selectActiveCustomerEntity,
} from "../../operations/onboarding.js";
import { getOnboardingRequirements } from "../../operations/reference-data.js";
import { CORRIDORS, type Corridor, type CustomerType } from "../../reference-data/corridors.js";
import type { GraphQLContext } from "../context.js";
import { Acting, OptionalActing } from "../acting.js";
import { Performs, performField } from "../operation-field.js";
import { CorridorEnum, CustomerTypeEnum } from "../types/managed-profiles.js";
import { BrazilKycAttempt, OnboardingRequirements, OnboardingStatus } from "../types/onboarding.js";
import { RampInfo, UserLimit } from "../types/ramps.js";
import { activeEntityView } from "../../onboarding/types.js";
import { payloadType } from "../types/payload.js";

const SelectActiveEntityPayload = payloadType("selectActiveEntity", {
  activeEntity: activeEntityView.describe("The entity the profile acts as from now on."),
});

/**
 * Eligibility, limits and onboarding of the acting subject: the same operations as GET /v1/ramp-info,
 * POST /v1/limits, GET /v1/onboarding/status, PUT /v1/onboarding/active-entity and
 * GET /v1/onboarding/requirements.
 */
@Resolver(() => OnboardingStatus)
export class OnboardingResolver {
  @Query(() => RampInfo, {
    description: "Per corridor only the KYC status and whether buying and selling are possible.",
  })
  @Performs(getRampInfo)
  async rampInfo(@Acting() acting: ActingContext, @Ctx() context: GraphQLContext): Promise<RampInfo> {
    const { corridors } = await performField(getRampInfo, context, acting, {});
    return { corridors: CORRIDORS.map((corridor) => ({ corridor, ...corridors[corridor] })) };
  }

  @Query(() => [UserLimit], {
    description:
      "Monthly maximum and use per corridor and direction; under delegation each corridor passes the manager's current policy.",
  })
  @Performs(getUserLimits)
  async limits(
    @Arg("corridors", () => [CorridorEnum], {
      description: "At least one corridor, none repeated; EU has no monthly limits and is refused.",
    })
    corridors: Corridor[],
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<UserLimit[]> {
    return (await performField(getUserLimits, context, acting, { corridors })).limits;
  }

  @Query(() => OnboardingStatus, {
    description:
      "The subject's entities and, per entity, its provider accounts (KYC/KYB cases under way or decided) in every corridor.",
  })
  @Performs(getOnboardingStatus)
  async onboardingStatus(@Acting() acting: ActingContext, @Ctx() context: GraphQLContext) {
    return performField(getOnboardingStatus, context, acting, {});
  }

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

  @Mutation(() => SelectActiveEntityPayload, {
    description:
      "Makes the signed-in profile's individual or business entity the one it acts as, for good: the same choice again answers the same, another one is VALIDATION_FAILED; NOT_FOUND without such an entity (a business one comes with a business customer).",
  })
  @Performs(selectActiveCustomerEntity)
  async selectActiveEntity(
    @Arg("customerType", () => CustomerTypeEnum, { description: "The entity to act as: the person or the company." })
    customerType: CustomerType,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof SelectActiveEntityPayload>> {
    return { activeEntity: await performField(selectActiveCustomerEntity, context, acting, { type: customerType }) };
  }

  @Query(() => OnboardingRequirements, {
    nullable: true,
    description:
      "The documents and ordered steps of KYC (KYB) in a corridor for a customer type; null with NOT_FOUND where none is offered (AR businesses). Open to anyone.",
  })
  @Performs(getOnboardingRequirements)
  async onboardingRequirements(
    @Arg("country", () => CorridorEnum, { description: "AR, BR, CO, MX or US; EU has no onboarding and is refused." })
    country: Corridor,
    @Arg("customerType", () => CustomerTypeEnum, { description: "Whether a person or a company onboards." })
    customerType: CustomerType,
    @OptionalActing() acting: ActingContext | null,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(getOnboardingRequirements, context, acting, { country, customerType });
  }
}
