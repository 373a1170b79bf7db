import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import type { Db } from "../db/client.js";
import type { Writes } from "../db/statements.js";
import { inTransaction } from "../db/tx.js";
import { PollLoop } from "../workers/poll-loop.js";
import { insertAttempts, insertAttemptsOfExisting, type AttemptRecord } from "./attempt-log.js";
import * as repo from "./delivery-repo.js";
import { signedDeliveryHeaders, type WebhookSender } from "./sender.js";
import { WEBHOOK_TEST_EVENT } from "./types.js";

/**
 * Waits before each retry of a failed send (CONTRACT.md, Webhooks): a round is at most 5 attempts, one send
 * and these four retries; after the fifth failure the event is given up, so no 16 s wait follows it.
 */
export const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000] as const;
/** Deliveries in a row whose every send failed; the last one disables the subscription. */
export const FAILED_DELIVERIES_TO_DISABLE = 5;
/**
 * How long a claim holds before another worker may take the delivery over. Short, so that what a process
 * had claimed when it died is sent again within seconds of a restart; a send that takes longer (up to the
 * sender's timeout) keeps its claim by renewing it every LEASE_RENEWAL_MS.
 */
export const CLAIM_LEASE_MS = 5_000;
const LEASE_RENEWAL_MS = 1_000;
/**
 * Sends that finish within this long of each other settle together: on SQLite one commit writes whole
 * pages of the log, the deliveries and their indexes, so settling alone cost each send several of them; on
 * PostgreSQL each statement is a round trip, so the turn's settlements share their statements and one commit.
 */
const SETTLE_WINDOW_MS = 20;
/**
 * Deliveries claimed and not yet settled, per send slot: sends that outrun their settlements (a slow database)
 * stop claiming there, so what waits for a settlement stays bounded.
 */
export const UNSETTLED_PER_SEND_SLOT = 4;
/**
 * A delivery takes its due time when its transaction starts and shows when that commits: a look that reads
 * only what fell due since the previous one starts this much earlier, so a write in progress then is not missed.
 */
const LATE_COMMIT_MARGIN_MS = 1_000;

export interface DeliveryWorkerSettings {
  engine: "postgresql" | "sqlite";
  /** How often due deliveries are looked for when nothing wakes the worker sooner. */
  pollMs: number;
  /** One send's timeout (the sender's). */
  timeoutMs: number;
  /** Sends in flight at once on this instance. */
  concurrency: number;
  /** Sends in flight at once to one receiving URL: a slow or dead receiver holds no more of the slots. */
  concurrencyPerReceiver: number;
}

/**
 * What became of a claimed delivery: delivered; a failed attempt with a retry scheduled; failed (the last attempt
 * failed, or the subscription was disabled); released unsent by `stop`.
 */
export type DeliveryOutcome = "delivered" | "retry_scheduled" | "failed" | "released";

/** Signs a raw body for the X-Service-Signature header, off the event loop. */
export type Signer = (timestamp: number, rawBody: string) => Promise<string>;

/** A send's outcome, waiting for its settlement: the retry's delay is undefined after the round's last attempt. */
interface Settlement {
  claim: { id: string; token: string };
  subscriptionId: string;
  /** A test event's: its outcome neither counts a failure against the subscription nor ends a run of them. */
  test: boolean;
  ok: boolean;
  retryDelayMs: number | undefined;
  attempt: AttemptRecord;
}

/** The database as the worker uses it: prepared statements for claims and settlements, the ORM for the rest. */
export interface DeliveryDatabase {
  db: Db;
  writes: Writes;
}

/**
 * Sends queued webhook deliveries (CONTRACT.md, Webhooks). A delivery is claimed before it is sent and
 * settled after, both in the database: a worker killed mid-send leaves a claim that lapses, and the
 * delivery is sent again (at-least-once; receivers dedupe on the body's stable eventId). Several
 * instances share the queue without sending a delivery twice while its claim holds. Each receiving URL
 * gets at most its share of this instance's send slots, so one that never answers delays no one else.
 */
