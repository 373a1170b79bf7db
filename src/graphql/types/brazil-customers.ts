import { Field, ID, InputType, Int, ObjectType } from "type-graphql";
import {
  ACCOUNT_OPENING_REASONS,
  ANNUAL_REVENUES_USD,
  BRAZIL_DOCUMENT_TYPES,
  CONTROL_ROLES,
  EMPLOYEE_COUNTS,
  SOURCES_OF_FUNDS,
} from "../../onboarding/brazil.js";
import { SIDE_STATES } from "../../uploads/service.js";
import { enumOf, namedEnumOf, restSpellingsOf } from "./enums.js";
import { DecimalScalar } from "./scalars.js";
import { CustomerTypeEnum } from "./managed-profiles.js";
import { KycCaseStatusEnum } from "./ramps.js";
import { registerGraphQLEnum } from "./output-type.js";

/*
 * Brazilian customers (subaccounts) and their KYC/KYB: the operations REST serves under /v1/brl (and its
 * legacy alias /v1/brla), under the project's names. Inputs keep the operations' field names.
 */

const BrazilVerificationProgressEnum = enumOf(["PENDING", "PROCESSING", "COMPLETED"] as const);
registerGraphQLEnum(BrazilVerificationProgressEnum, {
  name: "BrazilVerificationProgress",
  description: "How far a BR KYC or KYB attempt is, as REST's status spells it.",
  valuesConfig: {
    PENDING: { description: "The subaccount exists; nothing was submitted." },
    PROCESSING: { description: "Submitted and awaiting the provider's decision." },
    COMPLETED: { description: "Decided: the result says how." },
  },
});

const BrazilVerificationResultEnum = enumOf(["APPROVED", "REJECTED"] as const);
registerGraphQLEnum(BrazilVerificationResultEnum, {
  name: "BrazilVerificationResult",
  description: "The provider's decision on a completed BR KYC or KYB attempt.",
  valuesConfig: {
    APPROVED: { description: "Verified: level 1, ramps may start in BR." },
    REJECTED: {
      description: "Not verified; why stays with support. createBrazilSubaccount again reopens an individual's case.",
    },
  },
});

/** REST's identityStatus values: the GraphQL names cannot hold its hyphen. */
const BrazilIdentityStatusEnum = { NOT_IDENTIFIED: "NOT-IDENTIFIED", CONFIRMED: "CONFIRMED" } as const;
registerGraphQLEnum(BrazilIdentityStatusEnum, {
  name: "BrazilIdentityStatus",
  description: "Whether the subaccount's holder is identified (REST spells NOT_IDENTIFIED as NOT-IDENTIFIED).",
  valuesConfig: {
    NOT_IDENTIFIED: { description: "KYC (KYB) is not approved yet, or was rejected." },
    CONFIRMED: { description: "KYC (KYB) is approved: level 1." },
  },
});

@ObjectType({ description: "The outcome of createBrazilSubaccount." })
export class CreateBrazilSubaccountPayload {
  @Field(() => ID, {
    description:
      "The subaccount (the BR customer's id, Customer.customerId): a new one, or the subject's existing one.",
  })
  subAccountId!: string;
}

@ObjectType({ description: "The outcome of submitBrazilKyc." })
export class SubmitBrazilKycPayload {
  @Field(() => ID, { description: "The KYC attempt the submission opened; its decision follows." })
  submissionId!: string;
}

@ObjectType({ description: "A BR subaccount's KYC (individual) or KYB (company) status." })
export class BrazilKycStatus {
  @Field(() => CustomerTypeEnum, {
    description: "INDIVIDUAL: KYC of a person (CPF); BUSINESS: KYB of a company (CNPJ).",
  })
  customerType!: string;

  @Field(() => BrazilVerificationProgressEnum, { description: "How far the attempt is." })
  status!: string;

