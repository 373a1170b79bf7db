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
