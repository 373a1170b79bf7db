import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { ActingContext } from "../auth/delegation.js";
import { DOCUMENT_MEDIA_TYPES, MAX_UPLOAD_BYTES, SELFIE_MEDIA_TYPES, type UploadService } from "../uploads/service.js";
import { AppError } from "../errors.js";
import { fieldError, storedOneOf, text, uuid } from "../validation.js";
import type { SubmissionFileView, SubmissionFiles } from "./domestic.js";
import { KYB_COUNTRIES, KYB_FILE_TYPES, RELATED_PERSON_FILE_TYPES } from "./domestic-enums.js";
import { relatedPersonIdsOf, type KycCaseRow, type KycRepository } from "./repo.js";
import type { CaseKey } from "./reads.js";
import { flowName, statusName } from "./cases.js";
import type { KycService } from "./service.js";

/** The reference's file types of an individual (KYC); a KYB submission's are in domestic.ts. */
const KYC_FILE_TYPES = ["National ID Front", "National ID Back", "Selfie"] as const;
/** The countries whose API KYC takes files (the reference's: not US). */
export const KYC_FILE_COUNTRIES = ["AR", "CO", "MX"] as const;

const oneOf = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });

/** A file as a face received it: its bytes, whole, and the media type it was declared as. */
const file = z
  .object(
    { contentType: text("label").optional(), bytes: z.instanceof(Buffer) },
    { error: (issue) => (issue.input === undefined ? "is required: attach the file" : "must be a file") },
  )
  .strict()
  .describe(
    `The file: a JPEG or PNG image or a PDF document (a selfie: an image), at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`,
  );

export const kycFileInput = z
  .object({
    country: oneOf(KYC_FILE_COUNTRIES),
    submissionId: uuid("must be a submission id"),
    fileType: oneOf(KYC_FILE_TYPES),
    file,
  })
  .strict();
export const kybFileInput = z
  .object({
    country: oneOf(KYB_COUNTRIES),
    submissionId: uuid("must be a submission id"),
    fileType: oneOf(KYB_FILE_TYPES),
    file,
  })
  .strict();
export const relatedPersonFileInput = z
  .object({
    country: oneOf(KYB_COUNTRIES),
    relatedPersonId: uuid("must be a related person's id"),
    fileType: oneOf(RELATED_PERSON_FILE_TYPES),
    file,
  })
  .strict();

/**
 * Files of API KYC/KYB submissions in AR, CO and MX, sent whole with the request (the reference's multipart
 * uploads). Each is checked and stored as a document upload's side is (UploadService), then recorded against the
 * subject's submission (DomesticKycFile) while it is open: given, not yet sent for review.
 */
export class DomesticKycFiles implements SubmissionFiles {
  constructor(
    private readonly repository: KycRepository,
    private readonly kyc: KycService,
    private readonly uploads: UploadService,
  ) {}

  /** An identity document's side or a selfie for the individual customer's submission. */
  async submitKycFile(acting: ActingContext, input: z.output<typeof kycFileInput>): Promise<{ success: true }> {
    const key = { corridor: input.country, customerType: "individual" } as const;
    const row = await this.submissionTakingFiles(acting, key, input.submissionId);
    const accepted = input.fileType === "Selfie" ? SELFIE_MEDIA_TYPES : DOCUMENT_MEDIA_TYPES;
    return this.record(acting, row, input, accepted);
  }

  /** A company document for the business customer's submission. */
  async submitKybFile(acting: ActingContext, input: z.output<typeof kybFileInput>): Promise<{ success: true }> {
    const key = { corridor: input.country, customerType: "business" } as const;
    const row = await this.submissionTakingFiles(acting, key, input.submissionId);
    return this.record(acting, row, input, DOCUMENT_MEDIA_TYPES);
  }