  @Field(() => BrazilVerificationResultEnum, { nullable: true, description: "The decision; null until COMPLETED." })
  result!: string | null;

  @Field(() => Int, { description: "The verification level reached: 1 once approved, 0 otherwise." })
  level!: number;
}

@ObjectType({ description: "The subject's BR subaccount: its wallet and verification level." })
export class BrazilUser {
  @Field(() => ID, { description: "The subaccount (the BR customer's id, Customer.customerId)." })
  subAccountId!: string;

  @Field({ description: "The subaccount's EVM wallet address (0x and 40 hex digits); stable." })
  evmAddress!: string;

  @Field(() => Int, { description: "1 once KYC (KYB) is approved, 0 otherwise." })
  kycLevel!: number;

  @Field(() => BrazilIdentityStatusEnum, { description: "Whether the holder is identified." })
  identityStatus!: string;
}

@ObjectType({ description: "The outcome of startBrazilKyb: the hosted KYB's pages for the company." })
export class StartBrazilKybPayload {
  @Field(() => ID, { description: "The KYB attempt, which brazilKybAttempt reads." })
  attemptId!: string;

  @Field({ description: "The hosted page where the company's authorized representative is verified." })
  authorizedRepresentativeUrl!: string;

  @Field({ description: "The hosted page where the company's basic data is given." })
  basicCompanyDataUrl!: string;
}

@ObjectType({ description: "A BR company's KYB attempt." })
export class BrazilKybAttempt {
  @Field(() => BrazilVerificationProgressEnum, { description: "How far the attempt is." })
  status!: string;

  @Field(() => BrazilVerificationResultEnum, { nullable: true, description: "The decision; null until COMPLETED." })
  result!: string | null;

  @Field({ description: "True when the attempt was rejected and a new one may be started." })
  retryable!: boolean;
}

@ObjectType({ description: "The outcome of importBrazilKycToken." })
export class ImportBrazilKycTokenPayload {
  @Field(() => ID, { description: "The KYC attempt the import opened; its decision follows (brazilKycStatus)." })
  attemptId!: string;

  @Field(() => KycCaseStatusEnum, {
    description: "Always PENDING: the import was accepted and the provider decides after its delay.",
  })
  status!: string;
}

@InputType({
  description: "A BR subaccount: created, returned unchanged when it exists, or reopened when it was rejected.",
})
export class CreateBrazilSubaccountInput {
  @Field(() => CustomerTypeEnum, {
    description: "INDIVIDUAL (KYC, a CPF) or BUSINESS (KYB, a CNPJ); REST names them INDIVIDUAL and COMPANY.",
  })
  customerType!: string;

  @Field({ description: "The person's full name or the company's legal name, 1 to 200 characters once trimmed." })
  name!: string;

  @Field({
    description:
      "CPF for an individual or CNPJ for a company, check digits verified (dots, dashes and slashes ignored); an existing subaccount's must match.",
  })
  taxId!: string;

  @Field(() => String, { nullable: true, description: "A quote the subaccount is created for; accepted, not used." })
  quoteId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "A widget session the subaccount is created in; accepted, not used.",
  })
  sessionId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "The company's name, at most 200 characters; accepted, not used.",
  })
  companyName?: string | null;

  @Field(() => String, { nullable: true, description: "The company's start date; accepted, not used." })
  startDate?: string | null;

  @Field(() => String, { nullable: true, description: "The company's CNPJ; accepted, not used (taxId decides)." })
  cnpj?: string | null;
}

@InputType({ description: "Level 1 KYC of an individual subaccount: handed to the provider, never stored here." })
export class SubmitBrazilKycInput {
  @Field(() => ID, { description: "The subject's individual subaccount (createBrazilSubaccount)." })
  subAccountId!: string;

  @Field({ description: "The person's full name, 1 to 200 characters once trimmed." })
  fullName!: string;

  @Field({ description: "Date of birth, YYYY-MM-DD." })
  dateOfBirth!: string;

