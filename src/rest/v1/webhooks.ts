import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { MANAGER_ONLY } from "../../auth/delegation.js";
import { WEBHOOK_EVENT_TYPES } from "../../events/outbox.js";
import { registerWebhookInput } from "../../webhooks/service.js";
import { actingOf, errorResponses, isoDateTime, jsonSchema } from "../http.js";

const webhook = z.object({
  id: z.uuid(),
  url: z.string(),
  quoteId: z.uuid().nullable(),
  sessionId: z.uuid().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  isActive: z.boolean(),
  createdAt: isoDateTime,
});
const webhookList = z.object({ webhooks: z.array(webhook) });
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
const idParams = z.object({ id: z.string() });
const deliveryParams = z.object({ id: z.string(), deliveryId: z.string() });

/**
 * Webhook registrations (CONTRACT.md, Webhooks): a non-managed profile's secret key only. A selector is
 * unsupported (400) and a managed child's own key refused (403): managed profiles follow ramps by polling
 * and GraphQL subscriptions.
 */
export function webhookRoutes(server: FastifyInstance, app: App) {
  const config = { capabilities: ["WEBHOOK_MANAGEMENT"] as const, delegation: MANAGER_ONLY };
  const tags = ["Webhooks"];

  server.post("/v1/webhook", {
    config,
    schema: {
      operationId: "registerWebhook",
      summary: "Register a webhook",
      tags,
      body: jsonSchema(registerWebhookInput, "input"),
      response: { 201: jsonSchema(webhook), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await app.webhooks.register(actingOf(request), request.body)),
  });

  server.get("/v1/webhook", {
    config,
    schema: {
      operationId: "listWebhooks",
      summary: "List webhooks",
      tags,
      response: { 200: jsonSchema(webhookList), ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => ({ webhooks: await app.webhooks.list(actingOf(request)) }),
  });

  server.delete("/v1/webhook/:id", {
    config,
    schema: {
      operationId: "deleteWebhook",
      summary: "Delete a webhook",
      tags,
      params: jsonSchema(idParams, "input"),
      response: { 204: { type: "null" }, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await app.webhooks.delete(actingOf(request), (request.params as { id: string }).id);
      return reply.code(204).send();
    },
  });

  server.get("/v1/webhook/:id/deliveries", {
    config,
    schema: {
      operationId: "listWebhookDeliveries",
      summary: "List a webhook's deliveries",
      tags,
      params: jsonSchema(idParams, "input"),
      querystring: jsonSchema(z.object({ limit: z.string().optional(), offset: z.string().optional() }), "input"),
      response: { 200: jsonSchema(deliveryLog), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const page = await app.webhooks.deliveries(
        actingOf(request),
        (request.params as { id: string }).id,
        request.query,
      );
      return { totalCount: page.totalCount, deliveries: page.deliveries };
    },
  });

  server.post("/v1/webhook/:id/deliveries/:deliveryId/redeliver", {
    config,
    schema: {
      operationId: "redeliverWebhookDelivery",
      summary: "Send a delivery again",
      tags,
      params: jsonSchema(deliveryParams, "input"),
      response: { 202: jsonSchema(delivery), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const { id, deliveryId } = request.params as { id: string; deliveryId: string };
      return reply.code(202).send(await app.webhooks.redeliver(actingOf(request), id, deliveryId));
    },
  });
}
