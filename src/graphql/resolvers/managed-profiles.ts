import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import { createManagedProfileApiCredential, revokeManagedProfileApiCredential } from "../../operations/credentials.js";
import {
  createManagedProfile,
  deleteManagedProfile,
  getManagedProfile,
  listManagedProfileApiCredentials,
  listManagedProfiles,
} from "../../operations/managed-profiles.js";
import { getRampHistory } from "../../operations/ramps.js";
import { parseInput } from "../../validation.js";
import { Auth } from "../auth-directive.js";
import { Performs, performField } from "../operation-field.js";
import type { GraphQLContext } from "../context.js";
import { Acting } from "../acting.js";
import { offsetPage, PageArgs, pageConnection } from "../types/connection.js";
import { Customer } from "../types/customers.js";
import { historyInputOf, RampConnection, RampHistoryArgs } from "../types/ramps.js";
import { toRamp } from "./ramps.js";
import { ApiCredentialConnection, CreateApiCredentialInput } from "../types/credentials.js";
import {
  CreateManagedProfileInput,
  CreateManagedProfilePayload,
  ManagedProfile,
  ManagedProfileConnection,
  ManagedProfileFilterEnum,
  Manager,
} from "../types/managed-profiles.js";
import { idField } from "../../output.js";
import { issuedCredential } from "../../credentials/types.js";
import { payloadType } from "../types/payload.js";

const DeleteManagedProfilePayload = payloadType("deleteManagedProfile", {
  deletedProfileId: idField("The child deleted, now or before."),
});
const CreateManagedProfileCredentialPayload = payloadType("createManagedProfileCredential", {
  credential: issuedCredential.describe("The child's new credential with its secret value, shown only this once."),
});
const RevokeManagedProfileCredentialPayload = payloadType("revokeManagedProfileCredential", {
  revokedCredentialId: idField("The child's credential revoked, now or before."),
});

@Resolver(() => ManagedProfile)
export class ManagedProfilesResolver {
  @Query(() => ManagedProfileConnection, { description: "The caller's managed children, newest first." })
  @Performs(listManagedProfiles)
  async managedProfiles(
    @Arg("status", () => ManagedProfileFilterEnum, {
      defaultValue: "active",
      description: "Which children to list; only active ones by default.",
    })
    status: string,
    @Args() args: PageArgs,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    const page = await performField(listManagedProfiles, context, acting, { status, ...offsetPage(args) });
    return pageConnection(page.managedProfiles, page.pagination, args);
  }

  @Query(() => ManagedProfile, {
    nullable: true,
    description:
      "One of the caller's children, active or deleted (null, with a NOT_FOUND error, for any other profile).",
  })
  @Performs(getManagedProfile)
  async managedProfile(
    @Arg("profileId", () => ID, { description: "The child's profile id (UUID)." }) profileId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(getManagedProfile, context, acting, { profileId });
  }

  @Query(() => Manager, { description: "The caller's manager policy (an inactive manager is refused)." })
  @Auth({ requires: ["MANAGED_PROFILES"], delegation: "MANAGER_ONLY" })
  async managerPolicy(@Acting() acting: ActingContext, @Ctx() context: GraphQLContext) {
    return context.app.managedProfiles.activeManager(acting.actorProfileId);
  }

  @FieldResolver(() => ID, { description: "The same as profileId: the id node(id) takes (Node)." })
  id(@Root() child: ManagedProfile): string {
    return child.profileId;
  }

  // The fields below are read for a whole page of children at once (loaders.ts): a fixed number of statements
  // per list, whatever its size. A child they refuse is null with its error, the rest of the page stays.

  @FieldResolver(() => ApiCredentialConnection, {
    nullable: true,
    description: "The child's credentials, newest first; null, with NOT_FOUND, for a deleted child.",
  })
  @Performs(listManagedProfileApiCredentials)
  async apiCredentials(
    @Root() child: ManagedProfile,
    @Args() args: PageArgs,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    const { profileId, ...page } = parseInput(listManagedProfileApiCredentials.input, {
      profileId: child.profileId,
      ...offsetPage(args),
    });
    const found = await context.loaders.childCredentials.load({ manager: acting, childId: profileId, page });
    return pageConnection(found.credentials, found.pagination, args);
  }

