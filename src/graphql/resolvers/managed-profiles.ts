import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { MANAGER_ONLY } from "../../auth/delegation.js";
import { Auth } from "../auth-directive.js";
import { actingContext, type GraphQLContext } from "../context.js";
import { offsetConnection, offsetPage, PageArgs, toConnection } from "../types/connection.js";
import {
  ApiCredentialConnection,
  CreateApiCredentialInput,
  CreatedApiCredential,
  credentialInput,
} from "../types/credentials.js";
import {
  CreateManagedProfileInput,
  ManagedProfile,
  ManagedProfileConnection,
  ManagedProfileFilterEnum,
  ManagedProfilePayload,
  Manager,
} from "../types/managed-profiles.js";

const managerId = async (context: GraphQLContext) => (await actingContext(context, MANAGER_ONLY)).actorProfileId;

@Resolver(() => ManagedProfile)
export class ManagedProfilesResolver {
  @Query(() => ManagedProfileConnection, { description: "The caller's managed children, newest first." })
  @Auth("MANAGED_PROFILES")
  async managedProfiles(
    @Arg("status", () => ManagedProfileFilterEnum, { defaultValue: "active" }) status: string,
    @Args() args: PageArgs,
    @Ctx() context: GraphQLContext,
  ) {
    const { limit, offset } = offsetPage(args);
    const page = await context.app.managedProfiles.list(await managerId(context), { status, limit, offset });
    return offsetConnection(page.managedProfiles, offset, offset + page.managedProfiles.length < page.pagination.total);
  }

  @Query(() => ManagedProfile, { description: "One of the caller's children, active or deleted." })
  @Auth("MANAGED_PROFILES")
  async managedProfile(@Arg("profileId", () => ID) profileId: string, @Ctx() context: GraphQLContext) {
    return context.app.managedProfiles.get(await managerId(context), profileId);
  }

  @Query(() => Manager, { description: "The caller's manager policy (an inactive manager is refused)." })
  @Auth("MANAGED_PROFILES")
  async managerPolicy(@Ctx() context: GraphQLContext) {
    return context.app.managedProfiles.activeManager(await managerId(context));
  }

  @FieldResolver(() => ApiCredentialConnection, { description: "The child's credentials, newest first." })
  @Auth("MANAGE_CHILD_CREDENTIALS")
  async apiCredentials(@Root() child: ManagedProfile, @Ctx() context: GraphQLContext) {
    const credentials = await context.app.managedProfiles.listCredentials(await managerId(context), child.profileId);
    return toConnection(credentials, { hasNextPage: false, hasPreviousPage: false });
  }

  @Mutation(() => ManagedProfilePayload, {
    description: "Creates a child; an identical retry returns the existing one.",
  })
  @Auth("MANAGED_PROFILES")
  async createManagedProfile(
    @Arg("input", () => CreateManagedProfileInput) input: CreateManagedProfileInput,
    @Ctx() context: GraphQLContext,
  ) {
    return context.app.managedProfiles.create(await managerId(context), { ...input });
  }

  @Mutation(() => Boolean, {
    description: "Deletes a child logically (idempotent); its credentials are revoked at once.",
  })
  @Auth("MANAGED_PROFILES")
  async deleteManagedProfile(@Arg("profileId", () => ID) profileId: string, @Ctx() context: GraphQLContext) {
    await context.app.managedProfiles.delete(await managerId(context), profileId);
    return true;
  }

  @Mutation(() => CreatedApiCredential, {
    description: "Issues a credential for a child; the secret is returned only here.",
  })
  @Auth("MANAGE_CHILD_CREDENTIALS")
  async createManagedProfileCredential(
    @Arg("profileId", () => ID) profileId: string,
    @Arg("input", () => CreateApiCredentialInput, { nullable: true }) input: CreateApiCredentialInput | null,
    @Ctx() context: GraphQLContext,
  ) {
    return context.app.managedProfiles.createCredential(await managerId(context), profileId, credentialInput(input));
  }

  @Mutation(() => Boolean, { description: "Revokes a child's credential (idempotent)." })
  @Auth("MANAGE_CHILD_CREDENTIALS")
  async revokeManagedProfileCredential(
    @Arg("profileId", () => ID) profileId: string,
    @Arg("credentialId", () => ID) credentialId: string,
    @Ctx() context: GraphQLContext,
  ) {
    await context.app.managedProfiles.revokeCredential(await managerId(context), profileId, credentialId);
    return true;
  }
}
