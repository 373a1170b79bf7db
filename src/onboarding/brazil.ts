import { createHash } from "node:crypto";
import type { z } from "zod";
import type { ActingContext } from "../auth/delegation.js";
import { AppError } from "../errors.js";
import { requestHash, type IdempotencyService } from "../idempotency/service.js";
import type { KycCase, KycService } from "../kyc/service.js";
import type { KycProvider, KycStatus } from "../providers/kyc-port.js";
import { CUSTOMER_TYPES } from "../reference-data/corridors.js";
import type { UploadService } from "../uploads/service.js";
import { canonicalId, fieldError, storedOneOf } from "../validation.js";
import { BrazilDocuments, refuse, type NamedUpload } from "./brazil-documents.js";
import {
  BRAZIL_DOCUMENT_TYPES,
  IDENTITY_DOCUMENTS,
  SELFIES,
  TWO_SIDED,
  type kybAttemptInput,
  type KybAttemptView,
  type kybDocumentInput,
  type kybDocumentReadInput,
  type KybDocumentView,
  type kybLevelOneInput,
  type kybUboInput,
  type startKybInput,
} from "./brazil-kyb-types.js";
import {
  digits,
  type createSubaccountInput,
  type DocumentUploadView,
  type ImportedTokenView,
  type importTokenInput,
  type KycStatusView,
  type newKycInput,
  type optionalTaxIdInput,
  type remainingLimitInput,
  type taxIdInput,
  type uploadUrlsInput,
} from "./brazil-subaccount-types.js";
import { BrazilSubaccounts } from "./brazil-subaccounts.js";
import type { OnboardingService } from "./service.js";

/** A BR KYC or KYB case's progress as the reference tells it: in progress, or completed with a result. */
function verification(row: KycCase): Pick<KycStatusView, "status" | "result"> {
  switch (row.status as KycStatus) {
    case "not_started":
      return { status: "PENDING", result: null };
    case "pending":
    case "in_review":
      return { status: "PROCESSING", result: null };
    case "approved":
      return { status: "COMPLETED", result: "APPROVED" };
    case "rejected":
      return { status: "COMPLETED", result: "REJECTED" };
  }
}

/**
 * Brazilian customers (subaccounts) and their KYC/KYB as the reference's `/v1/brl/*` operations (legacy
 * alias `/v1/brla/*`). The subaccount is the subject's BR case; its CPF or CNPJ is kept, since BR ramps
 * naming a taxId must match it. A `taxId` in a read only cross-checks ownership.
 */
export class BrazilOnboarding {
  constructor(
    private readonly kyc: KycService,
    private readonly onboarding: OnboardingService,
    private readonly idempotency: IdempotencyService,
    private readonly uploads: UploadService,
    private readonly provider: KycProvider,
  ) {
    this.subaccounts = new BrazilSubaccounts(kyc);
    this.documents = new BrazilDocuments(kyc, uploads);
  }

  private readonly subaccounts: BrazilSubaccounts;
  private readonly documents: BrazilDocuments;

  /**
   * Imports a KYC share token into the subject's individual BR case (CONTRACT.md, KYC/KYB and fiat
   * accounts): the subject is the authenticated one (or the manager's selected child), never named in the
   * body or query; `Idempotency-Key` replays the first answer. In review at once, until the partner decides.
   */
  async importToken(
    acting: ActingContext,
    { idempotencyKey, ...token }: z.output<typeof importTokenInput>,
  ): Promise<ImportedTokenView> {
    const scope = `brl-kyc-import-token:${acting.actorProfileId}:${acting.subjectProfileId}`;
    const stored = await this.idempotency.run(scope, idempotencyKey, requestHash(token), async () => {
      const row = await this.subaccounts.existing(acting, { corridor: "BR", customerType: "individual" });
      if (!row) throw new AppError("NOT_FOUND", "Subaccount not found: create the individual subaccount first.");
      const { submissionId } = await this.kyc.submitAndSend(acting, row, "token_import", (customer) =>
        this.provider.importKycToken(customer, token.importToken),
      );
      return { status: 202, body: { attemptId: submissionId, status: "pending" as const } };
    });
    return stored.body;
  }

