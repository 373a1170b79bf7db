import { pagesPerOwner, type Filter, type OwnerPage } from "../db/owner-pages.js";
import {
  columns,
  insert,
  limitClause,
  placeholders,
  type Reads,
  type StatementTx,
  type Writes,
} from "../db/statements.js";
import type { Queryable } from "../db/tx.js";
import { Prisma } from "../generated/prisma/client.js";
import { QUOTE_TERMS_FIELDS, type QuoteTermsField } from "../quotes/types.js";
import type { RampPhase, RampStatus } from "../reference-data/ramp-phases.js";
import { EVM_ADDRESS } from "../validation.js";
import type { HistoryPage } from "./types.js";

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

const FROM_RAMP_WITH_QUOTE = `FROM "Ramp" JOIN "Quote" ON "Quote"."id" = "Ramp"."quoteId"`;
/** A ramp and its quote (as `quote`) in one row. */
const rampWithQuote = (fields: readonly string[], quoteFields: readonly string[]) =>
  `${columns("Ramp", fields)}, ${columns("Quote", quoteFields, "quote.")}`;
const RAMP_WITH_QUOTE = rampWithQuote(
  Object.values(Prisma.RampScalarFieldEnum),
  Object.values(Prisma.QuoteScalarFieldEnum),
);
// Every column a row carries costs its conversion to a value: a history page of whole rows took three times as long.
const RAMP_VIEW = rampWithQuote(VIEW_FIELDS, QUOTE_TERMS_FIELDS);

const RAMP_FIELDS = Object.values(Prisma.RampScalarFieldEnum);
/** The whole ramp, as a statement that changed it returns it. */
const RETURNING_RAMP = `RETURNING ${RAMP_FIELDS.map((field) => `"${field}"`).join(", ")}`;
/** The ramp's columns the database fills in when a new ramp leaves them out. */
type RampDefaults =
  "additionalData" | "presignedTxs" | "transactionHash" | "startedAt" | "nextStepAt" | "retries" | "revision";
export type NewRamp = Omit<RampRow, "quote" | "updatedAt" | RampDefaults> & Partial<Pick<RampRow, RampDefaults>>;

/**
 * Inserts a ramp; the row comes back with `consumedQuote`, the quote as the same transaction left it, instead of
 * reading it again.
 */
export async function insertRamp(tx: StatementTx, ramp: NewRamp, consumedQuote: RampRow["quote"]): Promise<RampRow> {
  const [sql, args] = insert("Ramp", { updatedAt: ramp.createdAt, ...ramp });
  const inserted = await tx.one<Omit<RampRow, "quote">>(`${sql} ${RETURNING_RAMP}`, args);
  return { quote: consumedQuote, ...inserted! };
}

const OWNED = `WHERE "Ramp"."id" = $1 AND "Ramp"."profileId" = $2`;

/** The subject's ramp, whole (for a change); another profile's is null (callers answer NOT_FOUND). */
export async function findRamp(reads: Reads, rampId: string, subjectProfileId: string): Promise<RampRow | null> {
  return (
    (await reads.one<RampRow>(`SELECT ${RAMP_WITH_QUOTE} ${FROM_RAMP_WITH_QUOTE} ${OWNED}`, [
      rampId,
      subjectProfileId,
    ])) ?? null
  );
}

/** The subject's ramp as its view needs it (status polling: one statement); another profile's is null. */
export async function findRampView(
  reads: Reads,
  rampId: string,
  subjectProfileId: string,
): Promise<RampViewRow | null> {
  return (
    (await reads.one<RampViewRow>(`SELECT ${RAMP_VIEW} ${FROM_RAMP_WITH_QUOTE} ${OWNED}`, [
      rampId,
      subjectProfileId,
    ])) ?? null
  );
}

/** The phases each status covers, for filtering the history by status. */
const PHASES_OF_STATUS: Record<RampStatus, string> = {
  PENDING: `"currentPhase" NOT IN ('complete', 'failed', 'timedOut')`,
  COMPLETE: `"currentPhase" = 'complete'`,
  FAILED: `"currentPhase" IN ('failed', 'timedOut')`,
};

/** What a history holds beyond its subject and filters: ramps that left their initial phase (of the page's status). */
const historyPhases = (page: HistoryPage) =>
  [`"currentPhase" <> 'initial'`, ...(page.status ? [PHASES_OF_STATUS[page.status]] : [])].join(" AND ");

