import { randomUUID } from "node:crypto";
import { query } from "../db/query.js";
import type { Tx } from "../db/tx.js";
import { Repository } from "../db/repository.js";

/** Profiles as the profile service reads and creates them. */
export class ProfileRepository extends Repository {
  /** Profiles by id (unknown ids are left out). */
  findProfiles(profileIds: readonly string[]) {
    return this.reads.all(
      query
        .selectFrom("Profile")
        .select(["id", "email", "managerProfileId", "createdAt", "updatedAt"])
        .where("id", "in", profileIds),
    );
  }

  /** The profile signed in with this (normalized) email, created on first sign-in. */
  upsertProfileByEmail(tx: Tx, email: string) {
    return tx.profile.upsert({
      where: { email },
      create: { id: randomUUID(), email },
      update: {},
      select: { id: true },
    });
  }

  /** What KYC providers know a subject by: a direct profile's login email, a child's contact email. */
  async findKycSubject(profileId: string) {
    const row = await this.db.profile.findUnique({
      where: { id: profileId },
      select: { id: true, email: true, contactEmail: true, customerType: true, deletedAt: true },
    });
    if (!row || row.deletedAt) return null;
    return {
      profileId: row.id,
      email: row.email ?? row.contactEmail,
      customerType: (row.customerType ?? "individual") as "individual" | "business",
    };
  }

  /** Profiles signed in with the email, and managed children whose contact email it is (both stored lower-case). */
  findProfilesByEmail(email: string) {
    return this.db.profile.findMany({
      where: { OR: [{ email }, { contactEmail: email }] },
      select: {
        id: true,
        email: true,
        contactEmail: true,
        managerProfileId: true,
        externalSubjectId: true,
        deletedAt: true,
        createdAt: true,
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
  }
}
