import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import { listPagesPerOwner, type OwnerPage, type PagesQuery } from "../db/owner-pages.js";
import { query, rowLimit } from "../db/query.js";
import { Repository } from "../db/repository.js";
import type { DB } from "../generated/kysely/database.js";
import type { RampPhase, RampStatus } from "../reference-data/ramp-phases.js";
import { EVM_ADDRESS } from "../validation.js";
import { RAMP_VIEW, type RampViewRow } from "./rows-repo.js";
import type { HistoryPage } from "./types.js";

/** A condition on a ramp's own columns. */
type RampCondition = (ramp: ExpressionBuilder<DB, "Ramp">) => Expression<SqlBool>;

/**
 * Phases written into the SQL text, never bound: SQLite (STAT4) plans the index on currentPhase for the values it
 * is given, so a bound value there would prepare the statement again on every run (see rowLimit).
 */
const phases = (...names: RampPhase[]) => names.map((name) => sql.lit(name));

/** The phases each status covers, for filtering the history by status. */
const PHASES_OF_STATUS: Record<RampStatus, RampCondition> = {
  PENDING: (ramp) => ramp("currentPhase", "not in", phases("complete", "failed", "timedOut")),
  COMPLETE: (ramp) => ramp("currentPhase", "=", sql.lit("complete")),
  FAILED: (ramp) => ramp("currentPhase", "in", phases("failed", "timedOut")),
};

/** What a history holds beyond its subject and filters: ramps that left their initial phase (of the page's status). */
const historyPhases = (page: HistoryPage): RampCondition[] => [
  (ramp) => ramp("currentPhase", "<>", sql.lit("initial")),
  ...(page.status ? [PHASES_OF_STATUS[page.status]] : []),
];

/** The page's filters with a value. */
function historyFilters(page: HistoryPage): RampCondition[] {
  const { walletAddress, type, corridor, createdFrom, createdBefore } = page;
  const filters: RampCondition[] = [];
  if (walletAddress !== undefined)
    filters.push(
      EVM_ADDRESS.test(walletAddress)
        ? (ramp) => ramp(ramp.fn<string>("LOWER", ["walletAddress"]), "=", walletAddress.toLowerCase())
        : (ramp) => ramp("walletAddress", "=", walletAddress),
    );
  if (type) filters.push((ramp) => ramp("type", "=", type));
  if (corridor) filters.push((ramp) => ramp("corridor", "=", corridor));
  if (createdFrom) filters.push((ramp) => ramp("createdAt", ">=", new Date(createdFrom)));
  if (createdBefore) filters.push((ramp) => ramp("createdAt", "<", new Date(createdBefore)));
  return filters;
}

/** All of the conditions. */
const allOf =
  (conditions: readonly RampCondition[]): RampCondition =>
  (ramp) =>
    ramp.and(conditions.map((condition) => condition(ramp)));

const historyDirection = (page: HistoryPage) => (page.order === "OLDEST_FIRST" ? "asc" : "desc");

/**
 * A subject's ramp history (and several subjects' at once): ramps that left their initial phase, filtered and
 * paged, with their total. The ramps' repository (repo.ts) extends it: one object, in two files.
 */
export class RampHistoryRepository extends Repository {
  /**
   * The subject's history: ramps that left their initial phase (filtered by what `page` names), in registration
   * order, and how many there are, in one statement. The page is chosen on ids alone and only its rows are read
   * in full; the total is a subquery run once (numbering and counting rows with window functions took half the
   * statement's time).
   */
  async listHistory(subjectProfileId: string, page: HistoryPage): Promise<{ ramps: RampViewRow[]; total: number }> {
    const filters = historyFilters(page);
    const inHistory = allOf([(ramp) => ramp("profileId", "=", subjectProfileId), ...historyPhases(page), ...filters]);
    const direction = historyDirection(page);
    const { status } = page;
    // An unfiltered history (but for its status) has its total kept in RampHistoryCount by triggers on Ramp: counting
    // the ramps cost a read of each (20 ms a page at 37,000), on every page, since ramps entering the history keep
    // the page cache cold. Other filters count the ramps that match.
    const count =
      filters.length === 0
        ? query
            .selectFrom("RampHistoryCount")
            .select(sql<number>`CAST(COALESCE(SUM("count"), 0) AS INTEGER)`.as("total"))
            .where("profileId", "=", subjectProfileId)
            .$if(status !== undefined, (counts) => counts.where("status", "=", sql.lit(status!)))
        : query
            .selectFrom("Ramp")
            .select(sql<number>`CAST(COUNT(*) AS INTEGER)`.as("total"))
            .where(inHistory);
    const pageIds = query
      .selectFrom("Ramp")
      .select("id")
      .where(inHistory)
      .orderBy("createdAt", direction)
      .orderBy("id", direction)
      .limit(rowLimit(page.limit))
      .offset(page.offset);
    const rows = await this.reads.all(
      query
        .selectFrom(pageIds.as("page"))
        .innerJoin("Ramp", "Ramp.id", "page.id")
        .innerJoin("Quote", "Quote.id", "Ramp.quoteId")
        .select([...RAMP_VIEW.select, count.as("total")])
        .orderBy("Ramp.createdAt", direction)
        .orderBy("Ramp.id", direction),
    );
    if (rows.length === 0 && page.offset > 0) {
      // Past the end, the page carries no count: ask for it alone.
      const counted = await this.reads.one(count);
      return { ramps: [], total: counted?.total ?? 0 };
    }
    return { ramps: rows.map(RAMP_VIEW.rampOf), total: rows[0]?.total ?? 0 };
  }

  /** `listHistory` of several subjects (a manager's children), the same page of each, in one statement. */
  listHistories(subjectProfileIds: readonly string[], page: HistoryPage): Promise<Map<string, OwnerPage<RampViewRow>>> {
    const direction = historyDirection(page);
    return listPagesPerOwner(this.reads, {
      rows: () => query.selectFrom("Ramp").where(allOf([...historyPhases(page), ...historyFilters(page)])),
      owner: "profileId",
      owners: subjectProfileIds,
      order: [
        ["createdAt", direction],
        ["id", direction],
      ],
      read: (pages: PagesQuery) =>
        pages
          .innerJoin("Ramp", "Ramp.id", "page.id")
          .innerJoin("Quote", "Quote.id", "Ramp.quoteId")
          .select(RAMP_VIEW.select),
      rowOf: RAMP_VIEW.rampOf,
      page,
    });
  }
}
