import type { Queryable, Tx } from "../db/tx.js";
import type { Pagination } from "../output.js";
import * as repo from "./repo.js";
import type { AuditEventQuery, AuditEventView, OperatorActor, OperatorChange } from "./types.js";

/**
 * Records an operator change. `tx` is the change's own transaction: the event exists exactly when the
 * change does, so a refused or failed change leaves none.
 */
export function recordOperatorChange(tx: Tx, actor: OperatorActor, change: OperatorChange): Promise<void> {
  return repo.insertAuditEvent(tx, actor, change);
}

/** A page of the operator's changes, newest first. */
export async function readAuditEvents(
  db: Queryable,
  query: AuditEventQuery,
): Promise<{ events: AuditEventView[]; pagination: Pagination }> {
  const { rows, total } = await repo.listAuditEvents(db, query);
  return { events: rows, pagination: { limit: query.limit, offset: query.offset, total } };
}
