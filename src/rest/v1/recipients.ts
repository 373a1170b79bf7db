import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
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
import { CORRIDORS } from "../../reference-data/corridors.js";
import { RELATIONSHIPS } from "../../recipients/service.js";
import { isoDateTime, jsonSchema } from "../http.js";
import { pagination } from "../../output.js";
import { operationRoute } from "../operation-route.js";

const invitation = z.object({
  id: z.uuid(),
  email: z.string(),
  relationship: z.enum(RELATIONSHIPS),
  status: z.enum(["pending", "expired"]),
  archived: z.boolean(),
  expiresAt: isoDateTime,
  createdAt: isoDateTime,
});
const recipient = z.object({
  id: z.uuid(),
  email: z.string(),
  relationship: z.enum(RELATIONSHIPS),
  acceptedAt: isoDateTime,
});

const eligibility = z.object({
  recipientId: z.uuid(),
  corridors: z.object(
    Object.fromEntries(CORRIDORS.map((corridor) => [corridor, z.object({ canReceive: z.boolean() })])),
  ),
});
const preview = z.object({
  invitationId: z.uuid(),
  sender: z.string(),
  relationship: z.enum(RELATIONSHIPS),
  expiresAt: isoDateTime,
});
const accepted = z.object({ invitationId: z.uuid(), relationship: z.enum(RELATIONSHIPS), acceptedAt: isoDateTime });

/** Sender-side recipients and the invitee's side of an invitation (a session only: the capability matrix). */
export function recipientRoutes(server: FastifyInstance, app: App) {
  const tags = ["Recipients"];

  operationRoute(server, app, inviteRecipient, {
    method: "POST",
    url: "/v1/recipients/invitations",
    tags,
    status: 201,
    // Inviting a pending address again mails a new code: the same invitation, 200.
    alternative: { status: 200, when: ({ created }) => !created },
    response: jsonSchema(invitation),
    errors: [400, 401, 403],
    reply: ({ invitation }) => invitation,
  });

  operationRoute(server, app, listRecipientInvitations, {
    method: "GET",
    url: "/v1/recipients/invitations",
    tags,
    response: jsonSchema(z.object({ invitations: z.array(invitation), pagination })),
    errors: [400, 401, 403],
  });

  operationRoute(server, app, archiveRecipientInvitation, {
    method: "POST",
    url: "/v1/recipients/invitations/:id/archive",
    tags,
    response: jsonSchema(invitation),
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, unarchiveRecipientInvitation, {
    method: "POST",
    url: "/v1/recipients/invitations/:id/unarchive",
    tags,
    response: jsonSchema(invitation),
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, listRecipients, {
    method: "GET",
    url: "/v1/recipients",
    tags,
    response: jsonSchema(z.object({ recipients: z.array(recipient), pagination })),
    errors: [400, 401, 403],
  });

  operationRoute(server, app, updateRecipient, {
    method: "PATCH",
    url: "/v1/recipients/:id",
    tags,
    response: jsonSchema(z.union([recipient, invitation])),
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, getRecipientEligibility, {
    method: "GET",
    url: "/v1/recipients/:id/eligibility",
    tags,
    response: jsonSchema(eligibility),
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, previewRecipientInvitation, {
    method: "POST",
    url: "/v1/recipient-invitations/preview",
    tags,
    response: jsonSchema(preview),
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, acceptRecipientInvitation, {
    method: "POST",
    url: "/v1/recipient-invitations/accept",
    tags,
    response: jsonSchema(accepted),
    errors: [400, 401, 403, 404],
  });
}
