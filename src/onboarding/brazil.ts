import { createHash } from "node:crypto";
import { z } from "zod";
import type { ActingContext } from "../auth/delegation.js";
import { AppError, type FieldIssue } from "../errors.js";
import {
  idempotencyKeyText,
  requestHash,
  type IdempotencyService,
  type StoredResponse,
} from "../idempotency/service.js";
import type { OnboardingService } from "./service.js";
import type { KycDocument, KycProvider, KycStatus } from "../providers/kyc-port.js";
import { calendarDate, canonicalId, countryCode, email, fieldError, text, uuid } from "../validation.js";
import type { KycCase, KycService } from "../kyc/service.js";
import { isValidCnpj, isValidCpf } from "../kyc/tax-ids.js";
import {
  DOCUMENT_MEDIA_TYPES,
  SELFIE_MEDIA_TYPES,
  type UploadedDocument,
  type UploadPurpose,
  type UploadService,
  type UploadTargets,
} from "../uploads/service.js";

const digits = (value: string) => value.replace(/[.\-/\s]/g, "");
/** A CPF or CNPJ, digits with their usual punctuation or without. */
const taxIdText = () => text("code").trim().min(1, "is required");

export const createSubaccountInput = z
  .object({
    accountType: z.enum(["INDIVIDUAL", "COMPANY"]),
    name: z.string().trim().min(1, "is required").max(200),
    taxId: taxIdText(),
    quoteId: uuid().optional(),
    sessionId: uuid().optional(),
    companyName: z.string().max(200).optional(),
    startDate: calendarDate().optional(),
    cnpj: taxIdText()
      .refine((cnpj) => isValidCnpj(digits(cnpj)), "is not a valid CNPJ")
      .optional(),
  })
  .strict()
  .superRefine((input, context) => {
    const taxId = digits(input.taxId);
    const valid = input.accountType === "COMPANY" ? isValidCnpj(taxId) : isValidCpf(taxId);
    if (!valid)
      context.addIssue({
        code: "custom",
        path: ["taxId"],
        message: input.accountType === "COMPANY" ? "is not a valid CNPJ" : "is not a valid CPF",
      });
  });

/** Level 1 KYC: what the provider verifies. It is handed over, never stored here. */
export const newKycInput = z
  .object({
    subAccountId: uuid(),
    fullName: z.string().trim().min(1, "is required").max(200),
    dateOfBirth: calendarDate(),
    taxIdNumber: taxIdText(),
    countryOfTaxId: countryCode(),
    email: email(),
    streetAddress: z.string().max(200),
    city: z.string().max(100),
    state: z.string().max(100),
    zipCode: z.string().max(20),
    country: countryCode(),
    uploadedDocumentId: uuid(),
    uploadedSelfieId: uuid(),
  })
  .strict();

/**
 * A KYC share token to import, and the request's Idempotency-Key (checked by the adapter that read it). The
 * token is a secret: it goes to the provider and nowhere else (not stored, not logged).
 */
export const importTokenInput = z
  .object({
    idempotencyKey: idempotencyKeyText,
    importToken: z
      .string()
      .min(1, "is required")
      .max(1024, { message: "must be at most 1024 bytes", abort: true })
      .refine((token) => Buffer.byteLength(token, "utf8") <= 1024, "must be at most 1024 bytes"),
    consentAttested: z.literal(true, "must be true: the subject consented to sharing the verification"),
  })
  .strict();

/** The subaccount with this CPF or CNPJ (it must be the subject's). */
export const taxIdInput = z.object({ taxId: taxIdText() }).strict();
/** The subaccount with this CPF or CNPJ, or without one the subject's own. */
export const optionalTaxIdInput = z.object({ taxId: taxIdText().optional() }).strict();
export const remainingLimitInput = optionalTaxIdInput.extend({ direction: z.enum(["BUY", "SELL"]) }).strict();
export const startKybInput = z.object({ subAccountId: uuid() }).strict();
export const kybAttemptInput = z.object({ attemptId: uuid() }).strict();

