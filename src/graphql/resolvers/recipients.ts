import { Arg, Ctx, ID, Mutation, Resolver } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import {
  acceptRecipientInvitation,
  archiveRecipientInvitation,
  getRecipientEligibility,
  inviteRecipient,
  listRecipientInvitations,
  listRecipients,
  previewRecipientInvitation,
  unarchiveRecipientInvitation,
  updateRecipient,
} from "../../operations/recipients.js";
import { operationField, operationResolver, Performs, performField } from "../operation-field.js";
import type { GraphQLContext } from "../context.js";
import { Acting } from "../acting.js";
import { invitationView, recipientCorridorEligibilityShape } from "../../recipients/types.js";
import { z } from "zod";
import { named, outputObject } from "../../output.js";
import { CORRIDORS } from "../../reference-data/corridors.js";
import { outputType } from "../types/output-type.js";
import { payloadType } from "../types/payload.js";

/** GraphQL lists a recipient's corridors, each naming itself, where REST keys them by corridor. */
const RecipientCorridorEligibility = outputType(
  outputObject("RecipientCorridorEligibility", "Whether a recipient can receive payouts in a corridor now.", {
    corridor: named("Corridor", z.enum(CORRIDORS)).describe(
      "The corridor this answer is about; the list holds every corridor.",
    ),
    ...recipientCorridorEligibilityShape,
  }),
);

const ArchiveRecipientInvitationPayload = payloadType("archiveRecipientInvitation", {
  invitation: invitationView.describe("The invitation, archived or restored."),
});

/*
 * Sender-side recipients and the invitee's side of an invitation, like the REST routes: a session only;
 * the sender's operations act for the subject (the selector works), the invitee's are its own. The resolvers
 * are declared in the schema's order, around the one field by hand.
 */

export const RecipientsResolver = operationResolver("RecipientsResolver", [
  operationField(listRecipients, {
    query: "recipients",
    page: "recipients",
  }),
  operationField(listRecipientInvitations, {
    query: "recipientInvitations",
    args: {
      archived: {
        type: () => Boolean,
        defaultValue: false,
        description: "True lists the archived invitations instead of the current ones.",
      },
    },
    page: "invitations",
  }),
  operationField(getRecipientEligibility, {
    query: "recipientEligibility",
    returns: () => [RecipientCorridorEligibility],
    toResult: ({ corridors }) =>
      Object.entries(corridors).map(([corridor, { canReceive }]) => ({ corridor, canReceive })),
  }),
  operationField(inviteRecipient, {
    mutation: "inviteRecipient",
    payload: { invitation: invitationView.describe("The pending invitation.") },
    args: { relationship: {}, email: {} },
    toResult: ({ invitation }) => ({ invitation }),
  }),
]);

/** Archiving and restoring an invitation are two operations, one field: which one runs depends on `archived`. */
@Resolver()
export class RecipientArchiveResolver {
  @Mutation(() => ArchiveRecipientInvitationPayload, {
    description: "Archives (or, with archived: false, restores) a pending invitation.",
  })
  @Performs(archiveRecipientInvitation)
  async archiveRecipientInvitation(
    @Arg("id", () => ID, { description: "The id of an invitation not accepted yet (RecipientInvitation.id)." })
    id: string,
    @Arg("archived", { defaultValue: true, description: "False restores an archived invitation instead." })
    archived: boolean,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof ArchiveRecipientInvitationPayload>> {
    const operation = archived ? archiveRecipientInvitation : unarchiveRecipientInvitation;
    return { invitation: await performField(operation, context, acting, { id }) };
  }
}

export const RecipientInvitationsResolver = operationResolver("RecipientInvitationsResolver", [
  operationField(updateRecipient, {
    mutation: "updateRecipientRelationship",
    payload: { relationship: invitationView.shape.relationship.describe("The new relationship.") },
    args: { relationship: {}, id: {} },
    toResult: ({ relationship }) => ({ relationship }),
  }),
  operationField(previewRecipientInvitation, {
    query: "recipientInvitationPreview",
  }),
  operationField(acceptRecipientInvitation, {
    mutation: "acceptRecipientInvitation",
  }),
]);