  @Field({ description: "The CPF; it must be the subaccount's (dots and dashes ignored)." })
  taxIdNumber!: string;

  @Field({ description: "The country that issued the tax id, at most 60 characters." })
  countryOfTaxId!: string;

  @Field({ description: "The person's email address." })
  email!: string;

  @Field({ description: "Street and number, at most 200 characters." })
  streetAddress!: string;

  @Field({ description: "At most 100 characters." })
  city!: string;

  @Field({ description: "The state, at most 100 characters." })
  state!: string;

  @Field({ description: "The postal code, at most 20 characters." })
  zipCode!: string;

  @Field({ description: "The country of residence, at most 60 characters." })
  country!: string;

  @Field({ description: "The uploaded identity document's id, 1 to 200 characters." })
  uploadedDocumentId!: string;

  @Field({ description: "The uploaded selfie's id, 1 to 200 characters." })
  uploadedSelfieId!: string;
}

@InputType({
  description: "A KYC share token to import: a secret, handed to the provider only (never stored, logged or returned).",
})
export class ImportBrazilKycTokenInput {
  @Field({ description: "The opaque share token, 1 to 1024 UTF-8 bytes." })
  importToken!: string;

  @Field({ description: "Must be true: the subject consented to sharing its verification." })
  consentAttested!: boolean;
}

/** REST's document types: the GraphQL names cannot hold their hyphens (DRIVERS_LICENSE is DRIVERS-LICENSE). */
const BrazilDocumentTypeEnum = Object.fromEntries(BRAZIL_DOCUMENT_TYPES.map((type) => [type.replace(/-/g, "_"), type]));
registerGraphQLEnum(BrazilDocumentTypeEnum, {
  name: "BrazilDocumentType",
  description: "A document uploaded for BR KYC or KYB (REST spells the underscores as hyphens).",
  valuesConfig: {
    ID: { description: "A national identity card." },
    DRIVERS_LICENSE: { description: "A driver's license." },
    PASSPORT: { description: "A passport (KYB documents only)." },
    RESIDENCE_PERMIT: { description: "A residence permit (KYB documents only)." },
    SELFIE: { description: "A photo of the person." },
    SELFIE_FROM_LIVENESS: { description: "A photo of the person taken by the liveness check." },
    CERTIFICATE_OF_INCORPORATION: { description: "The company's certificate of incorporation (KYB)." },
    COMPANY_TAX_IDENTIFICATION_DOCUMENT: { description: "The company's tax registration (KYB)." },
  },
});

/** The identity documents level 1 KYC takes (no passport, as REST's getUploadUrls). */
const BrazilIdentityDocumentTypeEnum = { ID: "ID", DRIVERS_LICENSE: "DRIVERS-LICENSE" } as const;
registerGraphQLEnum(BrazilIdentityDocumentTypeEnum, {
  name: "BrazilIdentityDocumentType",
  description: "An identity document for BR level 1 KYC (REST spells DRIVERS_LICENSE as DRIVERS-LICENSE).",
  valuesConfig: {
    ID: { description: "A national identity card." },
    DRIVERS_LICENSE: { description: "A driver's license." },
  },
});

const DocumentUploadStateEnum = enumOf(SIDE_STATES);
registerGraphQLEnum(DocumentUploadStateEnum, {
  name: "DocumentUploadState",
  description: "Whether a side's file arrived at its upload URL.",
  valuesConfig: {
    PENDING: { description: "Not yet: the URL still takes it." },
    UPLOADED: { description: "Stored." },
    EXPIRED: { description: "The URL lapsed before the file came: create the document again." },
    MISSING: { description: "It arrived but is no longer stored: create the document again." },
  },
});

