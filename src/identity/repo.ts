import { query } from "../db/query.js";
import { deleteBatch, type RowCondition, type Writes } from "../db/statements.js";
import { inTransaction, isUniqueViolation, type Tx } from "../db/tx.js";
import { Repository } from "../db/repository.js";

export const MAX_FAILED_OTP_ATTEMPTS = 5;

export interface NewChallenge {
  email: string;
  codeHash: string;
  sentAt: Date;
  expiresAt: Date;
}

/** Sign-in codes, sign-ins and their refresh tokens: what the identity service and the session verifier read and change. */
export class IdentityRepository extends Repository {
  /** Runs `work` in one interactive transaction of the ORM (see `inTransaction`). */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }

  /**
   * Stores a fresh code for the email unless one was sent within the cool-down. Conditional in the
   * database, so concurrent requests cannot both send. Returns false while the cool-down runs.
   */
  async replaceChallenge(challenge: NewChallenge, cooldownStartedBefore: Date): Promise<boolean> {
    const { count } = await this.db.otpChallenge.updateMany({
      where: { email: challenge.email, sentAt: { lte: cooldownStartedBefore } },
      data: {
        codeHash: challenge.codeHash,
        sentAt: challenge.sentAt,
        expiresAt: challenge.expiresAt,
        failedAttempts: 0,
        consumedAt: null,
      },
    });
    if (count === 1) return true;
    try {
      await this.db.otpChallenge.create({ data: challenge });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  findChallenge(email: string) {
    return this.db.otpChallenge.findUnique({ where: { email } });
  }

  /** Forgets a challenge whose mail could not be sent, so the cool-down does not block a retry. */
  async dropChallenge(email: string, codeHash: string): Promise<void> {
    await this.db.otpChallenge.deleteMany({ where: { email, codeHash } });
  }

  /** Marks the code used; only one of several concurrent verifications wins. */
  async consumeChallenge(tx: Tx, email: string, codeHash: string, now: Date): Promise<boolean> {
    const { count } = await tx.otpChallenge.updateMany({
      where: {
        email,
        codeHash,
        consumedAt: null,
        expiresAt: { gt: now },
        failedAttempts: { lt: MAX_FAILED_OTP_ATTEMPTS },
      },
      data: { consumedAt: now },
    });
    return count === 1;
  }

  /** Counts one wrong code; false when the attempts were already used up (checked in the database). */
  async countFailedAttempt(email: string, codeHash: string): Promise<boolean> {
    const { count } = await this.db.otpChallenge.updateMany({
      where: { email, codeHash, consumedAt: null, failedAttempts: { lt: MAX_FAILED_OTP_ATTEMPTS } },
      data: { failedAttempts: { increment: 1 } },
    });
    return count === 1;
  }

  async createSessionFamily(tx: Tx, family: { id: string; profileId: string }): Promise<void> {
    await tx.sessionFamily.create({ data: family });
  }

  async insertRefreshToken(
    tx: Tx,
    token: { id: string; familyId: string; tokenHash: string; expiresAt: Date },
  ): Promise<void> {
    await tx.refreshToken.create({ data: token });
  }

  /** Spends a live refresh token of a live family; returns its family, or undefined when it is not spendable. */
  async spendRefreshToken(tx: Tx, tokenHash: string, now: Date) {
    const { count } = await tx.refreshToken.updateMany({
      where: { tokenHash, spentAt: null, expiresAt: { gt: now }, family: { revokedAt: null } },
      data: { spentAt: now },
    });
    if (count !== 1) return undefined;
    return tx.refreshToken.findUniqueOrThrow({
      where: { tokenHash },
      select: { family: { select: { id: true, profileId: true } } },
    });
  }

  findRefreshToken(tokenHash: string) {
    return this.db.refreshToken.findUnique({ where: { tokenHash }, select: { familyId: true, spentAt: true } });
  }

  /** Authentication lookup of a sign-in by id (from a verified access token). */
  async findSessionFamily(familyId: string) {
    const row = await this.reads.one(
      query.selectFrom("SessionFamily").select(["profileId", "revokedAt"]).where("id", "=", familyId),
    );
    return row ?? null;
  }

  async revokeSessionFamily(familyId: string, now: Date): Promise<void> {
    await this.db.sessionFamily.updateMany({ where: { id: familyId, revokedAt: null }, data: { revokedAt: now } });
  }
}

/**
 * Deletes up to `limit` sign-in codes that expired before `expiredBefore`: none can be used, and the next
 * request for the email starts afresh. How many went.
 */
export function pruneExpiredChallenges(writes: Writes, expiredBefore: Date, limit: number): Promise<number> {
  return deleteBatch(writes, {
    table: "OtpChallenge",
    key: "email",
    where: (row) => row("expiresAt", "<", expiredBefore),
    limit,
  });
}

/**
 * Deletes up to `limit` refresh tokens that expired, or whose sign-in was ended, before `endedBefore`. Until
 * then a spent token is kept, so presenting it again still ends its sign-in. How many went. Two statements,
 * each on its own index (PostgreSQL reads a table whole for the two conditions joined by OR).
 */
export async function pruneEndedRefreshTokens(writes: Writes, endedBefore: Date, limit: number): Promise<number> {
  const tokens = (where: RowCondition<"RefreshToken">, left: number) =>
    deleteBatch(writes, { table: "RefreshToken", key: "id", where, limit: left });
  const expired = await tokens((row) => row("expiresAt", "<", endedBefore), limit);
  if (expired === limit) return expired;
  const ended = await tokens(
    (row) =>
      row(
        "familyId",
        "in",
        row.selectFrom("SessionFamily").select("SessionFamily.id").where("SessionFamily.revokedAt", "<", endedBefore),
      ),
    limit - expired,
  );
  return expired + ended;
}

/**
 * Deletes up to `limit` sign-ins begun before `startedBefore` and left without refresh tokens (pruned by
 * `pruneEndedRefreshTokens`): a sign-in gets its first token in the transaction that creates it, so one
 * without any can neither be refreshed nor have an unexpired access token. How many went.
 */
export function pruneEmptySessionFamilies(writes: Writes, startedBefore: Date, limit: number): Promise<number> {
  return deleteBatch(writes, {
    table: "SessionFamily",
    key: "id",
    where: (row) =>
      row.and([
        row("createdAt", "<", startedBefore),
        row.not(
          row.exists(
            row
              .selectFrom("RefreshToken")
              .select(row.lit(1).as("one"))
              .whereRef("RefreshToken.familyId", "=", "SessionFamily.id"),
          ),
        ),
      ]),
    limit,
  });
}
