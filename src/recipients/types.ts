import { z } from "zod";
import { idField, idInput, instantField, named, outputObject, pagination } from "../output.js";
import { CORRIDORS } from "../reference-data/corridors.js";
import { email, requiredString } from "../validation.js";
import { describedEnum } from "../enums.js";

export const RELATIONSHIPS = ["family", "friend", "business", "employee", "other"] as const;

describedEnum("RecipientRelationship", RELATIONSHIPS, {
  description: "How the sender says it relates to a recipient or invitee; the sender may change it at any time.",
  meanings: {
    family: "A family member.",
    friend: "A friend.",
    business: "A business relation.",
    employee: "An employee.",
    other: "Any other relationship.",
  },
});

const INVITATION_STATUSES = ["pending", "expired"] as const;

describedEnum("RecipientInvitationStatus", INVITATION_STATUSES, {
  description: "Whether an invitation not accepted yet is still within its seven days.",
  meanings: {
    pending: "Before expiresAt: the invitee can accept it unless the sender archived it.",
    expired: "Its expiresAt has passed without an acceptance; inviting the email again renews it.",
  },
});

export const inviteInput = z
  .object({
    email: requiredString()
      .max(254, "must be at most 254 characters")
      .trim()
      .toLowerCase()
      .pipe(email())
      .describe("The invitee's email address (trimmed and lower-cased, at most 254 characters); not the sender's own."),
    relationship: named("RecipientRelationship", z.enum(RELATIONSHIPS)).describe(
      "How the sender relates to the invitee.",
    ),
  })
  .strict();
export const relationshipInput = z
  .object({
    id: idInput("A recipient's or a pending invitation's id."),
    relationship: named("RecipientRelationship", z.enum(RELATIONSHIPS)).describe("The new relationship."),
  })
  .strict();
export const codeInput = z
  .object({ code: z.string().min(1, "is required").max(200).describe("The invitation code mailed to the invitee.") })
  .strict();

const relationship = (description: string) =>
  named("RecipientRelationship", z.enum(RELATIONSHIPS)).describe(description);

/** An invitation as its sender sees it. */
export const invitationView = outputObject(
  "RecipientInvitation",
  "An invitation to receive the sender's payouts, not accepted yet.",
  {
    id: idField("The invitation's id; it stays the recipient's id once accepted."),
    email: z.string().describe("The invited address, trimmed and lower-cased; the invitee signs in with it to accept."),
    relationship: relationship("How the sender relates to the invitee."),
    status: named("RecipientInvitationStatus", z.enum(INVITATION_STATUSES)).describe(
      "Pending until expiresAt passes, then expired.",
    ),
    archived: z
      .boolean()
      .describe(
        "True while the sender keeps it archived: it is then listed only with archived: true and cannot be accepted.",
      ),
    expiresAt: instantField("When the mailed code stops working: seven days after the latest invitation mail."),
    createdAt: instantField("When the address was first invited; inviting it again does not change it."),
  },
);
export type InvitationView = z.output<typeof invitationView>;
export const invitationList = z.object({ invitations: z.array(invitationView), pagination });

/** A recipient (an accepted invitation) as its sender sees it. */
export const recipientView = outputObject("Recipient", "A person who accepted the sender's invitation.", {
  id: idField("The accepted invitation's id, which the recipient's eligibility and relationship changes name."),
  email: z.string().describe("The invited address, trimmed and lower-cased."),
  relationship: relationship("How the sender relates to the recipient."),
  acceptedAt: instantField("When the invitee accepted the invitation."),
});
export type RecipientView = z.output<typeof recipientView>;
export const recipientList = z.object({ recipients: z.array(recipientView), pagination });

/** An invitation as its invitee sees it before accepting: who invites, as what, until when. */
export const invitationPreview = outputObject(
  "RecipientInvitationPreview",
  "What an invitee sees before accepting: who invites (masked), as what, until when.",
  {
    invitationId: idField("The invitation's id."),
    sender: z
      .string()
      .describe(
        'The sender\'s email, masked (a***@example.com), or "a managed profile" when the sender has no login email.',
      ),
    relationship: relationship("How the sender says it relates to the invitee."),
    expiresAt: instantField("The invitation can be accepted until this moment."),
  },
);
export type InvitationPreview = z.output<typeof invitationPreview>;

/** The accepted invitation, as the invitee sees it. */
export const acceptedInvitation = outputObject(
  "AcceptRecipientInvitationPayload",
  "The outcome of accepting an invitation: the accepted invitation, as the invitee sees it.",
  {
    invitationId: idField("The accepted invitation's id."),
    relationship: relationship("How the sender relates to its new recipient."),
    acceptedAt: instantField("When the invitation was accepted."),
  },
);

/** Whether a recipient can receive payouts in one corridor now. */
export const recipientCorridorEligibilityShape = {
  canReceive: z
    .boolean()
    .describe(
      "True when the recipient's KYC is approved in this corridor and, in AR, CO, MX and US, it also has a fiat account there.",
    ),
};
const recipientCorridorEligibility = z.object(recipientCorridorEligibilityShape);

/** Where a recipient can receive payouts now, keyed by corridor (every corridor is listed). */
export const recipientEligibilityView = z.object({
  recipientId: z.uuid(),
  corridors: z.object(Object.fromEntries(CORRIDORS.map((corridor) => [corridor, recipientCorridorEligibility]))),
});
export type RecipientEligibility = z.output<typeof recipientEligibilityView>;