  @FieldResolver(() => RampConnection, {
    nullable: true,
    description:
      "The child's ramp history, as X-Managed-Profile-Id reads it: null, with MANAGED_PROFILE_ACCESS_DENIED, for a child the manager cannot act for (a deleted one).",
  })
  @Auth({ requires: ["RAMP_OPERATIONS", "ACT_FOR_MANAGED_CHILD"], delegation: "MANAGER_ONLY" })
  async ramps(
    @Root() child: ManagedProfile,
    @Args() args: RampHistoryArgs,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    const page = parseInput(getRampHistory.input, historyInputOf(args));
    const history = await context.loaders.childRamps.load({ manager: acting, childId: child.profileId, page });
    return pageConnection(history.ramps.map(toRamp), { ...page, total: history.totalCount }, args);
  }

  @FieldResolver(() => [Customer], {
    nullable: true,
    description:
      "The child's customers in every corridor, oldest first, as X-Managed-Profile-Id reads them: null, with MANAGED_PROFILE_ACCESS_DENIED, for a child the manager cannot act for (a deleted one).",
  })
  @Auth({ requires: ["PROVIDER_ACCOUNTS", "ACT_FOR_MANAGED_CHILD"], delegation: "MANAGER_ONLY" })
  async customers(@Root() child: ManagedProfile, @Acting() acting: ActingContext, @Ctx() context: GraphQLContext) {
    return context.loaders.childCustomers.load({ manager: acting, childId: child.profileId, page: undefined });
  }

  @Mutation(() => CreateManagedProfilePayload, {
    description: "Creates a child; an identical retry returns the existing one.",
  })
  @Performs(createManagedProfile)
  async createManagedProfile(
    @Arg("input", () => CreateManagedProfileInput, {
      description: "The child's subject, contact email and customer type.",
    })
    input: InstanceType<typeof CreateManagedProfileInput>,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof CreateManagedProfilePayload>> {
    return performField(createManagedProfile, context, acting, { ...input });
  }

  @Mutation(() => DeleteManagedProfilePayload, {
    description: "Deletes a child logically (idempotent); its credentials are revoked at once.",
  })
  @Performs(deleteManagedProfile)
  async deleteManagedProfile(
    @Arg("profileId", () => ID, { description: "The child's profile id (UUID)." }) profileId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof DeleteManagedProfilePayload>> {
    await performField(deleteManagedProfile, context, acting, { profileId });
    return { deletedProfileId: profileId };
  }

  @Mutation(() => CreateManagedProfileCredentialPayload, {
    description: "Issues a credential for a child; the secret is returned only here.",
  })
  @Performs(createManagedProfileApiCredential)
  async createManagedProfileCredential(
    @Arg("profileId", () => ID, { description: "The active child the credential authenticates (UUID)." })
    profileId: string,
    @Arg("input", () => CreateApiCredentialInput, {
      nullable: true,
      description: "Name and expiry; the input, like each of its fields, may be left out.",
    })
    input: InstanceType<typeof CreateApiCredentialInput> | null,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof CreateManagedProfileCredentialPayload>> {
    const credential = await performField(createManagedProfileApiCredential, context, acting, { profileId, ...input });
    return { credential };
  }

  @Mutation(() => RevokeManagedProfileCredentialPayload, { description: "Revokes a child's credential (idempotent)." })
  @Performs(revokeManagedProfileApiCredential)
  async revokeManagedProfileCredential(
    @Arg("profileId", () => ID, { description: "The active child the credential belongs to (UUID)." })
    profileId: string,
    @Arg("credentialId", () => ID, { description: "One of the child's credentials; revoking it again is no error." })
    credentialId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof RevokeManagedProfileCredentialPayload>> {
    await performField(revokeManagedProfileApiCredential, context, acting, { profileId, credentialId });
    return { revokedCredentialId: credentialId };
  }
}
