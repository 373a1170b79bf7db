import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
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
import { Performs, performField } from "../operation-field.js";
import type { GraphQLContext } from "../context.js";
import { Acting } from "../acting.js";
import { offsetPage, PageArgs, pageConnection } from "../types/connection.js";
import {
  AcceptRecipientInvitationPayload,
  Recipient,
  RecipientConnection,
  RecipientCorridorEligibility,
  RecipientInvitationConnection,
  RecipientInvitationPreview,
  RelationshipEnum,
} from "../types/recipients.js";
import { invitationView } from "../../recipients/types.js";
import { payloadType } from "../types/payload.js";

const InviteRecipientPayload = payloadType("inviteRecipient", {
  invitation: invitationView.describe("The pending invitation."),
});
const ArchiveRecipientInvitationPayload = payloadType("archiveRecipientInvitation", {
  invitation: invitationView.describe("The invitation, archived or restored."),
});
const UpdateRecipientRelationshipPayload = payloadType("updateRecipientRelationship", {
  relationship: invitationView.shape.relationship.describe("The new relationship."),
});

/**
 * Sender-side recipients and the invitee's side of an invitation, like the REST routes: a session only;
 * the sender's operations act for the subject (the selector works), the invitee's are its own.
 */
@Resolver(() => Recipient)
export class RecipientsResolver {
  @Query(() => RecipientConnection, { description: "The sender's recipients, newest first." })
  @Performs(listRecipients)
  async recipients(@Args() args: PageArgs, @Acting() acting: ActingContext, @Ctx() context: GraphQLContext) {
    const page = await performField(listRecipients, context, acting, offsetPage(args));
    return pageConnection(page.recipients, page.pagination, args);
  }

  @Query(() => RecipientInvitationConnection, {
    description: "The sender's invitations not accepted yet, newest first: current ones, or archived ones.",
  })
  @Performs(listRecipientInvitations)
  async recipientInvitations(
    @Arg("archived", {
      defaultValue: false,
      description: "True lists the archived invitations instead of the current ones.",
    })
    archived: boolean,
    @Args() args: PageArgs,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    const page = await performField(listRecipientInvitations, context, acting, { archived, ...offsetPage(args) });
    return pageConnection(page.invitations, page.pagination, args);
  }

  @Query(() => [RecipientCorridorEligibility], {
    description: "Where a recipient can receive payouts now (approved KYC, and a payout account where one is needed).",
  })
  @Performs(getRecipientEligibility)
  async recipientEligibility(
    @Arg("id", () => ID, { description: "The recipient's id (Recipient.id)." }) id: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    const { corridors } = await performField(getRecipientEligibility, context, acting, { id });
    return Object.entries(corridors).map(([corridor, { canReceive }]) => ({ corridor, canReceive }));
  }

  @Mutation(() => InviteRecipientPayload, {
    description: "Invites a person by email (a code is mailed to it); again while pending mails a new code.",
  })
  @Performs(inviteRecipient)
  async inviteRecipient(
    @Arg("email", {
      description:
        "The invitee's email address (trimmed and lower-cased, at most 254 characters); not the sender's own.",
    })
    email: string,
    @Arg("relationship", () => RelationshipEnum, { description: "How the sender relates to the invitee." })
    relationship: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof InviteRecipientPayload>> {
    const { invitation } = await performField(inviteRecipient, context, acting, { email, relationship });
    return { invitation };
  }

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

  @Mutation(() => UpdateRecipientRelationshipPayload, {
    description: "Changes the relationship to a recipient or a pending invitee; returns the new one.",
  })
  @Performs(updateRecipient)
  async updateRecipientRelationship(
    @Arg("id", () => ID, { description: "A recipient's or a pending invitation's id." }) id: string,
    @Arg("relationship", () => RelationshipEnum, { description: "The new relationship." }) relationship: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof UpdateRecipientRelationshipPayload>> {
    return { relationship: (await performField(updateRecipient, context, acting, { id, relationship })).relationship };
  }

  @Query(() => RecipientInvitationPreview, {
    description: "The invitee (signed in with the invited email) looks at an invitation before accepting it.",
  })
  @Performs(previewRecipientInvitation)
  async recipientInvitationPreview(
    @Arg("code", { description: "The invitation code mailed to the invitee." }) code: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(previewRecipientInvitation, context, acting, { code });
  }

  @Mutation(() => AcceptRecipientInvitationPayload, {
    description: "The invitee accepts: it becomes the sender's recipient.",
  })
  @Performs(acceptRecipientInvitation)
  async acceptRecipientInvitation(
    @Arg("code", { description: "The invitation code mailed to the invitee." }) code: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(acceptRecipientInvitation, context, acting, { code });
  }
}
