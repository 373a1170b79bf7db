import { Arg, Args, Ctx, ID, Mutation, Query, Resolver, Root, Subscription } from "type-graphql";
import type { ApiCredentialEventView } from "../../credentials/types.js";
import { streamTopic } from "../../events/bus.js";
import type { ActingContext } from "../../auth/delegation.js";
import { createApiCredential, listApiCredentials, revokeApiCredential } from "../../operations/credentials.js";
import { Auth } from "../auth-directive.js";
import { Performs, performField } from "../operation-field.js";
import type { GraphQLContext } from "../context.js";
import { Acting, actingFor, fieldDelegation } from "../acting.js";
import { guardedStream, stillEntitled } from "../subscriptions.js";
import { offsetPage, PageArgs, pageConnection } from "../types/connection.js";
import { ApiCredentialConnection, ApiCredentialEvent, CreateApiCredentialInput } from "../types/credentials.js";
import { issuedCredential } from "../../credentials/types.js";
import { idField } from "../../output.js";
import { payloadType } from "../types/payload.js";

const CreateApiCredentialPayload = payloadType("createApiCredential", {
  credential: issuedCredential.describe("The new credential with its secret value, shown only this once."),
});
const RevokeApiCredentialPayload = payloadType("revokeApiCredential", {
  revokedCredentialId: idField("The credential revoked."),
});

@Resolver()
export class CredentialsResolver {
  @Query(() => ApiCredentialConnection, {
    description: "The caller's credentials, newest first, revoked and expired included.",
  })
  @Performs(listApiCredentials)
  async apiCredentials(@Args() args: PageArgs, @Acting() acting: ActingContext, @Ctx() context: GraphQLContext) {
    const page = await performField(listApiCredentials, context, acting, offsetPage(args));
    return pageConnection(page.credentials, page.pagination, args);
  }

  @Mutation(() => CreateApiCredentialPayload, {
    description: "Creates a credential; its secret value is returned only here.",
  })
  @Performs(createApiCredential)
  async createApiCredential(
    @Arg("input", () => CreateApiCredentialInput, {
      nullable: true,
      description: "Name and expiry; the input, like each of its fields, may be left out.",
    })
    input: InstanceType<typeof CreateApiCredentialInput> | null,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof CreateApiCredentialPayload>> {
    return { credential: await performField(createApiCredential, context, acting, { ...input }) };
  }

  @Mutation(() => RevokeApiCredentialPayload, { description: "Revokes both values of a credential at once." })
  @Performs(revokeApiCredential)
  async revokeApiCredential(
    @Arg("id", () => ID, {
      description: "One of the caller's credentials; an unknown or already revoked one is CREDENTIAL_NOT_FOUND.",
    })
    id: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof RevokeApiCredentialPayload>> {
    await performField(revokeApiCredential, context, acting, { credentialId: id });
    return { revokedCredentialId: id };
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
    @Root() event: { profileId: string; credentialId: string; action: ApiCredentialEventView["action"] },
    @Ctx() context: GraphQLContext,
  ): Promise<ApiCredentialEventView> {
    return { action: event.action, credential: await context.app.credentials.get(event.profileId, event.credentialId) };
  }
}
