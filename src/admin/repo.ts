import { randomUUID } from "node:crypto";
import type { Queryable } from "../db/tx.js";

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
