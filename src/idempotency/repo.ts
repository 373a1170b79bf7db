import { sql } from "kysely";
import { deleteBatch, type Writes } from "../db/statements.js";
import { Repository } from "../db/repository.js";

/**
 * A claim as its request holds it. Its `lockedUntil` fences it: a takeover moves it, so a first request
 * that outlived its claim can no longer finish or release the one that took over.
 */
export interface HeldClaim {
  id: string;
  lockedUntil: Date;
}

/** Idempotency records: what the idempotency service claims, reads and settles. */
export class IdempotencyRepository extends Repository {
  /** Claims a key for a first request (a unique row: a concurrent claim fails on it). */
  insertClaim(data: { id: string; scope: string; key: string; requestHash: string; lockedUntil: Date }) {
    return this.db.idempotencyRecord.create({ data: { ...data, state: "in_flight" } });
  }

  findRecord(scope: string, key: string) {
    return this.db.idempotencyRecord.findUnique({ where: { scope_key: { scope, key } } });
  }

  /** Takes over an abandoned claim, if no other request did meanwhile (the claim is as it was read). */
  async renewClaim(id: string, seenLockedUntil: Date, lockedUntil: Date): Promise<boolean> {
    const { count } = await this.db.idempotencyRecord.updateMany({
      where: { id, state: "in_flight", lockedUntil: seenLockedUntil },
      data: { lockedUntil },
    });
    return count === 1;
  }

  /** Stores the first answer under a claim still held (nothing when another request took it over). */
  async finishClaim(claim: HeldClaim, responseStatus: number, responseBody: string): Promise<void> {
    await this.db.idempotencyRecord.updateMany({
      where: { ...claim, state: "in_flight" },
      data: { state: "done", responseStatus, responseBody },
    });
  }

  /** Releases a claim still held whose request failed unexpectedly, so it can be retried. */
  async releaseClaim(claim: HeldClaim): Promise<void> {
    await this.db.idempotencyRecord.deleteMany({ where: { ...claim, state: "in_flight" } });
  }
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
