import type { Reads } from "../db/statements.js";
import { AppError } from "../errors.js";
import { findProfiles } from "./repo.js";

export interface ProfileView {
  id: string;
  email: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export class ProfileService {
  constructor(private readonly reads: Reads) {}

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
