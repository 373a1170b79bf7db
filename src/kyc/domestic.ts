import { z } from "zod";
import type { ActingContext } from "../auth/delegation.js";
import type { KycStatus } from "../providers/kyc-port.js";
import { idField, instantField, named, outputObject } from "../output.js";
import { CUSTOMER_TYPES } from "../reference-data/corridors.js";
import { DOMESTIC_COUNTRIES, type DomesticCountry } from "../reference-data/domestic.js";
import { relatedPersonIdsOf, type KycCaseRow } from "./repo.js";
import { calendarDate, countryCode, email, storedOneOf, text, uuid } from "../validation.js";
import { isValidCpf } from "./tax-ids.js";
import type { CaseKey } from "./reads.js";
import type { KycService } from "./service.js";
import {
  ARGENTINE_DOCUMENT_TYPES,
  COLOMBIAN_DOCUMENT_TYPES,
  DOMESTIC_STATUSES,
  KYB_COUNTRIES,
  KYB_FILE_TYPES,
  RELATED_PERSON_FILE_TYPES,
  type DomesticStatus,
} from "./domestic-enums.js";

const name = z.string().trim().min(1, "is required").max(100, "must be at most 100 characters");
const optionalText = z.string().trim().max(200, "must be at most 200 characters").optional();
const date = calendarDate();
const oneOf = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });
/** The country is decided before these are read (a REST adapter takes it from the path, the query or the body). */
const country = named("DomesticCountry", oneOf(DOMESTIC_COUNTRIES)).describe(
  "The customer's country; for a managed child the manager's current policy must allow it on changes.",
);
const type = z.enum(["INDIVIDUAL", "BUSINESS"]).optional();

/**
 * An individual's KYC information: what the provider verifies, with every fact the reference's form asks for
 * in AR, CO or MX (optional here beyond the names, the birth date and the document number). It is handed
 * over, never stored here. The REST face names some of these fields as the reference does.
 */
export const kycInformation = z
  .object({
    country,
    firstName: name.describe("Given name(s), 1 to 100 characters after trimming."),
    lastName: name.describe("Family name(s), 1 to 100 characters after trimming."),
    dateOfBirth: date.describe("The birth date, YYYY-MM-DD."),
    documentType: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .optional()
      .describe("The identity document's type, as the country names it (at most 50 characters)."),
    documentNumber: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .describe("The identity document's number, 1 to 50 characters after trimming."),
    colombianDocumentType: named("ColombianDocumentType", oneOf(COLOMBIAN_DOCUMENT_TYPES))
      .optional()
      .describe("The document's type in Colombia."),
    argentineDocumentType: named("ArgentineDocumentType", oneOf(ARGENTINE_DOCUMENT_TYPES))
      .optional()
      .describe("The document's type in Argentina."),
    cuit: text("code")
      .regex(/^\d{11}$/, "must be 11 digits")
      .optional()
      .describe("The Argentine tax id (CUIT): 11 digits, nothing else."),
    email: email().optional().describe("The person's email address."),
    phone: optionalText.describe("The person's phone number, as given (at most 200 characters)."),
    countryCode: z
      .string()
      .trim()
      .min(1)
      .max(10)
      .optional()
      .describe("Asked for in Argentina; handed over as given (at most 10 characters)."),
    nationalities: z
      .array(countryCode())
      .max(10)
      .optional()
      .describe("The person's nationalities: at most 10, each a two-letter ISO 3166-1 country code."),
    politicallyExposed: z.boolean().optional().describe("Whether the person is politically exposed (PEP)."),
    address: optionalText.describe("Street address (at most 200 characters)."),
    city: optionalText.describe("City (at most 200 characters)."),
    state: optionalText.describe("State or province (at most 200 characters)."),
    zipCode: optionalText.describe("Postal code (at most 200 characters)."),
  })
  .strict();

/**
 * A person a business declares with its KYB information (a legal representative, an owner), under the
 * reference's names: handed to the provider, which gives each an id; only the ids are kept.
 */
export const relatedPerson = z
  .object({
    firstName: name.describe("Given name(s), 1 to 100 characters after trimming."),
    lastName: name.describe("Family name(s), 1 to 100 characters after trimming."),
    email: email().describe("The person's email address."),
    dateOfBirth: date.describe("The birth date, YYYY-MM-DD."),
    nationalities: z
      .array(countryCode())
      .min(1, "must name at least one")
      .max(10)
      .describe("The person's nationalities: 1 to 10, each a two-letter ISO 3166-1 country code."),
    dni: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .optional()
      .describe("The identity document's number, 1 to 50 characters after trimming."),
    cpf: text("code")
      .refine((value) => isValidCpf(value.replace(/[.\-\s]/g, "")), "is not a valid CPF")
      .optional()
      .describe("The person's Brazilian tax id (CPF), if any."),
    pep: z.boolean().optional().describe("Whether the person is politically exposed (PEP)."),
  })
  .strict();

