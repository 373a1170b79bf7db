import { z } from "zod";
import { idField, idInput, named, outputObject } from "../output.js";
import { SIDE_STATES } from "../uploads/service.js";
import { countryCode, email, uuid } from "../validation.js";
import { personFields, verificationFields } from "./brazil-subaccount-types.js";
import { describedEnum, hyphensAsUnderscores } from "../enums.js";

/*
 * Level 1 KYB of Brazilian company subaccounts (the reference's `/v1/brl/kyb/*`): what each operation takes and
 * answers.
 */

/** The company subaccount a KYB operation is about (an ID in GraphQL). */
const companySubAccount = () => idInput("One of the subject's company subaccounts.");

export const startKybInput = z.object({ subAccountId: companySubAccount() }).strict();
export const kybAttemptInput = z.object({ attemptId: idInput("The attempt startBrazilKyb returned.") }).strict();

export const startedKybView = outputObject(
  "StartBrazilKybPayload",
  "The outcome of startBrazilKyb: the hosted KYB's pages for the company.",
  {
    attemptId: idField("The KYB attempt, which brazilKybAttempt reads."),
    authorizedRepresentativeUrl: z
      .url()
      .describe("The hosted page where the company's authorized representative is verified."),
    basicCompanyDataUrl: z.url().describe("The hosted page where the company's basic data is given."),
  },
);

export const kybAttemptView = outputObject("BrazilKybAttempt", "A BR company's KYB attempt.", {
  ...verificationFields,
  retryable: z.boolean().describe("True when the attempt was rejected and a new one may be started."),
});
export type KybAttemptView = z.output<typeof kybAttemptView>;

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
export type DocumentType = (typeof BRAZIL_DOCUMENT_TYPES)[number];

describedEnum("BrazilDocumentType", BRAZIL_DOCUMENT_TYPES, {
  description: "A document uploaded for BR KYC or KYB (REST spells the underscores as hyphens).",
  graphqlName: hyphensAsUnderscores,
  meanings: {
    ID: "A national identity card.",
    "DRIVERS-LICENSE": "A driver's license.",
    PASSPORT: "A passport (KYB documents only).",
    "RESIDENCE-PERMIT": "A residence permit (KYB documents only).",
    SELFIE: "A photo of the person.",
    "SELFIE-FROM-LIVENESS": "A photo of the person taken by the liveness check.",
    "CERTIFICATE-OF-INCORPORATION": "The company's certificate of incorporation (KYB).",
    "COMPANY-TAX-IDENTIFICATION-DOCUMENT": "The company's tax registration (KYB).",
  },
});

/** Cards, with a back to upload when they are double-sided. */
export const TWO_SIDED: readonly DocumentType[] = ["ID", "DRIVERS-LICENSE", "RESIDENCE-PERMIT"];
export const SELFIES: readonly DocumentType[] = ["SELFIE", "SELFIE-FROM-LIVENESS"];
/** What identifies a beneficial owner. */
export const IDENTITY_DOCUMENTS: readonly DocumentType[] = ["ID", "DRIVERS-LICENSE", "PASSPORT", "RESIDENCE-PERMIT"];

/** A company document to upload for KYB, into one of the subject's company subaccounts. */
export const kybDocumentInput = z
  .object({
    subAccountId: companySubAccount(),
    documentType: named("BrazilDocumentType", z.enum(BRAZIL_DOCUMENT_TYPES)).describe("What document it is."),
    isDoubleSided: z
      .boolean()
      .optional()
      .describe(
        "True when its back is uploaded too (ID, DRIVERS_LICENSE, RESIDENCE_PERMIT only); false when left out.",
      ),
  })
  .strict();
export const kybDocumentReadInput = z
  .object({
    subAccountId: idInput("The company subaccount the document is for."),
    documentId: idInput("The document createBrazilKybDocument opened."),
  })
  .strict();

export const kybDocumentView = outputObject(
  "BrazilKybDocument",
  "A KYB document of a company subaccount, and whether its files arrived.",
  {
    documentId: idField("The document."),
    documentType: named("BrazilDocumentType", z.enum(BRAZIL_DOCUMENT_TYPES)).describe("What document it is."),
    front: named("DocumentUploadState", z.enum(SIDE_STATES)).describe(
      "The front's file (the only side of a one-sided document).",
    ),
    back: named("DocumentUploadState", z.enum(SIDE_STATES))
      .nullable()
      .describe("The back's file; null for a one-sided one."),
    ready: z.boolean().describe("True once every side's file is stored."),
  },
);
export type KybDocumentView = z.output<typeof kybDocumentView>;