/** The page's filters with a value. */
function historyFilters(page: HistoryPage): Filter[] {
  const { walletAddress } = page;
  const filters: Filter[] = [];
  if (walletAddress !== undefined)
    filters.push(
      EVM_ADDRESS.test(walletAddress)
        ? [`LOWER("walletAddress") = ?`, walletAddress.toLowerCase()]
        : [`"walletAddress" = ?`, walletAddress],
    );
  if (page.type) filters.push([`"type" = ?`, page.type]);
  if (page.corridor) filters.push([`"corridor" = ?`, page.corridor]);
  if (page.createdFrom) filters.push([`"createdAt" >= ?`, new Date(page.createdFrom)]);
  if (page.createdBefore) filters.push([`"createdAt" < ?`, new Date(page.createdBefore)]);
  return filters;
}

const historyDirection = (page: HistoryPage) => (page.order === "OLDEST_FIRST" ? "ASC" : "DESC");

/**
 * The subject's history: ramps that left their initial phase (filtered by what `page` names), in registration
 * order, and how many there are, in one statement. The page is chosen on ids alone and only its rows are read
 * in full; the total is a subquery run once (numbering and counting rows with window functions took half the
 * statement's time).
 */
export async function listHistory(
  reads: Reads,
  subjectProfileId: string,
  page: HistoryPage,
): Promise<{ ramps: RampViewRow[]; total: number }> {
  // Bound as $3 onwards ($1 the subject, $2 the offset), in this order.
  const filters = historyFilters(page);
  /** The history's condition, the filters' values bound from `$first`. */
  const history = (first: number) =>
    [
      `"profileId" = $1`,
      historyPhases(page),
      ...filters.map(([condition], index) => condition.replace("?", `$${first + index}`)),
    ].join(" AND ");
  const values = filters.map(([, value]) => value);
  const direction = historyDirection(page);
  // An unfiltered history (but for its status) has its total kept in RampHistoryCount by triggers on Ramp: counting
  // the ramps cost a read of each (20 ms a page at 37,000), on every page, since ramps entering the history keep
  // the page cache cold. Other filters count the ramps that match.
  const count = (first: number) =>
    filters.length === 0
      ? `SELECT CAST(COALESCE(SUM("count"), 0) AS INTEGER) AS "total" FROM "RampHistoryCount"
        WHERE "profileId" = $1${page.status ? ` AND "status" = '${page.status}'` : ""}`
      : `SELECT CAST(COUNT(*) AS INTEGER) AS "total" FROM "Ramp" WHERE ${history(first)}`;
  const rows = await reads.all<RampViewRow & { total: number }>(
    `SELECT ${RAMP_VIEW}, (${count(3)}) AS "total"
    FROM (
      SELECT "id" FROM "Ramp" WHERE ${history(3)} ORDER BY "createdAt" ${direction}, "id" ${direction} ${limitClause(page.limit)} OFFSET $2
    ) AS "page" JOIN "Ramp" ON "Ramp"."id" = "page"."id" JOIN "Quote" ON "Quote"."id" = "Ramp"."quoteId"
    ORDER BY "Ramp"."createdAt" ${direction}, "Ramp"."id" ${direction}`,
    [subjectProfileId, page.offset, ...values],
  );
  if (rows.length === 0 && page.offset > 0) {
    // Past the end, the page carries no count: ask for it alone.
    const counted = await reads.one<{ total: number }>(count(2), [subjectProfileId, ...values]);
    return { ramps: [], total: counted?.total ?? 0 };
  }
  return { ramps: rows, total: rows[0]?.total ?? 0 };
}

/** `listHistory` of several subjects (a manager's children), the same page of each, in one statement. */
export function listHistories(
  reads: Reads,
  subjectProfileIds: readonly string[],
  page: HistoryPage,
): Promise<Map<string, OwnerPage<RampViewRow>>> {
  const direction = historyDirection(page);
  return pagesPerOwner<RampViewRow>(reads, {
    table: "Ramp",
    owner: "profileId",
    owners: subjectProfileIds,
    condition: historyPhases(page),
    filters: historyFilters(page),
    order: `"createdAt" ${direction}, "id" ${direction}`,
    select: RAMP_VIEW,
    joins: `JOIN "Quote" ON "Quote"."id" = "Ramp"."quoteId"`,
    page,
  });
}

const RAMP_ERRORS = `SELECT ${columns("RampErrorLog", Object.values(Prisma.RampErrorLogScalarFieldEnum))} FROM "RampErrorLog"`;

/** Error logs of several ramps at once (GraphQL lists): one statement per list. */
export function listErrorsOfRamps(reads: Reads, rampIds: readonly string[]): Promise<RampErrorRow[]> {
  if (rampIds.length === 0) return Promise.resolve([]);
  return reads.all(
    `${RAMP_ERRORS} WHERE "rampId" IN (${placeholders(rampIds.length)}) ORDER BY "createdAt" ASC, "id" ASC`,
    rampIds,
  );
}

