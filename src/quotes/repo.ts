import { insertRows, query } from "../db/query.js";
import { deleteBatch, type StatementTx, type Writes } from "../db/statements.js";
import { Repository } from "../db/repository.js";
import { inTransaction, type Tx } from "../db/tx.js";
import type { Quote } from "../generated/prisma/client.js";
import type { ListPage } from "../validation.js";

/** A stored quote, as the service reads it. */
export type { Quote };

/** Quotes and the operator's pricing assignments: what the quote service and the pricing assignments read and change. */
export class QuoteRepository extends Repository {
  /** Runs `work` in one interactive transaction of the ORM (see `inTransaction`). */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }

  upsertPricingAssignment(tx: Tx, profileId: string, pricingProfile: string) {
    return tx.pricingAssignment.upsert({
      where: { profileId },
      create: { profileId, pricingProfile },
      update: { pricingProfile },
      select: { profileId: true, pricingProfile: true, updatedAt: true },
    });
  }

  /** Pricing assignments, most recently changed first, a page at a time, and how many there are. */
  async listPricingAssignments({ limit, offset }: ListPage) {
    const [assignments, total] = await Promise.all([
      this.db.pricingAssignment.findMany({
        select: { profileId: true, pricingProfile: true, updatedAt: true },
        orderBy: [{ updatedAt: "desc" }, { profileId: "desc" }],
        skip: offset,
        take: limit,
      }),
      this.db.pricingAssignment.count(),
    ]);
    return { assignments, total };
  }

  async findPricingAssignment(profileId: string) {
    const row = await this.reads.one(
      query
        .selectFrom("PricingAssignment")
        .select(["profileId", "pricingProfile", "updatedAt"])
        .where("profileId", "=", profileId),
    );
    return row ?? null;
  }

  /** Stores a new quote: one prepared statement (quote creation is a hot write). */
  async insertQuote(quote: Omit<Quote, "consumedAt">): Promise<Quote> {
    const row: Quote = { consumedAt: null, ...quote };
    await this.writes.run(insertRows("Quote", row));
    return row;
  }

  /**
   * A quote the viewer may see: its own, or one nobody owns (anonymous or public-key attribution).
   * Another profile's quote is not found.
   */
  async findVisibleQuote(quoteId: string, viewerProfileId: string | null): Promise<Quote | null> {
    const quote = query.selectFrom("Quote").selectAll().where("id", "=", quoteId);
    return (
      (await this.reads.one(
        viewerProfileId
          ? quote.where((row) =>
              row.or([row("ownerProfileId", "is", null), row("ownerProfileId", "=", viewerProfileId)]),
            )
          : quote.where("ownerProfileId", "is", null),
      )) ?? null
    );
  }

  /** Marks the quote used, once: only while unconsumed and unexpired. True when this call won. */
  async consumeQuote(tx: StatementTx, quoteId: string, now: Date): Promise<boolean> {
    const changed = await tx.run(
      query
        .updateTable("Quote")
        .set("consumedAt", now)
        .where("id", "=", quoteId)
        .where("consumedAt", "is", null)
        .where("expiresAt", ">", now),
    );
    return changed === 1;
  }

  /** Whether a quote was consumed (why a registration lost: consumed, else expired). */
  findQuoteConsumption(quoteId: string) {
    return this.reads.one(query.selectFrom("Quote").select("consumedAt").where("id", "=", quoteId));
  }
}

/**
 * Deletes up to `limit` quotes that expired unregistered before `expiredBefore` and that nothing names: no
 * ramp (a ramp's quote is its history), widget session, webhook subscription or initial KYC attempt. How
 * many went.
 */
export function pruneUnregisteredQuotes(writes: Writes, expiredBefore: Date, limit: number): Promise<number> {
  const naming = ["Ramp", "WidgetSession", "WebhookSubscription", "InitialBrazilKycAttempt"] as const;
  return deleteBatch(writes, {
    table: "Quote",
    key: "id",
    where: (row) =>
      row.and([
        row("consumedAt", "is", null),
        row("expiresAt", "<", expiredBefore),
        ...naming.map((table) =>
          row.not(
            row.exists(
              row.selectFrom(table).select(row.lit(1).as("one")).whereRef(`${table}.quoteId`, "=", "Quote.id"),
            ),
          ),
        ),
      ]),
    limit,
  });
}
