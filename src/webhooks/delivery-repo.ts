// Deliveries and attempts take time-ordered UUIDs (version 7), so that the new entries of their indexes (an
// attempt's own and its delivery's) land beside the previous ones. With random ones each settled delivery's
// entries took pages of their own: a settlement batch wrote about two more pages per delivery to SQLite's log.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Prisma } from "../generated/prisma/client.js";
import { v7 as timeOrderedUuid } from "uuid";
import { insertRows, query, rowLimit } from "../db/query.js";
import { deleteBatch, type Reads, type RowCondition, type StatementTx, type Writes } from "../db/statements.js";
import { isMissingRelation, type Queryable, type Tx } from "../db/tx.js";
import { WEBHOOK_TEST_EVENT } from "./types.js";

// A constant in a condition is written into the SQL text (`sql.lit`), not bound: the planner sees it.

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
  const { quoteId, sessionId } = ramp;
  const following = await tx.all(
    query
      .selectFrom("WebhookSubscription")
      .select(["id", "events"])
      .where("isActive", "=", sql.lit(true))
      .where((row) =>
        sessionId
          ? row.or([row("quoteId", "=", quoteId), row("sessionId", "=", sessionId)])
          : row("quoteId", "=", quoteId),
      ),
  );
  const wanting = following.filter((subscription) => subscription.events.split(",").includes(event.eventType));
  if (wanting.length === 0) return;
  await tx.run(
    insertRows(
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
  /** The event's type: a test event's failure does not count towards disabling the subscription. */
  eventType: string;
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
  const { now, limit, skip, dueAfter } = due;
  let look = query
    .selectFrom("WebhookDelivery")
    .innerJoin("WebhookSubscription", "WebhookSubscription.id", "WebhookDelivery.subscriptionId")
    .select(["WebhookDelivery.id", "WebhookSubscription.url"])
    .where("WebhookDelivery.status", "=", sql.lit("pending"))
    .where("WebhookDelivery.nextAttemptAt", "<=", now);
  if (skip.length > 0) look = look.where("WebhookSubscription.url", "not in", skip);
  if (dueAfter) look = look.where("WebhookDelivery.nextAttemptAt", ">", dueAfter);
  return tx.all(look.orderBy("WebhookDelivery.nextAttemptAt").limit(rowLimit(limit)));
}

/**
 * The queue as of `now`: deliveries not yet delivered nor given up, those of them due and claimed by no worker
 * (a claim moves a delivery past `now`), and how long the earliest-due has been due. One index range scan.
 */
export async function deliveryBacklog(
  reads: Reads,
  now: Date,
): Promise<{ pending: number; due: number; longestWaitMs: number }> {
  const row = await reads.one(
    query
      .selectFrom("WebhookDelivery")
      .select((delivery) => {
        const isDue = delivery.case().when("nextAttemptAt", "<=", now);
        return [
          delivery.fn.countAll().as("pending"),
          delivery.fn.sum(isDue.then(delivery.lit(1)).else(delivery.lit(0)).end()).as("due"),
          // An expression has no declared type: SQLite gives the date as its stored text.
          delivery.fn
            .min(isDue.then(delivery.ref("nextAttemptAt")).end())
            .$castTo<Date | string | null>()
            .as("oldestDueAt"),
        ];
      })
      .where("status", "=", sql.lit("pending")),
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
  tx: Pick<StatementTx, "all">,
  engine: "postgresql" | "sqlite",
  claim: { ids: readonly string[]; now: Date; leaseUntil: Date; token: string },
): Promise<ClaimedDelivery[]> {
  const { ids, now, leaseUntil, token } = claim;
  if (ids.length === 0) return [];
  const stillDue: RowCondition<"WebhookDelivery"> =
    engine === "postgresql"
      ? (delivery) =>
          delivery(
            "id",
            "in",
            delivery
              .selectFrom("WebhookDelivery")
              .select("id")
              .where("id", "in", ids)
              .where("status", "=", sql.lit("pending"))
              .where("nextAttemptAt", "<=", now)
              .forUpdate()
              .skipLocked(),
          )
      : // `+` keeps SQLite on the primary key: without statistics it would walk the (status, nextAttemptAt)
        // index through every due delivery to find these few, five times the cost under a backlog.
        (delivery) =>
          delivery.and([
            delivery("id", "in", ids),
            delivery(sql<string>`+${delivery.ref("status")}`, "=", sql.lit("pending")),
            delivery(sql<Date | null>`+${delivery.ref("nextAttemptAt")}`, "<=", now),
          ]);
  // Not "updatedAt": retention reads it as when a delivery settled, and a claim settles nothing (nor need it
  // move the delivery in the (status, updatedAt) index). One statement, which answers what sending needs.
  const claimed = await tx.all(
    query
      .updateTable("WebhookDelivery")
      .set({ nextAttemptAt: leaseUntil, claimToken: token })
      .where(stillDue)
      .returning((delivery) => {
        const subscription = delivery
          .selectFrom("WebhookSubscription")
          .whereRef("WebhookSubscription.id", "=", "WebhookDelivery.subscriptionId");
        const event = delivery.selectFrom("RampEvent").whereRef("RampEvent.eventId", "=", "WebhookDelivery.eventId");
        return [
          "id",
          "subscriptionId",
          "roundAttempts",
          subscription.select("url").$asScalar().as("url"),
          subscription.select("isActive").$asScalar().as("subscriptionActive"),
          event.select("eventType").$asScalar().as("eventType"),
          event.select("body").$asScalar().as("body"),
        ];
      }),
  );
  // SQLite gives a subquery's boolean as its stored 0 or 1: the value has no declared type to be read by.
  return claimed.map((delivery) => ({ ...delivery, subscriptionActive: Boolean(delivery.subscriptionActive) }));
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
    query
      .updateTable("WebhookDelivery")
      .set("nextAttemptAt", leaseUntil)
      .where("status", "=", sql.lit("pending"))
      .where("id", "in", ids)
      .where("claimToken", "in", tokens),
  );
}

/** Gives a claim up unsent: the delivery is due again at `at`, for any worker, with no attempt counted. */
export async function releaseClaim(writes: Writes, delivery: { id: string; token: string }, at: Date): Promise<void> {
  await writes.run(
    query
      .updateTable("WebhookDelivery")
      .set({ nextAttemptAt: at, claimToken: null, updatedAt: at })
      .where("id", "=", delivery.id)
      .where("claimToken", "=", delivery.token)
      .where("status", "=", sql.lit("pending")),
  );
}

/** What a settlement records: the delivery's new status, when it is due again, and when it settled. */
export interface Settled {
  status: DeliveryStatus;
  retryAt: Date | null;
  at: Date;
}

/**
 * Settles claimed deliveries alike, each while its claim is still its token's: delivered, due again at `retryAt`,
 * or failed (retryAt null). How many it settled: the others' claims lapsed, or they are gone (their subscription
 * deleted). One statement for them all: on PostgreSQL each statement is a round trip and a commit of its own.
 */
export async function settleDeliveries(
  writes: Pick<StatementTx, "run">,
  claims: readonly { id: string; token: string }[],
  outcome: Settled,
): Promise<number> {
  return writes.run(
    query
      .updateTable("WebhookDelivery")
      .set((row) => ({
        status: outcome.status,
        roundAttempts: row("roundAttempts", "+", row.lit(1)),
        nextAttemptAt: outcome.retryAt,
        claimToken: null,
        ...(outcome.status === "delivered" && { deliveredAt: outcome.at }),
        updatedAt: outcome.at,
      }))
      .where((row) =>
        row.or(claims.map(({ id, token }) => row.and([row("id", "=", id), row("claimToken", "=", token)]))),
      ),
  );
}

/** A delivered event ends its subscription's run of failures. */
export async function resetFailures(
  writes: Pick<StatementTx, "run">,
  subscriptionIds: readonly string[],
): Promise<void> {
  await writes.run(
    query
      .updateTable("WebhookSubscription")
      .set("consecutiveFailures", sql.lit(0))
      .where("id", "in", subscriptionIds)
      .where("consecutiveFailures", ">", sql.lit(0)),
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

/**
 * A delivery as the log shows it: its event's type and body (every attempt sent that body, byte for byte) and every
 * attempt, oldest first. The ORM reads each relation for a whole page at once, never per delivery.
 */
const asLogged = {
  event: { select: { eventType: true, body: true } },
  attempts: { orderBy: [{ startedAt: "asc" }, { id: "asc" }] },
} satisfies Prisma.WebhookDeliveryInclude;

/** A subscription's deliveries, newest first, as the log shows them. */
export function listDeliveries(db: Queryable, subscriptionId: string, page: { limit: number; offset: number }) {
  return db.webhookDelivery.findMany({
    where: { subscriptionId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: page.offset,
    take: page.limit,
    include: asLogged,
  });
}
export type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>[number];

export function countDeliveries(db: Queryable, subscriptionId: string): Promise<number> {
  return db.webhookDelivery.count({ where: { subscriptionId } });
}

export function findDelivery(db: Queryable, id: string, subscriptionId: string) {
  return db.webhookDelivery.findFirst({
    where: { id, subscriptionId },
    include: asLogged,
  });
}

/**
 * Queues a test event for the subscription: the event (which reports on no ramp) and its one delivery, written
 * together, due now. The delivery, as the log shows it; null when the subscription was deleted since it was read.
 */
export async function enqueueTestDelivery(
  db: Queryable,
  subscription: { id: string; quoteId: string | null; sessionId: string | null },
  at: Date,
) {
  const eventId = randomUUID();
  const body = {
    eventId,
    eventType: WEBHOOK_TEST_EVENT,
    timestamp: at.toISOString(),
    payload: {
      test: true,
      webhookId: subscription.id,
      quoteId: subscription.quoteId,
      sessionId: subscription.sessionId,
    },
  };
  const created = db.webhookDelivery.create({
    data: {
      id: timeOrderedUuid(),
      subscription: { connect: { id: subscription.id } },
      event: { create: { eventId, eventType: WEBHOOK_TEST_EVENT, body: JSON.stringify(body), createdAt: at } },
      status: "pending",
      nextAttemptAt: at,
      createdAt: at,
      updatedAt: at,
    },
    include: asLogged,
  });
  return created.catch((error: unknown) => {
    if (isMissingRelation(error)) return null;
    throw error;
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
