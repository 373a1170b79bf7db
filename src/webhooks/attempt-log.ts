// Attempts take time-ordered UUIDs (version 7), as deliveries do (delivery-repo.ts says why).
import { v7 as timeOrderedUuid } from "uuid";
import { insertRows, query } from "../db/query.js";
import type { Writes } from "../db/statements.js";

/** One send's record, with the request it sent. */
export interface AttemptRecord {
  deliveryId: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  request: { headers: Record<string, string>; body: string };
}

/** Bytes of a request's body the log keeps at most: a longer body is cut there, and marked as cut. */
export const MAX_LOGGED_BODY_BYTES = 64 * 1024;

/**
 * Logs sends in one insert. A delivery that is gone (its subscription deleted meanwhile) would fail that insert
 * as a whole: then each send is logged alone, unless its delivery is gone.
 */
export async function insertAttempts(writes: Writes, attempts: readonly AttemptRecord[]): Promise<void> {
  const rows = attempts.map(({ request, ...attempt }) => ({
    id: timeOrderedUuid(),
    ...attempt,
    requestHeaders: JSON.stringify(request.headers),
    ...loggedBody(request.body),
  }));
  await writes
    .run(insertRows("WebhookDeliveryAttempt", rows))
    .catch(() => Promise.all(rows.map((row) => insertAttempt(writes, row))));
}

/** The body as the log keeps it: whole, or its first MAX_LOGGED_BODY_BYTES (never half a character). */
function loggedBody(body: string): { requestBody: string; requestBodyTruncated: boolean } {
  const bytes = Buffer.from(body);
  if (bytes.length <= MAX_LOGGED_BODY_BYTES) return { requestBody: body, requestBodyTruncated: false };
  const cut = bytes
    .subarray(0, MAX_LOGGED_BODY_BYTES)
    .toString()
    .replace(/\uFFFD+$/, "");
  return { requestBody: cut, requestBodyTruncated: true };
}

type AttemptRow = Omit<AttemptRecord, "request"> & { id: string; requestHeaders: string } & ReturnType<
    typeof loggedBody
  >;

async function insertAttempt(writes: Writes, row: AttemptRow): Promise<void> {
  await writes.run(
    query
      .insertInto("WebhookDeliveryAttempt")
      .columns([
        "id",
        "deliveryId",
        "startedAt",
        "durationMs",
        "statusCode",
        "error",
        "requestHeaders",
        "requestBody",
        "requestBodyTruncated",
      ])
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
            select.val(row.requestBody).as("requestBody"),
            select.val(row.requestBodyTruncated).as("requestBodyTruncated"),
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