export function insertError(
  tx: StatementTx,
  entry: { rampId: string; phase: RampPhase; error: string; details: string; recoverable: boolean; at: Date },
) {
  const { at, ...data } = entry;
  return tx.run(...insert("RampErrorLog", { id: crypto.randomUUID(), ...data, createdAt: at }));
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
  const set = Object.entries({ ...change, updatedAt: new Date() }).filter(([, value]) => value !== undefined);
  const args: unknown[] = set.map(([, value]) => value);
  const condition = (sql: string, value: unknown) => `${sql} $${args.push(value)}`;
  const conditions = [
    condition(`"id" =`, id),
    condition(`"currentPhase" =`, currentPhase),
    ...(nextStepAt === null ? [`"nextStepAt" IS NULL`] : []),
    ...(nextStepAt ? [condition(`"nextStepAt" =`, nextStepAt)] : []),
    ...(revision !== undefined ? [condition(`"revision" =`, revision)] : []),
    ...(startDeadlineAfter !== undefined ? [condition(`"startDeadline" >`, startDeadlineAfter)] : []),
  ];
  const changed = await tx.run(
    `UPDATE "Ramp" SET ${set.map(([field], index) => `"${field}" = $${index + 1}`).join(", ")}
    WHERE ${conditions.join(" AND ")}`,
    args,
  );
  return changed === 1
    ? ((await tx.one<RampRow>(`SELECT ${RAMP_WITH_QUOTE} ${FROM_RAMP_WITH_QUOTE} WHERE "Ramp"."id" = $1`, [id])) ??
        null)
    : null;
}

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
    `UPDATE "Ramp" SET "nextStepAt" = $1, "partnerOrderId" = COALESCE($5, "partnerOrderId")
      WHERE "id" = $2 AND "currentPhase" = $3 AND "nextStepAt" = $4`,
    [dueAt, id, currentPhase, nextStepAt, partnerOrderId ?? null],
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
  const callbacks = await reads.all<{ id: string; subjectId: string }>(
    `SELECT "id", "subjectId" FROM "PartnerCallback" WHERE "appliedAt" IS NULL
      AND "subjectKind" IN (${placeholders(ORDER_CALLBACK_SUBJECTS.length)})
      ORDER BY "appliedAt", "receivedAt" ${limitClause(limit)}`,
    ORDER_CALLBACK_SUBJECTS,
  );
  if (!callbacks.length) return 0;
  const orders = callbacks.map((callback) => callback.subjectId);
  const ids = callbacks.map((callback) => callback.id);
  await writes.transaction(async (tx) => {
    await tx.run(
      `UPDATE "Ramp" SET "nextStepAt" = $1 WHERE "nextStepAt" > $1
        AND "partnerOrderId" IN (${placeholders(orders.length, 2)})`,
      [now, ...orders],
    );
    await tx.run(
      `UPDATE "PartnerCallback" SET "appliedAt" = $1 WHERE "appliedAt" IS NULL AND "id" IN (${placeholders(ids.length, 2)})`,
      [now, ...ids],
    );
  });
  return callbacks.length;
}

/** Started ramps whose next provider step is due (the processor's work list; not owner-scoped). */
export function findDueRamps(reads: Reads, now: Date, limit: number): Promise<RampRow[]> {
  return reads.all(
    `SELECT ${RAMP_WITH_QUOTE} ${FROM_RAMP_WITH_QUOTE}
    WHERE "Ramp"."nextStepAt" <= $1 ORDER BY "Ramp"."nextStepAt" ${limitClause(limit)}`,
    [now],
  );
}

/** Ramps never started whose start window has closed (the processor times them out; not owner-scoped). */
export function findUnstartedPastDeadline(reads: Reads, now: Date, limit: number): Promise<RampRow[]> {
  return reads.all(
    `SELECT ${RAMP_WITH_QUOTE} ${FROM_RAMP_WITH_QUOTE}
    WHERE "Ramp"."currentPhase" = 'initial' AND "Ramp"."startDeadline" <= $1 ${limitClause(limit)}`,
    [now],
  );
}

/** The subject's ramps completed since a moment (terminal ramps never change again, so updatedAt is completion). */
export function findCompletedSince(db: Queryable, subjectProfileId: string, corridors: string[], since: Date) {
  return db.ramp.findMany({
    where: { profileId: subjectProfileId, status: "COMPLETE", corridor: { in: corridors }, updatedAt: { gte: since } },
    select: { corridor: true, type: true, quote: { select: { inputAmount: true, outputAmount: true } } },
  });
}
