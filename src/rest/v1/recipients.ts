import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { DELEGATED, MANAGER_ONLY } from "../../auth/delegation.js";
import { CORRIDORS } from "../../reference-data/corridors.js";
import { RELATIONSHIPS } from "../../recipients/service.js";
import { actingOf, errorResponses, isoDateTime, jsonSchema } from "../http.js";
import { parseInput } from "../../validation.js";

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
const idParams = z.object({ id: z.string() });
const codeBody = z.object({ code: z.string() });

/** The query string carries the flag as text: "true" lists the archived invitations. */
const invitationsQuery = z.object({ archived: z.enum(["true", "false"]).default("false") }).strict();

/**
 * Sender-side recipients and the invitee's side of an invitation (a session only: the capability matrix).
 * The sender's operations act for the subject (a manager's session may select a child); preview and
 * acceptance are the invitee's own: no selector, and a managed child never accepts.
 */
export function recipientRoutes(server: FastifyInstance, app: App) {
  const sender = { capabilities: ["RECIPIENTS"] as const, delegation: DELEGATED };
  const invitee = { capabilities: ["RECIPIENTS"] as const, delegation: MANAGER_ONLY };
  const tags = ["Recipients"];
  const recipients = app.recipients;

  server.post("/v1/recipients/invitations", {
    config: sender,
    schema: {
      operationId: "inviteRecipient",
      summary: "Invite a recipient by email",
      tags,
      body: jsonSchema(z.object({ email: z.string(), relationship: z.enum(RELATIONSHIPS) }), "input"),
      response: { 200: jsonSchema(invitation), 201: jsonSchema(invitation), ...errorResponses(400, 401, 403) },
    },
    handler: async (request, reply) => {
      const { invitation: view, created } = await recipients.invite(actingOf(request), request.body);
      return reply.code(created ? 201 : 200).send(view);
    },
  });

  server.get("/v1/recipients/invitations", {
    config: sender,
    schema: {
      operationId: "listRecipientInvitations",
      summary: "List pending recipient invitations",
      tags,
      querystring: jsonSchema(invitationsQuery, "input"),
      response: { 200: jsonSchema(z.object({ invitations: z.array(invitation) })), ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => {
      const { archived } = parseInput(invitationsQuery, request.query ?? {});
      return { invitations: await recipients.invitations(actingOf(request), { archived: archived === "true" }) };
    },
  });

  for (const [url, archived, operationId, summary] of [
    ["/v1/recipients/invitations/:id/archive", true, "archiveRecipientInvitation", "Archive a pending invitation"],
    [
      "/v1/recipients/invitations/:id/unarchive",
      false,
      "unarchiveRecipientInvitation",
      "Restore an archived invitation",
    ],
  ] as const) {
    server.post(url, {
      config: sender,
      schema: {
        operationId,
        summary,
        tags,
        params: jsonSchema(idParams, "input"),
        response: { 200: jsonSchema(invitation), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request) =>
        await recipients.archive(actingOf(request), (request.params as { id: string }).id, archived),
    });
  }

  server.get("/v1/recipients", {
    config: sender,
    schema: {
      operationId: "listRecipients",
      summary: "List recipients",
      tags,
      response: { 200: jsonSchema(z.object({ recipients: z.array(recipient) })), ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => ({ recipients: await recipients.recipients(actingOf(request)) }),
  });

  server.patch("/v1/recipients/:id", {
    config: sender,
    schema: {
      operationId: "updateRecipient",
      summary: "Change a recipient's relationship",
      tags,
      params: jsonSchema(idParams, "input"),
      body: jsonSchema(z.object({ relationship: z.enum(RELATIONSHIPS) }), "input"),
      response: { 200: jsonSchema(z.union([recipient, invitation])), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) =>
      await recipients.updateRelationship(actingOf(request), (request.params as { id: string }).id, request.body),
  });

  server.get("/v1/recipients/:id/eligibility", {
    config: sender,
    schema: {
      operationId: "getRecipientEligibility",
      summary: "Get the corridors a recipient can receive in",
      tags,
      params: jsonSchema(idParams, "input"),
      response: {
        200: jsonSchema(
          z.object({
            recipientId: z.uuid(),
            corridors: z.object(
              Object.fromEntries(CORRIDORS.map((corridor) => [corridor, z.object({ canReceive: z.boolean() })])),
            ),
          }),
        ),
        ...errorResponses(400, 401, 403, 404),
      },
    },
    handler: (request) => recipients.eligibility(actingOf(request), (request.params as { id: string }).id),
  });

  server.post("/v1/recipient-invitations/preview", {
    config: invitee,
    schema: {
      operationId: "previewRecipientInvitation",
      summary: "Preview an invitation by its code",
      tags,
      body: jsonSchema(codeBody, "input"),
      response: {
        200: jsonSchema(
          z.object({
            invitationId: z.uuid(),
            sender: z.string(),
            relationship: z.enum(RELATIONSHIPS),
            expiresAt: isoDateTime,
          }),
        ),
        ...errorResponses(400, 401, 403, 404),
      },
    },
    handler: async (request) => await recipients.preview(actingOf(request), request.body),
  });

  server.post("/v1/recipient-invitations/accept", {
    config: invitee,
    schema: {
      operationId: "acceptRecipientInvitation",
      summary: "Accept an invitation by its code",
      tags,
      body: jsonSchema(codeBody, "input"),
      response: {
        200: jsonSchema(
          z.object({ invitationId: z.uuid(), relationship: z.enum(RELATIONSHIPS), acceptedAt: isoDateTime }),
        ),
        ...errorResponses(400, 401, 403, 404),
      },
    },
    handler: async (request) => await recipients.accept(actingOf(request), request.body),
  });
}
