import { sql, type Selectable } from "kysely";
import { insertRows, prepared, query, rowLimit } from "../db/query.js";
import type { Reads, StatementTx, Writes } from "../db/statements.js";
import type { Queryable } from "../db/tx.js";
import type { DB } from "../generated/kysely/database.js";
import { Prisma } from "../generated/prisma/client.js";
import { QUOTE_TERMS_FIELDS, type QuoteTermsField } from "../quotes/types.js";
import type { RampPhase } from "../reference-data/ramp-phases.js";

/** A ramp with its quote (as `quote`). */
export type RampRow = Prisma.RampGetPayload<{ include: { quote: true } }>;
export type RampErrorRow = Prisma.RampErrorLogGetPayload<object>;

/** What a caller sees of a ramp (its view), without what only changes need: the reads status polling and history repeat. */
const VIEW_FIELDS = [
  "id",
  "quoteId",
  "type",
  "currentPhase",
  "walletAddress",
  "sessionId",
  "fiatAccountId",
  "depositQrCode",
  "partnerPayment",
  "unsignedTxs",
  "transactionHash",
  "startDeadline",
  "startedAt",
  "createdAt",
  "updatedAt",
] as const satisfies readonly (keyof RampRow)[];
export type RampViewRow = Pick<RampRow, (typeof VIEW_FIELDS)[number]> & {
  quote: Pick<RampRow["quote"], QuoteTermsField>;
};

type RampColumns = Selectable<DB["Ramp"]>;
type QuoteColumns = Selectable<DB["Quote"]>;
/** A quote's column as a row of its ramp carries it: typed rows are flat, and a ramp has an id, a corridor... too. */
type QuoteColumnsOfRamp<Q extends keyof QuoteColumns> = { [F in Q as `quote_${F}`]: QuoteColumns[F] };
type QuoteSelection<Q extends keyof QuoteColumns> = { [F in Q]: `Quote.${F} as quote_${F}` }[Q];

/**
 * A ramp's fields and its quote's in one row: the select list (on Ramp joined to Quote), and the function that
 * makes each row the ramp with its quote as `quote`. That function is compiled once, an object literal of the
 * row's shape, as statements.ts builds rows: built field by field, 100 rows of a view took 120 µs instead of 16.
 */
function rampWithQuote<R extends keyof RampColumns & string, Q extends keyof QuoteColumns & string>(
  rampFields: readonly R[],
  quoteFields: readonly Q[],
) {
  const select = [
    ...rampFields.map((field) => `Ramp.${field}` as const),
    ...quoteFields.map((field) => `Quote.${field} as quote_${field}` as QuoteSelection<Q>),
  ];
  const read = (from: string) => `row[${JSON.stringify(from)}]`;
  const rampOf = new Function(
    "row",
    `return { ${rampFields.map((field) => `${JSON.stringify(field)}: ${read(field)}`).join(", ")},
      quote: { ${quoteFields.map((field) => `${JSON.stringify(field)}: ${read(`quote_${field}`)}`).join(", ")} } };`,
  ) as (row: Pick<RampColumns, R> & QuoteColumnsOfRamp<Q>) => Pick<RampColumns, R> & { quote: Pick<QuoteColumns, Q> };
  return { select, rampOf };
}

const RAMP_FIELDS = Object.values(Prisma.RampScalarFieldEnum);
const RAMP_WITH_QUOTE = rampWithQuote(RAMP_FIELDS, Object.values(Prisma.QuoteScalarFieldEnum));
// Every column a row carries costs its conversion to a value: a history page of whole rows took three times as long.
export const RAMP_VIEW = rampWithQuote(VIEW_FIELDS, QUOTE_TERMS_FIELDS);

/** Ramps joined to their quotes. */
const rampsWithQuotes = () => query.selectFrom("Ramp").innerJoin("Quote", "Quote.id", "Ramp.quoteId");

/** The ramp's columns the database fills in when a new ramp leaves them out. */
type RampDefaults =
  "additionalData" | "presignedTxs" | "transactionHash" | "startedAt" | "nextStepAt" | "retries" | "revision";
export type NewRamp = Omit<RampRow, "quote" | "updatedAt" | RampDefaults> & Partial<Pick<RampRow, RampDefaults>>;

/**
 * Inserts a ramp; the row comes back with `consumedQuote`, the quote as the same transaction left it, instead of
 * reading it again.
 */
