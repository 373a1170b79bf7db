import { sql } from "kysely";
import type { ListPage } from "../validation.js";
import { deleteBatch, type Writes } from "../db/statements.js";
import type { Queryable } from "../db/tx.js";
import type { Prisma } from "../generated/prisma/client.js";

export type InvitationRow = Prisma.RecipientInvitationGetPayload<object>;

export function insertInvitation(db: Queryable, data: Prisma.RecipientInvitationUncheckedCreateInput) {
  return db.recipientInvitation.create({ data });
}

export function updateInvitation(db: Queryable, id: string, data: Prisma.RecipientInvitationUncheckedUpdateInput) {
  return db.recipientInvitation.update({ where: { id }, data });
}

export async function deleteInvitation(db: Queryable, id: string): Promise<void> {
  await db.recipientInvitation.deleteMany({ where: { id } });
}

/** One of a sender's invitations (pending or accepted), or null. */
export function findInvitation(db: Queryable, id: string, senderProfileId: string) {
  return db.recipientInvitation.findFirst({ where: { id, senderProfileId } });
}

export function findInvitationByEmail(db: Queryable, senderProfileId: string, email: string) {
  return db.recipientInvitation.findUnique({ where: { senderProfileId_email: { senderProfileId, email } } });
}

export function findInvitationByCode(db: Queryable, codeHash: string) {
  return db.recipientInvitation.findUnique({ where: { codeHash } });
}

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

/** A page of a sender's invitations not yet accepted, archived or not, newest first. */
export function listPendingInvitations(db: Queryable, senderProfileId: string, archived: boolean, page: ListPage) {
  return pageOfInvitations(
    db,
    { senderProfileId, status: "pending", archivedAt: archived ? { not: null } : null },
    [{ createdAt: "desc" }, { id: "desc" }],
    page,
  );
}

/** A page of a sender's recipients (accepted invitations), newest first. */
export function listRecipients(db: Queryable, senderProfileId: string, page: ListPage) {
  return pageOfInvitations(db, { senderProfileId, status: "accepted" }, [{ acceptedAt: "desc" }, { id: "desc" }], page);
}

/** Accepts a pending, unarchived invitation for the invitee; false when it is no longer pending. */
export async function acceptInvitation(
  db: Queryable,
  id: string,
  recipientProfileId: string,
  at: Date,
): Promise<boolean> {
  const { count } = await db.recipientInvitation.updateMany({
    where: { id, status: "pending", archivedAt: null, expiresAt: { gt: at } },
    data: { status: "accepted", recipientProfileId, acceptedAt: at },
  });
  return count === 1;
}

/** A profile's login email (null for a managed child, which has only a contact email). */
export async function findProfileEmail(db: Queryable, profileId: string): Promise<string | null> {
  return (await db.profile.findUnique({ where: { id: profileId }, select: { email: true } }))?.email ?? null;
}

export async function hasUsableFiatAccount(db: Queryable, profileId: string, country: string): Promise<boolean> {
  return (await db.fiatAccount.count({ where: { profileId, country, deletedAt: null } })) > 0;
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
