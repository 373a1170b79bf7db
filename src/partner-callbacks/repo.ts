import type { Prisma } from "../generated/prisma/client.js";
import { isUniqueViolation, type Queryable } from "../db/tx.js";

/**
 * Stores a callback: false when one with its partner and dedupe key is stored already. The unique key decides,
 * so concurrent copies cannot both be stored (no read before the insert to race past).
 */
export async function insertCallback(
  db: Queryable,
  callback: Prisma.PartnerCallbackUncheckedCreateInput,
): Promise<boolean> {
  try {
    await db.partnerCallback.create({ data: callback, select: { id: true } });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