/** The reference's document types (BrDocumentType). */
export const BRAZIL_DOCUMENT_TYPES = [
  "ID",
  "DRIVERS-LICENSE",
  "PASSPORT",
  "RESIDENCE-PERMIT",
  "SELFIE",
  "SELFIE-FROM-LIVENESS",
  "CERTIFICATE-OF-INCORPORATION",
  "COMPANY-TAX-IDENTIFICATION-DOCUMENT",
] as const;
type DocumentType = (typeof BRAZIL_DOCUMENT_TYPES)[number];
/** Cards, with a back to upload when they are double-sided. */
const TWO_SIDED: readonly DocumentType[] = ["ID", "DRIVERS-LICENSE", "RESIDENCE-PERMIT"];
const SELFIES: readonly DocumentType[] = ["SELFIE", "SELFIE-FROM-LIVENESS"];
/** What identifies a beneficial owner. */
const IDENTITY_DOCUMENTS: readonly DocumentType[] = ["ID", "DRIVERS-LICENSE", "PASSPORT", "RESIDENCE-PERMIT"];

/** A named upload that must be a document of the subaccount for its purpose (of one of the types, if given). */
interface NamedUpload {
  field: string;
  documentId: string;
  purpose: UploadPurpose;
  what: string;
  documentTypes?: readonly DocumentType[];
}

/** An individual's identity document (no passport here, as in the reference) and selfie to upload for level 1 KYC. */
export const uploadUrlsInput = z
  .object({
    taxId: taxIdText(),
    documentType: z.enum(["ID", "DRIVERS-LICENSE"]),
    isDoubleSided: z.boolean().optional(),
  })
  .strict();

/** A company document to upload for KYB, into one of the subject's company subaccounts. */
export const kybDocumentInput = z
  .object({
    subAccountId: uuid(),
    documentType: z.enum(BRAZIL_DOCUMENT_TYPES),
    isDoubleSided: z.boolean().optional(),
  })
  .strict();
export const kybDocumentReadInput = z.object({ subAccountId: uuid(), documentId: uuid() }).strict();

/** The reference's roles of a beneficial owner with control of the company (BrUboControlRole). */
export const CONTROL_ROLES = [
  "CEO",
  "CFO",
  "COO",
  "CTO",
  "President",
  "Vice President",
  "Director",
  "Managing Director",
  "Managing Partner",
  "General Partner",
  "Partner",
  "Secretary",
  "Treasurer",
  "Chairman",
  "Board Member",
  "Authorized Signatory",
  "General Counsel",
  "Owner",
  "Founder",
  "Manager",
  "Member",
  "Comptroller",
  "Chief Compliance Officer",
] as const;

/**
 * An ultimate beneficial owner of a company subaccount: the person's data goes to the provider and is not
 * stored here; the documents are KYB documents of the subaccount (kyb/documents), whose files arrived.
 */
export const kybUboInput = z
  .object({
    subAccountId: uuid(),
    fullName: z.string().trim().min(1, "is required").max(200),
    dateOfBirth: calendarDate(),
    countryOfTaxId: countryCode(),
    taxIdNumber: z.string().trim().min(1, "is required").max(40),
    percentageOfOwnership: z
      .string()
      .max(6, "must be a percentage, e.g. 25 or 12.5")
      .regex(/^\d{1,3}(\.\d{1,2})?$/, "must be a percentage, e.g. 25 or 12.5")
      .refine((percentage) => Number(percentage) <= 100, "must be at most 100"),
    hasControl: z.enum(CONTROL_ROLES).optional(),
    email: email().optional(),
    phone: z.string().max(40).optional(),
    uploadedIdentificationId: uuid(),
    uploadedSelfieId: uuid().optional(),
    documentCountry: countryCode(),
    streetLine1: z.string().max(200),
    streetLine2: z.string().max(200).optional(),
    streetLine3: z.string().max(200).optional(),
    city: z.string().max(100),
    state: z.string().max(100),
    zipCode: z.string().max(20),
    country: countryCode(),
  })
  .strict();

/** The reference's answers about a company's business (BrKybLevel1Payload). */
export const ACCOUNT_OPENING_REASONS = [
  "charitable_donations",
  "ecommerce_retail_payments",
  "investment_purposes",
  "other",
  "payments_to_friends_or_family_abroad",
  "payroll",
  "personal_or_living_expenses",
  "protect_wealth",
  "purchase_goods_and_services",
  "receive_payments_for_goods_and_services",
  "tax_optimization",
  "third_party_money_transmission",
  "treasury_management",
] as const;
export const SOURCES_OF_FUNDS = [
  "business_loans",
  "grants",
  "inter_company_funds",
  "investment_proceeds",
  "legal_settlement",
  "owners_capital",
  "pension_retirement",
  "sale_of_assets",
  "sales_of_goods_and_services",
  "third_party_funds",
  "treasury_reserves",
] as const;
export const EMPLOYEE_COUNTS = ["1-10", "11-50", "51-200", "201-500", "501-1000", "1001+"] as const;
export const ANNUAL_REVENUES_USD = [
  "less_than_100k",
  "100k_to_1m",
  "1m_to_10m",
  "10m_to_50m",
  "50m_to_100m",
  "more_than_100m",
] as const;

