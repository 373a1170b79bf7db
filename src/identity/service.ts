import { createHmac, hkdfSync, randomBytes, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import type { Logger } from "pino";
import { sha256Hex } from "../auth/keys.js";
import type { AccessTokens } from "../auth/tokens.js";
import type { Caches } from "../cache/caches.js";
import { AppError } from "../errors.js";
import type { Mailer } from "../mail/mailer.js";
import type { ProfileService } from "../profiles/service.js";
import type { Tx } from "../db/tx.js";
import { MAX_FAILED_OTP_ATTEMPTS, type IdentityRepository } from "./repo.js";
import type { RequestOtpInput, SessionView, VerifyOtpInput } from "./types.js";

const OTP_TTL_MS = 10 * 60_000;

export interface IdentitySettings {
  otpResendCooldownMs: number;
  refreshTokenTtlMs: number;
  /** Keys the OTP hash: a 6-digit code hashed without a server key would be trivially reversed. */
  otpHashSecret: string;
}

const INVALID_REFRESH = "The refresh token is invalid, expired or already used.";

/** Email OTP sign-in and rotating refresh-token sessions. */
export class IdentityService {
  private readonly otpKey: Buffer;

  constructor(
    private readonly repository: IdentityRepository,
    private readonly profiles: ProfileService,
    private readonly mailer: Mailer,
    private readonly accessTokens: AccessTokens,
    private readonly caches: Caches,
    private readonly settings: IdentitySettings,
    private readonly log: Logger,
  ) {
    this.otpKey = Buffer.from(hkdfSync("sha256", settings.otpHashSecret, "", "ramp-gateway otp hash", 32));
  }

  async requestOtp({ email }: RequestOtpInput): Promise<{ success: true; message: string }> {
    const code = randomInt(0, 1_000_000).toString().padStart(6, "0");
    const codeHash = this.hashCode(email, code);
    const now = new Date();
    const stored = await this.repository.replaceChallenge(
      { email, codeHash, sentAt: now, expiresAt: new Date(now.getTime() + OTP_TTL_MS) },
      new Date(now.getTime() - this.settings.otpResendCooldownMs),
    );
    if (!stored) {
      const existing = await this.repository.findChallenge(email);
      const waitMs = existing ? existing.sentAt.getTime() + this.settings.otpResendCooldownMs - now.getTime() : 1000;
      throw new AppError("RATE_LIMITED", "A code was sent recently; wait before asking for another.", undefined, {
        "Retry-After": String(Math.max(1, Math.ceil(waitMs / 1000))),
      });
    }
    try {
      await this.mailer.send({
        to: email,
        subject: "Your sign-in code",
        text: `Your sign-in code is ${code}. It is valid for 10 minutes. If you did not ask for it, ignore this message.`,
      });
    } catch (error) {
      await this.repository.dropChallenge(email, codeHash);
      this.log.error({ err: error }, "sign-in code could not be mailed");
      throw new AppError("INTERNAL", "The sign-in code could not be sent.");
    }
    return { success: true, message: "A sign-in code has been sent to the email address." };
  }

  async verifyOtp({ email, token }: VerifyOtpInput): Promise<SessionView> {
    const now = new Date();
    const challenge = await this.repository.findChallenge(email);
    if (!challenge || challenge.consumedAt || challenge.expiresAt <= now) throw new AppError("INVALID_OTP");
    if (challenge.failedAttempts >= MAX_FAILED_OTP_ATTEMPTS) throw new AppError("OTP_ATTEMPTS_EXCEEDED");

    const presented = Buffer.from(this.hashCode(email, token), "hex");
    if (!timingSafeEqual(presented, Buffer.from(challenge.codeHash, "hex"))) {
      const counted = await this.repository.countFailedAttempt(email, challenge.codeHash);
      throw new AppError(counted ? "INVALID_OTP" : "OTP_ATTEMPTS_EXCEEDED");
    }
    return this.repository.transaction(async (tx) => {
      if (!(await this.repository.consumeChallenge(tx, email, challenge.codeHash, now)))
        throw new AppError("INVALID_OTP");
      const profile = await this.profiles.signInProfile(tx, email);
      const familyId = randomUUID();
      await this.repository.createSessionFamily(tx, { id: familyId, profileId: profile.id });
      return this.issueSession(tx, familyId, profile.id, now);
    });
  }

  async refresh(refreshToken: string): Promise<SessionView> {
    const tokenHash = sha256Hex(refreshToken);
    const now = new Date();
    const rotated = await this.repository.transaction(async (tx) => {
      const spent = await this.repository.spendRefreshToken(tx, tokenHash, now);
      return spent && this.issueSession(tx, spent.family.id, spent.family.profileId, now);
    });
    if (rotated) return rotated;
    const known = await this.repository.findRefreshToken(tokenHash);
    if (known?.spentAt) {
      // A spent token came back: it was copied. End the whole sign-in, legitimate holder included.
      await this.endSession(known.familyId, now);
      this.log.warn({ sessionFamilyId: known.familyId }, "refresh token reused; session family revoked");
    }
    throw new AppError("AUTHENTICATION_REQUIRED", INVALID_REFRESH);
  }

  async logout(refreshToken: string): Promise<void> {
    const known = await this.repository.findRefreshToken(sha256Hex(refreshToken));
    if (!known) throw new AppError("AUTHENTICATION_REQUIRED", INVALID_REFRESH);
    await this.endSession(known.familyId, new Date());
  }

  /** Ends a sign-in: its refresh tokens and, on every instance at once, its access tokens. */
  private async endSession(familyId: string, now: Date): Promise<void> {
    await this.repository.revokeSessionFamily(familyId, now);
    await this.caches.invalidate(familyId);
  }

  private async issueSession(tx: Tx, familyId: string, profileId: string, now: Date): Promise<SessionView> {
    const refreshToken = randomBytes(32).toString("base64url");
    await this.repository.insertRefreshToken(tx, {
      id: randomUUID(),
      familyId,
      tokenHash: sha256Hex(refreshToken),
      expiresAt: new Date(now.getTime() + this.settings.refreshTokenTtlMs),
    });
    const access = this.accessTokens.issue(profileId, familyId);
    return {
      accessToken: access.token,
      refreshToken,
      userId: profileId,
      tokenType: "bearer",
      expiresIn: access.expiresIn,
    };
  }

  private hashCode(email: string, code: string): string {
    return createHmac("sha256", this.otpKey).update(`${email}\n${code}`).digest("hex");
  }
}
