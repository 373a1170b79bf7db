import { Field, ID, ObjectType, registerEnumType } from "type-graphql";
import { enumOf } from "./enums.js";
import { RELATIONSHIPS } from "../../recipients/service.js";
import { Connection } from "./connection.js";
import { CorridorEnum } from "./managed-profiles.js";

export const RelationshipEnum = enumOf(RELATIONSHIPS);
registerEnumType(RelationshipEnum, { name: "RecipientRelationship" });
const InvitationStatusEnum = enumOf(["pending", "expired"] as const);
registerEnumType(InvitationStatusEnum, { name: "RecipientInvitationStatus" });

@ObjectType({ description: "An invitation to receive the sender's payouts, not accepted yet." })
export class RecipientInvitation {
  @Field(() => ID)
  id!: string;

  @Field()
  email!: string;

  @Field(() => RelationshipEnum)
  relationship!: string;

  @Field(() => InvitationStatusEnum)
  status!: string;

  @Field()
  archived!: boolean;

  @Field()
  expiresAt!: Date;

  @Field()
  createdAt!: Date;
}

@ObjectType({ description: "A person who accepted the sender's invitation." })
export class Recipient {
  @Field(() => ID)
  id!: string;

  @Field()
  email!: string;

  @Field(() => RelationshipEnum)
  relationship!: string;

  @Field()
  acceptedAt!: Date;
}

export const RecipientConnection = Connection(Recipient, "Recipient");
export const RecipientInvitationConnection = Connection(RecipientInvitation, "RecipientInvitation");

@ObjectType({ description: "Whether a recipient can receive payouts in a corridor now." })
export class RecipientCorridorEligibility {
  @Field(() => CorridorEnum)
  corridor!: string;

  @Field()
  canReceive!: boolean;
}

@ObjectType({ description: "What an invitee sees before accepting: who invites (masked), as what, until when." })
export class RecipientInvitationPreview {
  @Field(() => ID)
  invitationId!: string;

  @Field()
  sender!: string;

  @Field(() => RelationshipEnum)
  relationship!: string;

  @Field()
  expiresAt!: Date;
}

@ObjectType({ description: "An accepted invitation, as the invitee sees it." })
export class AcceptedRecipientInvitation {
  @Field(() => ID)
  invitationId!: string;

  @Field(() => RelationshipEnum)
  relationship!: string;

  @Field()
  acceptedAt!: Date;
}