/**
 * API-driven level 1 KYB of a company subaccount: the company's data goes to the provider and is not stored
 * here; it names the subaccount's beneficial owners (kyb/ubos) and two of its KYB documents.
 */
export const kybLevelOneInput = z
  .object({
    subAccountId: uuid(),
    uboIds: z
      .array(uuid())
      .min(1, "must name at least one UBO")
      .max(50)
      .refine((ids) => new Set(ids).size === ids.length, "must not name a UBO twice"),
    companyLegalName: z.string().trim().min(1, "is required").max(200),
    companyRegistrationNumber: z.string().trim().min(1, "is required").max(40),
    taxIdentificationNumberTin: z.string().trim().min(1, "is required").max(40),
    businessActivityDescription: z.string().trim().min(1, "is required").max(1000),
    reasonForAccountOpening: z.enum(ACCOUNT_OPENING_REASONS),
    sourceOfFundsAndIncome: z.enum(SOURCES_OF_FUNDS),
    numberOfEmployees: z.enum(EMPLOYEE_COUNTS),
    estimatedAnnualRevenueUsd: z.enum(ANNUAL_REVENUES_USD),
    estimatedMonthlyVolumeUsd: z
      .string()
      .max(15)
      .regex(/^[1-9][0-9]*$/, "must be a whole number of US dollars above 0"),
    countryTaxResidence: countryCode(),
    countrySubdivisionTaxResidence: z.string().max(100).optional(),
    companyStreetLine1: z.string().max(200),
    companyStreetLine2: z.string().max(200).optional(),
    companyStreetLine3: z.string().max(200).optional(),
    companyCity: z.string().max(100),
    companyState: z.string().max(100),
    companyZipCode: z.string().max(20),
    companyCountry: countryCode(),
    certificateOfIncorporationDocumentId: uuid(),
    taxIdentificationDocumentId: uuid(),
    emailPixKey: email().optional(),
    website: z.url().max(500).optional(),
    socialMedia: z.url().max(500).optional(),
    sandboxReject: z.boolean().optional(),
  })
  .strict();

/** Where a document's files go, and for a selfie the liveness check that goes with it. */
export interface DocumentUpload extends UploadTargets {
  liveness?: { url: string; validationToken: string };
}

/** A KYB document's progress: each side's file, and whether every side needed has arrived. */
export type KybDocumentStatus = Pick<UploadedDocument, "id" | "documentType" | "front" | "back" | "ready">;

const subaccountNotFound = () => new AppError("NOT_FOUND", "Subaccount not found.");

