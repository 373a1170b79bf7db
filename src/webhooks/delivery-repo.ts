import { randomUUID } from "node:crypto";
import type { Db } from "../db/client.js";
import type { Queryable, Tx } from "../db/tx.js";

export type DeliveryStatus = "pending" | "delivered" | "failed";

/**
 * Queues the event for every active subscription following the ramp's quote or widget session that wants
 * this event type; in the event's own transaction, so a delivery exists exactly when its event does.
 */
export async function enqueueDeliveries(
  tx: Tx,
  event: { eventId: string; eventType: string },
  ramp: { quoteId: string; sessionId: string | null },
  at: Date,
): Promise<void> {
  const following = await tx.webhookSubscription.findMany({
    where: { isActive: true, OR: [{ quoteId: ramp.quoteId }, ...(ramp.sessionId ? [{ sessionId: ramp.sessionId }] : [])] },
    select: { id: true, events: true },
  });
  const wanting = following.filter((subscription) => subscription.events.split(",").includes(event.eventType));
  if (wanting.length === 0) return;
  await tx.webhookDelivery.createMany({
    data: wanting.map((subscription) => ({
      id: randomUUID(),
      subscriptionId: subscription.id,
      eventId: event.eventId,
      status: "pending",
      nextAttemptAt: at,
      createdAt: at,
    })),
  });
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  subscriptionId: string;
  roundAttempts: number;
  url: string;
  subscriptionActive: boolean;
  /** The event's exact JSON body, sent as is. */
  body: string;
}

/**
 * Claims up to `limit` due deliveries under `token`, moving them to `leaseUntil` so no other worker takes
 * them meanwhile. On PostgreSQL workers skip each other's locked rows (FOR UPDATE SKIP LOCKED); SQLite has
 * one writer, where the conditional update alone decides.
 */
export async function claimDueDeliveries(
  db: Db,
  engine: "postgresql" | "sqlite",
  claim: { now: Date; leaseUntil: Date; token: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const { now, leaseUntil, token, limit } = claim;
  if (engine === "postgresql") {
    await db.$executeRaw`
      UPDATE "WebhookDelivery" SET "nextAttemptAt" = ${leaseUntil}, "claimToken" = ${token}::uuid, "updatedAt" = ${now}
      WHERE "id" IN (
        SELECT "id" FROM "WebhookDelivery"
        WHERE "status" = 'pending' AND "nextAttemptAt" <= ${now}
        ORDER BY "nextAttemptAt" LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)`;
  } else {
    const due = await db.webhookDelivery.findMany({
      where: { status: "pending", nextAttemptAt: { lte: now } },
      orderBy: { nextAttemptAt: "asc" },
      take: limit,
      select: { id: true },
    });
    if (due.length === 0) return [];
    await db.webhookDelivery.updateMany({
      where: { id: { in: due.map(({ id }) => id) }, status: "pending", nextAttemptAt: { lte: now } },
      data: { nextAttemptAt: leaseUntil, claimToken: token },
    });
  }
  const claimed = await db.webhookDelivery.findMany({
    where: { claimToken: token },
    select: {
      id: true,
      subscriptionId: true,
      roundAttempts: true,
      subscription: { select: { url: true, isActive: true } },
      event: { select: { body: true } },
    },
  });
  return claimed.map((row) => ({
    id: row.id,
    subscriptionId: row.subscriptionId,
    roundAttempts: row.roundAttempts,
    url: row.subscription.url,
    subscriptionActive: row.subscription.isActive,
    body: row.event.body,
  }));
}

/** One send's record. */
export interface AttemptRecord {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

/**
 * Settles a claimed delivery while the claim is still `token`'s: delivered, due again at `retryAt`, or
 * failed (retryAt null). False when the claim lapsed or the delivery is gone (its subscription deleted).
 */
export async function settleDelivery(
  tx: Tx,
  delivery: { id: string; token: string },
  outcome: { status: DeliveryStatus; retryAt: Date | null; at: Date },
): Promise<boolean> {
  const { count } = await tx.webhookDelivery.updateMany({
    where: { id: delivery.id, claimToken: delivery.token },
    data: {
      status: outcome.status,
      roundAttempts: { increment: 1 },
      nextAttemptAt: outcome.retryAt,
      claimToken: null,
      ...(outcome.status === "delivered" ? { deliveredAt: outcome.at } : {}),
    },
  });
  return count === 1;
}

/** Logs a send, unless its delivery is gone (the subscription was deleted meanwhile). */
export async function insertAttempt(tx: Tx, deliveryId: string, attempt: AttemptRecord): Promise<void> {
  if ((await tx.webhookDelivery.count({ where: { id: deliveryId } })) === 0) return;
  await tx.webhookDeliveryAttempt.create({ data: { id: randomUUID(), deliveryId, ...attempt } });
}

/** A delivered event ends a subscription's run of failures. */
export async function resetFailures(tx: Tx, subscriptionId: string): Promise<void> {
  await tx.webhookSubscription.updateMany({ where: { id: subscriptionId, consecutiveFailures: { gt: 0 } }, data: { consecutiveFailures: 0 } });
}

/**
 * Counts one more failed delivery in a row; at `limit` the subscription is disabled and its undelivered
 * events are given up (register again to resume). The increment is the database's, so concurrent
 * failures all count. True when this call disabled it.
 */
export async function countFailure(tx: Tx, subscriptionId: string, limit: number, at: Date): Promise<boolean> {
  await tx.webhookSubscription.updateMany({ where: { id: subscriptionId }, data: { consecutiveFailures: { increment: 1 } } });
  const { count } = await tx.webhookSubscription.updateMany({
    where: { id: subscriptionId, isActive: true, consecutiveFailures: { gte: limit } },
    data: { isActive: false, disabledAt: at },
  });
  if (count === 0) return false;
  await failPending(tx, subscriptionId);
  return true;
}

/** Gives up a subscription's undelivered events (it was disabled); a send in flight no longer settles them. */
export async function failPending(tx: Queryable, subscriptionId: string): Promise<void> {
  await tx.webhookDelivery.updateMany({ where: { subscriptionId, status: "pending" }, data: { status: "failed", nextAttemptAt: null, claimToken: null } });
}

/** A subscription's deliveries, newest first, with every attempt (oldest first). */
export function listDeliveries(db: Queryable, subscriptionId: string, page: { limit: number; offset: number }) {
  return db.webhookDelivery.findMany({
    where: { subscriptionId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: page.offset,
    take: page.limit,
    include: { event: { select: { eventType: true } }, attempts: { orderBy: [{ startedAt: "asc" }, { id: "asc" }] } },
  });
}
export type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>[number];

export function countDeliveries(db: Queryable, subscriptionId: string): Promise<number> {
  return db.webhookDelivery.count({ where: { subscriptionId } });
}

export function findDelivery(db: Queryable, id: string, subscriptionId: string) {
  return db.webhookDelivery.findFirst({
    where: { id, subscriptionId },
    include: { event: { select: { eventType: true } }, attempts: { orderBy: [{ startedAt: "asc" }, { id: "asc" }] } },
  });
}

/**
 * Starts a new round for a delivered or failed delivery: due now, with a fresh budget of attempts. A
 * pending one is already on its way and is left alone (so a send in flight is never doubled).
 */
export async function restartDelivery(db: Queryable, id: string, now: Date): Promise<void> {
  await db.webhookDelivery.updateMany({
    where: { id, status: { in: ["delivered", "failed"] } },
    data: { status: "pending", roundAttempts: 0, nextAttemptAt: now, claimToken: null, deliveredAt: null },
  });
}
