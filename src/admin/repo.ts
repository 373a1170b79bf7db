import { randomUUID } from "node:crypto";
import { inTransaction, type Tx } from "../db/tx.js";
import type { ListPage } from "../validation.js";
import { Repository } from "../db/repository.js";

/** Partners: what the admin service reads and changes. */
export class AdminRepository extends Repository {
  /** Runs `work` in one interactive transaction of the ORM (see `inTransaction`). */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }

  insertPartner(tx: Tx, name: string) {
    return tx.partner.create({ data: { id: randomUUID(), name } });
  }

  findPartner(partnerId: string) {
    return this.db.partner.findUnique({ where: { id: partnerId } });
  }

  async setPartnerActive(tx: Tx, partnerId: string, isActive: boolean) {
    const { count } = await tx.partner.updateMany({ where: { id: partnerId }, data: { isActive } });
    return count === 1 ? tx.partner.findUniqueOrThrow({ where: { id: partnerId } }) : null;
  }

  /** Partners, newest first, a page at a time, and how many there are. */
  async listPartners({ limit, offset }: ListPage) {
    const [partners, total] = await Promise.all([
      this.db.partner.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: offset, take: limit }),
      this.db.partner.count(),
    ]);
    return { partners, total };
  }
}
