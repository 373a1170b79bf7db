import { deleteBatch, type Writes } from "../db/statements.js";
import type { Prisma } from "../generated/prisma/client.js";
import { isUniqueViolation } from "../db/tx.js";
import { Repository } from "../db/repository.js";

/** Partners' stored callbacks: what the partner-callback service stores. */
export class PartnerCallbackRepository extends Repository {
  /**
   * Stores a callback: false when one with its partner and dedupe key is stored already. The unique key decides,
   * so concurrent copies cannot both be stored (no read before the insert to race past).
   */
  async insertCallback(callback: Prisma.PartnerCallbackUncheckedCreateInput): Promise<boolean> {
    try {
      await this.db.partnerCallback.create({ data: callback, select: { id: true } });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
}

/**
 * Deletes a batch of applied callbacks that arrived before `receivedBefore`: their effect is stored, and past the
 * age a copy of them is refused as a replay anyway. Unapplied ones stay, whatever their age.
 */
export function pruneAppliedCallbacks(writes: Writes, receivedBefore: Date, limit: number): Promise<number> {
  return deleteBatch(writes, {
    table: "PartnerCallback",
    key: "id",
    where: (row) => row.and([row("appliedAt", "is not", null), row("receivedAt", "<", receivedBefore)]),
    limit,
  });
}
