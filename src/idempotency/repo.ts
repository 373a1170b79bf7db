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

/** Stores the first answer under a claim. */
export async function finishClaim(
  db: Queryable,
  id: string,
  responseStatus: number,
  responseBody: string,
): Promise<void> {
  await db.idempotencyRecord.updateMany({
    where: { id, state: "in_flight" },
    data: { state: "done", responseStatus, responseBody },
  });
}

/** Releases a claim whose request failed unexpectedly, so it can be retried. */
export async function releaseClaim(db: Queryable, id: string): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { id, state: "in_flight" } });
}
