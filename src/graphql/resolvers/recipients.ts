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
import { RecipientCorridorEligibility } from "../types/recipients.js";
import { invitationView } from "../../recipients/types.js";
import { payloadType } from "../types/payload.js";

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
    description: "The sender's recipients, newest first.",
    page: "recipients",
  }),
  operationField(listRecipientInvitations, {
    query: "recipientInvitations",
    description: "The sender's invitations not accepted yet, newest first: current ones, or archived ones.",
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
    description: "Where a recipient can receive payouts now (approved KYC, and a payout account where one is needed).",
    toResult: ({ corridors }) =>
      Object.entries(corridors).map(([corridor, { canReceive }]) => ({ corridor, canReceive })),
  }),
  operationField(inviteRecipient, {
    mutation: "inviteRecipient",
    payload: { invitation: invitationView.describe("The pending invitation.") },
    description: "Invites a person by email (a code is mailed to it); again while pending mails a new code.",
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
    description: "Changes the relationship to a recipient or a pending invitee; returns the new one.",
    args: { relationship: {}, id: {} },
    toResult: ({ relationship }) => ({ relationship }),
  }),
  operationField(previewRecipientInvitation, {
    query: "recipientInvitationPreview",
    description: "The invitee (signed in with the invited email) looks at an invitation before accepting it.",
  }),
  operationField(acceptRecipientInvitation, {
    mutation: "acceptRecipientInvitation",
    description: "The invitee accepts: it becomes the sender's recipient.",
  }),
]);