  /** Creates the subaccount, returns the existing one unchanged, or reopens a rejected one (retry KYC). */
  async createSubaccount(
    acting: ActingContext,
    form: z.output<typeof createSubaccountInput>,
  ): Promise<{ subAccountId: string }> {
    const customerType = form.accountType === "COMPANY" ? "business" : "individual";
    const taxId = digits(form.taxId);
    const key = { corridor: "BR" as const, customerType } as const;
    const existing = await this.subaccounts.existing(acting, key);
    if (!existing)
      return {
        subAccountId: (await this.kyc.createCustomer(acting, key, { name: form.name, taxId })).providerCustomerId,
      };
    if (existing.taxId !== taxId) throw fieldError("taxId", "differs from the subaccount's");
    if (existing.status === "rejected") await this.kyc.retry(acting, key);
    else if (existing.status !== "not_started")
      throw fieldError("taxId", "already has a subaccount with KYC under way or done");
    return { subAccountId: existing.providerCustomerId };
  }

  /** Level 1 KYC of an individual subaccount, its documents handed to the partner: in review until it decides. */
  async submitLevelOne(
    acting: ActingContext,
    { subAccountId, uploadedDocumentId, uploadedSelfieId, ...form }: z.output<typeof newKycInput>,
  ): Promise<{ submissionId: string }> {
    const row = await this.subaccounts.byId(acting, subAccountId);
    if (row.customerType !== "individual")
      throw fieldError("subAccountId", "is a company subaccount: companies go through KYB");
    if (digits(form.taxIdNumber) !== row.taxId) throw fieldError("taxIdNumber", "differs from the subaccount's tax id");
    refuse(
      await this.documents.issues(acting, row, [
        {
          field: "uploadedDocumentId",
          documentId: uploadedDocumentId,
          purpose: "kyc_document",
          what: "identity document",
        },
        { field: "uploadedSelfieId", documentId: uploadedSelfieId, purpose: "kyc_selfie", what: "selfie" },
      ]),
    );
    const documents = {
      identity: await this.documents.files(acting, "uploadedDocumentId", uploadedDocumentId),
      selfie: await this.documents.files(acting, "uploadedSelfieId", uploadedSelfieId),
    };
    const { submissionId } = await this.kyc.submitAndSend(acting, row, "api", (customer) =>
      this.provider.submitBrazilKyc(customer, { ...form, taxIdNumber: digits(form.taxIdNumber) }, documents),
    );
    return { submissionId };
  }

  /**
   * Adds an ultimate beneficial owner to a company subaccount, identified by KYB documents of it whose files
   * arrived: an identity document, which identifies no other owner, and optionally a selfie.
   */
  async addBeneficialOwner(
    acting: ActingContext,
    { subAccountId, fullName, uploadedIdentificationId, uploadedSelfieId, ...details }: z.output<typeof kybUboInput>,
  ): Promise<{ beneficialOwnerId: string }> {
    const row = await this.subaccounts.company(acting, subAccountId);
    const named: NamedUpload[] = [
      {
        field: "uploadedIdentificationId",
        documentId: uploadedIdentificationId,
        purpose: "kyb_document",
        what: "identity document",
        documentTypes: IDENTITY_DOCUMENTS,
      },
    ];
    if (uploadedSelfieId !== undefined)
      named.push({
        field: "uploadedSelfieId",
        documentId: uploadedSelfieId,
        purpose: "kyb_document",
        what: "selfie",
        documentTypes: SELFIES,
      });
    refuse(await this.documents.issues(acting, row, named));
    const documents = {
      identification: await this.documents.files(acting, "uploadedIdentificationId", uploadedIdentificationId),
      ...(uploadedSelfieId !== undefined && {
        selfie: await this.documents.files(acting, "uploadedSelfieId", uploadedSelfieId),
      }),
    };
    const owner = await this.kyc.addBeneficialOwner(
      acting,
      row,
      (customer) => this.provider.registerBeneficialOwner(customer, { fullName, ...details }, documents),
      // Checked above: the ids name documents, so they are their canonical form.
      {
        identificationDocumentId: canonicalId(uploadedIdentificationId)!,
        selfieDocumentId: canonicalId(uploadedSelfieId) ?? undefined,
      },
    );
    if (!owner) throw fieldError("uploadedIdentificationId", "already identifies another UBO of this profile");
    return { beneficialOwnerId: owner.id };
  }

