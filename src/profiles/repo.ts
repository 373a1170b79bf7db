import { randomUUID } from "node:crypto";
import type { Queryable } from "../db/tx.js";

export function findProfile(db: Queryable, profileId: string) {
  return db.profile.findUnique({ where: { id: profileId }, select: { id: true, email: true, managerProfileId: true, createdAt: true, updatedAt: true } });
}

/** The profile signed in with this (normalized) email, created on first sign-in. */
export function upsertProfileByEmail(db: Queryable, email: string) {
  return db.profile.upsert({
    where: { email },
    create: { id: randomUUID(), email },
    update: {},
    select: { id: true },
  });
}
