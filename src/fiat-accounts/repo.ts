import type { Queryable } from "../db/tx.js";

export function insertFiatAccount(
  db: Queryable,
  data: {
    id: string;
    profileId: string;
    actorProfileId: string;
    country: string;
    type: string;
    details: string;
    createdAt: Date;
    partnerCustomerId: string;
    partnerAccountId: string;
  },
) {
  return db.fiatAccount.create({ data });
}

/** A page of a subject's usable accounts in a country, newest first, and how many there are. */
export async function listFiatAccounts(
  db: Queryable,
  profileId: string,
  country: string,
  page: { limit: number; offset: number },
) {
  const where = { profileId, country, deletedAt: null };
  const [rows, total] = await Promise.all([
    db.fiatAccount.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: page.offset,
      take: page.limit,
    }),
    db.fiatAccount.count({ where }),
  ]);
  return { rows, total };
}

/** One of a subject's usable accounts, or null (unknown, another subject's, or deleted). */
export function findFiatAccount(db: Queryable, id: string, profileId: string) {
  return db.fiatAccount.findFirst({ where: { id, profileId, deletedAt: null } });
}

/** Marks a subject's account deleted; false when it has no usable account with this id. */
export async function softDeleteFiatAccount(db: Queryable, id: string, profileId: string, at: Date): Promise<boolean> {
  const { count } = await db.fiatAccount.updateMany({
    where: { id, profileId, deletedAt: null },
    data: { deletedAt: at },
  });
  return count === 1;
}