  /**
   * API-driven level 1 KYB of a company subaccount: its beneficial owners and company documents must be the
   * subaccount's (documents whose files arrived). In review at once until the partner decides, as the hosted KYB
   * once started; kyb/attempt-status follows it.
   */
  async submitKybLevelOne(
    acting: ActingContext,
    {
      subAccountId,
      uboIds: named,
      certificateOfIncorporationDocumentId,
      taxIdentificationDocumentId,
      ...form
    }: z.output<typeof kybLevelOneInput>,
  ): Promise<{ attemptId: string }> {
    const row = await this.subaccounts.company(acting, subAccountId);
    if (digits(form.taxIdentificationNumberTin) !== row.taxId)
      throw fieldError("taxIdentificationNumberTin", "differs from the subaccount's CNPJ");
    const issues = await this.documents.issues(acting, row, [
      {
        field: "certificateOfIncorporationDocumentId",
        documentId: certificateOfIncorporationDocumentId,
        purpose: "kyb_document",
        what: "certificate of incorporation",
        documentTypes: ["CERTIFICATE-OF-INCORPORATION"],
      },
      {
        field: "taxIdentificationDocumentId",
        documentId: taxIdentificationDocumentId,
        purpose: "kyb_document",
        what: "company tax identification document",
        documentTypes: ["COMPANY-TAX-IDENTIFICATION-DOCUMENT"],
      },
    ]);
    const uboIds = named.map(canonicalId);
    const owners = await this.kyc.beneficialOwnerIds(
      acting.subjectProfileId,
      row,
      uboIds.filter((id) => id !== null),
    );
    uboIds.forEach((id, index) => {
      if (!id || !owners.has(id))
        issues.push({
          field: `uboIds.${index}`,
          message: "names no UBO of this subaccount: add it with kyb/ubos first",
        });
    });
    refuse(issues);
    const documents = {
      certificateOfIncorporation: await this.documents.files(
        acting,
        "certificateOfIncorporationDocumentId",
        certificateOfIncorporationDocumentId,
      ),
      taxIdentification: await this.documents.files(acting, "taxIdentificationDocumentId", taxIdentificationDocumentId),
    };
    const ownerIds = uboIds.map((id) => owners.get(id!)!);
    const { submissionId } = await this.kyc.submitAndSend(acting, row, "api", (customer) =>
      this.provider.submitBrazilKyb(customer, form, documents, ownerIds),
    );
    return { attemptId: submissionId };
  }

  /**
   * Opens the uploads level 1 KYC names: the identity document (its back too when double-sided) and a selfie
   * of the individual subaccount with this tax id.
   */
  async uploadUrls(
    acting: ActingContext,
    { taxId, documentType, isDoubleSided }: z.output<typeof uploadUrlsInput>,
  ): Promise<{ identityDocument: DocumentUploadView; selfie: DocumentUploadView }> {
    const row = await this.subaccounts.individualByTaxId(acting, taxId);
    const doubleSided = isDoubleSided ?? false;
    const identityDocument = await this.documents.open(acting, row, {
      purpose: "kyc_document",
      documentType,
      doubleSided,
    });
    const selfie = await this.documents.open(acting, row, {
      purpose: "kyc_selfie",
      documentType: "SELFIE",
      doubleSided: false,
    });
    return { identityDocument, selfie };
  }

  /** Opens a selfie upload of the individual subaccount with this tax id, with its liveness check. */
  async selfieUpload(acting: ActingContext, { taxId }: z.output<typeof taxIdInput>): Promise<DocumentUploadView> {
    return this.documents.open(acting, await this.subaccounts.individualByTaxId(acting, taxId), {
      purpose: "kyc_selfie",
      documentType: "SELFIE-FROM-LIVENESS",
      doubleSided: false,
    });
  }

  /** Opens the upload of a document of a company subaccount (a selfie comes with its liveness check). */
  async createKybDocument(
    acting: ActingContext,
    { subAccountId, documentType, isDoubleSided }: z.output<typeof kybDocumentInput>,
  ): Promise<DocumentUploadView> {
    if (isDoubleSided && !TWO_SIDED.includes(documentType))
      throw fieldError("isDoubleSided", `is only for ${TWO_SIDED.join(", ")}: a ${documentType} has one side`);
    const row = await this.subaccounts.company(acting, subAccountId);
    return this.documents.open(acting, row, {
      purpose: "kyb_document",
      documentType,
      doubleSided: isDoubleSided ?? false,
    });
  }

