import { sql } from "kysely";
import { insertRows, prepared, query, rowLimit } from "../db/query.js";
import type { StatementTx } from "../db/statements.js";
import { Prisma as Fields } from "../generated/prisma/browser.js";
import type { RampPhase } from "../reference-data/ramp-phases.js";
import { RampHistoryRepository } from "./history-repo.js";
import {
  RAMP_FIELDS,
  RAMP_VIEW,
  RAMP_WITH_QUOTE,
  rampsWithQuotes,
  type RampErrorRow,
  type RampRow,
  type RampViewRow,
} from "./rows-repo.js";

/** The ramp's columns the database fills in when a new ramp leaves them out. */
type RampDefaults =
  "additionalData" | "presignedTxs" | "transactionHash" | "startedAt" | "nextStepAt" | "retries" | "revision";
export type NewRamp = Omit<RampRow, "quote" | "updatedAt" | RampDefaults> & Partial<Pick<RampRow, RampDefaults>>;

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

const subjectsRamp = prepared((ramp: { rampId: string; subjectProfileId: string }) =>
  rampsWithQuotes()
    .select(RAMP_WITH_QUOTE.select)
    .where("Ramp.id", "=", ramp.rampId)
    .where("Ramp.profileId", "=", ramp.subjectProfileId),
);
const subjectsRampView = prepared((ramp: { rampId: string; subjectProfileId: string }) =>
  rampsWithQuotes()
    .select(RAMP_VIEW.select)
    .where("Ramp.id", "=", ramp.rampId)
    .where("Ramp.profileId", "=", ramp.subjectProfileId),
);
const rampById = prepared((ramp: { id: string }) =>
  rampsWithQuotes().select(RAMP_WITH_QUOTE.select).where("Ramp.id", "=", ramp.id),
);

/** The partners' names of an order in their callbacks (Avenia's ticket, Alfredpay's orders). */
const ORDER_CALLBACK_SUBJECTS = ["ticket", "onramp", "offramp"];

/** Ramps, their error logs and their history: what the ramp service and the processor read and change. */
export class RampRepository extends RampHistoryRepository {
  /**
   * Runs `work` in one transaction on the prepared statements (see `Writes.transaction`): the ramp lifecycle's
   * changes, with the quote's and the outbox's writes on the same handle.
   */
  transaction<T>(work: (tx: StatementTx) => Promise<T>): Promise<T> {
    return this.writes.transaction(work);
  }

  /**
   * Inserts a ramp; the row comes back with `consumedQuote`, the quote as the same transaction left it, instead of
   * reading it again.
   */
  async insertRamp(tx: StatementTx, ramp: NewRamp, consumedQuote: RampRow["quote"]): Promise<RampRow> {
    const inserted = await tx.one(
      query
        .insertInto("Ramp")
        .values({ updatedAt: ramp.createdAt, ...ramp })
        .returning(RAMP_FIELDS),
    );
    return { quote: consumedQuote, ...inserted! };
  }

  /** The subject's ramp, whole (for a change); another profile's is null (callers answer NOT_FOUND). */
  async findRamp(rampId: string, subjectProfileId: string): Promise<RampRow | null> {
    const row = await this.reads.one(subjectsRamp({ rampId, subjectProfileId }));
    return row ? RAMP_WITH_QUOTE.rampOf(row) : null;
  }

  /** The subject's ramp as its view needs it (status polling: one statement); another profile's is null. */
  async findRampView(rampId: string, subjectProfileId: string): Promise<RampViewRow | null> {
    const row = await this.reads.one(subjectsRampView({ rampId, subjectProfileId }));
    return row ? RAMP_VIEW.rampOf(row) : null;
  }

  /** Error logs of several ramps at once (GraphQL lists): one statement per list. */
  listErrorsOfRamps(rampIds: readonly string[]): Promise<RampErrorRow[]> {
    if (rampIds.length === 0) return Promise.resolve([]);
    return this.reads.all(
      query
        .selectFrom("RampErrorLog")
        .select(Object.values(Fields.RampErrorLogScalarFieldEnum))
        .where("rampId", "in", rampIds)
        .orderBy("createdAt", "asc")
        .orderBy("id", "asc"),
    );
  }

