import { z } from "zod";
import { idempotencyKeyText } from "../idempotency/service.js";
import { isValidCnpj, isValidCpf } from "../kyc/tax-ids.js";
import { idField, named, outputObject } from "../output.js";
import { CUSTOMER_TYPES } from "../reference-data/corridors.js";
import { calendarDate, countryCode, email, text, uuid } from "../validation.js";
import { describedEnum, hyphensAsUnderscores } from "../enums.js";

/*
 * Brazilian subaccounts and their level 1 KYC (the reference's `/v1/brl/*`): what each operation takes and
 * answers. KYB's are in brazil-kyb-types.ts.
 */

/** A CPF or CNPJ without its punctuation. */
export const digits = (value: string) => value.replace(/[.\-/\s]/g, "");
/** A CPF or CNPJ, digits with their usual punctuation or without. */
const taxIdText = () => text("code").trim().min(1, "is required");

export const createSubaccountInput = z
  .object({
    accountType: z.enum(["INDIVIDUAL", "COMPANY"]),
    name: z
      .string()
      .trim()
      .min(1, "is required")
      .max(200)
      .describe("The person's full name or the company's legal name, 1 to 200 characters once trimmed."),
    taxId: taxIdText().describe(
      "CPF for an individual or CNPJ for a company, check digits verified (dots, dashes and slashes ignored); an existing subaccount's must match.",
    ),
    quoteId: uuid().optional().describe("A quote the subaccount is created for; accepted, not used."),
    sessionId: uuid().optional().describe("A widget session the subaccount is created in; accepted, not used."),
    companyName: z
      .string()
      .max(200)
      .optional()
      .describe("The company's name, at most 200 characters; accepted, not used."),
    startDate: calendarDate().optional().describe("The company's start date; accepted, not used."),
    cnpj: taxIdText()
      .refine((cnpj) => isValidCnpj(digits(cnpj)), "is not a valid CNPJ")
      .optional()
      .describe("The company's CNPJ; accepted, not used (taxId decides)."),
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

/** A person as level 1 KYC and KYB's beneficial owners name them. */
export const personFields = {
  fullName: z
    .string()
    .trim()
    .min(1, "is required")
    .max(200)
    .describe("The person's full name, 1 to 200 characters once trimmed."),
  dateOfBirth: calendarDate().describe("Date of birth, YYYY-MM-DD."),
};

/** Level 1 KYC: what the provider verifies. It is handed over, never stored here. */
export const newKycInput = z
  .object({
    subAccountId: named("ID", uuid()).describe("The subject's individual subaccount (createBrazilSubaccount)."),
    ...personFields,
    taxIdNumber: taxIdText().describe("The CPF; it must be the subaccount's (dots and dashes ignored)."),
    countryOfTaxId: countryCode().describe("The country that issued the tax id, a two-letter ISO 3166-1 code."),
    email: email().describe("The person's email address."),
    streetAddress: z.string().max(200).describe("Street and number, at most 200 characters."),
    city: z.string().max(100).describe("At most 100 characters."),
    state: z.string().max(100).describe("The state, at most 100 characters."),
    zipCode: z.string().max(20).describe("The postal code, at most 20 characters."),
    country: countryCode().describe("The country of residence, a two-letter ISO 3166-1 code."),
    uploadedDocumentId: uuid().describe("The uploaded identity document's id (a UUID)."),
    uploadedSelfieId: uuid().describe("The uploaded selfie's id (a UUID)."),
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
      .refine((token) => Buffer.byteLength(token, "utf8") <= 1024, "must be at most 1024 bytes")
      .describe("The opaque share token, 1 to 1024 UTF-8 bytes."),
    consentAttested: z
      .literal(true, "must be true: the subject consented to sharing the verification")
      .describe("Must be true: the subject consented to sharing its verification."),
  })
  .strict();

/** The subaccount with this CPF or CNPJ (it must be the subject's). */
export const taxIdInput = z
  .object({
    taxId: taxIdText().describe(
      "The subaccount's CPF or CNPJ (formatting ignored); another profile's is VALIDATION_FAILED.",
    ),
  })
  .strict();
/** The subaccount with this CPF or CNPJ, or without one the subject's own. */
export const optionalTaxIdInput = z
  .object({
    taxId: taxIdText()
      .optional()
      .describe("The subaccount's CPF or CNPJ; null or left out: the subject's own subaccount."),
  })
  .strict();
export const remainingLimitInput = optionalTaxIdInput
  .extend({ direction: z.enum(["BUY", "SELL"]).describe("BUY (BRL paid in) or SELL (BRL paid out).") })
  .strict();

/** How far a BR KYC or KYB attempt is, and the provider's decision once it is COMPLETED. */
const BRAZIL_VERIFICATION_PROGRESS = ["PENDING", "PROCESSING", "COMPLETED"] as const;

describedEnum("BrazilVerificationProgress", BRAZIL_VERIFICATION_PROGRESS, {
  description: "How far a BR KYC or KYB attempt is, as REST's status spells it.",
  meanings: {
    PENDING: "The subaccount exists; nothing was submitted.",
    PROCESSING: "Submitted and awaiting the provider's decision.",
    COMPLETED: "Decided: the result says how.",
  },
});

const BRAZIL_VERIFICATION_RESULTS = ["APPROVED", "REJECTED"] as const;

describedEnum("BrazilVerificationResult", BRAZIL_VERIFICATION_RESULTS, {
  description: "The provider's decision on a completed BR KYC or KYB attempt.",
  meanings: {
    APPROVED: "Verified: level 1, ramps may start in BR.",
    REJECTED: "Not verified; why stays with support. createBrazilSubaccount again reopens an individual's case.",
  },
});

/** Whether a subaccount's holder is identified, as the reference spells it. */
const BRAZIL_IDENTITY_STATUSES = ["NOT-IDENTIFIED", "CONFIRMED"] as const;

describedEnum("BrazilIdentityStatus", BRAZIL_IDENTITY_STATUSES, {
  description: "Whether the subaccount's holder is identified (REST spells NOT_IDENTIFIED as NOT-IDENTIFIED).",
  graphqlName: hyphensAsUnderscores,
  meanings: {
    "NOT-IDENTIFIED": "KYC (KYB) is not approved yet, or was rejected.",
    CONFIRMED: "KYC (KYB) is approved: level 1.",
  },
});

/** The identity documents level 1 KYC takes (no passport, as REST's getUploadUrls). */
const IDENTITY_DOCUMENT_TYPES = ["ID", "DRIVERS-LICENSE"] as const;

describedEnum("BrazilIdentityDocumentType", IDENTITY_DOCUMENT_TYPES, {
  description: "An identity document for BR level 1 KYC (REST spells DRIVERS_LICENSE as DRIVERS-LICENSE).",
  graphqlName: hyphensAsUnderscores,
  meanings: { ID: "A national identity card.", "DRIVERS-LICENSE": "A driver's license." },
});

/** Where a BR KYC or KYB attempt stands: KYC's status and a KYB attempt's alike. */
export const verificationFields = {
  status: named("BrazilVerificationProgress", z.enum(BRAZIL_VERIFICATION_PROGRESS)).describe("How far the attempt is."),
  result: named("BrazilVerificationResult", z.enum(BRAZIL_VERIFICATION_RESULTS))
    .nullable()
    .describe("The decision; null until COMPLETED."),
};

export const createdSubaccountView = outputObject(
  "CreateBrazilSubaccountPayload",
  "The outcome of createBrazilSubaccount.",
  {
    subAccountId: idField(
      "The subaccount (the BR customer's id, Customer.customerId): a new one, or the subject's existing one.",
    ),
  },
);

export const submittedKycView = outputObject("SubmitBrazilKycPayload", "The outcome of submitBrazilKyc.", {
  submissionId: idField("The KYC attempt the submission opened; its decision follows."),
});

export const kycStatusView = outputObject(
  "BrazilKycStatus",
  "A BR subaccount's KYC (individual) or KYB (company) status.",
  {
    customerType: named("CustomerType", z.enum(CUSTOMER_TYPES)).describe(
      "INDIVIDUAL: KYC of a person (CPF); BUSINESS: KYB of a company (CNPJ).",
    ),
    ...verificationFields,
    level: z.number().int().describe("The verification level reached: 1 once approved, 0 otherwise."),
  },
);
export type KycStatusView = z.output<typeof kycStatusView>;

export const userView = outputObject("BrazilUser", "The subject's BR subaccount: its wallet and verification level.", {
  subAccountId: idField("The subaccount (the BR customer's id, Customer.customerId)."),
  evmAddress: z.string().describe("The subaccount's EVM wallet address (0x and 40 hex digits); stable."),
  kycLevel: z.number().int().describe("1 once KYC (KYB) is approved, 0 otherwise."),
  identityStatus: named("BrazilIdentityStatus", z.enum(BRAZIL_IDENTITY_STATUSES)).describe(
    "Whether the holder is identified.",
  ),
});

/** GraphQL answers the amount alone, as a Decimal. */
export const remainingLimitView = z.object({
  remainingLimit: z.number().describe("The BRL the subaccount may still move this calendar month in the direction."),
});

export const importedTokenView = outputObject("ImportBrazilKycTokenPayload", "The outcome of importBrazilKycToken.", {
  attemptId: idField("The KYC attempt the import opened; its decision follows (brazilKycStatus)."),
  status: named("KycCaseStatus", z.literal("pending")).describe(
    "Always PENDING: the import was accepted and the provider decides after its delay.",
  ),
});
export type ImportedTokenView = z.output<typeof importedTokenView>;

export const documentUploadView = outputObject(
  "BrazilDocumentUpload",
  "A document opened for upload: PUT each side's file (its bytes, under its Content-Type) to its URL, without a credential; each URL takes one file within an hour.",
  {
    documentId: idField("The document: what submitBrazilKyc and brazilKybDocument name."),
    frontUploadUrl: z.url().describe("Where the front's file goes (the only side of a one-sided document)."),
    backUploadUrl: z.url().nullable().describe("Where the back's file goes; null for a one-sided document."),
    livenessUrl: z.url().nullable().describe("A selfie's liveness check page; null for other documents."),
    livenessValidationToken: z
      .string()
      .nullable()
      .describe("The token the liveness check's SDK validates its session with; null for other documents."),
  },
);
export type DocumentUploadView = z.output<typeof documentUploadView>;

/** An individual's identity document (no passport here, as in the reference) and selfie to upload for level 1 KYC. */
export const uploadUrlsInput = z
  .object({
    taxId: taxIdText().describe("The individual subaccount's CPF (formatting ignored)."),
    documentType: named("BrazilIdentityDocumentType", z.enum(IDENTITY_DOCUMENT_TYPES)).describe(
      "The identity document's type.",
    ),
    isDoubleSided: z.boolean().optional().describe("True when its back is uploaded too; false when left out."),
  })
  .strict();

export const kycUploadsView = outputObject(
  "RequestBrazilKycUploadsPayload",
  "The outcome of requestBrazilKycUploads: the uploads level 1 KYC names.",
  {
    identityDocument: documentUploadView.describe("The identity document (submitBrazilKyc's uploadedDocumentId)."),
    selfie: documentUploadView.describe("The selfie (submitBrazilKyc's uploadedSelfieId)."),
  },
);
