import { Arg, Ctx, Query, Resolver } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import { getRampInfo, getUserLimits } from "../../operations/onboarding.js";
import type { Corridor } from "../../reference-data/corridors.js";
import type { GraphQLContext } from "../context.js";
import { Acting } from "../acting.js";
import { Performs, performField } from "../operation-field.js";
import { CorridorEnum } from "../types/managed-profiles.js";
import { RampInfo, toDirection, UserLimit } from "../types/ramps.js";

/** Eligibility and limits of the acting subject: the same services as GET /v1/ramp-info and POST /v1/limits. */
@Resolver()
export class OnboardingResolver {
  @Query(() => RampInfo, {
    description: "Per corridor only the KYC status and whether buying and selling are possible.",
  })
  @Performs(getRampInfo)
  async rampInfo(@Acting() acting: ActingContext, @Ctx() context: GraphQLContext): Promise<RampInfo> {
    const { corridors } = await performField(getRampInfo, context, acting, {});
    return { corridors: Object.entries(corridors).map(([corridor, eligibility]) => ({ corridor, ...eligibility })) };
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
    const { limits } = await performField(getUserLimits, context, acting, { corridors });
    return limits.map((limit) => ({ ...limit, direction: toDirection(limit.direction) }));
  }
}