export class WebhookDeliveryWorker {
  private readonly loop: PollLoop;
  /** Every claimed delivery not yet settled: sending, or waiting for its settlement's turn. */
  private readonly inFlight = new Set<Promise<void>>();
  /**
   * Sends in flight: what the instance's limit counts. A send that has its answer stops counting while it waits
   * for its settlement's turn, so that wait (up to SETTLE_WINDOW_MS) does not hold the next send back.
   */
  private sending = 0;
  /** Sends in flight by receiving URL. */
  private readonly perReceiver = new Map<string, number>();
  /**
   * The last look past busy receivers that found nothing: looking past them again finds nothing either
   * until events are written, retries fall due (within a poll interval) or the busy set shrinks. Such a look
   * reads past every due delivery of the busy receivers, so it is repeated once a poll interval at most, not
   * for every finished send; a wake in between (events written) reads only what fell due after `readUntil`.
   */
  private fruitlessLook: { skipped: Set<string>; at: number; readUntil: number; woken: boolean } | undefined;
  /** The sends that finished in the current window (see SETTLE_WINDOW_MS), and their settlement at its end. */
  private settleBatch: { settlements: Settlement[]; settled: Promise<void> } | undefined;
  /** The claim token of every delivery being sent or settled here, by delivery id: their leases are renewed. */
  private readonly claims = new Map<string, string>();
  private renewal: { timer: NodeJS.Timeout; running: boolean } | undefined;
  /** Aborted by `stop`: the sends in flight end at once and their deliveries are released, not settled. */
  private stopping = new AbortController();

  constructor(
    private readonly database: DeliveryDatabase,
    private readonly sign: Signer,
    private readonly sender: WebhookSender,
    private readonly settings: DeliveryWorkerSettings,
    private readonly log: Logger,
    /** Told every delivery's outcome (the operator's metrics count them). */
    private readonly countOutcome: (outcome: DeliveryOutcome) => void,
    /** The time claims, retries and signatures use; tests step it by hand. */
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.loop = new PollLoop(
      async () => void (await this.claimAndSend()),
      settings.pollMs,
      log,
      "webhook delivery pass failed",
    );
  }

  start(): void {
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    this.renewal ??= { timer: setInterval(() => void this.renewLeases(), LEASE_RENEWAL_MS).unref(), running: false };
    this.loop.start(0);
  }

  /** Looks for due deliveries now: new events were written, or deliveries restarted. */
  wake(): void {
    if (this.fruitlessLook) this.fruitlessLook.woken = true;
    this.loop.wake();
  }

