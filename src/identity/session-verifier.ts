import { AppError } from "../errors.js";
import type { IdentityRepository } from "./repo.js";
import { canonicalId } from "../validation.js";
import type { Caches } from "../cache/caches.js";
import type { RevocableCache } from "../cache/revocable-cache.js";
import type { BearerVerifier } from "../auth/authenticate.js";
import type { VerifiedSession } from "../auth/principal.js";
import type { AccessTokens } from "../auth/tokens.js";

/**
 * Verifies bearer tokens: signature and claims, then that their sign-in has not ended. Sign-in state is
 * cached briefly and dropped at once, on every instance, when a logout or refresh-token reuse ends it.
 */
export class SessionVerifier implements BearerVerifier {
  private readonly cache: RevocableCache<boolean>;
  /** Tokens whose signature and claims were checked already (the HMAC and JSON work of every request). */
  private readonly tokens: RevocableCache<VerifiedSession>;

  constructor(
    private readonly repository: IdentityRepository,
    private readonly accessTokens: AccessTokens,
    caches: Caches,
  ) {
    this.cache = caches.define("signIns");
    this.tokens = caches.define("accessTokens");
  }

  async verify(token: string): Promise<VerifiedSession> {
    const session =
      this.tokens.peek(token) ??
      (await this.tokens.load(token, async () => {
        const verified = this.accessTokens.verify(token);
        return { value: verified, tags: [verified.sessionId] };
      }))!;
    // Checked on every request, cached or not: the token's expiry and whether its sign-in still holds.
    if (!(await this.isActive(session))) throw new AppError("INVALID_BEARER_TOKEN", "The session has ended.");
    return session;
  }

  async isActive(session: VerifiedSession): Promise<boolean> {
    // Tokens are ours, so sid is canonical; anything else names no sign-in.
    if (session.expiresAt.getTime() <= Date.now() || canonicalId(session.sessionId) !== session.sessionId) return false;
    const active =
      this.cache.peek(session.sessionId) ??
      (await this.cache.load(session.sessionId, async () => {
        const family = await this.repository.findSessionFamily(session.sessionId);
        return family
          ? { value: family.revokedAt === null && family.profileId === session.profileId, tags: [session.sessionId] }
          : undefined;
      }));
    return active === true;
  }
}
