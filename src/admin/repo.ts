import { randomUUID } from "node:crypto";
import type { Queryable } from "../db/tx.js";
import type { ListPage } from "../validation.js";

export function insertPartner(db: Queryable, name: string) {
  return db.partner.create({ data: { id: randomUUID(), name } });
}

export function findPartner(db: Queryable, partnerId: string) {
  return db.partner.findUnique({ where: { id: partnerId } });
}

export async function setPartnerActive(db: Queryable, partnerId: string, isActive: boolean) {
  const { count } = await db.partner.updateMany({ where: { id: partnerId }, data: { isActive } });
  return count === 1 ? db.partner.findUniqueOrThrow({ where: { id: partnerId } }) : null;
}

/** Partners, newest first, a page at a time, and how many there are. */
export async function listPartners(db: Queryable, { limit, offset }: ListPage) {
  const [partners, total] = await Promise.all([
    db.partner.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: offset, take: limit }),
    db.partner.count(),
  ]);
  return { partners, total };
}
