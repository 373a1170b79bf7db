// Attempts take time-ordered UUIDs (version 7), as deliveries do (delivery-repo.ts says why).
import { v7 as timeOrderedUuid } from "uuid";
import { insertRows, query } from "../db/query.js";
import type { Writes } from "../db/statements.js";

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
 * Logs sends in one insert. A delivery that is gone (its subscription deleted meanwhile) would fail that insert
 * as a whole: then each send is logged alone, unless its delivery is gone.
 */
export async function insertAttempts(writes: Writes, attempts: readonly AttemptRecord[]): Promise<void> {
  const rows = attempts.map(({ requestHeaders, ...attempt }) => ({
    id: timeOrderedUuid(),
    ...attempt,
    requestHeaders: JSON.stringify(requestHeaders),
  }));
  await writes
    .run(insertRows("WebhookDeliveryAttempt", rows))
    .catch(() => Promise.all(rows.map((row) => insertAttempt(writes, row))));
}

type AttemptRow = Omit<AttemptRecord, "requestHeaders"> & { id: string; requestHeaders: string };

async function insertAttempt(writes: Writes, row: AttemptRow): Promise<void> {
  await writes.run(
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