  insertError(
    tx: StatementTx,
    entry: { rampId: string; phase: RampPhase; error: string; details: string; recoverable: boolean; at: Date },
  ) {
    const { at, ...data } = entry;
    return tx.run(insertRows("RampErrorLog", { id: crypto.randomUUID(), ...data, createdAt: at }));
  }

  /**
   * Moves a ramp on only if it is still where the caller saw it (phase, the step it was due for, the revision):
   * the one guard that keeps concurrent starts, updates and processors from applying a change twice.
   */
  async updateRampIf(
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

  /**
   * Moves a step's due time if the step is still where the caller saw it. A processor claims a due step by moving it
   * past the partner call (the ramp leaves every work list until then, and of several claims only the first matches
   * `nextStepAt`), and gives it back the same way. No change a caller sees: updatedAt stays.
   */
  async rescheduleStep(
    step: { id: string; currentPhase: string; nextStepAt: Date },
    dueAt: Date,
    /** The order the step made at the partner, kept for the next steps to read (no caller sees it either). */
    partnerOrderId?: string,
  ): Promise<boolean> {
    const { id, currentPhase, nextStepAt } = step;
    const changed = await this.writes.run(
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

  /**
   * Applies the stored order callbacks not applied yet, oldest first: each brings its order's ramp's next step forward
   * to `now` (the order is then read, so a callback's copies, its order and its content cannot move a ramp wrongly) and
   * is marked applied, in one transaction. How many were found.
   */
  async applyOrderCallbacks(now: Date, limit: number): Promise<number> {
    // Read outside a transaction: most passes find none, and a write transaction would hold SQLite's one writer.
    const callbacks = await this.reads.all(
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
    await this.writes.transaction(async (tx) => {
      await tx.run(
        query
          .updateTable("Ramp")
          .set("nextStepAt", now)
          .where("nextStepAt", ">", now)
          .where("partnerOrderId", "in", orders),
      );
      await tx.run(
        query
          .updateTable("PartnerCallback")
          .set("appliedAt", now)
          .where("appliedAt", "is", null)
          .where("id", "in", ids),
      );
    });
    return callbacks.length;
  }

  /** Started ramps whose next provider step is due (the processor's work list; not owner-scoped). */
  async findDueRamps(now: Date, limit: number): Promise<RampRow[]> {
    const rows = await this.reads.all(
      rampsWithQuotes()
        .select(RAMP_WITH_QUOTE.select)
        .where("Ramp.nextStepAt", "<=", now)
        .orderBy("Ramp.nextStepAt")
        .limit(rowLimit(limit)),
    );
    return rows.map(RAMP_WITH_QUOTE.rampOf);
  }

  /** Ramps never started whose start window has closed (the processor times them out; not owner-scoped). */
  async findUnstartedPastDeadline(now: Date, limit: number): Promise<RampRow[]> {
    const rows = await this.reads.all(
      rampsWithQuotes()
        .select(RAMP_WITH_QUOTE.select)
        .where("Ramp.currentPhase", "=", sql.lit("initial"))
        .where("Ramp.startDeadline", "<=", now)
        .limit(rowLimit(limit)),
    );
    return rows.map(RAMP_WITH_QUOTE.rampOf);
  }

  /** The subject's ramps completed since a moment (terminal ramps never change again, so updatedAt is completion). */
  findCompletedSince(subjectProfileId: string, corridors: string[], since: Date) {
    return this.db.ramp.findMany({
      where: {
        profileId: subjectProfileId,
        status: "COMPLETE",
        corridor: { in: corridors },
        updatedAt: { gte: since },
      },
      select: { corridor: true, type: true, quote: { select: { inputAmount: true, outputAmount: true } } },
    });
  }
}
