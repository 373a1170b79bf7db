import { sql } from "kysely";
import type { ListPage } from "../validation.js";
import { deleteBatch, type Writes } from "../db/statements.js";
import type { Queryable } from "../db/tx.js";
import type { Prisma } from "../generated/prisma/client.js";
import { Repository } from "../db/repository.js";

export type InvitationRow = Prisma.RecipientInvitationGetPayload<object>;

/** A page of a sender's invitations in `where`, in `orderBy`, and how many there are. */
async function pageOfInvitations(
  db: Queryable,
  where: Prisma.RecipientInvitationWhereInput,
  orderBy: Prisma.RecipientInvitationOrderByWithRelationInput[],
  { limit, offset }: ListPage,
) {
  const [rows, total] = await Promise.all([
    db.recipientInvitation.findMany({ where, orderBy, skip: offset, take: limit }),
    db.recipientInvitation.count({ where }),
  ]);
  return { rows, total };
}

/** Recipients' invitations: what the recipient service reads and changes. */
export class RecipientRepository extends Repository {
  insertInvitation(data: Prisma.RecipientInvitationUncheckedCreateInput) {
    return this.db.recipientInvitation.create({ data });
  }

  updateInvitation(id: string, data: Prisma.RecipientInvitationUncheckedUpdateInput) {
    return this.db.recipientInvitation.update({ where: { id }, data });
  }

  async deleteInvitation(id: string): Promise<void> {
    await this.db.recipientInvitation.deleteMany({ where: { id } });
  }

  /** One of a sender's invitations (pending or accepted), or null. */
  findInvitation(id: string, senderProfileId: string) {
    return this.db.recipientInvitation.findFirst({ where: { id, senderProfileId } });
  }

  findInvitationByEmail(senderProfileId: string, email: string) {
    return this.db.recipientInvitation.findUnique({ where: { senderProfileId_email: { senderProfileId, email } } });
  }

  findInvitationByCode(codeHash: string) {
    return this.db.recipientInvitation.findUnique({ where: { codeHash } });
  }

  /** A page of a sender's invitations not yet accepted, archived or not, newest first. */
  listPendingInvitations(senderProfileId: string, archived: boolean, page: ListPage) {
    return pageOfInvitations(
      this.db,
      { senderProfileId, status: "pending", archivedAt: archived ? { not: null } : null },
      [{ createdAt: "desc" }, { id: "desc" }],
      page,
    );
  }

  /** A page of a sender's recipients (accepted invitations), newest first. */
  listRecipients(senderProfileId: string, page: ListPage) {
    return pageOfInvitations(
      this.db,
      { senderProfileId, status: "accepted" },
      [{ acceptedAt: "desc" }, { id: "desc" }],
      page,
    );
  }

  /** Accepts a pending, unarchived invitation for the invitee; false when it is no longer pending. */
  async acceptInvitation(id: string, recipientProfileId: string, at: Date): Promise<boolean> {
    const { count } = await this.db.recipientInvitation.updateMany({
      where: { id, status: "pending", archivedAt: null, expiresAt: { gt: at } },
      data: { status: "accepted", recipientProfileId, acceptedAt: at },
    });
    return count === 1;
  }

  /** A profile's login email (null for a managed child, which has only a contact email). */
  async findProfileEmail(profileId: string): Promise<string | null> {
    return (await this.db.profile.findUnique({ where: { id: profileId }, select: { email: true } }))?.email ?? null;
  }

  async hasUsableFiatAccount(profileId: string, country: string): Promise<boolean> {
    return (await this.db.fiatAccount.count({ where: { profileId, country, deletedAt: null } })) > 0;
  }
}

/**
 * Deletes up to `limit` invitations, archived or not, that expired unaccepted before `expiredBefore`: no one
 * can accept them, and inviting the email again starts a new one. An accepted invitation is the sender's
 * recipient and stays. How many went.
 */
export function pruneExpiredInvitations(writes: Writes, expiredBefore: Date, limit: number): Promise<number> {
  return deleteBatch(writes, {
    table: "RecipientInvitation",
    key: "id",
    where: (row) => row.and([row("status", "=", sql.lit("pending")), row("expiresAt", "<", expiredBefore)]),
    limit,
  });
}
