import type { Db } from "../db/client.js";
import type { Reads } from "../db/statements.js";
import type { Queryable } from "../db/tx.js";
import { AppError } from "../errors.js";
import { findKycSubject, findProfiles, upsertProfileByEmail } from "./repo.js";

export interface ProfileView {
  id: string;
  email: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export class ProfileService {
  constructor(
    private readonly db: Db,
    private readonly reads: Reads,
  ) {}

  /** A profile by id (with the manager of a managed child), or null. */
  async find(profileId: string) {
    const [profile] = await findProfiles(this.reads, [profileId]);
    return profile ?? null;
  }

  /** The profile signed in with this (normalized) email, created on first sign-in, in the caller's transaction. */
  signInProfile(tx: Queryable, email: string): Promise<{ id: string }> {
    return upsertProfileByEmail(tx, email);
  }

  /** What KYC providers know a subject by (null for an unknown or deleted profile). */
  kycSubject(profileId: string) {
    return findKycSubject(this.db, profileId);
  }

  /** Profiles by id, in the order asked (a batch of `me` reads); a missing one is NOT_FOUND. */
  async getMany(profileIds: readonly string[]): Promise<ProfileView[]> {
    const found = new Map((await findProfiles(this.reads, profileIds)).map((profile) => [profile.id, profile]));
    return profileIds.map((id) => {
      const profile = found.get(id);
      if (!profile) throw new AppError("NOT_FOUND", "Profile not found.");
      return profile;
    });
  }
}