/** A business's KYB information (CO and MX only in the reference). */
export const kybInformation = z
  .object({
    country: oneOf(KYB_COUNTRIES),
    businessName: name.describe("The registered name, 1 to 100 characters after trimming."),
    taxId: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .describe("The business's tax id in its country, 1 to 50 characters after trimming."),
    address: optionalText.describe("Street address (at most 200 characters)."),
    city: optionalText.describe("City (at most 200 characters)."),
    state: optionalText.describe("State or province (at most 200 characters)."),
    zipCode: optionalText.describe("Postal code (at most 200 characters)."),
    website: optionalText.describe("The business's website (at most 200 characters)."),
    businessActivities: optionalText.describe("What the business does (at most 200 characters)."),
    accountPurpose: optionalText.describe("What the account will be used for (at most 200 characters)."),
    sourceOfFunds: optionalText.describe("Where the business's funds come from (at most 200 characters)."),
    relatedPersons: z
      .array(relatedPerson)
      .min(1, "must name at least one person")
      .max(20)
      .optional()
      .describe(
        "The business's legal representatives and owners (1 to 20); their documents are uploaded under the ids domesticKybSubmissions lists.",
      ),
    walletAddresses: optionalText.describe("The business's wallet addresses, or N/A (at most 200 characters)."),
    transmitsCustomerFunds: z.boolean().optional().describe("Whether the business transmits its customers' funds."),
    conductsComplianceScreening: z
      .boolean()
      .optional()
      .describe("Whether the business screens its customers (required when it transmits their funds)."),
    complianceScreeningDescription: optionalText.describe(
      "How it screens them (required when it does; at most 200 characters).",
    ),
    operatesInSanctionedCountries: z
      .boolean()
      .optional()
      .describe("Whether the business operates in sanctioned countries."),
    isRegulatedBusiness: z.boolean().optional().describe("Whether a regulator supervises the business."),
    expectedMonthlyVolumeUsd: z
      .number()
      .min(0)
      .max(1e12)
      .optional()
      .describe("The volume it expects a month, in US dollars (0 or more)."),
    expectedMonthlyTransactions: z
      .number()
      .int()
      .min(0)
      .max(1e9)
      .optional()
      .describe("The transactions it expects a month (0 or more)."),
  })
  .passthrough()
  .superRefine((form, context) => {
    if (form.transmitsCustomerFunds && form.conductsComplianceScreening === undefined)
      context.addIssue({
        code: "custom",
        path: ["conductsComplianceScreening"],
        message: "is required when transmitsCustomerFunds is true",
      });
    if (form.conductsComplianceScreening && !form.complianceScreeningDescription)
      context.addIssue({
        code: "custom",
        path: ["complianceScreeningDescription"],
        message: "is required when conductsComplianceScreening is true",
      });
  });

/** The country of a business customer's KYB details (CO and MX, as KYB information). */
export const kybCountryInput = z
  .object({
    country: named("DomesticKybCountry", oneOf(KYB_COUNTRIES)).describe("The business customer's country (CO or MX)."),
  })
  .strict();

const submissionFileView = outputObject(
  "DomesticSubmissionFile",
  "A file that arrived for a submission: the latest of its type (and related person).",
  {
    fileType: named("DomesticKybFileType", z.enum([...KYB_FILE_TYPES, ...RELATED_PERSON_FILE_TYPES])).describe(
      "What the file is.",
    ),
    relatedPersonId: idField("The related person the file identifies; null for the business's own.").nullable(),
    uploadedAt: instantField("When it arrived (ISO 8601 date-time, UTC)."),
  },
);
export type SubmissionFileView = z.output<typeof submissionFileView>;

/** Where the files that arrived for an owner's submission are read (src/kyc/domestic-files.ts). */
export interface SubmissionFiles {
  filesOf(ownerProfileId: string, submissionId: string): Promise<SubmissionFileView[]>;
}

export const kybSubmissionView = outputObject(
  "DomesticKybSubmission",
  "A KYB submission documents are uploaded for, and the persons it declared.",
  {
    submissionId: idField("The business customer's current API submission."),
    relatedPersonIds: z
      .array(idField("A related person's id."))
      .describe("The provider's id of each related person the submission declared, in its order."),
    files: z
      .array(submissionFileView)
      .describe("The files that arrived for the submission (REST's submitKybFile, submitKybRelatedPersonFile)."),
  },
);
export type KybSubmissionView = z.output<typeof kybSubmissionView>;

