import { sql } from "kysely";
import { deleteBatch, type Writes } from "../db/statements.js";
import type { Queryable } from "../db/tx.js";

/** Claims a key for a first request (a unique row: a concurrent claim fails on it). */
export function insertClaim(
  db: Queryable,
  data: { id: string; scope: string; key: string; requestHash: string; lockedUntil: Date },
) {
  return db.idempotencyRecord.create({ data: { ...data, state: "in_flight" } });
}

export function findRecord(db: Queryable, scope: string, key: string) {
  return db.idempotencyRecord.findUnique({ where: { scope_key: { scope, key } } });
}

/** Takes over an abandoned claim, if no other request did meanwhile (the claim is as it was read). */
export async function renewClaim(
  db: Queryable,
  id: string,
  seenLockedUntil: Date,
  lockedUntil: Date,
): Promise<boolean> {
  const { count } = await db.idempotencyRecord.updateMany({
    where: { id, state: "in_flight", lockedUntil: seenLockedUntil },
    data: { lockedUntil },
  });
  return count === 1;
}

/**
 * A claim as its request holds it. Its `lockedUntil` fences it: a takeover moves it, so a first request
 * that outlived its claim can no longer finish or release the one that took over.
 */
export interface HeldClaim {
  id: string;
  lockedUntil: Date;
}

/** Stores the first answer under a claim still held (nothing when another request took it over). */
export async function finishClaim(
  db: Queryable,
  claim: HeldClaim,
  responseStatus: number,
  responseBody: string,
): Promise<void> {
  await db.idempotencyRecord.updateMany({
    where: { ...claim, state: "in_flight" },
    data: { state: "done", responseStatus, responseBody },
  });
}

/** Releases a claim still held whose request failed unexpectedly, so it can be retried. */
export async function releaseClaim(db: Queryable, claim: HeldClaim): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { ...claim, state: "in_flight" } });
}

/**
 * Deletes up to `limit` records whose first request finished before `settledBefore`, and claims abandoned before
 * then (their process died mid-request; fenced, so they could never be finished): a retry under their key runs
 * afresh. A claim held now, or abandoned since, is kept (its request may yet store its answer, or a retry take it
 * over). How many went.
 */
export function pruneSettledRecords(writes: Writes, settledBefore: Date, limit: number): Promise<number> {
  return deleteBatch(writes, {
    table: "IdempotencyRecord",
    key: "id",
    where: (row) =>
      row.or([
        row.and([row("state", "=", sql.lit("done")), row("updatedAt", "<", settledBefore)]),
        row.and([row("state", "=", sql.lit("in_flight")), row("lockedUntil", "<", settledBefore)]),
      ]),
    limit,
  });
}
