import { isUniqueViolation, type Queryable } from "../db/tx.js";
import type { Prisma } from "../generated/prisma/client.js";

export type InitialKycAttemptRow = Prisma.InitialBrazilKycAttemptGetPayload<object>;

/**
 * Stores a subject's attempt, or finds the one it recorded from the same quote before: the first one stands
 * (the unique key decides between concurrent recordings).
 */
export async function recordInitialKycAttempt(
  db: Queryable,
  attempt: Prisma.InitialBrazilKycAttemptUncheckedCreateInput,
): Promise<InitialKycAttemptRow> {
  try {
    return await db.initialBrazilKycAttempt.create({ data: attempt });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const { quoteId, profileId } = attempt;
    return db.initialBrazilKycAttempt.findUniqueOrThrow({ where: { quoteId_profileId: { quoteId, profileId } } });
  }
}

/** The subject's most recent attempt, or null. */
export function findLatestInitialKycAttempt(db: Queryable, profileId: string): Promise<InitialKycAttemptRow | null> {
  return db.initialBrazilKycAttempt.findFirst({
    where: { profileId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}