  /** A side of the identity document of a person the business customer's submission declared. */
  async submitRelatedPersonFile(
    acting: ActingContext,
    input: z.output<typeof relatedPersonFileInput>,
  ): Promise<{ success: true }> {
    const key = { corridor: input.country, customerType: "business" } as const;
    const row = await this.relatedPersonTakingFiles(acting, key, input.relatedPersonId);
    return this.record(acting, row, input, DOCUMENT_MEDIA_TYPES);
  }

  /**
   * What arrived for one of the owner's submissions: the latest file of each type (and related person), in the
   * order the types first arrived.
   */
  async filesOf(ownerProfileId: string, submissionId: string): Promise<SubmissionFileView[]> {
    const latest = new Map<string, SubmissionFileView>();
    for (const row of await this.repository.findSubmissionFiles(ownerProfileId, submissionId)) {
      const view = {
        fileType: storedOneOf([...KYB_FILE_TYPES, ...RELATED_PERSON_FILE_TYPES], row.fileType),
        relatedPersonId: row.relatedPersonId,
        uploadedAt: row.uploadedAt,
      };
      latest.set(`${row.relatedPersonId ?? ""} ${row.fileType}`, view);
    }
    return [...latest.values()];
  }

  /**
   * The case whose current API submission this is, while it takes files (given, not sent yet), once the corridor
   * and customer type are authorized. Any other submission is NOT_FOUND (another owner's too).
   */
  private async submissionTakingFiles(
    acting: ActingContext,
    key: CaseKey,
    submissionId: string,
  ): Promise<KycCaseRow & { submissionId: string }> {
    const row = await this.kyc.caseToChange(acting, key);
    if (row.submissionId !== submissionId || row.method !== "api")
      throw new AppError("NOT_FOUND", "Submission not found.");
    return takingFiles(row, "submissionId");
  }

  /**
   * The business case whose current API submission declared this related person, while it takes files; a person
   * of no such submission is NOT_FOUND (another owner's too).
   */
  private async relatedPersonTakingFiles(
    acting: ActingContext,
    key: CaseKey,
    relatedPersonId: string,
  ): Promise<KycCaseRow & { submissionId: string }> {
    const row = await this.kyc.caseToChange(acting, key);
    if (!relatedPersonIdsOf(row).includes(relatedPersonId))
      throw new AppError("NOT_FOUND", "Related person not found.");
    return takingFiles(row, "relatedPersonId");
  }

  /**
   * Checks and stores the file, hands it to the partner, then records it; bytes no record names are removed again.
   */
  private async record(
    acting: ActingContext,
    row: KycCaseRow & { submissionId: string },
    input: { fileType: string; relatedPersonId?: string; file: { contentType?: string; bytes: Buffer } },
    accepted: readonly string[],
  ): Promise<{ success: true }> {
    const owner = acting.subjectProfileId;
    const stored = await this.uploads.store(owner, input.file, accepted, "file");
    try {
      await this.kyc.sendFile(row, {
        fileType: input.fileType,
        ...(input.relatedPersonId && { relatedPersonId: input.relatedPersonId }),
        contentType: stored.contentType,
        bytes: input.file.bytes,
      });
    } catch (error) {
      await this.uploads.discard(stored.storageKey);
      throw error;
    }
    try {
      await this.repository.insertFile(owner, {
        id: randomUUID(),
        kycCaseId: row.id,
        submissionId: row.submissionId,
        relatedPersonId: input.relatedPersonId ?? null,
        fileType: input.fileType,
        ...stored,
      });
    } catch (error) {
      await this.uploads.discard(stored.storageKey);
      throw error;
    }
    return { success: true };
  }
}

/** A submission takes files until it is sent: what the partner reviews is what it had then. */
function takingFiles(row: KycCaseRow, field: string): KycCaseRow & { submissionId: string } {
  if (row.status !== "pending" || !row.submissionId)
    throw fieldError(field, `names a ${flowName(row)} submission that is ${statusName(row)}: it takes no files now`);
  return { ...row, submissionId: row.submissionId };
}
