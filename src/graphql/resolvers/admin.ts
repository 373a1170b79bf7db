import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { createPartnerApiCredential } from "../../operations/credentials.js";
import { Auth } from "../auth-directive.js";
import { Performs, performField } from "../operation-field.js";
import type { GraphQLContext } from "../context.js";
import { CreatedApiCredential } from "../types/credentials.js";
import {
  Manager,
  ManagerPolicyInput,
  Partner,
  PartnerCredentialInput,
  PricingAssignment,
} from "../types/managed-profiles.js";

/** The operator surface, for the operator token only. */
@Resolver()
export class AdminResolver {
  @Query(() => Manager, { description: "A profile's manager policy." })
  @Auth({ requires: ["OPERATOR"], delegation: "NONE" })
  manager(@Arg("profileId", () => ID) profileId: string, @Ctx() { app }: GraphQLContext) {
    return app.admin.getManager(profileId);
  }

  @Mutation(() => Manager, { description: "Enables, updates or disables a manager." })
  @Auth({ requires: ["OPERATOR"], delegation: "NONE" })
  async putManager(
    @Arg("profileId", () => ID) profileId: string,
    @Arg("policy", () => ManagerPolicyInput) policy: ManagerPolicyInput,
    @Ctx() { app }: GraphQLContext,
  ) {
    return (await app.admin.putManager(profileId, { ...policy })).manager;
  }

  @Query(() => PricingAssignment, { description: "The pricing profile assigned to a profile." })
  @Auth({ requires: ["OPERATOR"], delegation: "NONE" })
  pricingAssignment(@Arg("profileId", () => ID) profileId: string, @Ctx() { app }: GraphQLContext) {
    return app.admin.getPricing(profileId);
  }

  @Mutation(() => PricingAssignment, { description: "Assigns a pricing profile to any profile." })
  @Auth({ requires: ["OPERATOR"], delegation: "NONE" })
  assignPricingProfile(
    @Arg("profileId", () => ID) profileId: string,
    @Arg("pricingProfile") pricingProfile: string,
    @Ctx() { app }: GraphQLContext,
  ) {
    return app.admin.assignPricing(profileId, { pricingProfile });
  }

  @Mutation(() => Partner)
  @Auth({ requires: ["OPERATOR"], delegation: "NONE" })
  createPartner(@Arg("name") name: string, @Ctx() { app }: GraphQLContext) {
    return app.admin.createPartner({ name });
  }

  @Mutation(() => Partner, { description: "Deactivating a partner stops its credentials at once." })
  @Auth({ requires: ["OPERATOR"], delegation: "NONE" })
  setPartnerActive(
    @Arg("partnerId", () => ID) partnerId: string,
    @Arg("isActive") isActive: boolean,
    @Ctx() { app }: GraphQLContext,
  ) {
    return app.admin.setPartnerActive(partnerId, { isActive });
  }

  @Mutation(() => CreatedApiCredential, {
    description: "Issues a partner-managed credential bound to one existing profile.",
  })
  @Performs(createPartnerApiCredential)
  issuePartnerCredential(
    @Arg("partnerId", () => ID) partnerId: string,
    @Arg("input", () => PartnerCredentialInput) input: PartnerCredentialInput,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(createPartnerApiCredential, context, null, { partnerId, ...input });
  }
}