export const submissionView = outputObject(
  "DomesticSubmission",
  "Information handed over through the API, to be sent for review with this id.",
  { submissionId: idField("Names the submission when it is sent for review; information given again replaces it.") },
);

export const hostedLinkView = outputObject(
  "DomesticHostedLink",
  "A link to the provider's hosted KYC or KYB, and the attempt it belongs to.",
  {
    submissionId: idField("The hosted attempt; asked for again once the flow was opened, the same one."),
    url: z.url().describe("Where the subject completes the hosted flow."),
  },
);

export const retriedCaseView = outputObject(
  "RetryDomesticKycPayload",
  "The outcome of retryDomesticKyc: a failed KYC or KYB opened again.",
  {
    hostedLink: hostedLinkView
      .nullable()
      .describe(
        "A new hosted link when the failed attempt was hosted; null when it went through the API, where information is submitted again.",
      ),
  },
);
export type RetriedCaseView = z.output<typeof retriedCaseView>;

/** Creating a provider customer names only its country. */
export const customerInput = z.object({ country }).strict();
export const sendSubmissionInput = z
  .object({
    country,
    submissionId: named("ID", uuid("must be a submission id")).describe(
      "The customer's current submission; any other id is NOT_FOUND.",
    ),
  })
  .strict();
/** A customer of the country: the individual one, or with `type` BUSINESS the business one. */
export const customerTypeInput = z.object({ country, type }).strict();
/** The hosted flow's link names only the country (the operation says individual or business). */
export const redirectLinkInput = z.object({ country }).strict();

/** The case a country and a `type` (INDIVIDUAL, the default, or BUSINESS) name. */
export const typedCase = ({ country, type }: z.output<typeof customerTypeInput>): CaseKey => ({
  corridor: country,
  customerType: type === "BUSINESS" ? "business" : "individual",
});

function domesticStatus(row: KycCaseRow): DomesticStatus {
  switch (row.status as KycStatus) {
    case "not_started":
      return "CONSULTED";
    case "pending":
      return row.method === "redirect" ? "LINK_OPENED" : "USER_COMPLETED";
    case "in_review":
      return "VERIFYING";
    case "approved":
      return "SUCCESS";
    case "rejected":
      return "FAILED";
  }
}

export const domesticCaseView = outputObject(
  "DomesticCustomer",
  "The subject's customer with the domestic provider in one country, as one customer type, and its KYC (KYB).",
  {
    customerId: idField("The provider's customer id."),
    country: named("DomesticCountry", z.enum(DOMESTIC_COUNTRIES)).describe(
      "The country whose provider holds this customer.",
    ),
    customerType: named("CustomerType", z.enum(CUSTOMER_TYPES)).describe(
      "Individual customers go through KYC, business customers through KYB.",
    ),
    status: named("DomesticKycStatus", z.enum(DOMESTIC_STATUSES)).describe(
      "Where its KYC (KYB) stands; a provider decision that fell due shows at once.",
    ),
    createdAt: instantField("When the customer was created (ISO 8601 date-time, UTC)."),
    updatedAt: instantField("Last stored change to the customer's case (ISO 8601 date-time, UTC)."),
  },
);
export type DomesticCaseView = z.output<typeof domesticCaseView>;

/** A domestic case (AR, CO, MX, US) as the reference's statuses show it. */
export function domesticCase(row: KycCaseRow): DomesticCaseView {
  return {
    customerId: row.providerCustomerId,
    country: storedOneOf(DOMESTIC_COUNTRIES, row.corridor),
    customerType: storedOneOf(CUSTOMER_TYPES, row.customerType),
    status: domesticStatus(row),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * The subject's KYB submissions in a country that documents are uploaded for: its business customer's current
 * API submission, with the provider's ids of the persons it declared and the files that arrived; none before
 * information is given, nor for a hosted KYB (its pages collect the documents). NOT_FOUND without a business
 * customer there.
 */
export async function kybSubmissions(
  kyc: KycService,
  files: SubmissionFiles,
  acting: ActingContext,
  country: DomesticCountry,
): Promise<KybSubmissionView[]> {
  const row = await kyc.caseOf(acting, { corridor: country, customerType: "business" });
  if (row.method !== "api" || !row.submissionId) return [];
  return [
    {
      submissionId: row.submissionId,
      relatedPersonIds: relatedPersonIdsOf(row),
      files: await files.filesOf(acting.subjectProfileId, row.submissionId),
    },
  ];
}

/** The subject's domestic case (AR, CO, MX, US) as the reference's statuses show it. */
export async function domesticCaseOf(kyc: KycService, acting: ActingContext, key: CaseKey): Promise<DomesticCaseView> {
  return domesticCase(await kyc.caseOf(acting, key));
}
