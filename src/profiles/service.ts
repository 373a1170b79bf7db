import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { findProfile } from "./repo.js";

export interface ProfileView {
  id: string;
  email: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export class ProfileService {
  constructor(private readonly db: Db) {}

  async get(profileId: string): Promise<ProfileView> {
    const profile = await findProfile(this.db, profileId);
    if (!profile) throw new AppError("NOT_FOUND", "Profile not found.");
    return profile;
  }
}
