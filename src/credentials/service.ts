import { randomUUID } from "node:crypto";
import { RAMP_ENVIRONMENTS } from "../auth/keys.js";
import { recordOperatorChange } from "../audit/service.js";
import type { OperatorActor } from "../audit/types.js";
import { generateKeyPair, SECRET_PREFIX_LENGTH, sha256Hex, type RampEnvironment } from "../auth/keys.js";
import type { Caches } from "../cache/caches.js";
import type { RevocableCache } from "../cache/revocable-cache.js";
import { AppError, type ErrorCode } from "../errors.js";
import type { EventBus } from "../events/bus.js";
import type { ProfileService } from "../profiles/service.js";
import { canonicalId, storedOneOf, type ListPage } from "../validation.js";
import type { Pagination } from "../output.js";
import type { CredentialRecord, CredentialRepository } from "./repo.js";
import {
  credentialListTag,
  DEFAULT_CREDENTIAL_NAME,
  MAX_ACTIVE_CREDENTIALS,
  type ApiCredentialView,
  type CredentialInput,
  type IssuedCredential,
} from "./types.js";

const MAX_NAME_LENGTH = 100;
/** A page holds at most a hundred credentials of a few hundred bytes: this bounds what lists can hold. */
const MAX_CACHED_PAGES = 5_000;

type CredentialPage = { credentials: ApiCredentialView[]; pagination: Pagination };

/** Adds calendar years in UTC (Feb 29 rolls to Mar 1, as Date does). */
function addYears(date: Date, years: number): Date {
  const result = new Date(date);
  result.setUTCFullYear(result.getUTCFullYear() + years);
  return result;
}

function toCredentialView(record: CredentialRecord): ApiCredentialView {
  const { secretKeyHash: _digest, environment, ...view } = record;
  return { ...view, environment: storedOneOf(RAMP_ENVIRONMENTS, environment) };
}

/**
 * The API-credential lifecycle of one profile: issue (at most 5 active), list, revoke. Dashboards read the
 * list on every page load: its pages are kept in memory until a change to them is published (see
 * credentialListTag).
 */
export class CredentialService {
  private readonly pages: RevocableCache<CredentialPage>;

  constructor(
    private readonly repository: CredentialRepository,
    private readonly bus: EventBus,
    private readonly caches: Caches,
    private readonly environment: RampEnvironment,
    private readonly profiles: ProfileService,
  ) {
    this.pages = caches.define("apiCredentialPages", MAX_CACHED_PAGES);
  }

