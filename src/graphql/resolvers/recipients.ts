import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { DELEGATED, MANAGER_ONLY } from "../../auth/delegation.js";
import { Auth } from "../auth-directive.js";
import { actingContext, type GraphQLContext } from "../context.js";
import { offsetConnection, offsetPage, PageArgs } from "../types/connection.js";
import {
  AcceptedRecipientInvitation,
  Recipient,
  RecipientConnection,
  RecipientCorridorEligibility,
  RecipientInvitation,
  RecipientInvitationConnection,
  RecipientInvitationPreview,
  RelationshipEnum,
} from "../types/recipients.js";

/**
 * Sender-side recipients and the invitee's side of an invitation, like the REST routes: a session only;
 * the sender's operations act for the subject (the selector works), the invitee's are its own.
 */
@Resolver(() => Recipient)
export class RecipientsResolver {
  @Query(() => RecipientConnection, { description: "The sender's recipients, newest first." })
  @Auth("RECIPIENTS")
  async recipients(@Args() args: PageArgs, @Ctx() context: GraphQLContext) {
    const { limit, offset } = offsetPage(args);
    // One more than the page: whether another page follows.
    const views = await context.app.recipients.recipients(await actingContext(context, DELEGATED), {
      limit: limit + 1,
      offset,
    });
    return offsetConnection(views.slice(0, limit), offset, views.length > limit);
  }

  @Query(() => RecipientInvitationConnection, {
    description: "The sender's invitations not accepted yet, newest first: current ones, or archived ones.",
  })
  @Auth("RECIPIENTS")
  async recipientInvitations(
    @Arg("archived", { defaultValue: false }) archived: boolean,
    @Args() args: PageArgs,
    @Ctx() context: GraphQLContext,
  ) {
    const { limit, offset } = offsetPage(args);
    const views = await context.app.recipients.invitations(
      await actingContext(context, DELEGATED),
      { archived: String(archived) },
      { limit: limit + 1, offset },
    );
    return offsetConnection(views.slice(0, limit), offset, views.length > limit);
  }

  @Query(() => [RecipientCorridorEligibility], {
    description: "Where a recipient can receive payouts now (approved KYC, and a payout account where one is needed).",
  })
  @Auth("RECIPIENTS")
  async recipientEligibility(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext) {
    const { corridors } = await context.app.recipients.eligibility(await actingContext(context, DELEGATED), id);
    return Object.entries(corridors).map(([corridor, { canReceive }]) => ({ corridor, canReceive }));
  }

  @Mutation(() => RecipientInvitation, {
    description: "Invites a person by email (a code is mailed to it); again while pending mails a new code.",
  })
  @Auth("RECIPIENTS")
  async inviteRecipient(
    @Arg("email") email: string,
    @Arg("relationship", () => RelationshipEnum) relationship: string,
    @Ctx() context: GraphQLContext,
  ) {
    return (await context.app.recipients.invite(await actingContext(context, DELEGATED), { email, relationship }))
      .invitation;
  }

  @Mutation(() => RecipientInvitation, {
    description: "Archives (or, with archived: false, restores) a pending invitation.",
  })
  @Auth("RECIPIENTS")
  async archiveRecipientInvitation(
    @Arg("id", () => ID) id: string,
    @Arg("archived", { defaultValue: true }) archived: boolean,
    @Ctx() context: GraphQLContext,
  ) {
    return context.app.recipients.archive(await actingContext(context, DELEGATED), id, archived);
  }

  @Mutation(() => RelationshipEnum, {
    description: "Changes the relationship to a recipient or a pending invitee; returns the new one.",
  })
  @Auth("RECIPIENTS")
  async updateRecipientRelationship(
    @Arg("id", () => ID) id: string,
    @Arg("relationship", () => RelationshipEnum) relationship: string,
    @Ctx() context: GraphQLContext,
  ) {
    return (
      await context.app.recipients.updateRelationship(await actingContext(context, DELEGATED), id, { relationship })
    ).relationship;
  }

  @Query(() => RecipientInvitationPreview, {
    description: "The invitee (signed in with the invited email) looks at an invitation before accepting it.",
  })
  @Auth("RECIPIENTS")
  async recipientInvitationPreview(@Arg("code") code: string, @Ctx() context: GraphQLContext) {
    return context.app.recipients.preview(await actingContext(context, MANAGER_ONLY), { code });
  }

  @Mutation(() => AcceptedRecipientInvitation, {
    description: "The invitee accepts: it becomes the sender's recipient.",
  })
  @Auth("RECIPIENTS")
  async acceptRecipientInvitation(@Arg("code") code: string, @Ctx() context: GraphQLContext) {
    return context.app.recipients.accept(await actingContext(context, MANAGER_ONLY), { code });
  }
}
