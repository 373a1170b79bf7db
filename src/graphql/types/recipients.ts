import { Field, ID, ObjectType } from "type-graphql";
import { enumOf } from "./enums.js";
import { RELATIONSHIPS } from "../../recipients/service.js";
import { Connection } from "./connection.js";
import { CorridorEnum } from "./managed-profiles.js";
import { registerGraphQLEnum } from "./output-type.js";

export const RelationshipEnum = enumOf(RELATIONSHIPS);
registerGraphQLEnum(RelationshipEnum, {
  name: "RecipientRelationship",
  description: "How the sender says it relates to a recipient or invitee; the sender may change it at any time.",
  valuesConfig: {
    FAMILY: { description: "A family member." },
    FRIEND: { description: "A friend." },
    BUSINESS: { description: "A business relation." },
    EMPLOYEE: { description: "An employee." },
    OTHER: { description: "Any other relationship." },
  },
});
const InvitationStatusEnum = enumOf(["pending", "expired"] as const);
registerGraphQLEnum(InvitationStatusEnum, {
  name: "RecipientInvitationStatus",
  description: "Whether an invitation not accepted yet is still within its seven days.",
  valuesConfig: {
    PENDING: { description: "Before expiresAt: the invitee can accept it unless the sender archived it." },
    EXPIRED: { description: "Its expiresAt has passed without an acceptance; inviting the email again renews it." },
  },
});

@ObjectType({ description: "An invitation to receive the sender's payouts, not accepted yet." })
export class RecipientInvitation {
  @Field(() => ID, { description: "The invitation's id; it stays the recipient's id once accepted." })
  id!: string;

  @Field({ description: "The invited address, trimmed and lower-cased; the invitee signs in with it to accept." })
  email!: string;

  @Field(() => RelationshipEnum, { description: "How the sender relates to the invitee." })
  relationship!: string;

  @Field(() => InvitationStatusEnum, { description: "PENDING until expiresAt passes, then EXPIRED." })
  status!: string;

  @Field({
    description:
      "True while the sender keeps it archived: it is then listed only with archived: true and cannot be accepted.",
  })
  archived!: boolean;

  @Field({ description: "When the mailed code stops working: seven days after the latest invitation mail." })
  expiresAt!: Date;

  @Field({ description: "When the address was first invited; inviting it again does not change it." })
  createdAt!: Date;
}

@ObjectType({ description: "A person who accepted the sender's invitation." })
export class Recipient {
  @Field(() => ID, {
    description: "The accepted invitation's id, which recipientEligibility and updateRecipientRelationship take.",
  })
  id!: string;

  @Field({ description: "The invited address, trimmed and lower-cased." })
  email!: string;

  @Field(() => RelationshipEnum, { description: "How the sender relates to the recipient." })
  relationship!: string;

  @Field({ description: "When the invitee accepted the invitation." })
  acceptedAt!: Date;
}

export const RecipientConnection = Connection(Recipient, "Recipient");
export const RecipientInvitationConnection = Connection(RecipientInvitation, "RecipientInvitation");

@ObjectType({ description: "Whether a recipient can receive payouts in a corridor now." })
export class RecipientCorridorEligibility {
  @Field(() => CorridorEnum, { description: "The corridor this answer is about; the list holds every corridor." })
  corridor!: string;

  @Field({
    description:
      "True when the recipient's KYC is approved in this corridor and, in AR, CO, MX and US, it also has a fiat account there.",
  })
  canReceive!: boolean;
}

@ObjectType({ description: "What an invitee sees before accepting: who invites (masked), as what, until when." })
export class RecipientInvitationPreview {
  @Field(() => ID, { description: "The invitation's id." })
  invitationId!: string;

  @Field({
    description:
      'The sender\'s email, masked (a***@example.com), or "a managed profile" when the sender has no login email.',
  })
  sender!: string;

  @Field(() => RelationshipEnum, { description: "How the sender says it relates to the invitee." })
  relationship!: string;

  @Field({ description: "The invitation can be accepted until this moment." })
  expiresAt!: Date;
}

@ObjectType({
  description: "The outcome of acceptRecipientInvitation: the accepted invitation, as the invitee sees it.",
})
export class AcceptRecipientInvitationPayload {
  @Field(() => ID, { description: "The accepted invitation's id." })
  invitationId!: string;

  @Field(() => RelationshipEnum, { description: "How the sender relates to its new recipient." })
  relationship!: string;

  @Field({ description: "When the invitation was accepted." })
  acceptedAt!: Date;
}