/** The reference's BR KYC status: in progress, or completed with a result; level 1 once approved. */
function brazilStatus(row: KycCase): {
  type: "KYC" | "KYB";
  status: "PENDING" | "PROCESSING" | "COMPLETED";
  result?: "APPROVED" | "REJECTED";
  level: string;
} {
  const type = row.customerType === "business" ? "KYB" : "KYC";
  switch (row.status as KycStatus) {
    case "not_started":
      return { type, status: "PENDING", level: "0" };
    case "pending":
    case "in_review":
      return { type, status: "PROCESSING", level: "0" };
    case "approved":
      return { type, status: "COMPLETED", result: "APPROVED", level: "1" };
    case "rejected":
      return { type, status: "COMPLETED", result: "REJECTED", level: "0" };
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
  ) {}

  /**
   * Imports a KYC share token into the subject's individual BR case (CONTRACT.md, KYC/KYB and fiat
   * accounts): the subject is the authenticated one (or the manager's selected child), never named in the
   * body or query; `Idempotency-Key` replays the first answer. In review at once, until the partner decides.
   */
  async importToken(
    acting: ActingContext,
    { idempotencyKey, ...token }: z.output<typeof importTokenInput>,
  ): Promise<StoredResponse<{ attemptId: string; status: "pending" }>> {
    const scope = `brl-kyc-import-token:${acting.actorProfileId}:${acting.subjectProfileId}`;
    return this.idempotency.run(scope, idempotencyKey, requestHash(token), async () => {
      const row = await this.existing(acting, { corridor: "BR", customerType: "individual" });
      if (!row) throw new AppError("NOT_FOUND", "Subaccount not found: create the individual subaccount first.");
      const { submissionId } = await this.kyc.submitAndSend(acting, row, "token_import", (customer) =>
        this.provider.importKycToken(customer, token.importToken),
      );
      return { status: 202, body: { attemptId: submissionId, status: "pending" as const } };
    });
  }

  /** Creates the subaccount, returns the existing one unchanged, or reopens a rejected one (retry KYC). */
  async createSubaccount(
    acting: ActingContext,
    form: z.output<typeof createSubaccountInput>,
  ): Promise<{ subAccountId: string }> {
    const customerType = form.accountType === "COMPANY" ? "business" : "individual";
    const taxId = digits(form.taxId);
    const key = { corridor: "BR" as const, customerType } as const;
    const existing = await this.existing(acting, key);
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
  ): Promise<{ id: string }> {
    const row = await this.subaccount(acting, subAccountId);
    if (row.customerType !== "individual")
      throw fieldError("subAccountId", "is a company subaccount: companies go through KYB");
    if (digits(form.taxIdNumber) !== row.taxId) throw fieldError("taxIdNumber", "differs from the subaccount's tax id");
    refuse(
      await this.uploadIssues(acting, row, [
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
      identity: await this.documentFiles(acting, "uploadedDocumentId", uploadedDocumentId),
      selfie: await this.documentFiles(acting, "uploadedSelfieId", uploadedSelfieId),
    };
    const { submissionId } = await this.kyc.submitAndSend(acting, row, "api", (customer) =>
      this.provider.submitBrazilKyc(customer, { ...form, taxIdNumber: digits(form.taxIdNumber) }, documents),
    );
    return { id: submissionId };
  }

  /**
   * Adds an ultimate beneficial owner to a company subaccount, identified by KYB documents of it whose files
   * arrived: an identity document, which identifies no other owner, and optionally a selfie.
   */
  async addBeneficialOwner(
    acting: ActingContext,
    { subAccountId, fullName, uploadedIdentificationId, uploadedSelfieId, ...details }: z.output<typeof kybUboInput>,
  ): Promise<{ id: string }> {
    const row = await this.companySubaccount(acting, subAccountId);
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
    refuse(await this.uploadIssues(acting, row, named));
    const documents = {
      identification: await this.documentFiles(acting, "uploadedIdentificationId", uploadedIdentificationId),
      ...(uploadedSelfieId !== undefined && {
        selfie: await this.documentFiles(acting, "uploadedSelfieId", uploadedSelfieId),
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
    return owner;
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
  ): Promise<{ id: string }> {
    const row = await this.companySubaccount(acting, subAccountId);
    if (digits(form.taxIdentificationNumberTin) !== row.taxId)
      throw fieldError("taxIdentificationNumberTin", "differs from the subaccount's CNPJ");
    const issues = await this.uploadIssues(acting, row, [
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
      certificateOfIncorporation: await this.documentFiles(
        acting,
        "certificateOfIncorporationDocumentId",
        certificateOfIncorporationDocumentId,
      ),
      taxIdentification: await this.documentFiles(acting, "taxIdentificationDocumentId", taxIdentificationDocumentId),
    };
    const ownerIds = uboIds.map((id) => owners.get(id!)!);
    const { submissionId } = await this.kyc.submitAndSend(acting, row, "api", (customer) =>
      this.provider.submitBrazilKyb(customer, form, documents, ownerIds),
    );
    return { id: submissionId };
  }

  /**
   * Opens the uploads level 1 KYC names: the identity document (its back too when double-sided) and a selfie
   * of the individual subaccount with this tax id.
   */
  async uploadUrls(
    acting: ActingContext,
    { taxId, documentType, isDoubleSided }: z.output<typeof uploadUrlsInput>,
  ): Promise<{ identityDocument: DocumentUpload; selfie: DocumentUpload }> {
    const row = await this.individualByTaxId(acting, taxId);
    const identityDocument = await this.uploads.open(acting.subjectProfileId, {
      purpose: "kyc_document",
      documentType,
      kycCaseId: row.id,
      doubleSided: isDoubleSided ?? false,
      mediaTypes: DOCUMENT_MEDIA_TYPES,
    });
    return { identityDocument, selfie: await this.openSelfie(acting, row, "SELFIE") };
  }

  /** Opens a selfie upload of the individual subaccount with this tax id, with its liveness check. */
  async selfieUpload(acting: ActingContext, { taxId }: z.output<typeof taxIdInput>): Promise<DocumentUpload> {
    return this.openSelfie(acting, await this.individualByTaxId(acting, taxId), "SELFIE-FROM-LIVENESS");
  }

  /** Opens the upload of a document of a company subaccount (a selfie comes with its liveness check). */
  async createKybDocument(
    acting: ActingContext,
    { subAccountId, documentType, isDoubleSided }: z.output<typeof kybDocumentInput>,
  ): Promise<DocumentUpload> {
    if (isDoubleSided && !TWO_SIDED.includes(documentType))
      throw fieldError("isDoubleSided", `is only for ${TWO_SIDED.join(", ")}: a ${documentType} has one side`);
    const row = await this.companySubaccount(acting, subAccountId);
    const liveness = SELFIES.includes(documentType) ? await this.kyc.startLiveness(row) : undefined;
    const upload = await this.uploads.open(acting.subjectProfileId, {
      purpose: "kyb_document",
      documentType,
      kycCaseId: row.id,
      doubleSided: isDoubleSided ?? false,
      mediaTypes: liveness ? SELFIE_MEDIA_TYPES : DOCUMENT_MEDIA_TYPES,
      ...(liveness && { partnerDocumentId: liveness.documentId }),
    });
    return liveness
      ? { ...upload, liveness: { url: liveness.url, validationToken: liveness.validationToken } }
      : upload;
  }

  /** A KYB document of one of the subject's company subaccounts; NOT_FOUND for any other. */
  async kybDocument(
    acting: ActingContext,
    { subAccountId, documentId }: z.output<typeof kybDocumentReadInput>,
  ): Promise<KybDocumentStatus> {
    const row = await this.subaccount(acting, subAccountId);
    const document = await this.uploads.document(acting.subjectProfileId, documentId);
    if (!document || document.kycCaseId !== row.id || document.purpose !== "kyb_document")
      throw new AppError("NOT_FOUND", "KYB document not found.");
    const { id, documentType, front, back, ready } = document;
    return { id, documentType, front, ...(back && { back }), ready };
  }

  async kycStatus(acting: ActingContext, { taxId }: z.output<typeof taxIdInput>) {
    const row = await this.ownedByTaxId(acting, taxId);
    if (row.status === "not_started") throw new AppError("NOT_FOUND", "No KYC process started.");
    return brazilStatus(row);
  }

  /** The subaccount, its wallet and KYC level. */
  async user(acting: ActingContext, { taxId }: z.output<typeof optionalTaxIdInput>) {
    const row = taxId ? await this.ownedByTaxId(acting, taxId) : await this.canonical(acting);
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
    if (taxId) await this.ownedByTaxId(acting, taxId);
    else await this.canonical(acting);
    const { limits } = await this.onboarding.limits(acting, { corridors: ["BR"] });
    const limit = limits.find((candidate) => candidate.direction === direction)!;
    return { remainingLimit: Math.max(0, Number(limit.max) - Number(limit.used)) };
  }

  /** Starts the partner's hosted KYB of a company subaccount: its two pages, then the partner's review. */
  async startKyb(acting: ActingContext, { subAccountId }: z.output<typeof startKybInput>) {
    const row = await this.companySubaccount(acting, subAccountId);
    const hosted = await this.kyc.startHostedReview(acting, row);
    return {
      attemptId: hosted.submissionId,
      authorizedRepresentativeUrl: hosted.representativeUrl ?? hosted.url,
      basicCompanyDataUrl: hosted.companyDataUrl ?? hosted.url,
    };
  }

  async kybAttemptStatus(acting: ActingContext, { attemptId }: z.output<typeof kybAttemptInput>) {
    const id = canonicalId(attemptId);
    const row = id ? await this.kyc.caseBySubmission(acting, id) : null;
    if (!row || row.corridor !== "BR" || row.customerType !== "business")
      throw new AppError("NOT_FOUND", "KYB attempt not found.");
    const { status, result } = brazilStatus(row);
    return { status, ...(result && { result }), ...(result === "REJECTED" && { retryable: true }) };
  }

  /** The bytes of a document `uploadIssues` found ready, to hand to the partner. */
  private async documentFiles(acting: ActingContext, field: string, documentId: string): Promise<KycDocument> {
    const files = await this.uploads.documentFiles(acting.subjectProfileId, documentId);
    if (!files) throw fieldError(field, "names a document whose file is no longer stored: upload it again");
    return files;
  }

  private async existing(
    acting: ActingContext,
    key: { corridor: "BR"; customerType: "individual" | "business" },
  ): Promise<KycCase | null> {
    try {
      return await this.kyc.caseOf(acting, key);
    } catch (error) {
      if (error instanceof AppError && error.code === "NOT_FOUND") return null;
      throw error;
    }
  }

  /**
   * Opens a selfie with the partner's liveness check, whose capture is the selfie the partner is named at submission;
   * the file uploaded here is the subject's copy of record.
   */
  private async openSelfie(acting: ActingContext, row: KycCase, documentType: DocumentType): Promise<DocumentUpload> {
    const liveness = await this.kyc.startLiveness(row);
    const upload = await this.uploads.open(acting.subjectProfileId, {
      purpose: "kyc_selfie",
      documentType,
      kycCaseId: row.id,
      doubleSided: false,
      mediaTypes: SELFIE_MEDIA_TYPES,
      partnerDocumentId: liveness.documentId,
    });
    return { ...upload, liveness: { url: liveness.url, validationToken: liveness.validationToken } };
  }

  /** The subject's individual subaccount with this tax id: documents and selfies are uploaded for its level 1. */
  private async individualByTaxId(acting: ActingContext, taxId: string): Promise<KycCase> {
    const row = await this.ownedByTaxId(acting, taxId);
    if (row.customerType !== "individual")
      throw fieldError("taxId", "is a company subaccount's: companies upload KYB documents");
    return row;
  }

  /**
   * What is wrong with each named upload that is not a document of the subaccount for its purpose (and of its
   * types) whose every side arrived. Another subject's id is as unknown as one never issued.
   */
  private async uploadIssues(acting: ActingContext, row: KycCase, named: NamedUpload[]): Promise<FieldIssue[]> {
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

  /** The subject's company subaccount with this id (an individual's is refused). */
  private async companySubaccount(acting: ActingContext, subAccountId: string): Promise<KycCase> {
    const row = await this.subaccount(acting, subAccountId);
    if (row.customerType !== "business") throw fieldError("subAccountId", "is not a company subaccount");
    return row;
  }

  private async subaccount(acting: ActingContext, subAccountId: string): Promise<KycCase> {
    const id = canonicalId(subAccountId);
    const row = id ? await this.kyc.caseByCustomer(acting, id) : null;
    if (!row || row.corridor !== "BR") throw subaccountNotFound();
    return row;
  }

  /** The subject's BR subaccount with this tax id; another's, or none, is not found (400 in the reference). */
  private async ownedByTaxId(acting: ActingContext, taxId: string): Promise<KycCase> {
    const cases = await this.kyc.casesOf(acting.subjectProfileId);
    const row = cases.find((candidate) => candidate.corridor === "BR" && candidate.taxId === digits(taxId));
    if (!row) throw fieldError("taxId", "names no subaccount of this profile");
    return row;
  }

  /** The subject's one BR subaccount (individual before business); not found without one. */
  private async canonical(acting: ActingContext): Promise<KycCase> {
    const cases = (await this.kyc.casesOf(acting.subjectProfileId)).filter((row) => row.corridor === "BR");
    const row = cases.find((candidate) => candidate.customerType === "individual") ?? cases[0];
    if (!row) throw subaccountNotFound();
    return row;
  }
}

/** Refuses the input, all at once, when any field has an issue. */
function refuse(issues: FieldIssue[]): void {
  if (issues.length === 1) throw fieldError(issues[0]!.field, issues[0]!.message);
  if (issues.length > 1) throw new AppError("VALIDATION_FAILED", undefined, issues);
}

/** The sandbox subaccount's EVM wallet: derived from its id, stable. */
function subaccountWallet(subAccountId: string): string {
  return `0x${createHash("sha256").update(`sandbox-subaccount:${subAccountId}`).digest("hex").slice(0, 40)}`;
}
