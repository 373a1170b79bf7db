import { randomUUID } from "node:crypto";
import { z } from "zod";
import { insertRows, query, rowLimit } from "../db/query.js";
import type { Reads, StatementTx } from "../db/statements.js";
import { idField, named, outputObject } from "../output.js";
import { RAMP_STATUSES, type RampPhase, type RampStatus } from "../reference-data/ramp-phases.js";

/** TRANSACTION_CREATED and STATUS_CHANGE go to webhooks and `rampEvents`; PHASE_CHANGE feeds `rampProgress`. */
export const WEBHOOK_EVENT_TYPES = ["TRANSACTION_CREATED", "STATUS_CHANGE"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type RampEventType = WebhookEventType | "PHASE_CHANGE";

/** The ramp as an event describes it. */
export interface EventRamp {
  id: string;
  quoteId: string;
  sessionId: string | null;
  type: string;
  status: RampStatus;
  currentPhase: RampPhase;
}

const rampEventPayload = outputObject(
  "RampEventPayload",
  "What an event says about its ramp (the webhook body's payload).",
  {
    quoteId: idField("The quote the ramp was registered from."),
    transactionId: idField("The ramp's id."),
    sessionId: idField("The widget session the ramp was registered with.").nullable(),
    transactionStatus: named("RampStatus", z.enum(RAMP_STATUSES)).describe("The ramp's status as of the event."),
    transactionType: named("RampDirection", z.string()).describe("Whether the ramp is an onramp or an offramp."),
  },
);

/** The exact body webhook receivers and `rampEvents` subscribers get (CONTRACT.md, Webhooks). */
export const webhookEventBody = outputObject("RampEvent", "A ramp event, exactly as webhook receivers get it.", {
  eventId: idField("Stable across redeliveries."),
  eventType: named("WebhookEventType", z.enum(WEBHOOK_EVENT_TYPES)).describe("What happened to the ramp."),
  timestamp: z.string().describe("ISO 8601 UTC with milliseconds."),
  payload: rampEventPayload.describe("The ramp the event reports on, as of the event."),
});
export type WebhookEventBody = z.output<typeof webhookEventBody>;

/** Every event's body: a webhook's, or a phase change's (rampProgress only), whose payload also names the phase entered. */
export type RampEventBody = Omit<WebhookEventBody, "eventType" | "payload"> & {
  eventType: RampEventType;
  payload: WebhookEventBody["payload"] & { currentPhase?: RampPhase };
};

/** Writes the webhook deliveries an event owes, in the event's transaction: the webhooks module provides it. */
export type OwedDeliveries = (
  tx: StatementTx,
  event: { eventId: string; eventType: WebhookEventType },
  ramp: { quoteId: string; sessionId: string | null },
  at: Date,
) => Promise<void>;

/** The ramp events' outbox, as the ramps module writes to it. */
export class RampEventOutbox {
  constructor(private readonly owedDeliveries: OwedDeliveries) {}

  /**
   * Writes an event, and the webhook deliveries it owes, in the caller's transaction: they exist exactly when
   * the change they report does. Tell the readers with `OutboxSignal.committed()` after the commit.
   */
  async record(tx: StatementTx, ramp: EventRamp, eventType: RampEventType, at: Date): Promise<RampEventBody> {
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
    await tx.run(
      insertRows("RampEvent", {
        eventId: body.eventId,
        rampId: ramp.id,
        eventType,
        body: JSON.stringify(body),
        createdAt: at,
      }),
    );
    if (eventType !== "PHASE_CHANGE") await this.owedDeliveries(tx, { eventId: body.eventId, eventType }, ramp, at);
    return body;
  }
}

/** An outbox entry with the ramp's subject, so readers can tell who may see it. */
export interface OutboxEntry {
  sequence: number;
  rampId: string;
  /** The ramp's subject profile. */
  profileId: string;
  body: RampEventBody;
}

/**
 * What a read of the outbox after a sequence number found, in order (the feed's and the tests' reading position):
 * the ramp events, and the sequence numbers of the webhook test events among them, which no ramp's reader gets.
 * One prepared read.
 */
export async function readOutbox(
  reads: Reads,
  afterSequence: number,
  limit: number,
): Promise<{ entries: OutboxEntry[]; passedOver: number[] }> {
  const rows = await reads.all(
    query
      .selectFrom("RampEvent")
      .leftJoin("Ramp", "Ramp.id", "RampEvent.rampId")
      .select(["RampEvent.sequence", "Ramp.id as rampId", "Ramp.profileId", "RampEvent.body"])
      .where("RampEvent.sequence", ">", afterSequence)
      .orderBy("RampEvent.sequence")
      .limit(rowLimit(limit)),
  );
  const entries: OutboxEntry[] = [];
  const passedOver: number[] = [];
  for (const { sequence, rampId, profileId, body } of rows) {
    if (rampId === null || profileId === null) passedOver.push(sequence);
    else entries.push({ sequence, rampId, profileId, body: JSON.parse(body) as RampEventBody });
  }
  return { entries, passedOver };
}

/** The newest sequence number written so far (0 for an empty outbox). */
export async function lastOutboxSequence(reads: Reads): Promise<number> {
  const newest = await reads.one(
    query.selectFrom("RampEvent").select((event) => event.fn.max<number | null>("sequence").as("sequence")),
  );
  return newest?.sequence ?? 0;
}
