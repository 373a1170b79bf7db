import type { WebhookEventType } from "../events/outbox.js";

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