export async function insertRamp(tx: StatementTx, ramp: NewRamp, consumedQuote: RampRow["quote"]): Promise<RampRow> {
  const inserted = await tx.one(
    query
      .insertInto("Ramp")
      .values({ updatedAt: ramp.createdAt, ...ramp })
      .returning(RAMP_FIELDS),
  );
  return { quote: consumedQuote, ...inserted! };
}

/** The subject's ramp, whole (for a change); another profile's is null (callers answer NOT_FOUND). */
export async function findRamp(reads: Reads, rampId: string, subjectProfileId: string): Promise<RampRow | null> {
  const row = await reads.one(subjectsRamp({ rampId, subjectProfileId }));
  return row ? RAMP_WITH_QUOTE.rampOf(row) : null;
}
const subjectsRamp = prepared((ramp: { rampId: string; subjectProfileId: string }) =>
  rampsWithQuotes()
    .select(RAMP_WITH_QUOTE.select)
    .where("Ramp.id", "=", ramp.rampId)
    .where("Ramp.profileId", "=", ramp.subjectProfileId),
);

/** The subject's ramp as its view needs it (status polling: one statement); another profile's is null. */
export async function findRampView(
  reads: Reads,
  rampId: string,
  subjectProfileId: string,
): Promise<RampViewRow | null> {
  const row = await reads.one(subjectsRampView({ rampId, subjectProfileId }));
  return row ? RAMP_VIEW.rampOf(row) : null;
}
const subjectsRampView = prepared((ramp: { rampId: string; subjectProfileId: string }) =>
  rampsWithQuotes()
    .select(RAMP_VIEW.select)
    .where("Ramp.id", "=", ramp.rampId)
    .where("Ramp.profileId", "=", ramp.subjectProfileId),
);

/** Error logs of several ramps at once (GraphQL lists): one statement per list. */
export function listErrorsOfRamps(reads: Reads, rampIds: readonly string[]): Promise<RampErrorRow[]> {
  if (rampIds.length === 0) return Promise.resolve([]);
  return reads.all(
    query
      .selectFrom("RampErrorLog")
      .select(Object.values(Prisma.RampErrorLogScalarFieldEnum))
      .where("rampId", "in", rampIds)
      .orderBy("createdAt", "asc")
      .orderBy("id", "asc"),
  );
}

export function insertError(
  tx: StatementTx,
  entry: { rampId: string; phase: RampPhase; error: string; details: string; recoverable: boolean; at: Date },
) {
  const { at, ...data } = entry;
  return tx.run(insertRows("RampErrorLog", { id: crypto.randomUUID(), ...data, createdAt: at }));
}

/** What a change may set on a ramp. */
export type RampChange = Partial<
  Pick<
    RampRow,
    | "currentPhase"
    | "status"
    | "startedAt"
    | "nextStepAt"
    | "retries"
    | "transactionHash"
    | "additionalData"
    | "presignedTxs"
    | "revision"
  >
>;

/**
 * Moves a ramp on only if it is still where the caller saw it (phase, the step it was due for, the revision):
 * the one guard that keeps concurrent starts, updates and processors from applying a change twice.
 */
export async function updateRampIf(
  tx: StatementTx,
  expected: {
    id: string;
    currentPhase: RampPhase;
    nextStepAt?: Date | null;
    revision?: number;
    startDeadlineAfter?: Date;
  },
  change: RampChange,
): Promise<RampRow | null> {
  const { id, currentPhase, nextStepAt, revision, startDeadlineAfter } = expected;
  // What the change leaves undefined, the builder leaves out.
  const changed = await tx.run(
    query
      .updateTable("Ramp")
      .set({ ...change, updatedAt: new Date() })
      .where("id", "=", id)
      .where("currentPhase", "=", currentPhase)
      .$if(nextStepAt === null, (update) => update.where("nextStepAt", "is", null))
      .$if(!!nextStepAt, (update) => update.where("nextStepAt", "=", nextStepAt!))
      .$if(revision !== undefined, (update) => update.where("revision", "=", revision!))
      .$if(startDeadlineAfter !== undefined, (update) => update.where("startDeadline", ">", startDeadlineAfter!)),
  );
  if (changed !== 1) return null;
  const row = await tx.one(rampById({ id }));
  return row ? RAMP_WITH_QUOTE.rampOf(row) : null;
}
const rampById = prepared((ramp: { id: string }) =>
  rampsWithQuotes().select(RAMP_WITH_QUOTE.select).where("Ramp.id", "=", ramp.id),
);

