import { z } from "zod";
import { named, outputObject } from "../../output.js";
import { CORRIDORS } from "../../reference-data/corridors.js";
import { described, enumOf } from "./enums.js";
import { INVITATION_STATUSES, RELATIONSHIPS, recipientCorridorEligibilityShape } from "../../recipients/types.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";

registerGraphQLEnum(enumOf(RELATIONSHIPS), {
  name: "RecipientRelationship",
  description: "How the sender says it relates to a recipient or invitee; the sender may change it at any time.",
  valuesConfig: described({
    FAMILY: "A family member.",
    FRIEND: "A friend.",
    BUSINESS: "A business relation.",
    EMPLOYEE: "An employee.",
    OTHER: "Any other relationship.",
  }),
});
registerGraphQLEnum(enumOf(INVITATION_STATUSES), {
  name: "RecipientInvitationStatus",
  description: "Whether an invitation not accepted yet is still within its seven days.",
  valuesConfig: described({
    PENDING: "Before expiresAt: the invitee can accept it unless the sender archived it.",
    EXPIRED: "Its expiresAt has passed without an acceptance; inviting the email again renews it.",
  }),
});

/** GraphQL lists a recipient's corridors, each naming itself, where REST keys them by corridor. */
export const RecipientCorridorEligibility = outputType(
  outputObject("RecipientCorridorEligibility", "Whether a recipient can receive payouts in a corridor now.", {
    corridor: named("Corridor", z.enum(CORRIDORS)).describe(
      "The corridor this answer is about; the list holds every corridor.",
    ),
    ...recipientCorridorEligibilityShape,
  }),
);
