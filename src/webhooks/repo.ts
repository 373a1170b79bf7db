import type { Queryable } from "../db/tx.js";
import type { Prisma, WebhookSubscription } from "../generated/prisma/client.js";

/** A stored webhook registration, as the service reads it. */
export type { WebhookSubscription };

export function insertSubscription(db: Queryable, data: Prisma.WebhookSubscriptionUncheckedCreateInput) {
  return db.webhookSubscription.create({ data });
}

/** A page of a profile's subscriptions, newest first (active and disabled), and how many it has. */
export async function listSubscriptions(
  db: Queryable,
  ownerProfileId: string,
  page: { limit: number; offset: number },
) {
  const where = { ownerProfileId };
  const [rows, total] = await Promise.all([
    db.webhookSubscription.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: page.offset,
      take: page.limit,
    }),
    db.webhookSubscription.count({ where }),
  ]);
  return { rows, total };
}

export function findSubscription(db: Queryable, id: string, ownerProfileId: string) {
  return db.webhookSubscription.findFirst({ where: { id, ownerProfileId } });
}

/** Removes a profile's subscription; false when it has none with this id. */
export async function deleteSubscription(db: Queryable, id: string, ownerProfileId: string): Promise<boolean> {
  const { count } = await db.webhookSubscription.deleteMany({ where: { id, ownerProfileId } });
  return count === 1;
}

/** Who created a quote (owner and credential), to decide whether a key may subscribe to it. */
export function findQuoteAttribution(db: Queryable, quoteId: string) {
  return db.quote.findUnique({ where: { id: quoteId }, select: { ownerProfileId: true, credentialId: true } });
}

/** Who created a widget session (owner and credential). */
export function findWidgetSessionAttribution(db: Queryable, sessionId: string) {
  return db.widgetSession.findUnique({
    where: { id: sessionId },
    select: { ownerProfileId: true, credentialId: true },
  });
}
