import { timingSafeEqual } from "node:crypto";
import type { Logger } from "pino";
import type { CredentialLookup, CredentialRepository, LastUse } from "./repo.js";
import { AppError } from "../errors.js";
import { isWellFormedKey, KeyDigests, sha256Hex, type KeyKind, type RampEnvironment } from "../auth/keys.js";
import type { KeyVerifier } from "../auth/authenticate.js";
import type { VerifiedCredential } from "../auth/principal.js";
import type { Caches } from "../cache/caches.js";
import type { RevocableCache } from "../cache/revocable-cache.js";
import { credentialListTag } from "./types.js";

/** Times in epoch milliseconds: every keyed request compares them, and Dates cost an allocation and a conversion. */
interface CachedCredential {
  credential: VerifiedCredential;
  environment: string;
  expiresAtMs: number;
  revoked: boolean;
  /** A partner-managed credential stops working when its partner is deactivated. */
  partnerActive: boolean;
}

function isActive(entry: CachedCredential, nowMs: number): boolean {
  return !entry.revoked && entry.expiresAtMs > nowMs && entry.partnerActive;
}

/** A credential's last uses since the last flush, in epoch milliseconds. */
interface PendingUse {
  credentialId: string;
  profileId: string;
  publicAtMs?: number;
  secretAtMs?: number;
}

const ERRORS = { public: "INVALID_PUBLIC_KEY", secret: "INVALID_API_KEY" } as const;
const MALFORMED = { public: "INVALID_PUBLIC_KEY", secret: "INVALID_SECRET_KEY" } as const;

/**
 * Verifies API key values: the hot path of every keyed request. Records are cached briefly by the
 * SHA-256 digest of the presented value and dropped at once when a revocation is published on the bus
 * (from any instance). Last-use times are coalesced in memory and flushed in batches.
 */
export class CredentialVerifier implements KeyVerifier {
  /** Keyed by the digest of the presented value, tagged with the ids of credential, profile and partner. */
  private readonly cache: RevocableCache<CachedCredential>;
  private readonly digests = new KeyDigests();
  private pendingUses = new Map<string, PendingUse>();
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repository: CredentialRepository,
    private readonly caches: Caches,
    private readonly options: {
      environment: RampEnvironment;
      flushIntervalMs: number;
      log: Logger;
    },
  ) {
    this.cache = caches.define("apiCredentials");
  }

  async verify(kind: KeyKind, value: string, connection?: object): Promise<VerifiedCredential> {
    if (!isWellFormedKey(kind, value)) throw new AppError(MALFORMED[kind]);
    const digest = this.digests.of(value, connection);
    const now = Date.now();
    const entry =
      this.cache.peek(digest) ??
      (await this.cache.load(digest, () =>
        this.load(kind, kind === "public" ? { publicKey: value } : { secretKeyHash: digest }, digest),
      ));
    if (!entry || entry.environment !== this.options.environment || !isActive(entry, now)) {
      throw new AppError(ERRORS[kind]);
    }
    this.noteUse(entry.credential, kind, now);
    return entry.credential;
  }

  /** For long-lived connections: the credential is still active (from the cache, else read again). */
  async isStillValid(kind: KeyKind, credential: VerifiedCredential): Promise<boolean> {
    const entry = await this.cache.load(credential.keyDigest, () =>
      this.load(kind, { id: credential.id }, credential.keyDigest),
    );
    return !!entry && isActive(entry, Date.now());
  }

  /**
   * The credential whose key has `digest`, to be cached under it: a record whose stored key does not give that
   * digest exactly (compared in constant time) is no match, so an entry found under a digest is that key's.
   */
  private async load(kind: KeyKind, lookup: CredentialLookup, digest: string) {
    const record = await this.repository.findCredentialByKey(lookup);
    if (!record) return undefined;
    // A public value is stored as it is; compare digests for both kinds alike.
    const storedDigest = kind === "public" ? sha256Hex(record.publicKey) : record.secretKeyHash;
    if (!timingSafeEqual(Buffer.from(storedDigest, "hex"), Buffer.from(digest, "hex"))) return undefined;
    const entry: CachedCredential = {
      credential: {
        id: record.id,
        profileId: record.profileId,
        partnerId: record.partnerId,
        managerProfileId: record.managerProfileId,
        keyDigest: digest,
      },
      environment: record.environment,
      expiresAtMs: record.expiresAt.getTime(),
      revoked: record.revokedAt !== null,
      partnerActive: record.partnerIsActive ?? true,
    };
    return { value: entry, tags: [record.id, record.profileId, ...(record.partnerId ? [record.partnerId] : [])] };
  }

  private noteUse({ id: credentialId, profileId }: VerifiedCredential, kind: KeyKind, atMs: number): void {
    const use = this.pendingUses.get(credentialId) ?? { credentialId, profileId };
    if (kind === "public") use.publicAtMs = atMs;
    else use.secretAtMs = atMs;
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
    const asDate = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms));
    const lastUses: LastUse[] = uses.map(({ credentialId, publicAtMs, secretAtMs }) => ({
      credentialId,
      publicAt: asDate(publicAtMs),
      secretAt: asDate(secretAtMs),
    }));
    try {
      await this.repository.recordLastUses(lastUses);
      // The credential lists show last-use times.
      await this.caches.invalidate(...new Set(uses.map((use) => credentialListTag(use.profileId))));
    } catch (error) {
      this.options.log.error({ err: error, count: uses.length }, "failed to record credential last-use times");
    }
  }
}
