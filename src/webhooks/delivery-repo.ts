// Deliveries and attempts take time-ordered UUIDs (version 7), so that the new entries of their indexes (an
// attempt's own and its delivery's) land beside the previous ones. With random ones each settled delivery's
// entries took pages of their own: a settlement batch wrote about two more pages per delivery to SQLite's log.
import { sql } from "kysely";
import { v7 as timeOrderedUuid } from "uuid";
import {
  deleteBatch,
  insert,
  limitClause,
  placeholders,
  type Reads,
  type StatementTx,
  type Writes,
} from "../db/statements.js";
import type { Queryable, Tx } from "../db/tx.js";

export type DeliveryStatus = "pending" | "delivered" | "failed";

/**
 * Queues the event for every active subscription following the ramp's quote or widget session that wants
 * this event type; in the event's own transaction, so a delivery exists exactly when its event does.
 */
export async function enqueueDeliveries(
  tx: StatementTx,
  event: { eventId: string; eventType: string },
  ramp: { quoteId: string; sessionId: string | null },
  at: Date,
): Promise<void> {
  const following = await tx.all<{ id: string; events: string }>(
    `SELECT "id", "events" FROM "WebhookSubscription"
    WHERE "isActive" = TRUE AND ("quoteId" = $1 ${ramp.sessionId ? `OR "sessionId" = $2` : ""})`,
    ramp.sessionId ? [ramp.quoteId, ramp.sessionId] : [ramp.quoteId],
  );
  const wanting = following.filter((subscription) => subscription.events.split(",").includes(event.eventType));
  if (wanting.length === 0) return;
  await tx.run(
    ...insert(
      "WebhookDelivery",
      wanting.map((subscription) => ({
        id: timeOrderedUuid(),
        subscriptionId: subscription.id,
        eventId: event.eventId,
        status: "pending",
        nextAttemptAt: at,
        createdAt: at,
        updatedAt: at,
      })),
    ),
  );
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
 * Up to `limit` due deliveries, earliest first, none to the URLs in `skip` (their share of the send slots is
 * taken): what the next claim may take. An index range scan that stops at `limit` (with what `skip` passes over);
 * `dueAfter` starts the range later, so what fell due since a look can be read without the skipped backlog.
 */
export async function findDueDeliveries(
  tx: Pick<StatementTx, "all">,
  due: { now: Date; limit: number; skip: readonly string[]; dueAfter?: Date },
): Promise<{ id: string; url: string }[]> {
  const skipped = due.skip.length ? `AND "WebhookSubscription"."url" NOT IN (${placeholders(due.skip.length, 2)})` : "";
  const after = due.dueAfter ? `AND "WebhookDelivery"."nextAttemptAt" > $${due.skip.length + 2}` : "";
  return tx.all(
    `SELECT "WebhookDelivery"."id", "WebhookSubscription"."url"
    FROM "WebhookDelivery" JOIN "WebhookSubscription" ON "WebhookSubscription"."id" = "WebhookDelivery"."subscriptionId"
    WHERE "WebhookDelivery"."status" = 'pending' AND "WebhookDelivery"."nextAttemptAt" <= $1 ${after} ${skipped}
    ORDER BY "WebhookDelivery"."nextAttemptAt" ${limitClause(due.limit)}`,
    [due.now, ...due.skip, ...(due.dueAfter ? [due.dueAfter] : [])],
  );
}

/**
 * The queue as of `now`: deliveries not yet delivered nor given up, those of them due and claimed by no worker
 * (a claim moves a delivery past `now`), and how long the earliest-due has been due. One index range scan.
 */
export async function deliveryBacklog(
  reads: Reads,
  now: Date,
): Promise<{ pending: number; due: number; longestWaitMs: number }> {
  const row = await reads.one<{
    pending: number | string;
    due: number | string | null;
    oldestDueAt: Date | string | null;
  }>(
    `SELECT COUNT(*) AS "pending", SUM(CASE WHEN "nextAttemptAt" <= $1 THEN 1 ELSE 0 END) AS "due",
      MIN(CASE WHEN "nextAttemptAt" <= $1 THEN "nextAttemptAt" END) AS "oldestDueAt"
    FROM "WebhookDelivery" WHERE "status" = 'pending'`,
    [now],
  );
  // Aggregates come back as the engine gives them: PostgreSQL's counts as text, SQLite's date as its stored text.
  const oldestDueAt = row?.oldestDueAt ?? null;
  return {
    pending: Number(row?.pending ?? 0),
    due: Number(row?.due ?? 0),
    longestWaitMs: oldestDueAt === null ? 0 : Math.max(0, now.getTime() - new Date(oldestDueAt).getTime()),
  };
}

/**
 * Claims those of `ids` that are still due under `token`, moving them to `leaseUntil` so no other worker
 * takes them meanwhile; returns what sending them needs. On PostgreSQL workers skip each other's locked rows
 * (FOR UPDATE SKIP LOCKED); SQLite has one writer, where the conditional update alone decides.
 */
export async function claimDeliveries(
  tx: Pick<StatementTx, "all" | "run">,
  engine: "postgresql" | "sqlite",
  claim: { ids: readonly string[]; now: Date; leaseUntil: Date; token: string },
): Promise<ClaimedDelivery[]> {
  const { ids, now, leaseUntil, token } = claim;
  if (ids.length === 0) return [];
  const list = placeholders(ids.length, 4);
  const stillDue =
    engine === "postgresql"
      ? `"id" IN (SELECT "id" FROM "WebhookDelivery"
          WHERE "id" IN (${list}) AND "status" = 'pending' AND "nextAttemptAt" <= $3 FOR UPDATE SKIP LOCKED)`
      : // `+` keeps SQLite on the primary key: without statistics it would walk the (status, nextAttemptAt)
        // index through every due delivery to find these few, five times the cost under a backlog.
        `"id" IN (${list}) AND +"status" = 'pending' AND +"nextAttemptAt" <= $3`;
  // Not "updatedAt": retention reads it as when a delivery settled, and a claim settles nothing (nor need it
  // move the delivery in the (status, updatedAt) index).
  await tx.run(`UPDATE "WebhookDelivery" SET "nextAttemptAt" = $1, "claimToken" = $2 WHERE ${stillDue}`, [
    leaseUntil,
    token,
    now,
    ...ids,
  ]);
  const rows = await tx.all<Omit<ClaimedDelivery, "subscriptionActive"> & { isActive: boolean }>(
    `SELECT "WebhookDelivery"."id", "WebhookDelivery"."subscriptionId", "WebhookDelivery"."roundAttempts",
      "WebhookSubscription"."url", "WebhookSubscription"."isActive", "RampEvent"."body"
    FROM "WebhookDelivery" JOIN "WebhookSubscription" ON "WebhookSubscription"."id" = "WebhookDelivery"."subscriptionId"
      JOIN "RampEvent" ON "RampEvent"."eventId" = "WebhookDelivery"."eventId"
    WHERE "WebhookDelivery"."id" IN (${placeholders(ids.length, 2)}) AND "WebhookDelivery"."claimToken" = $1`,
    [token, ...ids],
  );
  return rows.map(({ isActive, ...row }) => ({ subscriptionActive: isActive, ...row }));
}

/**
 * Extends the leases of these claims (delivery id and claim token) that are still held, to `leaseUntil`.
 * A token is drawn for each claim and never reused, so a row with one of these ids and one of these
 * tokens is one of these claims.
 */
export async function renewClaims(
  writes: Writes,
  claims: readonly (readonly [id: string, token: string])[],
  leaseUntil: Date,
): Promise<void> {
  const ids = claims.map(([id]) => id);
  const tokens = [...new Set(claims.map(([, token]) => token))];
  await writes.run(
    `UPDATE "WebhookDelivery" SET "nextAttemptAt" = $1
    WHERE "status" = 'pending' AND "id" IN (${placeholders(ids.length, 2)})
      AND "claimToken" IN (${placeholders(tokens.length, 2 + ids.length)})`,
    [leaseUntil, ...ids, ...tokens],
  );
}

/** Gives a claim up unsent: the delivery is due again at `at`, for any worker, with no attempt counted. */
export async function releaseClaim(writes: Writes, delivery: { id: string; token: string }, at: Date): Promise<void> {
  await writes.run(
    `UPDATE "WebhookDelivery" SET "nextAttemptAt" = $1, "claimToken" = NULL, "updatedAt" = $1
    WHERE "id" = $2 AND "claimToken" = $3 AND "status" = 'pending'`,
    [at, delivery.id, delivery.token],
  );
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
  writes: Writes,
  delivery: { id: string; token: string },
  outcome: { status: DeliveryStatus; retryAt: Date | null; at: Date },
): Promise<boolean> {
  const changed = await writes.run(
    `UPDATE "WebhookDelivery" SET "status" = $1, "roundAttempts" = "roundAttempts" + 1, "nextAttemptAt" = $2, "claimToken" = NULL,
      "deliveredAt" = CASE WHEN $1 = 'delivered' THEN $3 ELSE "deliveredAt" END, "updatedAt" = $3
    WHERE "id" = $4 AND "claimToken" = $5`,
    [outcome.status, outcome.retryAt, outcome.at, delivery.id, delivery.token],
  );
  return changed === 1;
}

/** Logs a send, unless its delivery is gone (the subscription was deleted meanwhile). */
export async function insertAttempt(writes: Writes, deliveryId: string, attempt: AttemptRecord): Promise<void> {
  await writes.run(
    `INSERT INTO "WebhookDeliveryAttempt" ("id", "deliveryId", "startedAt", "durationMs", "statusCode", "error")
    SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM "WebhookDelivery" WHERE "id" = $2)`,
    [timeOrderedUuid(), deliveryId, attempt.startedAt, attempt.durationMs, attempt.statusCode, attempt.error],
  );
}

/** A delivered event ends a subscription's run of failures. */
export async function resetFailures(writes: Writes, subscriptionId: string): Promise<void> {
  await writes.run(
    `UPDATE "WebhookSubscription" SET "consecutiveFailures" = 0 WHERE "id" = $1 AND "consecutiveFailures" > 0`,
    [subscriptionId],
  );
}

/**
 * Counts one more failed delivery in a row; at `limit` the subscription is disabled and its undelivered
 * events are given up (register again to resume). The increment is the database's, so concurrent
 * failures all count. True when this call disabled it.
 */
export async function countFailure(tx: Tx, subscriptionId: string, limit: number, at: Date): Promise<boolean> {
  await tx.webhookSubscription.updateMany({
    where: { id: subscriptionId },
    data: { consecutiveFailures: { increment: 1 } },
  });
  const { count } = await tx.webhookSubscription.updateMany({
    where: { id: subscriptionId, isActive: true, consecutiveFailures: { gte: limit } },
    data: { isActive: false, disabledAt: at },
  });
  if (count === 0) return false;
  await failPending(tx, subscriptionId);
  return true;
}

/** Gives up a subscription's undelivered events (it was disabled); a send in flight no longer settles them. */
async function failPending(tx: Queryable, subscriptionId: string): Promise<void> {
  await tx.webhookDelivery.updateMany({
    where: { subscriptionId, status: "pending" },
    data: { status: "failed", nextAttemptAt: null, claimToken: null },
  });
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

/**
 * Deletes up to `limit` deliveries delivered or given up before `settledBefore`, their attempts with them
 * (the log shows a delivery with its attempts). A pending one is still on its way and stays; a redelivery
 * makes a settled one pending again. How many went.
 */
export function pruneSettledDeliveries(writes: Writes, settledBefore: Date, limit: number): Promise<number> {
  return deleteBatch(writes, {
    table: "WebhookDelivery",
    key: "id",
    where: (row) =>
      row.and([row("status", "in", [sql.lit("delivered"), sql.lit("failed")]), row("updatedAt", "<", settledBefore)]),
    limit,
  });
}
