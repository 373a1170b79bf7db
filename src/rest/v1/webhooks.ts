import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { WEBHOOK_EVENT_TYPES } from "../../events/outbox.js";
import {
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhookDelivery,
  registerWebhook,
} from "../../operations/webhooks.js";
import { isoDateTime, jsonSchema, pagination } from "../http.js";
import { operationRoute } from "../operation-route.js";

const webhook = z.object({
  id: z.uuid(),
  url: z.string(),
  quoteId: z.uuid().nullable(),
  sessionId: z.uuid().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  isActive: z.boolean(),
  createdAt: isoDateTime,
});
const webhookList = z.object({ webhooks: z.array(webhook), pagination });
const attempt = z.object({
  startedAt: isoDateTime,
  durationMs: z.number().int(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
});
const delivery = z.object({
  id: z.uuid(),
  eventId: z.uuid(),
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.array(attempt),
  nextAttemptAt: isoDateTime.nullable(),
  deliveredAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});
const deliveryLog = z.object({ totalCount: z.number().int(), deliveries: z.array(delivery) });

/**
 * Webhook registrations (CONTRACT.md, Webhooks): a non-managed profile's secret key only. A selector is
 * unsupported (400) and a managed child's own key refused (403): managed profiles follow ramps by polling
 * and GraphQL subscriptions.
 */
export function webhookRoutes(server: FastifyInstance, app: App) {
  const tags = ["Webhooks"];

  operationRoute(server, app, registerWebhook, {
    method: "POST",
    url: "/v1/webhook",
    tags,
    status: 201,
    response: jsonSchema(webhook),
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, listWebhooks, {
    method: "GET",
    url: "/v1/webhook",
    tags,
    response: jsonSchema(webhookList),
    errors: [400, 401, 403],
  });

  // Answered as the published reference does (clients generated from it expect the body).
  operationRoute(server, app, deleteWebhook, {
    method: "DELETE",
    url: "/v1/webhook/:id",
    tags,
    response: jsonSchema(z.object({ success: z.literal(true), message: z.string() })),
    errors: [400, 401, 403, 404],
    reply: () => ({ success: true, message: "Webhook deleted." }),
  });

  operationRoute(server, app, listWebhookDeliveries, {
    method: "GET",
    url: "/v1/webhook/:id/deliveries",
    tags,
    response: jsonSchema(deliveryLog),
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, redeliverWebhookDelivery, {
    method: "POST",
    url: "/v1/webhook/:id/deliveries/:deliveryId/redeliver",
    tags,
    status: 202,
    response: jsonSchema(delivery),
    errors: [400, 401, 403, 404],
  });
}
