import { Field, ID, InputType } from "type-graphql";
import {
  ACCOUNT_OPENING_REASONS,
  ANNUAL_REVENUES_USD,
  BRAZIL_DOCUMENT_TYPES,
  beneficialOwnerView,
  CONTROL_ROLES,
  EMPLOYEE_COUNTS,
  kybAttemptView,
  kybDocumentView,
  SOURCES_OF_FUNDS,
  startedKybView,
  submittedKybView,
} from "../../onboarding/brazil-kyb-types.js";
import { SIDE_STATES } from "../../uploads/service.js";
import { enumOf, namedEnumOf, restSpellingsOf } from "./enums.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";
import { DecimalScalar } from "./scalars.js";

/* Level 1 KYB of Brazilian company subaccounts: the operations REST serves under /v1/brl/kyb. */

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

export const StartBrazilKybPayload = outputType(startedKybView);
export const BrazilKybAttempt = outputType(kybAttemptView);
export const BrazilKybDocument = outputType(kybDocumentView);
export const CreateBrazilKybBeneficialOwnerPayload = outputType(beneficialOwnerView);
export const SubmitBrazilKybPayload = outputType(submittedKybView);
