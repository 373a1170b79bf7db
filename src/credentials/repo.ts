import { listPagesPerOwner, type OwnerPage, type PagesQuery } from "../db/owner-pages.js";
import { query, rowLimit } from "../db/query.js";
import { inTransaction, type Tx } from "../db/tx.js";
import type { ApiCredential } from "../generated/prisma/client.js";
import { Repository } from "../db/repository.js";

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

export interface LastUse {
  credentialId: string;
  publicAt?: Date;
  secretAt?: Date;
}

/** API credentials: what the credential service and the verifier read and change. */
export class CredentialRepository extends Repository {
  /** Runs `work` in one interactive transaction of the ORM (see `inTransaction`). */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }

  /**
   * Takes the profile's row lock (by bumping its revision) so that concurrent issuers for one profile
   * queue up behind each other until commit (and behind a child's deletion, which takes the same lock).
   * Returns false when the profile does not exist or is a deleted child.
   */
  async lockProfileForIssuance(tx: Tx, profileId: string): Promise<boolean> {
    const { count } = await tx.profile.updateMany({
      where: { id: profileId, deletedAt: null },
      data: { credentialsRevision: { increment: 1 } },
    });
    return count === 1;
  }

  countActiveCredentials(tx: Tx, profileId: string, now: Date): Promise<number> {
    return tx.apiCredential.count({ where: { profileId, revokedAt: null, expiresAt: { gt: now } } });
  }

  insertCredential(tx: Tx, profileId: string, credential: NewCredential): Promise<CredentialRecord> {
    return tx.apiCredential.create({ data: { ...credential, profileId } });
  }

  async findCredential(profileId: string, credentialId: string): Promise<CredentialRecord | null> {
    return (
      (await this.reads.one(
        query.selectFrom("ApiCredential").selectAll().where("id", "=", credentialId).where("profileId", "=", profileId),
      )) ?? null
    );
  }

  /**
   * A page of the profile's credentials, newest first, and how many it has, in one statement (the count is a
   * subquery run once, as for the ramp history).
   */
  async listCredentials(
    profileId: string,
    page: { limit: number; offset: number },
  ): Promise<{ rows: CredentialRecord[]; total: number }> {
    const count = query
      .selectFrom("ApiCredential")
      .select((credential) => credential.cast<number>(credential.fn.countAll(), "integer").as("total"))
      .where("profileId", "=", profileId);
    const rows = await this.reads.all(
      query
        .selectFrom("ApiCredential")
        .selectAll()
        .select(count.as("total"))
        .where("profileId", "=", profileId)
        .orderBy("createdAt", "desc")
        .orderBy("id", "desc")
        .limit(rowLimit(page.limit))
        .offset(page.offset),
    );
    if (rows.length === 0 && page.offset > 0) {
      // Past the end, the page carries no count: ask for it alone.
      const counted = await this.reads.one(count);
      return { rows: [], total: counted?.total ?? 0 };
    }
    return { rows: rows.map(({ total: _total, ...record }) => record), total: rows[0]?.total ?? 0 };
  }

  /** `listCredentials` of several profiles (a manager's children), the same page of each, in one statement. */
  listCredentialsOfMany(
    profileIds: readonly string[],
    page: { limit: number; offset: number },
  ): Promise<Map<string, OwnerPage<CredentialRecord>>> {
    return listPagesPerOwner(this.reads, {
      rows: () => query.selectFrom("ApiCredential"),
      owner: "profileId",
      owners: profileIds,
      order: [
        ["createdAt", "desc"],
        ["id", "desc"],
      ],
      read: (pages: PagesQuery) =>
        pages.innerJoin("ApiCredential", "ApiCredential.id", "page.id").selectAll("ApiCredential"),
      rowOf: ({ pageOwner: _owner, pageTotal: _total, ...credential }) => credential,
      page,
    });
  }

  /** Revokes an active credential of the profile; false when it is missing, already revoked or not the profile's. */
  async revokeCredential(profileId: string, credentialId: string, now: Date): Promise<boolean> {
    const { count } = await this.db.apiCredential.updateMany({
      where: { id: credentialId, profileId, revokedAt: null },
      data: { revokedAt: now },
    });
    return count === 1;
  }

  /**
   * The authentication lookup: the one read not scoped by owner, since finding the owner is its purpose.
   * Public values are stored as they are; secret values only as their SHA-256 digest.
   */
  async findCredentialByKey(lookup: CredentialLookup): Promise<CredentialForAuthentication | null> {
    const row = await this.reads.one(
      query
        .selectFrom("ApiCredential")
        .innerJoin("Profile", "Profile.id", "ApiCredential.profileId")
        .leftJoin("Partner", "Partner.id", "ApiCredential.partnerId")
        .select([
          "ApiCredential.id",
          "ApiCredential.profileId",
          "ApiCredential.partnerId",
          "ApiCredential.environment",
          "ApiCredential.secretKeyHash",
          "ApiCredential.publicKey",
          "ApiCredential.expiresAt",
          "ApiCredential.revokedAt",
          "Partner.isActive as partnerIsActive",
          "Profile.managerProfileId",
        ])
        .where((credential) =>
          "publicKey" in lookup
            ? credential("ApiCredential.publicKey", "=", lookup.publicKey)
            : "secretKeyHash" in lookup
              ? credential("ApiCredential.secretKeyHash", "=", lookup.secretKeyHash)
              : credential("ApiCredential.id", "=", lookup.id),
        ),
    );
    return row ?? null;
  }

  /** Writes coalesced last-use times in one batch; a time never moves backwards (other instances write too). */
  async recordLastUses(uses: LastUse[]): Promise<void> {
    const writes = uses.flatMap(({ credentialId, publicAt, secretAt }) => [
      ...(publicAt
        ? [
            this.db.apiCredential.updateMany({
              where: { id: credentialId, OR: [{ publicLastUsedAt: null }, { publicLastUsedAt: { lt: publicAt } }] },
              data: { publicLastUsedAt: publicAt },
            }),
          ]
        : []),
      ...(secretAt
        ? [
            this.db.apiCredential.updateMany({
              where: { id: credentialId, OR: [{ secretLastUsedAt: null }, { secretLastUsedAt: { lt: secretAt } }] },
              data: { secretLastUsedAt: secretAt },
            }),
          ]
        : []),
    ]);
    if (writes.length) await this.db.$transaction(writes);
  }
}
