import type { Caches } from "../cache/caches.js";
import type { RevocableCache } from "../cache/revocable-cache.js";
import type { Tx } from "../db/tx.js";
import { AppError } from "../errors.js";
import type { ProfileRepository } from "./repo.js";
import type { ProfileView } from "./types.js";

/** Tags a profile's cached view (its own namespace: a change to the profile's row drops nothing else). */
const profileTag = (profileId: string) => `profile:${profileId}`;

export class ProfileService {
  /** Profiles as `me` shows them, dropped on every instance when a change to one is committed (`changed`). */
  private readonly views: RevocableCache<ProfileView>;

  constructor(
    private readonly repository: ProfileRepository,
    private readonly caches: Caches,
  ) {
    this.views = caches.define("profiles");
  }

  /** A profile by id (with the manager of a managed child), or null. */
  async find(profileId: string) {
    const [profile] = await this.repository.findProfiles([profileId]);
    return profile ?? null;
  }

  /** For the operator: the profiles signed in with the email, and the managed children whose contact email it is. */
  findByEmail(email: string) {
    return this.repository.findProfilesByEmail(email);
  }

  /**
   * The profile signed in with this (normalized) email, created on first sign-in, in the caller's transaction.
   * A profile that exists already is left as it is (its view stays true); a new one was never cached.
   */
  signInProfile(tx: Tx, email: string): Promise<{ id: string }> {
    return this.repository.upsertProfileByEmail(tx, email);
  }

  /** What KYC providers know a subject by (null for an unknown or deleted profile). */
  kycSubject(profileId: string) {
    return this.repository.findKycSubject(profileId);
  }

  /**
   * Profiles by id, in the order asked (a batch of `me` reads), from memory or one statement;
   * a missing one is NOT_FOUND.
   */
  async getMany(profileIds: readonly string[]): Promise<ProfileView[]> {
    const found = await this.views.loadMany(profileIds, async (missing) => {
      const rows = await this.repository.findProfiles(missing);
      return new Map(
        rows.map(({ id, email, createdAt, updatedAt }) => [
          id,
          { value: { id, email, createdAt, updatedAt }, tags: [profileTag(id)] },
        ]),
      );
    });
    return profileIds.map((id) => {
      const profile = found.get(id);
      if (!profile) throw new AppError("NOT_FOUND", "Profile not found.");
      return profile;
    });
  }

  /**
   * Call after committing any write to the profile's row (every write moves its updatedAt, a lock taken by
   * bumping its revision too): every instance forgets its view.
   */
  async changed(profileId: string): Promise<void> {
    await this.caches.invalidate(profileTag(profileId));
  }
}
