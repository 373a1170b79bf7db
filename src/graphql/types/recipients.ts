import { Field, ObjectType } from "type-graphql";
import { enumOf } from "./enums.js";
import {
  acceptedInvitation,
  INVITATION_STATUSES,
  invitationPreview,
  invitationView,
  RELATIONSHIPS,
  recipientView,
} from "../../recipients/types.js";
import { connectionType } from "./connection.js";
import { CorridorEnum } from "./managed-profiles.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";

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
const InvitationStatusEnum = enumOf(INVITATION_STATUSES);
registerGraphQLEnum(InvitationStatusEnum, {
  name: "RecipientInvitationStatus",
  description: "Whether an invitation not accepted yet is still within its seven days.",
  valuesConfig: {
    PENDING: { description: "Before expiresAt: the invitee can accept it unless the sender archived it." },
    EXPIRED: { description: "Its expiresAt has passed without an acceptance; inviting the email again renews it." },
  },
});

export const RecipientInvitation = outputType(invitationView);
export const Recipient = outputType(recipientView);
export const RecipientConnection = connectionType(recipientView);
export const RecipientInvitationConnection = connectionType(invitationView);

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

export const RecipientInvitationPreview = outputType(invitationPreview);
export const AcceptRecipientInvitationPayload = outputType(acceptedInvitation);
