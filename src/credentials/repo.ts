import type { Db } from "../db/client.js";
import { pagesPerOwner, type OwnerPage } from "../db/owner-pages.js";
import { columns, limitClause, type Reads } from "../db/statements.js";
import type { Queryable, Tx } from "../db/tx.js";
import { Prisma, type ApiCredential } from "../generated/prisma/client.js";

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

const CREDENTIAL_COLUMNS = columns("ApiCredential", Object.values(Prisma.ApiCredentialScalarFieldEnum));
const SELECT_CREDENTIAL = `SELECT ${CREDENTIAL_COLUMNS} FROM "ApiCredential"`;

export async function findCredential(
  reads: Reads,
  profileId: string,
  credentialId: string,
): Promise<CredentialRecord | null> {
  return (
    (await reads.one<CredentialRecord>(`${SELECT_CREDENTIAL} WHERE "id" = $1 AND "profileId" = $2`, [
      credentialId,
      profileId,
    ])) ?? null
  );
}

/**
 * A page of the profile's credentials, newest first, and how many it has, in one statement (the count is a
 * subquery run once, as for the ramp history).
 */
export async function listCredentials(
  reads: Reads,
  profileId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: CredentialRecord[]; total: number }> {
  const count = `SELECT CAST(COUNT(*) AS INTEGER) AS "total" FROM "ApiCredential" WHERE "profileId" = $1`;
  const rows = await reads.all<CredentialRecord & { total: number }>(
    `SELECT ${CREDENTIAL_COLUMNS}, (${count}) AS "total" FROM "ApiCredential" WHERE "profileId" = $1
    ORDER BY "createdAt" DESC, "id" DESC ${limitClause(page.limit)} OFFSET $2`,
    [profileId, page.offset],
  );
  if (rows.length === 0 && page.offset > 0) {
    // Past the end, the page carries no count: ask for it alone.
    const counted = await reads.one<{ total: number }>(count, [profileId]);
    return { rows: [], total: counted?.total ?? 0 };
  }
  return { rows: rows.map(({ total: _total, ...record }) => record), total: rows[0]?.total ?? 0 };
}

/** `listCredentials` of several profiles (a manager's children), the same page of each, in one statement. */
export function listCredentialsOfMany(
  reads: Reads,
  profileIds: readonly string[],
  page: { limit: number; offset: number },
): Promise<Map<string, OwnerPage<CredentialRecord>>> {
  return pagesPerOwner<CredentialRecord>(reads, {
    table: "ApiCredential",
    owner: "profileId",
    owners: profileIds,
    filters: [],
    order: `"createdAt" DESC, "id" DESC`,
    select: CREDENTIAL_COLUMNS,
    page,
  });
}

/** Revokes an active credential of the profile; false when it is missing, already revoked or not the profile's. */
export async function revokeCredential(
  db: Queryable,
  profileId: string,
  credentialId: string,
  now: Date,
): Promise<boolean> {
  const { count } = await db.apiCredential.updateMany({
    where: { id: credentialId, profileId, revokedAt: null },
    data: { revokedAt: now },
  });
  return count === 1;
}

export type CredentialLookup = { publicKey: string } | { secretKeyHash: string } | { id: string };

export interface CredentialForAuthentication {
  id: string;
  profileId: string;
  partnerId: string | null;
  environment: string;
  secretKeyHash: string;
  publicKey: string;
  expiresAt: Date;
  revokedAt: Date | null;
  /** Null unless partner-managed. */
  partnerIsActive: boolean | null;
  managerProfileId: string | null;
}

/**
 * The authentication lookup: the one read not scoped by owner, since finding the owner is its purpose.
 * Public values are stored as they are; secret values only as their SHA-256 digest.
 */
export async function findCredentialByKey(
  reads: Reads,
  lookup: CredentialLookup,
): Promise<CredentialForAuthentication | null> {
  const [column, value] = Object.entries(lookup)[0] as [keyof CredentialLookup, string];
  const row = await reads.one<CredentialForAuthentication>(
    `SELECT ${columns("ApiCredential", ["id", "profileId", "partnerId", "environment", "secretKeyHash", "publicKey", "expiresAt", "revokedAt"])},
      "Partner"."isActive" AS "partnerIsActive", "Profile"."managerProfileId" AS "managerProfileId"
    FROM "ApiCredential" JOIN "Profile" ON "Profile"."id" = "ApiCredential"."profileId"
      LEFT JOIN "Partner" ON "Partner"."id" = "ApiCredential"."partnerId"
    WHERE "ApiCredential"."${column}" = $1`,
    [value],
  );
  return row ?? null;
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
      ? [
          db.apiCredential.updateMany({
            where: { id: credentialId, OR: [{ publicLastUsedAt: null }, { publicLastUsedAt: { lt: publicAt } }] },
            data: { publicLastUsedAt: publicAt },
          }),
        ]
      : []),
    ...(secretAt
      ? [
          db.apiCredential.updateMany({
            where: { id: credentialId, OR: [{ secretLastUsedAt: null }, { secretLastUsedAt: { lt: secretAt } }] },
            data: { secretLastUsedAt: secretAt },
          }),
        ]
      : []),
  ]);
  if (writes.length) await db.$transaction(writes);
}