@ObjectType({
  description:
    "A document opened for upload: PUT each side's file (its bytes, under its Content-Type) to its URL, without a credential; each URL takes one file within an hour.",
})
export class BrazilDocumentUpload {
  @Field(() => ID, { description: "The document: what submitBrazilKyc and brazilKybDocument name." })
  documentId!: string;

  @Field({ description: "Where the front's file goes (the only side of a one-sided document)." })
  frontUploadUrl!: string;

  @Field(() => String, { nullable: true, description: "Where the back's file goes; null for a one-sided document." })
  backUploadUrl!: string | null;

  @Field(() => String, { nullable: true, description: "A selfie's liveness check page; null for other documents." })
  livenessUrl!: string | null;

  @Field(() => String, {
    nullable: true,
    description: "The token the liveness check's SDK validates its session with; null for other documents.",
  })
  livenessValidationToken!: string | null;
}

@ObjectType({ description: "The outcome of requestBrazilKycUploads: the uploads level 1 KYC names." })
export class RequestBrazilKycUploadsPayload {
  @Field(() => BrazilDocumentUpload, { description: "The identity document (submitBrazilKyc's uploadedDocumentId)." })
  identityDocument!: BrazilDocumentUpload;

  @Field(() => BrazilDocumentUpload, { description: "The selfie (submitBrazilKyc's uploadedSelfieId)." })
  selfie!: BrazilDocumentUpload;
}

@ObjectType({ description: "A KYB document of a company subaccount, and whether its files arrived." })
export class BrazilKybDocument {
  @Field(() => ID, { description: "The document." })
  documentId!: string;

  @Field(() => BrazilDocumentTypeEnum, { description: "What document it is." })
  documentType!: string;

  @Field(() => DocumentUploadStateEnum, { description: "The front's file (the only side of a one-sided document)." })
  front!: string;

  @Field(() => DocumentUploadStateEnum, { nullable: true, description: "The back's file; null for a one-sided one." })
  back!: string | null;

  @Field({ description: "True once every side's file is stored." })
  ready!: boolean;
}

@InputType({ description: "The identity document level 1 KYC of an individual subaccount will name, with a selfie." })
export class RequestBrazilKycUploadsInput {
  @Field({ description: "The individual subaccount's CPF (formatting ignored)." })
  taxId!: string;

  @Field(() => BrazilIdentityDocumentTypeEnum, { description: "The identity document's type." })
  documentType!: string;

  @Field(() => Boolean, { nullable: true, description: "True when its back is uploaded too; false when left out." })
  isDoubleSided?: boolean | null;
}

@InputType({ description: "A document to upload for a company subaccount's KYB." })
export class CreateBrazilKybDocumentInput {
  @Field(() => BrazilDocumentTypeEnum, { description: "What document it is." })
  documentType!: string;

  @Field(() => Boolean, {
    nullable: true,
    description:
      "True when its back is uploaded too (ID, DRIVERS_LICENSE, RESIDENCE_PERMIT only); false when left out.",
  })
  isDoubleSided?: boolean | null;
}

/** A field's allowed values, for its description: they are REST's and the GraphQL names cannot hold them all. */
const ControlRoleEnum = namedEnumOf(CONTROL_ROLES, (role) => role.replace(/ /g, "_").toUpperCase());
registerGraphQLEnum(ControlRoleEnum, {
  name: "BrazilControlRole",
  description: "A beneficial owner's role with control of the company (REST spells VICE_PRESIDENT as Vice President).",
  valuesConfig: restSpellingsOf(ControlRoleEnum),
});

const AccountOpeningReasonEnum = enumOf(ACCOUNT_OPENING_REASONS);
registerGraphQLEnum(AccountOpeningReasonEnum, {
  name: "BrazilAccountOpeningReason",
  description: "Why a company opens its account, as REST spells it in lowercase.",
  valuesConfig: restSpellingsOf(AccountOpeningReasonEnum),
});

