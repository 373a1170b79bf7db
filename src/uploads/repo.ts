import type { Queryable } from "../db/tx.js";
import type { Prisma } from "../generated/prisma/client.js";

export type DocumentUploadRow = Prisma.DocumentUploadGetPayload<object>;

/** The sides of one new document, pending, for their owner. */
export async function insertSides(
  db: Queryable,
  profileId: string,
  sides: Omit<Prisma.DocumentUploadCreateManyInput, "profileId" | "status">[],
): Promise<void> {
  await db.documentUpload.createMany({ data: sides.map((side) => ({ ...side, profileId, status: "pending" })) });
}

/** One side of an owner's document, by the id its URL names; null when it is not the owner's. */
export function findSide(db: Queryable, profileId: string, id: string) {
  return db.documentUpload.findFirst({ where: { id, profileId } });
}

/** The sides of an owner's document; none when it is not the owner's. */
export function findDocumentSides(db: Queryable, profileId: string, documentId: string) {
  return db.documentUpload.findMany({ where: { profileId, documentId } });
}

/**
 * Marks a pending side of an owner's uploaded, with where its bytes are: true when this call did, false when
 * it was no longer pending (another request's file got there first).
 */
export async function markSideUploaded(
  db: Queryable,
  profileId: string,
  id: string,
  file: { storageKey: string; contentType: string; sizeBytes: number; uploadedAt: Date },
): Promise<boolean> {
  const { count } = await db.documentUpload.updateMany({
    where: { id, profileId, status: "pending" },
    data: { ...file, status: "uploaded" },
  });
  return count === 1;
}
