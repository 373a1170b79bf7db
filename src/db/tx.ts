import { PrismaClientKnownRequestError } from "@prisma/client/runtime/client";
import type { Prisma } from "../generated/prisma/client.js";
import type { Db } from "./client.js";
import { retryingLostRaces } from "./statements.js";

export type Tx = Prisma.TransactionClient;
/** A repository function runs on the client or inside a transaction alike. */
export type Queryable = Db | Tx;

/**
 * Runs `work` in one interactive transaction, retrying when the database reports a write conflict or
 * deadlock (P2034), so callers can rely on row locks and conditional updates under contention.
 */
export function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return retryingLostRaces(
    () => db.$transaction(work, { maxWait: 15_000, timeout: 15_000 }),
    (error) => isKnownError(error, "P2034"),
  );
}

function isKnownError(error: unknown, code: string): boolean {
  return error instanceof PrismaClientKnownRequestError && error.code === code;
}

/**
 * Whether a write failed on a unique constraint: the one place that knows how the ORM (P2002) and the
 * prepared statements' drivers (SQLite's constraint codes, PostgreSQL's 23505) say so.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (isKnownError(error, "P2002")) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/** Whether a write named a row to connect to that is not there (P2025): another request deleted it meanwhile. */
export function isMissingRelation(error: unknown): boolean {
  return isKnownError(error, "P2025");
}
