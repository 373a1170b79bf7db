/** The event kinds a webhook can subscribe to (CONTRACT.md, Webhooks), in the order views list them. */
export const WEBHOOK_EVENT_TYPES = ["TRANSACTION_CREATED", "STATUS_CHANGE"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

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