  /**
   * Issues a credential for a live profile (not a deleted child). `missingSubject` is the error when the
   * profile does not exist or was deleted meanwhile; `partner` attributes a partner-managed credential, which
   * only the operator issues: the issuance is audited with it.
   */
  async create(
    profileId: string,
    input: CredentialInput,
    options: { partner?: { partnerId: string; operator: OperatorActor }; missingSubject?: ErrorCode } = {},
  ): Promise<IssuedCredential> {
    const { partner } = options;
    const now = new Date();
    const name = input.name === undefined ? DEFAULT_CREDENTIAL_NAME : input.name.trim();
    if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
      throw new AppError("INVALID_CREDENTIAL_NAME", "Name must be 1 to 100 characters.", [
        { field: "name", message: "must be 1 to 100 characters" },
      ]);
    }
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : addYears(now, 1);
    if (expiresAt <= now || expiresAt > addYears(now, 2)) {
      throw new AppError("INVALID_CREDENTIAL_EXPIRY", undefined, [
        { field: "expiresAt", message: "must be in the future and at most 2 years away" },
      ]);
    }
    const { publicKey, secretKey } = generateKeyPair(this.environment);
    const record = await this.repository.transaction(async (tx) => {
      if (!(await this.repository.lockProfileForIssuance(tx, profileId)))
        throw new AppError(options.missingSubject ?? "CREDENTIAL_SUBJECT_REQUIRED");
      if ((await this.repository.countActiveCredentials(tx, profileId, now)) >= MAX_ACTIVE_CREDENTIALS) {
        throw new AppError("CREDENTIAL_LIMIT_REACHED");
      }
      const inserted = await this.repository.insertCredential(tx, profileId, {
        id: randomUUID(),
        name,
        partnerId: partner?.partnerId ?? null,
        environment: this.environment,
        publicKey,
        secretKeyPrefix: secretKey.slice(0, SECRET_PREFIX_LENGTH),
        secretKeyHash: sha256Hex(secretKey),
        expiresAt,
      });
      if (partner) {
        await recordOperatorChange(tx, partner.operator, {
          action: "partner.credential.issued",
          targetType: "api-credential",
          targetId: inserted.id,
          details: { partnerId: partner.partnerId, profileId, expiresAt: expiresAt.toISOString() },
        });
      }
      return inserted;
    });
    // The issuance lock bumped the profile's revision, and with it its updatedAt.
    await Promise.all([this.profiles.changed(profileId), this.listChanged(profileId)]);
    await this.bus.publish("apiCredential", { profileId, credentialId: record.id, action: "created" });
    return { credential: toCredentialView(record), secretKey };
  }

  /** A page of the profile's credentials, newest first, revoked and expired included. */
  async list(profileId: string, { limit, offset }: ListPage): Promise<CredentialPage> {
    const key = pageKey(profileId, { limit, offset });
    return (
      this.pages.peek(key) ??
      (await this.pages.load(key, async () => {
        const { rows, total } = await this.repository.listCredentials(profileId, { limit, offset });
        const page = { credentials: rows.map(toCredentialView), pagination: { limit, offset, total } };
        return { value: page, tags: [credentialListTag(profileId)] };
      }))!
    );
  }

  /** `list` of several profiles (already authorized), the same page of each, by profile, in one statement. */
  async listOfMany(profileIds: readonly string[], { limit, offset }: ListPage): Promise<Map<string, CredentialPage>> {
    const profileOfKey = new Map(profileIds.map((profileId) => [pageKey(profileId, { limit, offset }), profileId]));
    const cached = await this.pages.loadMany([...profileOfKey.keys()], async (missing) => {
      const read = await this.repository.listCredentialsOfMany(
        missing.map((key) => profileOfKey.get(key)!),
        { limit, offset },
      );
      return new Map(
        [...read].map(([profileId, { rows, total }]) => [
          pageKey(profileId, { limit, offset }),
          {
            value: { credentials: rows.map(toCredentialView), pagination: { limit, offset, total } },
            tags: [credentialListTag(profileId)],
          },
        ]),
      );
    });
    return new Map([...cached].map(([key, page]) => [profileOfKey.get(key)!, page]));
  }

  async get(profileId: string, credentialId: string): Promise<ApiCredentialView> {
    const id = canonicalId(credentialId);
    const record = id ? await this.repository.findCredential(profileId, id) : null;
    if (!record) throw new AppError("CREDENTIAL_NOT_FOUND");
    return toCredentialView(record);
  }

  /**
   * Revokes both values at once; the verifiers' caches drop it (on every instance) before this returns.
   * A credential already revoked is CREDENTIAL_NOT_FOUND, unless `idempotent` (then nothing happens).
   */
  async revoke(profileId: string, credentialId: string, { idempotent = false } = {}): Promise<void> {
    const id = canonicalId(credentialId);
    if (id && (await this.repository.revokeCredential(profileId, id, new Date()))) {
      await this.caches.invalidate(id, credentialListTag(profileId));
      await this.bus.publish("apiCredential", { profileId, credentialId: id, action: "revoked" });
      return;
    }
    const exists = idempotent && id && (await this.repository.findCredential(profileId, id));
    if (!exists) throw new AppError("CREDENTIAL_NOT_FOUND");
  }

  /** Call after committing a change to the profile's credentials: every instance forgets its pages. */
  async listChanged(profileId: string): Promise<void> {
    await this.caches.invalidate(credentialListTag(profileId));
  }
}

const pageKey = (profileId: string, { limit, offset }: ListPage) => `${profileId} ${limit} ${offset}`;