const SourceOfFundsEnum = enumOf(SOURCES_OF_FUNDS);
registerGraphQLEnum(SourceOfFundsEnum, {
  name: "BrazilSourceOfFunds",
  description: "Where a company's funds come from, as REST spells it in lowercase.",
  valuesConfig: restSpellingsOf(SourceOfFundsEnum),
});

// GraphQL names cannot start with a digit nor hold "-" or "+": 1-10 is EMPLOYEES_1_TO_10, 1001+ EMPLOYEES_1001_OR_MORE.
const EmployeeCountEnum = namedEnumOf(
  EMPLOYEE_COUNTS,
  (count) => `EMPLOYEES_${count.replace("-", "_TO_").replace("+", "_OR_MORE")}`,
);
registerGraphQLEnum(EmployeeCountEnum, {
  name: "BrazilEmployeeCount",
  description: "How many people a company employs (REST: 1-10, 11-50, ..., 1001+).",
  valuesConfig: restSpellingsOf(EmployeeCountEnum),
});

// 100k_to_1m is FROM_100K_TO_1M: a GraphQL name cannot start with a digit.
const AnnualRevenueEnum = namedEnumOf(ANNUAL_REVENUES_USD, (revenue) =>
  /^\d/.test(revenue) ? `FROM_${revenue.toUpperCase()}` : revenue.toUpperCase(),
);
registerGraphQLEnum(AnnualRevenueEnum, {
  name: "BrazilAnnualRevenue",
  description: "A company's yearly revenue in US dollars (REST: less_than_100k, 100k_to_1m, ..., more_than_100m).",
  valuesConfig: restSpellingsOf(AnnualRevenueEnum),
});

@InputType({
  description:
    "An ultimate beneficial owner of a company subaccount: the person's data goes to the provider and is not stored here.",
})
export class CreateBrazilKybBeneficialOwnerInput {
  @Field({ description: "The person's full name, 1 to 200 characters once trimmed." })
  fullName!: string;

  @Field({ description: "Date of birth, YYYY-MM-DD." })
  dateOfBirth!: string;

  @Field({ description: "The country that issued the tax id, at most 60 characters." })
  countryOfTaxId!: string;

  @Field({ description: "The person's tax id, 1 to 40 characters once trimmed." })
  taxIdNumber!: string;

  @Field({ description: "The share of the company the person owns, in percent (e.g. 25 or 12.5), at most 100." })
  percentageOfOwnership!: string;

  @Field(() => ControlRoleEnum, { nullable: true, description: "The person's role with control of the company." })
  hasControl?: string | null;

  @Field(() => String, { nullable: true, description: "The person's email address." })
  email?: string | null;

  @Field(() => String, { nullable: true, description: "The person's phone number, at most 40 characters." })
  phone?: string | null;

  @Field(() => ID, {
    description:
      "A KYB document of the subaccount identifying the person (ID, DRIVERS_LICENSE, PASSPORT or RESIDENCE_PERMIT) whose files arrived; it identifies no other owner.",
  })
  uploadedIdentificationId!: string;

  @Field(() => ID, {
    nullable: true,
    description: "A KYB document of the subaccount (SELFIE or SELFIE_FROM_LIVENESS) whose file arrived.",
  })
  uploadedSelfieId?: string | null;

  @Field({ description: "The country that issued the identity document, at most 60 characters." })
  documentCountry!: string;

  @Field({ description: "Street and number, at most 200 characters." })
  streetLine1!: string;

  @Field(() => String, { nullable: true, description: "At most 200 characters." })
  streetLine2?: string | null;

  @Field(() => String, { nullable: true, description: "At most 200 characters." })
  streetLine3?: string | null;

  @Field({ description: "At most 100 characters." })
  city!: string;

  @Field({ description: "The state, at most 100 characters." })
  state!: string;

  @Field({ description: "The postal code, at most 20 characters." })
  zipCode!: string;

  @Field({ description: "The country of residence, at most 60 characters." })
  country!: string;
}

