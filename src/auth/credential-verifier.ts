import { timingSafeEqual } from "node:crypto";
import type { Logger } from "pino";
import type { Db } from "../db/client.js";
import { findCredentialByKey, findCredentialState, recordLastUses, type LastUse } from "../credentials/repo.js";
import { AppError } from "../errors.js";
import type { EventBus } from "../events/bus.js";
import { isWellFormedKey, sha256Hex, type KeyKind, type RampEnvironment } from "./keys.js";
import type { VerifiedCredential } from "./principal.js";

interface CachedCredential {
  credential: VerifiedCredential;
  storedDigest: Buffer;
  environment: string;
  expiresAt: Date;
  revokedAt: Date | null;
}

const ERRORS = { public: "INVALID_PUBLIC_KEY", secret: "INVALID_API_KEY" } as const;
const MALFORMED = { public: "INVALID_PUBLIC_KEY", secret: "INVALID_SECRET_KEY" } as const;

/**
 * Verifies API key values: the hot path of every keyed request. Records are cached briefly by the
 * SHA-256 digest of the presented value and dropped at once when a revocation is published on the bus
 * (from any instance). Last-use times are coalesced in memory and flushed in batches.
 */
export class CredentialVerifier {
  private readonly cache = new Map<string, CachedCredential>();
  private readonly digestsById = new Map<string, Set<string>>();
  /** Bumped by every invalidation, so a lookup that raced one does not cache what it read. */
  private epoch = 0;
  private pendingUses = new Map<string, LastUse>();
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    bus: EventBus,
    private readonly options: { environment: RampEnvironment; cacheTtlMs: number; flushIntervalMs: number; log: Logger },
  ) {
    bus.subscribe("apiCredential", ({ credentialId, action }) => {
      if (action === "revoked") this.invalidate(credentialId);
    });
    bus.onResync(() => this.invalidateAll());
  }

  async verify(kind: KeyKind, value: string): Promise<VerifiedCredential> {
    if (!isWellFormedKey(kind, value)) throw new AppError(MALFORMED[kind]);
    const digest = sha256Hex(value);
    const now = new Date();
    const entry = this.cache.get(digest) ?? (await this.load(kind, value, digest));
    if (
      !entry ||
      !timingSafeEqual(entry.storedDigest, Buffer.from(digest, "hex")) ||
      entry.environment !== this.options.environment ||
      entry.revokedAt !== null ||
      entry.expiresAt <= now
    ) {
      throw new AppError(ERRORS[kind]);
    }
    this.noteUse(entry.credential.id, kind, now);
    return entry.credential;
  }

  /** For long-lived connections: the credential is still active (from the cache, else read again). */
  async isStillValid(credential: VerifiedCredential): Promise<boolean> {
    const state = this.cache.get(credential.keyDigest) ?? (await findCredentialState(this.db, credential.id));
    return !!state && state.revokedAt === null && state.expiresAt > new Date();
  }

  private async load(kind: KeyKind, value: string, digest: string): Promise<CachedCredential | undefined> {
    const epochAtStart = this.epoch;
    const record = await findCredentialByKey(this.db, kind === "public" ? { publicKey: value } : { secretKeyHash: digest });
    if (!record) return undefined;
    const entry: CachedCredential = {
      credential: { id: record.id, profileId: record.profileId, partnerId: record.partnerId, keyDigest: digest },
      // A public value is stored as it is; compare digests for both kinds alike.
      storedDigest: Buffer.from(kind === "public" ? sha256Hex(record.publicKey) : record.secretKeyHash, "hex"),
      environment: record.environment,
      expiresAt: record.expiresAt,
      revokedAt: record.revokedAt,
    };
    if (this.options.cacheTtlMs > 0 && this.epoch === epochAtStart) {
      this.cache.set(digest, entry);
      const digests = this.digestsById.get(record.id) ?? new Set();
      digests.add(digest);
      this.digestsById.set(record.id, digests);
      setTimeout(() => this.evict(record.id, digest, entry), this.options.cacheTtlMs).unref();
    }
    return entry;
  }

  private evict(credentialId: string, digest: string, entry: CachedCredential): void {
    if (this.cache.get(digest) !== entry) return;
    this.cache.delete(digest);
    this.digestsById.get(credentialId)?.delete(digest);
    if (this.digestsById.get(credentialId)?.size === 0) this.digestsById.delete(credentialId);
  }

  invalidate(credentialId: string): void {
    this.epoch++;
    for (const digest of this.digestsById.get(credentialId) ?? []) this.cache.delete(digest);
    this.digestsById.delete(credentialId);
  }

  private invalidateAll(): void {
    this.epoch++;
    this.cache.clear();
    this.digestsById.clear();
  }

  private noteUse(credentialId: string, kind: KeyKind, at: Date): void {
    const use = this.pendingUses.get(credentialId) ?? { credentialId };
    if (kind === "public") use.publicAt = at;
    else use.secretAt = at;
    this.pendingUses.set(credentialId, use);
    this.flushTimer ??= setTimeout(() => void this.flushLastUses(), this.options.flushIntervalMs).unref();
  }

  /** Writes the coalesced last-use times: one batch per interval, not one write per request. */
  async flushLastUses(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const uses = [...this.pendingUses.values()];
    this.pendingUses = new Map();
    if (!uses.length) return;
    try {
      await recordLastUses(this.db, uses);
    } catch (error) {
      this.options.log.error({ err: error, count: uses.length }, "failed to record credential last-use times");
    }
  }
}
