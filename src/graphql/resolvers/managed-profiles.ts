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
import { Auth } from "../auth-directive.js";
import { Performs, performField } from "../operation-field.js";
import type { GraphQLContext } from "../context.js";
import { Acting } from "../acting.js";
import { offsetPage, PageArgs, pageConnection } from "../types/connection.js";
import { ApiCredentialConnection, CreateApiCredentialInput, CreatedApiCredential } from "../types/credentials.js";
import {
  CreateManagedProfileInput,
  ManagedProfile,
  ManagedProfileConnection,
  ManagedProfileFilterEnum,
  ManagedProfilePayload,
  Manager,
} from "../types/managed-profiles.js";

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

  @FieldResolver(() => ApiCredentialConnection, { description: "The child's credentials, newest first." })
  @Performs(listManagedProfileApiCredentials)
  async apiCredentials(
    @Root() child: ManagedProfile,
    @Args() args: PageArgs,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    const page = await performField(listManagedProfileApiCredentials, context, acting, {
      profileId: child.profileId,
      ...offsetPage(args),
    });
    return pageConnection(page.credentials, page.pagination, args);
  }

  @Mutation(() => ManagedProfilePayload, {
    description: "Creates a child; an identical retry returns the existing one.",
  })
  @Performs(createManagedProfile)
  async createManagedProfile(
    @Arg("input", () => CreateManagedProfileInput, {
      description: "The child's subject, contact email and customer type.",
    })
    input: CreateManagedProfileInput,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(createManagedProfile, context, acting, { ...input });
  }

  @Mutation(() => Boolean, {
    description: "Deletes a child logically (idempotent); its credentials are revoked at once.",
  })
  @Performs(deleteManagedProfile)
  async deleteManagedProfile(
    @Arg("profileId", () => ID, { description: "The child's profile id (UUID)." }) profileId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    await performField(deleteManagedProfile, context, acting, { profileId });
    return true;
  }

  @Mutation(() => CreatedApiCredential, {
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
    input: CreateApiCredentialInput | null,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(createManagedProfileApiCredential, context, acting, { profileId, ...input });
  }

  @Mutation(() => Boolean, { description: "Revokes a child's credential (idempotent)." })
  @Performs(revokeManagedProfileApiCredential)
  async revokeManagedProfileCredential(
    @Arg("profileId", () => ID, { description: "The active child the credential belongs to (UUID)." })
    profileId: string,
    @Arg("credentialId", () => ID, { description: "One of the child's credentials; revoking it again is no error." })
    credentialId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    await performField(revokeManagedProfileApiCredential, context, acting, { profileId, credentialId });
    return true;
  }
}
