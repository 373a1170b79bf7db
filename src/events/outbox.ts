import { randomUUID } from "node:crypto";
import type { Queryable, Tx } from "../db/tx.js";
import type { RampPhase, RampStatus } from "../ramps/phases.js";

/** TRANSACTION_CREATED and STATUS_CHANGE go to webhooks and `rampEvents`; PHASE_CHANGE feeds `rampProgress`. */
export const WEBHOOK_EVENT_TYPES = ["TRANSACTION_CREATED", "STATUS_CHANGE"] as const;
export type RampEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | "PHASE_CHANGE";

/** The ramp as an event describes it. */
export interface EventRamp {
  id: string;
  quoteId: string;
  sessionId: string | null;
  type: string;
  status: RampStatus;
  currentPhase: RampPhase;
}

/** The exact body webhook receivers and subscribers get (CONTRACT.md, Webhooks). */
export interface RampEventBody {
  eventId: string;
  eventType: RampEventType;
  timestamp: string;
  payload: {
    quoteId: string;
    transactionId: string;
    sessionId: string | null;
    transactionStatus: RampStatus;
    transactionType: string;
    /** PHASE_CHANGE only: the phase the ramp entered. */
    currentPhase?: RampPhase;
  };
}

/** Writes an event in the caller's transaction, so it exists exactly when the change it reports does. */
export async function recordRampEvent(tx: Tx, ramp: EventRamp, eventType: RampEventType, at: Date): Promise<RampEventBody> {
  const body: RampEventBody = {
    eventId: randomUUID(),
    eventType,
    timestamp: at.toISOString(),
    payload: {
      quoteId: ramp.quoteId,
      transactionId: ramp.id,
      sessionId: ramp.sessionId,
      transactionStatus: ramp.status,
      transactionType: ramp.type,
      ...(eventType === "PHASE_CHANGE" ? { currentPhase: ramp.currentPhase } : {}),
    },
  };
  await tx.rampEvent.create({ data: { eventId: body.eventId, rampId: ramp.id, eventType, body: JSON.stringify(body), createdAt: at } });
  return body;
}

/** Outbox entries after a sequence number, in order (the dispatcher's and the tests' reading position). */
export async function readOutbox(db: Queryable, afterSequence: number, limit: number) {
  const rows = await db.rampEvent.findMany({ where: { sequence: { gt: afterSequence } }, orderBy: { sequence: "asc" }, take: limit });
  return rows.map((row) => ({ sequence: row.sequence, rampId: row.rampId, body: JSON.parse(row.body) as RampEventBody }));
}
