import { Repository } from "../db/repository.js";

/** Subjects' fiat accounts: what the fiat-account service reads and changes. */
export class FiatAccountRepository extends Repository {
  insertFiatAccount(data: {
    id: string;
    profileId: string;
    actorProfileId: string;
    country: string;
    type: string;
    details: string;
    createdAt: Date;
    partnerCustomerId: string;
    partnerAccountId: string;
  }) {
    return this.db.fiatAccount.create({ data });
  }

  /** A page of a subject's usable accounts in a country, newest first, and how many there are. */
  async listFiatAccounts(profileId: string, country: string, page: { limit: number; offset: number }) {
    const where = { profileId, country, deletedAt: null };
    const [rows, total] = await Promise.all([
      this.db.fiatAccount.findMany({
        where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        skip: page.offset,
        take: page.limit,
      }),
      this.db.fiatAccount.count({ where }),
    ]);
    return { rows, total };
  }

  /** One of a subject's usable accounts, or null (unknown, another subject's, or deleted). */
  findFiatAccount(id: string, profileId: string) {
    return this.db.fiatAccount.findFirst({ where: { id, profileId, deletedAt: null } });
  }

  /** Marks a subject's account deleted; false when it has no usable account with this id. */
  async softDeleteFiatAccount(id: string, profileId: string, at: Date): Promise<boolean> {
    const { count } = await this.db.fiatAccount.updateMany({
      where: { id, profileId, deletedAt: null },
      data: { deletedAt: at },
    });
    return count === 1;
  }
}
