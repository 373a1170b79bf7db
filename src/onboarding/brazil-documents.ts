import type { ActingContext } from "../auth/delegation.js";
import { AppError, type FieldIssue } from "../errors.js";
import type { KycCase, KycService } from "../kyc/service.js";
import type { KycDocument } from "../providers/kyc-port.js";
import {
  DOCUMENT_MEDIA_TYPES,
  SELFIE_MEDIA_TYPES,
  type UploadPurpose,
  type UploadService,
} from "../uploads/service.js";
import { fieldError } from "../validation.js";
import { SELFIES, type DocumentType } from "./brazil-kyb-types.js";
import type { DocumentUploadView } from "./brazil-subaccount-types.js";

/** A named upload that must be a document of the subaccount for its purpose (of one of the types, if given). */
export interface NamedUpload {
  field: string;
  documentId: string;
  purpose: UploadPurpose;
  what: string;
  documentTypes?: readonly DocumentType[];
}

/** Refuses the input, all at once, when any field has an issue. */
export function refuse(issues: FieldIssue[]): void {
  if (issues.length === 1) throw fieldError(issues[0]!.field, issues[0]!.message);
  if (issues.length > 1) throw new AppError("VALIDATION_FAILED", undefined, issues);
}

/** The documents of BR subaccounts: opened for upload here, named by KYC and KYB, handed to the partner. */
export class BrazilDocuments {
  constructor(
    private readonly kyc: KycService,
    private readonly uploads: UploadService,
  ) {}

  /**
   * Opens a document of the subaccount for upload. A selfie comes with the partner's liveness check, whose
   * capture is the selfie the partner is named at submission; the file uploaded here is the subject's copy of record.
   */
  async open(
    acting: ActingContext,
    row: KycCase,
    document: { purpose: UploadPurpose; documentType: DocumentType; doubleSided: boolean },
  ): Promise<DocumentUploadView> {
    const liveness = SELFIES.includes(document.documentType) ? await this.kyc.startLiveness(row) : undefined;
    const upload = await this.uploads.open(acting.subjectProfileId, {
      ...document,
      kycCaseId: row.id,
      mediaTypes: liveness ? SELFIE_MEDIA_TYPES : DOCUMENT_MEDIA_TYPES,
      ...(liveness && { partnerDocumentId: liveness.documentId }),
    });
    return {
      documentId: upload.documentId,
      frontUploadUrl: upload.frontUrl,
      backUploadUrl: upload.backUrl ?? null,
      livenessUrl: liveness?.url ?? null,
      livenessValidationToken: liveness?.validationToken ?? null,
    };
  }

  /**
   * What is wrong with each named upload that is not a document of the subaccount for its purpose (and of its
   * types) whose every side arrived. Another subject's id is as unknown as one never issued.
   */
  async issues(acting: ActingContext, row: KycCase, named: NamedUpload[]): Promise<FieldIssue[]> {
    const issues: FieldIssue[] = [];
    for (const { field, documentId, purpose, what, documentTypes } of named) {
      const document = await this.uploads.document(acting.subjectProfileId, documentId);
      if (
        !document ||
        document.kycCaseId !== row.id ||
        document.purpose !== purpose ||
        (documentTypes && !documentTypes.includes(document.documentType as DocumentType))
      )
        issues.push({ field, message: `names no ${what} of this subaccount: open its upload first` });
      else if (!document.ready)
        issues.push({
          field,
          message: `names a ${what} whose file has not arrived: upload it, or open a new upload if its URL expired`,
        });
    }
    return issues;
  }

  /** The bytes of a document `issues` found ready, to hand to the partner. */
  async files(acting: ActingContext, field: string, documentId: string): Promise<KycDocument> {
    const files = await this.uploads.documentFiles(acting.subjectProfileId, documentId);
    if (!files) throw fieldError(field, "names a document whose file is no longer stored: upload it again");
    return files;
  }
}
