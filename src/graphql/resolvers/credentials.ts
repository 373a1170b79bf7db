import { Arg, Args, Ctx, ID, Mutation, Query, Resolver, Root, Subscription } from "type-graphql";
import type { ApiCredentialView } from "../../credentials/types.js";
import { streamTopic } from "../../events/bus.js";
import { Auth } from "../auth-directive.js";
import { callerProfileId, type GraphQLContext } from "../context.js";
import { guardedStream } from "../subscriptions.js";
import { decodeCursor, MAX_PAGE_SIZE, PageArgs, toConnection } from "../types/connection.js";
import {
  ApiCredentialConnection,
  ApiCredentialEvent,
  ApiCredentialEventAction,
  CreateApiCredentialInput,
  CreatedApiCredential,
} from "../types/credentials.js";

export async function credentialPage(context: GraphQLContext, { first, after }: PageArgs) {
  const size = Math.min(Math.max(first, 0), MAX_PAGE_SIZE);
  const fetched = await context.app.credentials.list(callerProfileId(context), {
    first: size + 1,
    after: after == null ? undefined : decodeCursor(after),
  });
  return toConnection(fetched, size, after != null);
}

@Resolver()
export class CredentialsResolver {
  @Query(() => ApiCredentialConnection, { description: "The caller's credentials, newest first, revoked and expired included." })
  @Auth("OWN_CREDENTIALS")
  apiCredentials(@Args() page: PageArgs, @Ctx() context: GraphQLContext) {
    return credentialPage(context, page);
  }

  @Mutation(() => CreatedApiCredential, { description: "Creates a credential; its secret value is returned only here." })
  @Auth("OWN_CREDENTIALS")
  createApiCredential(
    @Arg("input", () => CreateApiCredentialInput, { nullable: true }) input: CreateApiCredentialInput | null,
    @Ctx() context: GraphQLContext,
  ) {
    return context.app.credentials.create(callerProfileId(context), {
      ...(input?.name != null && { name: input.name }),
      ...(input?.expiresAt != null && { expiresAt: input.expiresAt.toISOString() }),
    });
  }

  @Mutation(() => Boolean, { description: "Revokes both values of a credential at once." })
  @Auth("OWN_CREDENTIALS")
  async revokeApiCredential(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext) {
    await context.app.credentials.revoke(callerProfileId(context), id);
    return true;
  }

  @Subscription(() => ApiCredentialEvent, {
    description: "Credentials of the caller's profile being created or revoked.",
    subscribe: ({ context }) => {
      const { app, principal } = context as GraphQLContext;
      const profileId = callerProfileId(context as GraphQLContext);
      const events = streamTopic(app.bus, "apiCredential", (message) => (message.profileId === profileId ? message : undefined));
      return guardedStream(events, () => app.authenticator.stillValid(principal));
    },
  })
  @Auth("OWN_CREDENTIALS")
  async apiCredentialEvents(
    @Root() event: { profileId: string; credentialId: string; action: ApiCredentialEventAction },
    @Ctx() context: GraphQLContext,
  ): Promise<{ action: ApiCredentialEventAction; credential: ApiCredentialView }> {
    return { action: event.action, credential: await context.app.credentials.get(event.profileId, event.credentialId) };
  }
}