/**
 * Moves a step's due time if the step is still where the caller saw it. A processor claims a due step by moving it
 * past the partner call (the ramp leaves every work list until then, and of several claims only the first matches
 * `nextStepAt`), and gives it back the same way. No change a caller sees: updatedAt stays.
 */
export async function rescheduleStep(
  writes: Pick<Writes, "run">,
  step: { id: string; currentPhase: string; nextStepAt: Date },
  dueAt: Date,
  /** The order the step made at the partner, kept for the next steps to read (no caller sees it either). */
  partnerOrderId?: string,
): Promise<boolean> {
  const { id, currentPhase, nextStepAt } = step;
  const changed = await writes.run(
    query
      .updateTable("Ramp")
      .set((ramp) => ({
        nextStepAt: dueAt,
        partnerOrderId: ramp.fn.coalesce(ramp.val(partnerOrderId ?? null), ramp.ref("partnerOrderId")),
      }))
      .where("id", "=", id)
      .where("currentPhase", "=", currentPhase)
      .where("nextStepAt", "=", nextStepAt),
  );
  return changed === 1;
}

/** The partners' names of an order in their callbacks (Avenia's ticket, Alfredpay's orders). */
const ORDER_CALLBACK_SUBJECTS = ["ticket", "onramp", "offramp"];

/**
 * Applies the stored order callbacks not applied yet, oldest first: each brings its order's ramp's next step forward
 * to `now` (the order is then read, so a callback's copies, its order and its content cannot move a ramp wrongly) and
 * is marked applied, in one transaction. How many were found.
 */
export async function applyOrderCallbacks(reads: Reads, writes: Writes, now: Date, limit: number): Promise<number> {
  // Read outside a transaction: most passes find none, and a write transaction would hold SQLite's one writer.
  const callbacks = await reads.all(
    query
      .selectFrom("PartnerCallback")
      .select(["id", "subjectId"])
      .where("appliedAt", "is", null)
      .where("subjectKind", "in", ORDER_CALLBACK_SUBJECTS)
      .orderBy("appliedAt")
      .orderBy("receivedAt")
      .limit(rowLimit(limit)),
  );
  if (!callbacks.length) return 0;
  const orders = callbacks.map((callback) => callback.subjectId);
  const ids = callbacks.map((callback) => callback.id);
  await writes.transaction(async (tx) => {
    await tx.run(
      query
        .updateTable("Ramp")
        .set("nextStepAt", now)
        .where("nextStepAt", ">", now)
        .where("partnerOrderId", "in", orders),
    );
    await tx.run(
      query.updateTable("PartnerCallback").set("appliedAt", now).where("appliedAt", "is", null).where("id", "in", ids),
    );
  });
  return callbacks.length;
}

/** Started ramps whose next provider step is due (the processor's work list; not owner-scoped). */
export async function findDueRamps(reads: Reads, now: Date, limit: number): Promise<RampRow[]> {
  const rows = await reads.all(
    rampsWithQuotes()
      .select(RAMP_WITH_QUOTE.select)
      .where("Ramp.nextStepAt", "<=", now)
      .orderBy("Ramp.nextStepAt")
      .limit(rowLimit(limit)),
  );
  return rows.map(RAMP_WITH_QUOTE.rampOf);
}

/** Ramps never started whose start window has closed (the processor times them out; not owner-scoped). */
export async function findUnstartedPastDeadline(reads: Reads, now: Date, limit: number): Promise<RampRow[]> {
  const rows = await reads.all(
    rampsWithQuotes()
      .select(RAMP_WITH_QUOTE.select)
      .where("Ramp.currentPhase", "=", sql.lit("initial"))
      .where("Ramp.startDeadline", "<=", now)
      .limit(rowLimit(limit)),
  );
  return rows.map(RAMP_WITH_QUOTE.rampOf);
}

/** The subject's ramps completed since a moment (terminal ramps never change again, so updatedAt is completion). */
export function findCompletedSince(db: Queryable, subjectProfileId: string, corridors: string[], since: Date) {
  return db.ramp.findMany({
    where: { profileId: subjectProfileId, status: "COMPLETE", corridor: { in: corridors }, updatedAt: { gte: since } },
    select: { corridor: true, type: true, quote: { select: { inputAmount: true, outputAmount: true } } },
  });
}
