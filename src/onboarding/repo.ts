import { isUniqueViolation } from "../db/tx.js";
import type { Prisma } from "../generated/prisma/client.js";
import { Repository } from "../db/repository.js";

export type InitialKycAttemptRow = Prisma.InitialBrazilKycAttemptGetPayload<object>;

/** Where subjects started Brazilian KYC from: what the initial KYC attempts read and record. */
export class OnboardingRepository extends Repository {
  /**
   * Stores a subject's attempt, or finds the one it recorded from the same quote before: the first one stands
   * (the unique key decides between concurrent recordings).
   */
  async recordInitialKycAttempt(
    attempt: Prisma.InitialBrazilKycAttemptUncheckedCreateInput,
  ): Promise<InitialKycAttemptRow> {
    try {
      return await this.db.initialBrazilKycAttempt.create({ data: attempt });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const { quoteId, profileId } = attempt;
      return this.db.initialBrazilKycAttempt.findUniqueOrThrow({
        where: { quoteId_profileId: { quoteId, profileId } },
      });
    }
  }

  /** The subject's most recent attempt, or null. */
  findLatestInitialKycAttempt(profileId: string): Promise<InitialKycAttemptRow | null> {
    return this.db.initialBrazilKycAttempt.findFirst({
      where: { profileId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
  }
}
