import type { Tx } from "../db/tx.js";
import type { Pagination } from "../output.js";
import { insertAuditEvent, type AuditRepository } from "./repo.js";
import type { AuditEventQuery, AuditEventView, OperatorActor, OperatorChange } from "./types.js";

/**
 * Records an operator change. `tx` is the change's own transaction: the event exists exactly when the
 * change does, so a refused or failed change leaves none.
 */
export function recordOperatorChange(tx: Tx, actor: OperatorActor, change: OperatorChange): Promise<void> {
  return insertAuditEvent(tx, actor, change);
}

/** The operator's changes as the admin service reads them. */
export class AuditEvents {
  constructor(private readonly repository: AuditRepository) {}

  /** A page of the operator's changes, newest first. */
  async read(query: AuditEventQuery): Promise<{ events: AuditEventView[]; pagination: Pagination }> {
    const { rows, total } = await this.repository.listAuditEvents(query);
    return { events: rows, pagination: { limit: query.limit, offset: query.offset, total } };
  }
}
