import { Resolver, Root, Ctx, Subscription } from "type-graphql";
import { streamTopic } from "../../events/bus.js";
import { createApiCredential, listApiCredentials, revokeApiCredential } from "../../operations/credentials.js";
import { Auth } from "../auth-directive.js";
import { operationField, operationResolver } from "../operation-field.js";
import type { GraphQLContext } from "../context.js";
import { actingFor, fieldDelegation } from "../acting.js";
import { guardedStream, stillEntitled } from "../subscriptions.js";
import { CreateApiCredentialInput } from "../types/credentials.js";
import { outputType } from "../types/output-type.js";
import { apiCredentialEventView, issuedCredential, type ApiCredentialEventView } from "../../credentials/types.js";
import { idField } from "../../output.js";

const ApiCredentialEvent = outputType(apiCredentialEventView);

export const CredentialsResolver = operationResolver("CredentialsResolver", [
  operationField(listApiCredentials, {
    query: "apiCredentials",
    page: "credentials",
  }),
  operationField(createApiCredential, {
    mutation: "createApiCredential",
    payload: {
      credential: issuedCredential.describe("The new credential with its secret value, shown only this once."),
    },
    args: { input: { type: () => CreateApiCredentialInput, nullable: true } },
  }),
  operationField(revokeApiCredential, {
    mutation: "revokeApiCredential",
    payload: { revokedCredentialId: idField("The credential revoked.") },
    args: { id: { field: "credentialId" } },
    toResult: (_revoked, { id }) => ({ revokedCredentialId: id }),
  }),
]);

/** The caller's credential events: a subscription over the event bus, which an operation does not serve. */
@Resolver()
export class ApiCredentialEventsResolver {
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
