import { Arg, Args, Ctx, ID, Mutation, Query, Resolver, Root, Subscription } from "type-graphql";
import type { ApiCredentialView } from "../../credentials/types.js";
import { streamTopic } from "../../events/bus.js";
import type { ActingContext } from "../../auth/delegation.js";
import { createApiCredential, listApiCredentials, revokeApiCredential } from "../../operations/credentials.js";
import { Auth } from "../auth-directive.js";
import { Performs, performField } from "../operation-field.js";
import type { GraphQLContext } from "../context.js";
import { Acting, actingFor, fieldDelegation } from "../acting.js";
import { guardedStream, stillEntitled } from "../subscriptions.js";
import { decodeCursor, PageArgs, pageSize, toConnection } from "../types/connection.js";
import {
  ApiCredentialConnection,
  ApiCredentialEvent,
  ApiCredentialEventAction,
  CreateApiCredentialInput,
  CreatedApiCredential,
} from "../types/credentials.js";

/** A connection of credentials read through `list`, a page at a time (newest first). */
export async function credentialPage(
  list: (page: { first: number; after?: string }) => ApiCredentialView[] | Promise<ApiCredentialView[]>,
  { first, after }: PageArgs,
) {
  const size = pageSize(first);
  const fetched = await list({ first: size + 1, after: after == null ? undefined : decodeCursor(after) });
  // One more than asked for, only to tell whether another page follows.
  return toConnection(fetched.slice(0, size), { hasNextPage: fetched.length > size, hasPreviousPage: after != null });
}

@Resolver()
export class CredentialsResolver {
  @Query(() => ApiCredentialConnection, {
    description: "The caller's credentials, newest first, revoked and expired included.",
  })
  @Performs(listApiCredentials)
  async apiCredentials(@Args() page: PageArgs, @Acting() acting: ActingContext, @Ctx() context: GraphQLContext) {
    return credentialPage((slice) => performField(listApiCredentials, context, acting, slice), page);
  }

  @Mutation(() => CreatedApiCredential, {
    description: "Creates a credential; its secret value is returned only here.",
  })
  @Performs(createApiCredential)
  async createApiCredential(
    @Arg("input", () => CreateApiCredentialInput, {
      nullable: true,
      description: "Name and expiry; the input, like each of its fields, may be left out.",
    })
    input: CreateApiCredentialInput | null,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(createApiCredential, context, acting, { ...input });
  }

  @Mutation(() => Boolean, { description: "Revokes both values of a credential at once." })
  @Performs(revokeApiCredential)
  async revokeApiCredential(
    @Arg("id", () => ID, {
      description: "One of the caller's credentials; an unknown or already revoked one is CREDENTIAL_NOT_FOUND.",
    })
    id: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    await performField(revokeApiCredential, context, acting, { credentialId: id });
    return true;
  }

  @Subscription(() => ApiCredentialEvent, {
    description: "Credentials of the caller's profile being created or revoked.",
    subscribe: async ({ context, info }) => {
      const { app } = context as GraphQLContext;
      const profileId = (await actingFor(context as GraphQLContext, info)).subjectProfileId;
      const events = streamTopic(app.bus, "apiCredential", (message) =>
        message.profileId === profileId ? message : undefined,
      );
      return guardedStream(events, (event) => stillEntitled(context as GraphQLContext, fieldDelegation(info), event));
    },
  })
  @Auth({ requires: ["OWN_CREDENTIALS"], delegation: "NONE" })
  async apiCredentialEvents(
    @Root() event: { profileId: string; credentialId: string; action: ApiCredentialEventAction },
    @Ctx() context: GraphQLContext,
  ): Promise<{ action: ApiCredentialEventAction; credential: ApiCredentialView }> {
    return { action: event.action, credential: await context.app.credentials.get(event.profileId, event.credentialId) };
  }
}
