import type { ListPage } from "../validation.js";
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

const paged = ({ limit, offset }: ListPage) => ({ skip: offset, take: limit });

/** A sender's invitations not yet accepted, archived or not, newest first. */
export function listPendingInvitations(db: Queryable, senderProfileId: string, archived: boolean, page: ListPage) {
  return db.recipientInvitation.findMany({
    where: { senderProfileId, status: "pending", archivedAt: archived ? { not: null } : null },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    ...paged(page),
  });
}

/** A sender's recipients (accepted invitations), newest first. */
export function listRecipients(db: Queryable, senderProfileId: string, page: ListPage) {
  return db.recipientInvitation.findMany({
    where: { senderProfileId, status: "accepted" },
    orderBy: [{ acceptedAt: "desc" }, { id: "desc" }],
    ...paged(page),
  });
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
