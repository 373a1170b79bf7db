import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import {
  createPartner,
  getManagerPolicy,
  getPricingAssignment,
  setManagerPolicy,
  setPricingAssignment,
  updatePartner,
} from "../../operations/admin.js";
import { createPartnerApiCredential } from "../../operations/credentials.js";
import { PRICING_PROFILE_NAMES } from "../../quotes/pricing.js";
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
  @Performs(getManagerPolicy)
  manager(
    @Arg("profileId", () => ID, { description: "The profile whose policy to read (UUID)." }) profileId: string,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(getManagerPolicy, context, null, { profileId });
  }

  @Mutation(() => Manager, { description: "Enables, updates or disables a manager." })
  @Performs(setManagerPolicy)
  async putManager(
    @Arg("profileId", () => ID, {
      description: "The profile to enable or update (UUID); a managed child cannot be one.",
    })
    profileId: string,
    @Arg("policy", () => ManagerPolicyInput, { description: "The whole new policy." }) policy: ManagerPolicyInput,
    @Ctx() context: GraphQLContext,
  ) {
    return (await performField(setManagerPolicy, context, null, { profileId, ...policy })).manager;
  }

  @Query(() => PricingAssignment, { description: "The pricing profile assigned to a profile." })
  @Performs(getPricingAssignment)
  pricingAssignment(
    @Arg("profileId", () => ID, { description: "The profile whose assignment to read (UUID)." }) profileId: string,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(getPricingAssignment, context, null, { profileId });
  }

  @Mutation(() => PricingAssignment, { description: "Assigns a pricing profile to any profile." })
  @Performs(setPricingAssignment)
  assignPricingProfile(
    @Arg("profileId", () => ID, { description: "The profile to assign it to (UUID)." }) profileId: string,
    @Arg("pricingProfile", { description: `The pricing profile's name: ${PRICING_PROFILE_NAMES.join(", ")}.` })
    pricingProfile: string,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(setPricingAssignment, context, null, { profileId, pricingProfile });
  }

  @Mutation(() => Partner, { description: "Creates an active partner." })
  @Performs(createPartner)
  createPartner(
    @Arg("name", { description: "Display name, 1 to 100 characters once trimmed." }) name: string,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(createPartner, context, null, { name });
  }

  @Mutation(() => Partner, { description: "Deactivating a partner stops its credentials at once." })
  @Performs(updatePartner)
  setPartnerActive(
    @Arg("partnerId", () => ID, { description: "The partner to change (UUID)." }) partnerId: string,
    @Arg("isActive", { description: "False deactivates the partner; true reactivates it." }) isActive: boolean,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(updatePartner, context, null, { partnerId, isActive });
  }

  @Mutation(() => CreatedApiCredential, {
    description: "Issues a partner-managed credential bound to one existing profile.",
  })
  @Performs(createPartnerApiCredential)
  issuePartnerCredential(
    @Arg("partnerId", () => ID, { description: "The active partner the credential is attributed to (UUID)." })
    partnerId: string,
    @Arg("input", () => PartnerCredentialInput, { description: "The bound profile, and the optional name and expiry." })
    input: PartnerCredentialInput,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(createPartnerApiCredential, context, null, { partnerId, ...input });
  }
}
