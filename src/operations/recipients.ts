import { z } from "zod";
import { idInput } from "../output.js";
import {
  acceptedInvitation,
  codeInput,
  invitationList,
  invitationPreview,
  invitationView,
  inviteInput,
  recipientList,
  recipientView,
  relationshipInput,
  recipientEligibilityView,
} from "../recipients/types.js";
import { flag, listPage, uuid } from "../validation.js";
import { defineOperation } from "./operation.js";

/** The sender's side acts for the subject (a manager's session may select a child). */
const SENDER = { requires: ["RECIPIENTS"], delegation: "DELEGATED" } as const;
/** Preview and acceptance are the invitee's own: no selector, and a managed child never accepts. */
const INVITEE = { requires: ["RECIPIENTS"], delegation: "MANAGER_ONLY" } as const;
const byId = z.object({ id: uuid() });

export const inviteRecipient = defineOperation({
  name: "inviteRecipient",
  summary: "Invite a person by email (a code is mailed to it); again while pending mails a new code",
  access: SENDER,
  input: inviteInput,
  run: (app, acting, form) => app.recipients.invite(acting, form),
});

export const listRecipientInvitations = defineOperation({
  name: "listRecipientInvitations",
  summary: "List the sender's invitations not accepted yet, newest first: current ones, or archived ones",
  access: SENDER,
  input: listPage.extend({ archived: flag.default(false) }).strict(),
  output: invitationList,
  run: (app, acting, input) => app.recipients.invitations(acting, input),
});

export const archiveRecipientInvitation = defineOperation({
  name: "archiveRecipientInvitation",
  summary: "Archive a pending invitation",
  access: SENDER,
  input: byId,
  output: invitationView,
  run: (app, acting, { id }) => app.recipients.archive(acting, id, true),
});

export const unarchiveRecipientInvitation = defineOperation({
  name: "unarchiveRecipientInvitation",
  summary: "Restore an archived invitation",
  access: SENDER,
  input: byId,
  output: invitationView,
  run: (app, acting, { id }) => app.recipients.archive(acting, id, false),
});

export const listRecipients = defineOperation({
  name: "listRecipients",
  summary: "List the sender's recipients, newest first",
  access: SENDER,
  input: listPage,
  output: recipientList,
  run: (app, acting, page) => app.recipients.recipients(acting, page),
});

export const updateRecipient = defineOperation({
  name: "updateRecipient",
  summary: "Change the relationship to a recipient or a pending invitee; the new one is answered",
  access: SENDER,
  input: relationshipInput,
  output: z.union([recipientView, invitationView]),
  run: (app, acting, input) => app.recipients.updateRelationship(acting, input),
});

export const getRecipientEligibility = defineOperation({
  name: "getRecipientEligibility",
  summary: "Get where a recipient can receive payouts now (approved KYC, and a payout account where one is needed)",
  access: SENDER,
  input: z.object({ id: idInput("The recipient's id (Recipient.id).") }),
  output: recipientEligibilityView,
  run: (app, acting, { id }) => app.recipients.eligibility(acting, id),
});

export const previewRecipientInvitation = defineOperation({
  name: "previewRecipientInvitation",
  summary: "Preview an invitation by its code, as the invitee signed in with the invited email, before accepting it",
  access: INVITEE,
  input: codeInput,
  output: invitationPreview,
  run: (app, acting, { code }) => app.recipients.preview(acting, code),
});

export const acceptRecipientInvitation = defineOperation({
  name: "acceptRecipientInvitation",
  summary: "Accept an invitation by its code, as the invitee: it becomes the sender's recipient",
  access: INVITEE,
  input: codeInput,
  output: acceptedInvitation,
  run: (app, acting, { code }) => app.recipients.accept(acting, code),
});
