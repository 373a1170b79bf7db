import { v7 as timeOrderedUuid } from "uuid";
import type { Queryable } from "../db/tx.js";
import type { AuditEventQuery, AuditEventView, OperatorActor, OperatorChange } from "./types.js";
import { Repository } from "../db/repository.js";

/**
 * The only database access for audit events: this insert, in each change's own transaction (recordOperatorChange),
 * and the operator's reads (AuditRepository).
 */
export async function insertAuditEvent(db: Queryable, actor: OperatorActor, change: OperatorChange): Promise<void> {
  await db.auditEvent.create({
    data: {
      // Time-ordered, so two changes within one millisecond still list newest first (the id breaks the tie).
      id: timeOrderedUuid(),
      actorChannel: actor.channel,
      ...(actor.channel === "cli"
        ? { actorOsUser: actor.osUser }
        : { actorRequestId: actor.requestId, actorClientAddress: actor.clientAddress }),
      action: change.action,
      targetType: change.targetType,
      targetId: change.targetId,
      details: JSON.stringify(change.details),
    },
  });
}

/** Audit events as the operator reads them (they are written in each change's own transaction, by insertAuditEvent). */
export class AuditRepository extends Repository {
  /** A page of the events `query` selects, newest first (equal times by id), and how many it selects in all. */
  async listAuditEvents({
    action,
    targetId,
    limit,
    offset,
  }: AuditEventQuery): Promise<{ rows: AuditEventView[]; total: number }> {
    const where = { ...(action && { action }), ...(targetId && { targetId }) };
    const [rows, total] = await Promise.all([
      this.db.auditEvent.findMany({ where, orderBy: [{ at: "desc" }, { id: "desc" }], take: limit, skip: offset }),
      this.db.auditEvent.count({ where }),
    ]);
    return {
      rows: rows.map((row) => ({
        id: row.id,
        at: row.at,
        actor: {
          channel: row.actorChannel as AuditEventView["actor"]["channel"],
          requestId: row.actorRequestId,
          clientAddress: row.actorClientAddress,
          osUser: row.actorOsUser,
        },
        action: row.action as AuditEventView["action"],
        targetType: row.targetType as AuditEventView["targetType"],
        targetId: row.targetId,
        details: JSON.parse(row.details) as AuditEventView["details"],
      })),
      total,
    };
  }
}
