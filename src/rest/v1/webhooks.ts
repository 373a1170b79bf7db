import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import {
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhookDelivery,
  registerWebhook,
  sendWebhookTestEvent,
} from "../../operations/webhooks.js";
import { jsonSchema } from "../http.js";
import { operationRoute } from "../operation-route.js";

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
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, listWebhooks, {
    method: "GET",
    url: "/v1/webhook",
    tags,
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
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, redeliverWebhookDelivery, {
    method: "POST",
    url: "/v1/webhook/:id/deliveries/:deliveryId/redeliver",
    tags,
    status: 202,
    errors: [400, 401, 403, 404],
  });

  // Not in the published reference: a test event through the real delivery path, followed in the delivery log.
  operationRoute(server, app, sendWebhookTestEvent, {
    method: "POST",
    url: "/v1/webhook/:id/test",
    tags,
    status: 202,
    errors: [400, 401, 403, 404],
  });
}
