// Attempts take time-ordered UUIDs (version 7), as deliveries do (delivery-repo.ts says why).
import { v7 as timeOrderedUuid } from "uuid";
import { insertRows, query } from "../db/query.js";
import type { StatementTx } from "../db/statements.js";

/**
 * One send's record, with the headers it sent. Not its body: that is the event's (RampEvent.body), sent byte for
 * byte, which the log reads from there.
 */
export interface AttemptRecord {
  deliveryId: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  requestHeaders: Record<string, string>;
}

/**
 * Logs sends in one insert, in the transaction that settles them. A delivery that is gone (its subscription deleted
 * while it was sent) fails that insert, and with it the transaction: `insertAttemptsOfExisting` logs the others.
 */
export async function insertAttempts(tx: Pick<StatementTx, "run">, attempts: readonly AttemptRecord[]): Promise<void> {
  await tx.run(insertRows("WebhookDeliveryAttempt", attempts.map(attemptRow)));
}

/** Logs each send alone, unless its delivery is gone: for a transaction in which `insertAttempts` failed. */
export async function insertAttemptsOfExisting(
  tx: Pick<StatementTx, "run">,
  attempts: readonly AttemptRecord[],
): Promise<void> {
  for (const attempt of attempts) await insertAttempt(tx, attemptRow(attempt));
}

function attemptRow({ requestHeaders, ...attempt }: AttemptRecord): AttemptRow {
  return { id: timeOrderedUuid(), ...attempt, requestHeaders: JSON.stringify(requestHeaders) };
}

type AttemptRow = Omit<AttemptRecord, "requestHeaders"> & { id: string; requestHeaders: string };

async function insertAttempt(tx: Pick<StatementTx, "run">, row: AttemptRow): Promise<void> {
  await tx.run(
    query
      .insertInto("WebhookDeliveryAttempt")
      .columns(["id", "deliveryId", "startedAt", "durationMs", "statusCode", "error", "requestHeaders"])
      .expression(
        query
          .selectNoFrom((select) => [
            select.val(row.id).as("id"),
            select.val(row.deliveryId).as("deliveryId"),
            select.val(row.startedAt).as("startedAt"),
            select.val(row.durationMs).as("durationMs"),
            select.val(row.statusCode).as("statusCode"),
            select.val(row.error).as("error"),
            select.val(row.requestHeaders).as("requestHeaders"),
          ])
          .where((select) =>
            select.exists(
              select
                .selectFrom("WebhookDelivery")
                .select(select.lit(1).as("one"))
                .where("WebhookDelivery.id", "=", row.deliveryId),
            ),
          ),
      ),
  );
}
