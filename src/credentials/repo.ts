import type { ApiCredential } from "../generated/prisma/client.js";
import type { Db } from "../db/client.js";
import type { Queryable, Tx } from "../db/tx.js";

export type CredentialRecord = ApiCredential;

export interface NewCredential {
  id: string;
  name: string;
  partnerId: string | null;
  environment: string;
  publicKey: string;
  secretKeyPrefix: string;
  secretKeyHash: string;
  expiresAt: Date;
}

/**
 * Takes the profile's row lock (by bumping its revision) so that concurrent issuers for one profile
 * queue up behind each other until commit (and behind a child's deletion, which takes the same lock).
 * Returns false when the profile does not exist or is a deleted child.
 */
export async function lockProfileForIssuance(tx: Tx, profileId: string): Promise<boolean> {
  const { count } = await tx.profile.updateMany({
    where: { id: profileId, deletedAt: null },
    data: { credentialsRevision: { increment: 1 } },
  });
  return count === 1;
}

export function countActiveCredentials(tx: Tx, profileId: string, now: Date): Promise<number> {
  return tx.apiCredential.count({ where: { profileId, revokedAt: null, expiresAt: { gt: now } } });
}

export function insertCredential(tx: Tx, profileId: string, credential: NewCredential): Promise<CredentialRecord> {
  return tx.apiCredential.create({ data: { ...credential, profileId } });
}

export function findCredential(db: Queryable, profileId: string, credentialId: string): Promise<CredentialRecord | null> {
  return db.apiCredential.findFirst({ where: { id: credentialId, profileId } });
}

/** Newest first; `after` is the last record of the previous page. */
export function listCredentials(
  db: Queryable,
  profileId: string,
  page: { take?: number; after?: { createdAt: Date; id: string } } = {},
): Promise<CredentialRecord[]> {
  const { after } = page;
  return db.apiCredential.findMany({
    where: {
      profileId,
      ...(after && {
        OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
      }),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.take,
  });
}

/** Revokes an active credential of the profile; false when it is missing, already revoked or not the profile's. */
export async function revokeCredential(db: Queryable, profileId: string, credentialId: string, now: Date): Promise<boolean> {
  const { count } = await db.apiCredential.updateMany({
    where: { id: credentialId, profileId, revokedAt: null },
    data: { revokedAt: now },
  });
  return count === 1;
}

export type CredentialLookup = { publicKey: string } | { secretKeyHash: string } | { id: string };

/**
 * The authentication lookup: the one read not scoped by owner, since finding the owner is its purpose.
 * Public values are stored as they are; secret values only as their SHA-256 digest.
 */
export function findCredentialByKey(db: Queryable, lookup: CredentialLookup) {
  return db.apiCredential.findUnique({
    where: lookup,
    select: {
      id: true,
      profileId: true,
      partnerId: true,
      environment: true,
      secretKeyHash: true,
      publicKey: true,
      expiresAt: true,
      revokedAt: true,
      partner: { select: { isActive: true } },
      profile: { select: { managerProfileId: true } },
    },
  });
}

export interface LastUse {
  credentialId: string;
  publicAt?: Date;
  secretAt?: Date;
}

/** Writes coalesced last-use times in one batch; a time never moves backwards (other instances write too). */
export async function recordLastUses(db: Db, uses: LastUse[]): Promise<void> {
  const writes = uses.flatMap(({ credentialId, publicAt, secretAt }) => [
    ...(publicAt
      ? [db.apiCredential.updateMany({
          where: { id: credentialId, OR: [{ publicLastUsedAt: null }, { publicLastUsedAt: { lt: publicAt } }] },
          data: { publicLastUsedAt: publicAt },
        })]
      : []),
    ...(secretAt
      ? [db.apiCredential.updateMany({
          where: { id: credentialId, OR: [{ secretLastUsedAt: null }, { secretLastUsedAt: { lt: secretAt } }] },
          data: { secretLastUsedAt: secretAt },
        })]
      : []),
  ]);
  if (writes.length) await db.$transaction(writes);
}