  /**
   * Stops claiming and ends the sends in flight: those a receiver has not answered yet are released, due
   * at once for whichever instance runs next, so stopping never waits for a slow receiver.
   */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.stopping.abort();
    await Promise.all(this.inFlight);
    clearInterval(this.renewal?.timer);
    this.renewal = undefined;
  }

  /** Claims what is due and sends it; resolves once every send of this pass has settled (tests drive it). */
  async runOnce(): Promise<void> {
    await Promise.all(await this.claimAndSend());
  }

  /** Claims as many due deliveries as there is room for and starts sending them; returns their promises. */
  private async claimAndSend(): Promise<Promise<void>[]> {
    const started: Promise<void>[] = [];
    for (;;) {
      const room = Math.min(this.settings.concurrency - this.sending, this.unsettledLimit() - this.inFlight.size);
      if (room <= 0) return started;
      const now = this.clock();
      const skip = this.busyReceivers();
      const from = this.lookFrom(skip, now.getTime());
      if (from === "nothing") return started;
      const token = randomUUID();
      const leaseUntil = new Date(now.getTime() + CLAIM_LEASE_MS);
      // Looked for and claimed in one transaction. On SQLite it reads on the writing connection, whose page
      // cache stays warm: the reading connection drops its cache whenever another has committed, so each
      // claim read its pages again through system calls (5 a delivery, measured).
      const { due, claimed } = await this.database.writes.transaction(async (tx) => {
        const due = await repo.findDueDeliveries(tx, {
          now,
          limit: room,
          skip,
          ...(from !== "everything" && { dueAfter: new Date(from - LATE_COMMIT_MARGIN_MS) }),
        });
        const ids = this.fairShare(due, room);
        return { due, claimed: await repo.claimDeliveries(tx, this.settings.engine, { ids, now, leaseUntil, token }) };
      });
      if (from !== "everything" && due.length < room)
        Object.assign(this.fruitlessLook!, { readUntil: now.getTime(), woken: false });
      else if (due.length === 0 && skip.length > 0)
        this.fruitlessLook = { skipped: new Set(skip), at: now.getTime(), readUntil: now.getTime(), woken: false };
      for (const delivery of claimed) {
        const sent = this.holdSendSlot(delivery.url);
        this.claims.set(delivery.id, token);
        const settling = this.deliver(delivery, token, sent)
          .catch((error: unknown) =>
            this.log.error({ err: error, deliveryId: delivery.id }, "webhook delivery failed to settle"),
          )
          .finally(() => {
            sent();
            this.claims.delete(delivery.id);
            this.inFlight.delete(settling);
            // The bound on unsettled deliveries had held claims back: there is room again.
            if (this.inFlight.size === this.unsettledLimit() - 1) this.loop.wake();
          });
        this.inFlight.add(settling);
        started.push(settling);
      }
      // Nothing more is due (or another worker took it): wait to be woken.
      if (due.length < room || claimed.length === 0) return started;
    }
  }

  /** Claimed deliveries this instance holds unsettled at most (see UNSETTLED_PER_SEND_SLOT). */
  private unsettledLimit(): number {
    return this.settings.concurrency * UNSETTLED_PER_SEND_SLOT;
  }

  /** Moves the claims of the sends in flight forward, so no other worker takes them over meanwhile. */
  private async renewLeases(): Promise<void> {
    const renewal = this.renewal;
    if (!renewal || renewal.running || this.claims.size === 0) return;
    renewal.running = true;
    try {
      const leaseUntil = new Date(this.clock().getTime() + CLAIM_LEASE_MS);
      await repo.renewClaims(this.database.writes, [...this.claims], leaseUntil);
    } catch (error) {
      this.log.error({ err: error }, "renewing webhook delivery claims failed");
    } finally {
      renewal.running = false;
    }
  }

  /**
   * What a look past these busy receivers has to read: everything due; nothing, as it would repeat a look
   * that found nothing; or, after a wake, what fell due after the returned moment.
   */
  private lookFrom(skip: string[], now: number): "everything" | "nothing" | number {
    const last = this.fruitlessLook;
    if (!last || skip.length === 0 || now - last.at >= this.settings.pollMs) return "everything";
    if (![...last.skipped].every((url) => skip.includes(url))) return "everything";
    return last.woken ? last.readUntil : "nothing";
  }

  /**
   * Counts a send to `url`; the returned function (which may be called more than once) ends it. Once half
   * of the receiver's share is free, the worker looks for more: claims come in batches rather than one per
   * finished send, and the receiver still has sends under way meanwhile. So it does when the instance's own
   * limit had held claims back.
   */
  private holdSendSlot(url: string): () => void {
    this.sending++;
    this.perReceiver.set(url, (this.perReceiver.get(url) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const instanceWasFull = this.sending-- === this.settings.concurrency;
      const left = this.perReceiver.get(url)! - 1;
      if (left > 0) this.perReceiver.set(url, left);
      else this.perReceiver.delete(url);
      if (instanceWasFull || left <= this.settings.concurrencyPerReceiver / 2) this.loop.wake();
    };
  }

  /** Receiving URLs whose share of the send slots is taken. */
  private busyReceivers(): string[] {
    return [...this.perReceiver]
      .filter(([, sending]) => sending >= this.settings.concurrencyPerReceiver)
      .map(([url]) => url);
  }

  /** The due deliveries to claim, earliest first: each URL up to what is left of its share. */
  private fairShare(due: { id: string; url: string }[], room: number): string[] {
    const taken = new Map<string, number>();
    const ids: string[] = [];
    for (const { id, url } of due) {
      const sending = (this.perReceiver.get(url) ?? 0) + (taken.get(url) ?? 0);
      if (sending >= this.settings.concurrencyPerReceiver) continue;
      taken.set(url, (taken.get(url) ?? 0) + 1);
      ids.push(id);
      if (ids.length === room) break;
    }
    return ids;
  }

  /** Sends and settles one delivery; `sent` frees its send slot as soon as the receiver has answered. */
  private async deliver(delivery: repo.ClaimedDelivery, token: string, sent: () => void): Promise<void> {
    const claim = { id: delivery.id, token };
    if (!delivery.subscriptionActive) {
      const outcome = { status: "failed" as const, retryAt: null, at: this.clock() };
      if (await repo.settleDeliveries(this.database.writes, [claim], outcome)) this.countOutcome("failed");
      return;
    }
    const startedAt = this.clock();
    const headers = await signedDeliveryHeaders(this.sign, delivery.body, startedAt);
    const outcome = await this.sender.send(delivery.url, headers, delivery.body, this.stopping.signal);
    sent();
    // Cut short by `stop`: no attempt was made that counts, so the delivery is due again at once.
    if (!outcome.ok && this.stopping.signal.aborted) {
      await repo.releaseClaim(this.database.writes, claim, this.clock());
      this.countOutcome("released");
      return;
    }
    const { durationMs, statusCode, error } = outcome;
    await this.settle({
      claim,
      subscriptionId: delivery.subscriptionId,
      test: delivery.eventType === WEBHOOK_TEST_EVENT,
      ok: outcome.ok,
      retryDelayMs: RETRY_DELAYS_MS[delivery.roundAttempts],
      attempt: {
        deliveryId: delivery.id,
        startedAt,
        durationMs,
        statusCode,
        error,
        requestHeaders: headers,
      },
    });
  }

  /** Settles a send with the others that finish within SETTLE_WINDOW_MS of it; resolves once they are stored. */
  private settle(settlement: Settlement): Promise<void> {
    let batch = this.settleBatch;
    if (!batch) {
      const settlements: Settlement[] = [];
      const settled = sleep(SETTLE_WINDOW_MS).then(() => {
        this.settleBatch = undefined;
        return this.settleTogether(settlements);
      });
      batch = this.settleBatch = { settlements, settled };
    }
    batch.settlements.push(settlement);
    return batch.settled;
  }

  /**
   * Records the sends, settles their deliveries (one statement for those alike) and ends the runs of failures of
   * the receivers that took a ramp event, whoever settles it (they are alive), all in one transaction. Outcomes are
   * counted as the database records them: a claim that lapsed meanwhile is another worker's to settle. Test events
   * stay out of the runs of failures either way: a developer's tests against a receiver that is down do not disable
   * the subscription.
   */
  private async settleTogether(settlements: readonly Settlement[]): Promise<void> {
    const { writes } = this.database;
    const at = this.clock();
    const alike = new Map<
      string,
      { countedAgainst: string | null; outcome: repo.Settled; claims: Settlement["claim"][] }
    >();
    for (const { claim, subscriptionId, test, ok, retryDelayMs } of settlements) {
      const status = ok ? "delivered" : retryDelayMs !== undefined ? "pending" : "failed";
      const retryAt = status === "pending" ? new Date(at.getTime() + retryDelayMs!) : null;
      // Failures count against their subscription: settled by subscription, so that each count is known.
      const countedAgainst = status === "failed" && !test ? subscriptionId : null;
      const key = countedAgainst ? `failed ${countedAgainst}` : `${status} ${retryAt?.getTime()}`;
      const group = alike.get(key) ?? { countedAgainst, outcome: { status, retryAt, at }, claims: [] };
      group.claims.push(claim);
      alike.set(key, group);
    }
    const alive = [
      ...new Set(settlements.filter(({ ok, test }) => ok && !test).map(({ subscriptionId }) => subscriptionId)),
    ];
    const groups = [...alike.values()];
    const attempts = settlements.map(({ attempt }) => attempt);
    // One transaction, so that no delivery is settled without its attempt logged.
    const store = (logAttempts: typeof insertAttempts) =>
      writes.transaction(async (tx) => {
        const settled: number[] = [];
        for (const { claims, outcome } of groups) settled.push(await repo.settleDeliveries(tx, claims, outcome));
        await logAttempts(tx, attempts);
        if (alive.length > 0) await repo.resetFailures(tx, alive);
        return settled;
      });
    // A delivery deleted while it was sent fails the attempts' insert: then each attempt is logged unless it is gone.
    const settled = await store(insertAttempts).catch(() => store(insertAttemptsOfExisting));
    for (const [index, { countedAgainst, outcome }] of groups.entries()) {
      for (let count = 0; count < settled[index]!; count++) {
        this.countOutcome(outcome.status === "pending" ? "retry_scheduled" : outcome.status);
        if (countedAgainst) await this.countFailure(countedAgainst, at);
      }
    }
  }

  /** Counts a failed delivery against its subscription, which the last one allowed disables. */
  private async countFailure(subscriptionId: string, at: Date): Promise<void> {
    const disabled = await inTransaction(this.database.db, (tx) =>
      repo.countFailure(tx, subscriptionId, FAILED_DELIVERIES_TO_DISABLE, at),
    );
    if (disabled)
      this.log.warn({ subscriptionId }, "webhook subscription disabled after consecutive failed deliveries");
  }
}
