import type { Prisma } from "../generated/prisma/client.js";
import { Repository } from "../db/repository.js";

export type DocumentUploadRow = Prisma.DocumentUploadGetPayload<object>;

/** Uploaded documents' sides: what the upload service reads and changes. */
export class UploadRepository extends Repository {
  /** The sides of one new document, pending, for their owner. */
  async insertSides(
    profileId: string,
    sides: Omit<Prisma.DocumentUploadCreateManyInput, "profileId" | "status">[],
  ): Promise<void> {
    await this.db.documentUpload.createMany({ data: sides.map((side) => ({ ...side, profileId, status: "pending" })) });
  }

  /** One side of an owner's document, by the id its URL names; null when it is not the owner's. */
  findSide(profileId: string, id: string) {
    return this.db.documentUpload.findFirst({ where: { id, profileId } });
  }

  /** The sides of an owner's document; none when it is not the owner's. */
  findDocumentSides(profileId: string, documentId: string) {
    return this.db.documentUpload.findMany({ where: { profileId, documentId } });
  }

  /**
   * Marks a pending side of an owner's uploaded, with where its bytes are: true when this call did, false when
   * it was no longer pending (another request's file got there first).
   */
  async markSideUploaded(
    profileId: string,
    id: string,
    file: { storageKey: string; contentType: string; sizeBytes: number; uploadedAt: Date },
  ): Promise<boolean> {
    const { count } = await this.db.documentUpload.updateMany({
      where: { id, profileId, status: "pending" },
      data: { ...file, status: "uploaded" },
    });
    return count === 1;
  }
}
