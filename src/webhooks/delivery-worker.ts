import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Db } from "../db/client.js";
import { inTransaction } from "../db/tx.js";
import { PollLoop } from "../workers/poll-loop.js";
import * as repo from "./delivery-repo.js";
import type { WebhookSender } from "./sender.js";

/** Waits before each retry of a failed send (CONTRACT.md, Webhooks): a round is one send and these five retries. */
export const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000] as const;
/** Deliveries in a row whose every send failed; the last one disables the subscription. */
export const FAILED_DELIVERIES_TO_DISABLE = 5;
/** A claim outlives the send's timeout by this much before another worker may take the delivery over. */
const CLAIM_MARGIN_MS = 5_000;

export interface DeliveryWorkerSettings {
  engine: "postgresql" | "sqlite";
  /** How often due deliveries are looked for when nothing wakes the worker sooner. */
  pollMs: number;
  /** One send's timeout (the sender's). */
  timeoutMs: number;
  /** Sends in flight at once on this instance. */
  concurrency: number;
}

/** Signs a raw body for the X-Service-Signature header. */
export type Signer = (timestamp: number, rawBody: string) => string;

/**
 * Sends queued webhook deliveries (CONTRACT.md, Webhooks). A delivery is claimed before it is sent and
 * settled after, both in the database: a worker killed mid-send leaves a claim that lapses, and the
 * delivery is sent again (at-least-once; receivers dedupe on the body's stable eventId). Several
 * instances share the queue without sending a delivery twice while its claim holds.
 */
export class WebhookDeliveryWorker {
  private readonly loop: PollLoop;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly sign: Signer,
    private readonly sender: WebhookSender,
    private readonly settings: DeliveryWorkerSettings,
    private readonly log: Logger,
    /** The time claims, retries and signatures use; tests step it by hand. */
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.loop = new PollLoop(async () => void (await this.claimAndSend()), settings.pollMs, log, "webhook delivery pass failed");
  }

  start(): void {
    this.loop.start(0);
  }

  /** Looks for due deliveries now (new events were written, or a send finished and made room). */
  wake(): void {
    this.loop.wake();
  }

  /** Stops claiming and waits for the sends in flight to settle. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.all(this.inFlight);
  }

  /** Claims what is due and sends it; resolves once every send of this pass has settled (tests drive it). */
  async runOnce(): Promise<void> {
    await Promise.all(await this.claimAndSend());
  }

  /** Claims as many due deliveries as there is room for and starts sending them; returns their promises. */
  private async claimAndSend(): Promise<Promise<void>[]> {
    const started: Promise<void>[] = [];
    for (;;) {
      const room = this.settings.concurrency - this.inFlight.size;
      if (room <= 0) return started;
      const now = this.clock();
      const token = randomUUID();
      const claimed = await repo.claimDueDeliveries(this.db, this.settings.engine, {
        now,
        leaseUntil: new Date(now.getTime() + this.settings.timeoutMs + CLAIM_MARGIN_MS),
        token,
        limit: room,
      });
      for (const delivery of claimed) {
        const sending = this.deliver(delivery, token)
          .catch((error: unknown) => this.log.error({ err: error, deliveryId: delivery.id }, "webhook delivery failed to settle"))
          .finally(() => {
            this.inFlight.delete(sending);
            this.loop.wake();
          });
        this.inFlight.add(sending);
        started.push(sending);
      }
      if (claimed.length < room) return started;
    }
  }

  private async deliver(delivery: repo.ClaimedDelivery, token: string): Promise<void> {
    if (!delivery.subscriptionActive) {
      await inTransaction(this.db, (tx) => repo.settleDelivery(tx, { id: delivery.id, token }, { status: "failed", retryAt: null, at: this.clock() }));
      return;
    }
    const startedAt = this.clock();
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const outcome = await this.sender.send(
      delivery.url,
      { "x-service-timestamp": String(timestamp), "x-service-signature": this.sign(timestamp, delivery.body) },
      delivery.body,
    );
    const at = this.clock();
    const attempt = { startedAt, durationMs: outcome.durationMs, statusCode: outcome.statusCode, error: outcome.error };
    const retryDelay = RETRY_DELAYS_MS[delivery.roundAttempts];
    const disabled = await inTransaction(this.db, async (tx) => {
      await repo.insertAttempt(tx, delivery.id, attempt);
      if (outcome.ok) {
        if (await repo.settleDelivery(tx, { id: delivery.id, token }, { status: "delivered", retryAt: null, at })) await repo.resetFailures(tx, delivery.subscriptionId);
        return false;
      }
      if (retryDelay !== undefined) {
        await repo.settleDelivery(tx, { id: delivery.id, token }, { status: "pending", retryAt: new Date(at.getTime() + retryDelay), at });
        return false;
      }
      if (!(await repo.settleDelivery(tx, { id: delivery.id, token }, { status: "failed", retryAt: null, at }))) return false;
      return repo.countFailure(tx, delivery.subscriptionId, FAILED_DELIVERIES_TO_DISABLE, at);
    });
    if (disabled) this.log.warn({ subscriptionId: delivery.subscriptionId }, "webhook subscription disabled after consecutive failed deliveries");
  }
}
