import { z } from "zod";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../events/outbox.js";
import { text, uuid } from "../validation.js";

/**
 * A registration. The URL itself is checked by the URL policy (INVALID_WEBHOOK_URL), and that exactly one
 * of quoteId and sessionId is given by the service, not here.
 */
export const registerWebhookInput = z
  .object({
    url: text("token"),
    quoteId: uuid().nullish(),
    sessionId: uuid().nullish(),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .min(1, "must name at least one event type")
      .refine((events) => new Set(events).size === events.length, "must not repeat an event type")
      .optional(),
  })
  .strict();
export type RegisterWebhookInput = z.output<typeof registerWebhookInput>;

/** One page of a subscription's delivery log. */
export const webhookDeliveriesInput = z
  .object({
    id: uuid(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .strict();
export type WebhookDeliveryPage = z.output<typeof webhookDeliveriesInput>;

/** A webhook registration as callers see it. */
export interface WebhookView {
  id: string;
  url: string;
  quoteId: string | null;
  sessionId: string | null;
  events: WebhookEventType[];
  /** False once five deliveries in a row failed (register again to resume). */
  isActive: boolean;
  createdAt: Date;
}

/** One send of a delivery. */
interface WebhookAttemptView {
  startedAt: Date;
  durationMs: number;
  /** The receiver's status code; null when there was no answer (see error). */
  statusCode: number | null;
  /** Why the send failed without a usable answer (timeout, refused address, redirect, ...). */
  error: string | null;
}

/** An event owed to a subscription, with every send made for it. */
export interface WebhookDeliveryView {
  id: string;
  eventId: string;
  eventType: WebhookEventType;
  /** pending (queued or retrying), delivered (a 2xx answer), failed (every send failed, or the subscription was disabled). */
  status: "pending" | "delivered" | "failed";
  attempts: WebhookAttemptView[];
  /** When the next send is due (pending only). */
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}