@ObjectType({ description: "The outcome of createBrazilKybBeneficialOwner." })
export class CreateBrazilKybBeneficialOwnerPayload {
  @Field(() => ID, { description: "The beneficial owner, which submitBrazilKyb names in uboIds." })
  beneficialOwnerId!: string;
}

@InputType({
  description: "Level 1 KYB of a company subaccount: the company's data goes to the provider and is not stored here.",
})
export class SubmitBrazilKybInput {
  @Field(() => [ID], {
    description: "1 to 50 beneficial owners of the subaccount (createBrazilKybBeneficialOwner), each once.",
  })
  uboIds!: string[];

  @Field({ description: "The company's legal name, 1 to 200 characters once trimmed." })
  companyLegalName!: string;

  @Field({ description: "The company's registration number, 1 to 40 characters once trimmed." })
  companyRegistrationNumber!: string;

  @Field({ description: "The CNPJ; it must be the subaccount's (dots, dashes and slashes ignored)." })
  taxIdentificationNumberTin!: string;

  @Field({ description: "What the company does, 1 to 1000 characters once trimmed." })
  businessActivityDescription!: string;

  @Field(() => AccountOpeningReasonEnum, { description: "Why the account is opened." })
  reasonForAccountOpening!: string;

  @Field(() => SourceOfFundsEnum, { description: "Where the company's funds come from." })
  sourceOfFundsAndIncome!: string;

  @Field(() => EmployeeCountEnum, { description: "How many people the company employs." })
  numberOfEmployees!: string;

  @Field(() => AnnualRevenueEnum, { description: "The company's yearly revenue in US dollars." })
  estimatedAnnualRevenueUsd!: string;

  @Field(() => DecimalScalar, { description: "The expected monthly volume in whole US dollars, above 0." })
  estimatedMonthlyVolumeUsd!: string;

  @Field({ description: "The country where the company is resident for tax, at most 60 characters." })
  countryTaxResidence!: string;

  @Field(() => String, { nullable: true, description: "Its subdivision (state), at most 100 characters." })
  countrySubdivisionTaxResidence?: string | null;

  @Field({ description: "The company's street and number, at most 200 characters." })
  companyStreetLine1!: string;

  @Field(() => String, { nullable: true, description: "At most 200 characters." })
  companyStreetLine2?: string | null;

  @Field(() => String, { nullable: true, description: "At most 200 characters." })
  companyStreetLine3?: string | null;

  @Field({ description: "At most 100 characters." })
  companyCity!: string;

  @Field({ description: "The state, at most 100 characters." })
  companyState!: string;

  @Field({ description: "The postal code, at most 20 characters." })
  companyZipCode!: string;

  @Field({ description: "The company's country, at most 60 characters." })
  companyCountry!: string;

  @Field(() => ID, {
    description: "A KYB document of the subaccount (CERTIFICATE_OF_INCORPORATION) whose file arrived.",
  })
  certificateOfIncorporationDocumentId!: string;

  @Field(() => ID, {
    description: "A KYB document of the subaccount (COMPANY_TAX_IDENTIFICATION_DOCUMENT) whose file arrived.",
  })
  taxIdentificationDocumentId!: string;

  @Field(() => String, { nullable: true, description: "The company's email Pix key." })
  emailPixKey?: string | null;

  @Field(() => String, { nullable: true, description: "The company's website (a URL)." })
  website?: string | null;

  @Field(() => String, { nullable: true, description: "The company's social media page (a URL)." })
  socialMedia?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: "True asks the sandbox provider to reject the attempt; live providers ignore it.",
  })
  sandboxReject?: boolean | null;
}

@ObjectType({ description: "The outcome of submitBrazilKyb." })
export class SubmitBrazilKybPayload {
  @Field(() => ID, { description: "The KYB attempt the submission opened, which brazilKybAttempt reads." })
  attemptId!: string;
}
