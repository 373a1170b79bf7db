import type { FastifyInstance } from "fastify";
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
import { invitationView } from "../../recipients/types.js";
import { jsonSchema } from "../http.js";
import { operationRoute } from "../operation-route.js";

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
    response: jsonSchema(invitationView),
    errors: [400, 401, 403],
    reply: ({ invitation }) => invitation,
  });

  operationRoute(server, app, listRecipientInvitations, {
    method: "GET",
    url: "/v1/recipients/invitations",
    tags,
    errors: [400, 401, 403],
  });

  operationRoute(server, app, archiveRecipientInvitation, {
    method: "POST",
    url: "/v1/recipients/invitations/:id/archive",
    tags,
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, unarchiveRecipientInvitation, {
    method: "POST",
    url: "/v1/recipients/invitations/:id/unarchive",
    tags,
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, listRecipients, {
    method: "GET",
    url: "/v1/recipients",
    tags,
    errors: [400, 401, 403],
  });

  operationRoute(server, app, updateRecipient, {
    method: "PATCH",
    url: "/v1/recipients/:id",
    tags,
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, getRecipientEligibility, {
    method: "GET",
    url: "/v1/recipients/:id/eligibility",
    tags,
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, previewRecipientInvitation, {
    method: "POST",
    url: "/v1/recipient-invitations/preview",
    tags,
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, acceptRecipientInvitation, {
    method: "POST",
    url: "/v1/recipient-invitations/accept",
    tags,
    errors: [400, 401, 403, 404],
  });
}
