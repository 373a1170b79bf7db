import type { Queryable } from "../db/tx.js";
import type { Prisma } from "../generated/prisma/client.js";

/** The pricing profiles assigned to any of these profiles. */
export function findPricingAssignments(db: Queryable, profileIds: string[]) {
  return db.pricingAssignment.findMany({ where: { profileId: { in: profileIds } }, select: { profileId: true, pricingProfile: true } });
}

export function insertQuote(db: Queryable, data: Prisma.QuoteUncheckedCreateInput) {
  return db.quote.create({ data });
}

/**
 * A quote the viewer may see: its own, or one nobody owns (anonymous or public-key attribution).
 * Another profile's quote is not found.
 */
export function findVisibleQuote(db: Queryable, quoteId: string, viewerProfileId: string | null) {
  return db.quote.findFirst({
    where: { id: quoteId, OR: [{ ownerProfileId: null }, ...(viewerProfileId ? [{ ownerProfileId: viewerProfileId }] : [])] },
  });
}

/** Marks the quote used, once: only while unconsumed and unexpired. True when this call won. */
export async function consumeQuote(db: Queryable, quoteId: string, now: Date): Promise<boolean> {
  const { count } = await db.quote.updateMany({ where: { id: quoteId, consumedAt: null, expiresAt: { gt: now } }, data: { consumedAt: now } });
  return count === 1;
}

/** Whether a quote was consumed (why a registration lost: consumed, else expired). */
export function findQuoteConsumption(db: Queryable, quoteId: string) {
  return db.quote.findUnique({ where: { id: quoteId }, select: { consumedAt: true } });
}
