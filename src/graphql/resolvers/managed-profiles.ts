import { Args, Ctx, FieldResolver, ID, Query, Resolver, Root } from "type-graphql";
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
import { operationField, operationResolver, Performs } from "../operation-field.js";
import type { GraphQLContext } from "../context.js";
import { Acting } from "../acting.js";
import { connectionType, offsetPage, PageArgs, pageConnection } from "../types/connection.js";
import { historyInputOf, RampConnection, RampHistoryArgs } from "../types/ramps.js";
import { toRamp } from "./ramps.js";
import { ApiCredentialConnection, CreateApiCredentialInput } from "../types/credentials.js";
import { ManagedProfile } from "../types/managed-profiles.js";
import { inputType } from "../types/input-type.js";
import { idField } from "../../output.js";
import { issuedCredential } from "../../credentials/types.js";
import { customerView } from "../../kyc/types.js";
import { createManagedProfileInput, managedProfileView } from "../../managed-profiles/types.js";
import { managerPolicyView } from "../../auth/delegation.js";
import { outputType } from "../types/output-type.js";

const ManagedProfileConnection = connectionType(managedProfileView);
const Customer = outputType(customerView);
const Manager = outputType(managerPolicyView);

const CreateManagedProfileInput = inputType("CreateManagedProfileInput", createManagedProfileInput, {
  description: "A new managed child; sending the same values again returns the existing child.",
});

export const ManagedProfilesResolver = operationResolver("ManagedProfilesResolver", [
  operationField(listManagedProfiles, {
    query: "managedProfiles",
    returns: () => ManagedProfileConnection,
    args: { status: { defaultValue: "active" } },
    page: "managedProfiles",
  }),
  operationField(getManagedProfile, {
    query: "managedProfile",
    nullable: true,
  }),
  operationField(createManagedProfile, {
    mutation: "createManagedProfile",
    args: { input: { type: () => CreateManagedProfileInput } },
  }),
  operationField(deleteManagedProfile, {
    mutation: "deleteManagedProfile",
    payload: { deletedProfileId: idField("The child deleted, now or before.") },
    toResult: (_deleted, { profileId }) => ({ deletedProfileId: profileId }),
  }),
  operationField(createManagedProfileApiCredential, {
    mutation: "createManagedProfileCredential",
    payload: {
      credential: issuedCredential.describe("The child's new credential with its secret value, shown only this once."),
    },
    args: { input: { type: () => CreateApiCredentialInput, nullable: true }, profileId: {} },
  }),
  operationField(revokeManagedProfileApiCredential, {
    mutation: "revokeManagedProfileCredential",
    payload: { revokedCredentialId: idField("The child's credential revoked, now or before.") },
    args: { credentialId: {}, profileId: {} },
    toResult: (_revoked, { credentialId }) => ({ revokedCredentialId: credentialId }),
  }),
]);

/**
 * What no operation serves as a root field: the caller's own manager policy (read from the manager's record), and
 * a child's fields, read for a whole page of children at once.
 */
@Resolver(() => ManagedProfile)
export class ManagedProfileFieldsResolver {
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
}