  /** A KYB document of one of the subject's company subaccounts; NOT_FOUND for any other. */
  async kybDocument(
    acting: ActingContext,
    { subAccountId, documentId }: z.output<typeof kybDocumentReadInput>,
  ): Promise<KybDocumentView> {
    const row = await this.subaccounts.byId(acting, subAccountId);
    const document = await this.uploads.document(acting.subjectProfileId, documentId);
    if (!document || document.kycCaseId !== row.id || document.purpose !== "kyb_document")
      throw new AppError("NOT_FOUND", "KYB document not found.");
    const { id, documentType, front, back, ready } = document;
    return {
      documentId: id,
      documentType: storedOneOf(BRAZIL_DOCUMENT_TYPES, documentType),
      front,
      back: back ?? null,
      ready,
    };
  }

  /** The KYC (KYB) of the subaccount with this tax id, once anything was submitted: level 1 once approved. */
  async kycStatus(acting: ActingContext, { taxId }: z.output<typeof taxIdInput>): Promise<KycStatusView> {
    const row = await this.subaccounts.ownedByTaxId(acting, taxId);
    if (row.status === "not_started") throw new AppError("NOT_FOUND", "No KYC process started.");
    return {
      customerType: storedOneOf(CUSTOMER_TYPES, row.customerType),
      ...verification(row),
      level: row.status === "approved" ? 1 : 0,
    };
  }

  /** The subaccount, its wallet and KYC level. */
  async user(acting: ActingContext, { taxId }: z.output<typeof optionalTaxIdInput>) {
    const row = await this.subaccounts.byTaxIdOrOwn(acting, taxId);
    const approved = row.status === "approved";
    return {
      subAccountId: row.providerCustomerId,
      evmAddress: subaccountWallet(row.providerCustomerId),
      kycLevel: approved ? 1 : 0,
      identityStatus: approved ? ("CONFIRMED" as const) : ("NOT-IDENTIFIED" as const),
    };
  }

  /** The subaccount's remaining BRL this month in a direction: the monthly limit less what completed ramps used. */
  async remainingLimit(
    acting: ActingContext,
    { taxId, direction }: z.output<typeof remainingLimitInput>,
  ): Promise<{ remainingLimit: number }> {
    await this.subaccounts.byTaxIdOrOwn(acting, taxId);
    const { limits } = await this.onboarding.limits(acting, { corridors: ["BR"] });
    const limit = limits.find((candidate) => candidate.direction === direction)!;
    return { remainingLimit: Math.max(0, Number(limit.max) - Number(limit.used)) };
  }

  /** Starts the partner's hosted KYB of a company subaccount: its two pages, then the partner's review. */
  async startKyb(acting: ActingContext, { subAccountId }: z.output<typeof startKybInput>) {
    const row = await this.subaccounts.company(acting, subAccountId);
    const hosted = await this.kyc.startHostedReview(acting, row);
    return {
      attemptId: hosted.submissionId,
      authorizedRepresentativeUrl: hosted.representativeUrl ?? hosted.url,
      basicCompanyDataUrl: hosted.companyDataUrl ?? hosted.url,
    };
  }

  async kybAttemptStatus(
    acting: ActingContext,
    { attemptId }: z.output<typeof kybAttemptInput>,
  ): Promise<KybAttemptView> {
    const id = canonicalId(attemptId);
    const row = id ? await this.kyc.caseBySubmission(acting, id) : null;
    if (!row || row.corridor !== "BR" || row.customerType !== "business")
      throw new AppError("NOT_FOUND", "KYB attempt not found.");
    const attempt = verification(row);
    return { ...attempt, retryable: attempt.result === "REJECTED" };
  }
}

/** The sandbox subaccount's EVM wallet: derived from its id, stable. */
function subaccountWallet(subAccountId: string): string {
  return `0x${createHash("sha256").update(`sandbox-subaccount:${subAccountId}`).digest("hex").slice(0, 40)}`;
}
