import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { OperatorActor } from "../../audit/types.js";
import {
  createPartner,
  getManagerPolicy,
  getPricingAssignment,
  listAuditEvents,
  setManagerPolicy,
  setPricingAssignment,
  updatePartner,
} from "../../operations/admin.js";
import { createPartnerApiCredential } from "../../operations/credentials.js";
import { Operator } from "../acting.js";
import { Performs, performField } from "../operation-field.js";
import type { GraphQLContext } from "../context.js";
import { AuditActionEnum, AuditEventConnection } from "../types/audit.js";
import { offsetPage, PageArgs, pageConnection } from "../types/connection.js";
import {
  Manager,
  ManagerPolicyInput,
  PartnerCredentialInput,
  PricingAssignment,
  PricingProfileNameEnum,
} from "../types/managed-profiles.js";
import { managerPolicyView } from "../../auth/delegation.js";
import { pricingAssignmentView } from "../../quotes/pricing-assignments.js";
import { partnerView } from "../../admin/types.js";
import { issuedCredential } from "../../credentials/types.js";
import { payloadType } from "../types/payload.js";

const PutManagerPayload = payloadType("putManager", {
  manager: managerPolicyView.describe("The manager's policy now."),
});
const AssignPricingProfilePayload = payloadType("assignPricingProfile", {
  pricingAssignment: pricingAssignmentView.describe("The profile's pricing assignment now."),
});
const CreatePartnerPayload = payloadType("createPartner", { partner: partnerView.describe("The new partner.") });
const SetPartnerActivePayload = payloadType("setPartnerActive", {
  partner: partnerView.describe("The partner, activated or deactivated."),
});
const IssuePartnerCredentialPayload = payloadType("issuePartnerCredential", {
  credential: issuedCredential.describe("The partner-managed credential with its secret value, shown only this once."),
});

/** The operator surface, for the operator token only. */
@Resolver()
export class AdminResolver {
  @Query(() => Manager, {
    nullable: true,
    description: "A profile's manager policy (null, with a NOT_FOUND error, when the profile is not a manager).",
  })
  @Performs(getManagerPolicy)
  manager(
    @Arg("profileId", () => ID, { description: "The profile whose policy to read (UUID)." }) profileId: string,
    @Operator() operator: OperatorActor,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(getManagerPolicy, context, operator, { profileId });
  }

  @Mutation(() => PutManagerPayload, { description: "Enables, updates or disables a manager." })
  @Performs(setManagerPolicy)
  async putManager(
    @Arg("profileId", () => ID, {
      description: "The profile to enable or update (UUID); a managed child cannot be one.",
    })
    profileId: string,
    @Arg("policy", () => ManagerPolicyInput, { description: "The whole new policy." })
    policy: InstanceType<typeof ManagerPolicyInput>,
    @Operator() operator: OperatorActor,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof PutManagerPayload>> {
    const { manager } = await performField(setManagerPolicy, context, operator, { profileId, ...policy });
    return { manager };
  }

  @Query(() => PricingAssignment, {
    nullable: true,
    description: "The pricing profile assigned to a profile (null, with a NOT_FOUND error, for an unknown profile).",
  })
  @Performs(getPricingAssignment)
  pricingAssignment(
    @Arg("profileId", () => ID, { description: "The profile whose assignment to read (UUID)." }) profileId: string,
    @Operator() operator: OperatorActor,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(getPricingAssignment, context, operator, { profileId });
  }

  @Mutation(() => AssignPricingProfilePayload, { description: "Assigns a pricing profile to any profile." })
  @Performs(setPricingAssignment)
  async assignPricingProfile(
    @Arg("profileId", () => ID, { description: "The profile to assign it to (UUID)." }) profileId: string,
    @Arg("pricingProfile", () => PricingProfileNameEnum, { description: "The pricing profile to assign." })
    pricingProfile: string,
    @Operator() operator: OperatorActor,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof AssignPricingProfilePayload>> {
    return {
      pricingAssignment: await performField(setPricingAssignment, context, operator, { profileId, pricingProfile }),
    };
  }

  @Mutation(() => CreatePartnerPayload, { description: "Creates an active partner." })
  @Performs(createPartner)
  async createPartner(
    @Arg("name", { description: "Display name, 1 to 100 characters once trimmed." }) name: string,
    @Operator() operator: OperatorActor,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof CreatePartnerPayload>> {
    return { partner: await performField(createPartner, context, operator, { name }) };
  }

  @Mutation(() => SetPartnerActivePayload, { description: "Deactivating a partner stops its credentials at once." })
  @Performs(updatePartner)
  async setPartnerActive(
    @Arg("partnerId", () => ID, { description: "The partner to change (UUID)." }) partnerId: string,
    @Arg("isActive", { description: "False deactivates the partner; true reactivates it." }) isActive: boolean,
    @Operator() operator: OperatorActor,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof SetPartnerActivePayload>> {
    return { partner: await performField(updatePartner, context, operator, { partnerId, isActive }) };
  }

  @Mutation(() => IssuePartnerCredentialPayload, {
    description: "Issues a partner-managed credential bound to one existing profile.",
  })
  @Performs(createPartnerApiCredential)
  async issuePartnerCredential(
    @Arg("partnerId", () => ID, { description: "The active partner the credential is attributed to (UUID)." })
    partnerId: string,
    @Arg("input", () => PartnerCredentialInput, { description: "The bound profile, and the optional name and expiry." })
    input: InstanceType<typeof PartnerCredentialInput>,
    @Operator() operator: OperatorActor,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof IssuePartnerCredentialPayload>> {
    return { credential: await performField(createPartnerApiCredential, context, operator, { partnerId, ...input }) };
  }

  @Query(() => AuditEventConnection, { description: "The operator's changes, newest first." })
  @Performs(listAuditEvents)
  async auditEvents(
    @Arg("action", () => AuditActionEnum, { nullable: true, description: "Only events of this action." })
    action: string | null,
    @Arg("targetId", () => ID, { nullable: true, description: "Only events about this record (UUID)." })
    targetId: string | null,
    @Args() args: PageArgs,
    @Operator() operator: OperatorActor,
    @Ctx() context: GraphQLContext,
  ) {
    const page = await performField(listAuditEvents, context, operator, { action, targetId, ...offsetPage(args) });
    return pageConnection(page.events, page.pagination, args);
  }
}
