import type { Logger } from "pino";
import type { EventBus } from "./bus.js";

/**
 * Tells the outbox's readers on every instance (the subscription feed, the webhook workers) that something
 * was committed, so they read at once instead of at their next poll. Only a wake-up: readers still poll,
 * so a lost notice delays, and never loses, anything.
 */
export class OutboxSignal {
  private queued = false;

  constructor(
    private readonly bus: EventBus,
    private readonly log: Logger,
  ) {}

  /** Call after the commit. Notices in the same turn of the event loop go out as one. */
  committed(): void {
    if (this.queued) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      this.bus
        .publish("outboxWritten", {})
        .catch((error: unknown) => this.log.warn({ err: error }, "outbox notice not sent; readers poll"));
    });
  }

  onCommitted(handler: () => void): () => void {
    return this.bus.subscribe("outboxWritten", handler);
  }
}