/** The reference's roles of a beneficial owner with control of the company (BrUboControlRole). */
const CONTROL_ROLES = [
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

describedEnum("BrazilControlRole", CONTROL_ROLES, {
  description: "A beneficial owner's role with control of the company (REST spells VICE_PRESIDENT as Vice President).",
  graphqlName: (role) => role.replace(/ /g, "_").toUpperCase(),
});

/**
 * An ultimate beneficial owner of a company subaccount: the person's data goes to the provider and is not
 * stored here; the documents are KYB documents of the subaccount (kyb/documents), whose files arrived.
 */
export const kybUboInput = z
  .object({
    subAccountId: companySubAccount(),
    ...personFields,
    countryOfTaxId: countryCode().describe("The country that issued the tax id, a two-letter ISO 3166-1 code."),
    taxIdNumber: z
      .string()
      .trim()
      .min(1, "is required")
      .max(40)
      .describe("The person's tax id, 1 to 40 characters once trimmed."),
    percentageOfOwnership: z
      .string()
      .max(6, "must be a percentage, e.g. 25 or 12.5")
      .regex(/^\d{1,3}(\.\d{1,2})?$/, "must be a percentage, e.g. 25 or 12.5")
      .refine((percentage) => Number(percentage) <= 100, "must be at most 100")
      .describe("The share of the company the person owns, in percent (e.g. 25 or 12.5), at most 100."),
    hasControl: named("BrazilControlRole", z.enum(CONTROL_ROLES).optional()).describe(
      "The person's role with control of the company.",
    ),
    email: email().optional().describe("The person's email address."),
    phone: z.string().max(40).optional().describe("The person's phone number, at most 40 characters."),
    uploadedIdentificationId: named("ID", uuid()).describe(
      "A KYB document of the subaccount identifying the person (ID, DRIVERS_LICENSE, PASSPORT or RESIDENCE_PERMIT) whose files arrived; it identifies no other owner.",
    ),
    uploadedSelfieId: named("ID", uuid().optional()).describe(
      "A KYB document of the subaccount (SELFIE or SELFIE_FROM_LIVENESS) whose file arrived.",
    ),
    documentCountry: countryCode().describe(
      "The country that issued the identity document, a two-letter ISO 3166-1 code.",
    ),
    streetLine1: z.string().max(200).describe("Street and number, at most 200 characters."),
    streetLine2: z.string().max(200).optional().describe("At most 200 characters."),
    streetLine3: z.string().max(200).optional().describe("At most 200 characters."),
    city: z.string().max(100).describe("At most 100 characters."),
    state: z.string().max(100).describe("The state, at most 100 characters."),
    zipCode: z.string().max(20).describe("The postal code, at most 20 characters."),
    country: countryCode().describe("The country of residence, a two-letter ISO 3166-1 code."),
  })
  .strict();

export const beneficialOwnerView = outputObject(
  "CreateBrazilKybBeneficialOwnerPayload",
  "The outcome of createBrazilKybBeneficialOwner.",
  { beneficialOwnerId: idField("The beneficial owner, which submitBrazilKyb names in uboIds.") },
);

/** The reference's answers about a company's business (BrKybLevel1Payload). */
const ACCOUNT_OPENING_REASONS = [
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

describedEnum("BrazilAccountOpeningReason", ACCOUNT_OPENING_REASONS, {
  description: "Why a company opens its account, as REST spells it in lowercase.",
});

const SOURCES_OF_FUNDS = [
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

describedEnum("BrazilSourceOfFunds", SOURCES_OF_FUNDS, {
  description: "Where a company's funds come from, as REST spells it in lowercase.",
});

const EMPLOYEE_COUNTS = ["1-10", "11-50", "51-200", "201-500", "501-1000", "1001+"] as const;

describedEnum("BrazilEmployeeCount", EMPLOYEE_COUNTS, {
  description: "How many people a company employs (REST: 1-10, 11-50, ..., 1001+).",
  // GraphQL names cannot start with a digit nor hold "-" or "+": 1-10 is EMPLOYEES_1_TO_10, 1001+ EMPLOYEES_1001_OR_MORE.
  graphqlName: (count) => `EMPLOYEES_${count.replace("-", "_TO_").replace("+", "_OR_MORE")}`,
});

const ANNUAL_REVENUES_USD = [
  "less_than_100k",
  "100k_to_1m",
  "1m_to_10m",
  "10m_to_50m",
  "50m_to_100m",
  "more_than_100m",
] as const;

describedEnum("BrazilAnnualRevenue", ANNUAL_REVENUES_USD, {
  description: "A company's yearly revenue in US dollars (REST: less_than_100k, 100k_to_1m, ..., more_than_100m).",
  // 100k_to_1m is FROM_100K_TO_1M: a GraphQL name cannot start with a digit.
  graphqlName: (revenue) => (/^\d/.test(revenue) ? `FROM_${revenue.toUpperCase()}` : revenue.toUpperCase()),
});

/**
 * API-driven level 1 KYB of a company subaccount: the company's data goes to the provider and is not stored
 * here; it names the subaccount's beneficial owners (kyb/ubos) and two of its KYB documents.
 */
export const kybLevelOneInput = z
  .object({
    subAccountId: companySubAccount(),
    uboIds: z
      .array(named("ID", uuid()))
      .min(1, "must name at least one UBO")
      .max(50)
      .refine((ids) => new Set(ids).size === ids.length, "must not name a UBO twice")
      .describe("1 to 50 beneficial owners of the subaccount (createBrazilKybBeneficialOwner), each once."),
    companyLegalName: z
      .string()
      .trim()
      .min(1, "is required")
      .max(200)
      .describe("The company's legal name, 1 to 200 characters once trimmed."),
    companyRegistrationNumber: z
      .string()
      .trim()
      .min(1, "is required")
      .max(40)
      .describe("The company's registration number, 1 to 40 characters once trimmed."),
    taxIdentificationNumberTin: z
      .string()
      .trim()
      .min(1, "is required")
      .max(40)
      .describe("The CNPJ; it must be the subaccount's (dots, dashes and slashes ignored)."),
    businessActivityDescription: z
      .string()
      .trim()
      .min(1, "is required")
      .max(1000)
      .describe("What the company does, 1 to 1000 characters once trimmed."),
    reasonForAccountOpening: named("BrazilAccountOpeningReason", z.enum(ACCOUNT_OPENING_REASONS)).describe(
      "Why the account is opened.",
    ),
    sourceOfFundsAndIncome: named("BrazilSourceOfFunds", z.enum(SOURCES_OF_FUNDS)).describe(
      "Where the company's funds come from.",
    ),
    numberOfEmployees: named("BrazilEmployeeCount", z.enum(EMPLOYEE_COUNTS)).describe(
      "How many people the company employs.",
    ),
    estimatedAnnualRevenueUsd: named("BrazilAnnualRevenue", z.enum(ANNUAL_REVENUES_USD)).describe(
      "The company's yearly revenue in US dollars.",
    ),
    estimatedMonthlyVolumeUsd: named(
      "Decimal",
      z
        .string()
        .max(15)
        .regex(/^[1-9][0-9]*$/, "must be a whole number of US dollars above 0"),
    ).describe("The expected monthly volume in whole US dollars, above 0."),
    countryTaxResidence: countryCode().describe(
      "The country where the company is resident for tax, a two-letter ISO 3166-1 code.",
    ),
    countrySubdivisionTaxResidence: z
      .string()
      .max(100)
      .optional()
      .describe("Its subdivision (state), at most 100 characters."),
    companyStreetLine1: z.string().max(200).describe("The company's street and number, at most 200 characters."),
    companyStreetLine2: z.string().max(200).optional().describe("At most 200 characters."),
    companyStreetLine3: z.string().max(200).optional().describe("At most 200 characters."),
    companyCity: z.string().max(100).describe("At most 100 characters."),
    companyState: z.string().max(100).describe("The state, at most 100 characters."),
    companyZipCode: z.string().max(20).describe("The postal code, at most 20 characters."),
    companyCountry: countryCode().describe("The company's country, a two-letter ISO 3166-1 code."),
    certificateOfIncorporationDocumentId: named("ID", uuid()).describe(
      "A KYB document of the subaccount (CERTIFICATE_OF_INCORPORATION) whose file arrived.",
    ),
    taxIdentificationDocumentId: named("ID", uuid()).describe(
      "A KYB document of the subaccount (COMPANY_TAX_IDENTIFICATION_DOCUMENT) whose file arrived.",
    ),
    emailPixKey: email().optional().describe("The company's email Pix key."),
    website: z.url().max(500).optional().describe("The company's website (a URL)."),
    socialMedia: z.url().max(500).optional().describe("The company's social media page (a URL)."),
    sandboxReject: z
      .boolean()
      .optional()
      .describe("True asks the sandbox provider to reject the attempt; live providers ignore it."),
  })
  .strict();

export const submittedKybView = outputObject("SubmitBrazilKybPayload", "The outcome of submitBrazilKyb.", {
  attemptId: idField("The KYB attempt the submission opened, which brazilKybAttempt reads."),
});
