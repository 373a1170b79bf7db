import { Field, Float, InputType, Int } from "type-graphql";
import {
  DOMESTIC_STATUSES,
  domesticCaseView,
  KYB_COUNTRIES,
  KYB_FILE_TYPES,
  kycInformation,
  kybSubmissionView,
  RELATED_PERSON_FILE_TYPES,
  retriedCaseView,
} from "../../kyc/domestic.js";
import { DOMESTIC_COUNTRIES } from "../../reference-data/domestic.js";
import { inputType } from "./input-type.js";
import { enumOf, screamingEnumOf } from "./enums.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";

registerGraphQLEnum(enumOf(DOMESTIC_COUNTRIES), {
  name: "DomesticCountry",
  description: "The corridors whose customers and KYC/KYB go through the domestic provider (REST: /v1/domestic).",
  valuesConfig: {
    AR: { description: "Argentina; a managed child here only as an individual." },
    CO: { description: "Colombia." },
    MX: { description: "Mexico." },
    US: { description: "United States." },
  },
});

export const DomesticKybCountryEnum = registerGraphQLEnum(enumOf(KYB_COUNTRIES), {
  name: "DomesticKybCountry",
  description: "The domestic corridors that take a business's KYB information through the API.",
  valuesConfig: {
    CO: { description: "Colombia." },
    MX: { description: "Mexico." },
  },
});

registerGraphQLEnum(enumOf(DOMESTIC_STATUSES), {
  name: "DomesticKycStatus",
  description: "Where a domestic customer's KYC (KYB) stands, spelled as the REST status routes spell it.",
  valuesConfig: {
    CONSULTED: { description: "The customer exists; nothing was submitted or opened yet." },
    LINK_OPENED: { description: "The hosted flow was opened and is not finished." },
    USER_COMPLETED: { description: "Information was submitted through the API and is not sent for review yet." },
    VERIFYING: { description: "Finished and awaiting the provider's decision." },
    FAILED: { description: "The provider did not approve it (why stays with support); it can be retried." },
    SUCCESS: { description: "The provider approved it." },
    UPDATE_REQUIRED: { description: "Listed by the REST status routes; no case here reaches it." },
  },
});

registerGraphQLEnum(enumOf(["CC", "CE"] as const), {
  name: "ColombianDocumentType",
  description: "An identity document in Colombia.",
  valuesConfig: {
    CC: { description: "Cédula de ciudadanía: a citizen's identity card." },
    CE: { description: "Cédula de extranjería: a foreign resident's identity card." },
  },
});

registerGraphQLEnum(enumOf(["DNI"] as const), {
  name: "ArgentineDocumentType",
  description: "An identity document in Argentina.",
  valuesConfig: { DNI: { description: "Documento Nacional de Identidad: the national identity card." } },
});

export const DomesticCustomer = outputType(domesticCaseView);
export const DomesticKybSubmission = outputType(kybSubmissionView);

export const RetryDomesticKycPayload = outputType(retriedCaseView);

// The country is an argument of its own.
export const DomesticKycInformationInput = inputType(
  "DomesticKycInformationInput",
  kycInformation.omit({ country: true }),
  {
    description:
      "An individual's KYC information, handed to the provider and not stored here; beyond the names, the birth date and the document number, what each country asks for is optional.",
  },
);

@InputType({
  description:
    "A person a business declares with its KYB information (a legal representative, an owner): handed to the provider, which gives the person an id; only the id is kept.",
})
export class DomesticKybRelatedPersonInput {
  @Field({ description: "Given name(s), 1 to 100 characters after trimming." })
  firstName!: string;

  @Field({ description: "Family name(s), 1 to 100 characters after trimming." })
  lastName!: string;

  @Field({ description: "The person's email address." })
  email!: string;

  @Field({ description: "The birth date, YYYY-MM-DD." })
  dateOfBirth!: string;

  @Field(() => [String], {
    description: "The person's nationalities: 1 to 10, each a two-letter ISO 3166-1 country code.",
  })
  nationalities!: string[];

  @Field(() => String, {
    nullable: true,
    description: "The identity document's number, 1 to 50 characters after trimming.",
  })
  documentNumber?: string | null;

  @Field(() => String, { nullable: true, description: "The person's Brazilian tax id (CPF), if any." })
  brazilianTaxId?: string | null;

  @Field(() => Boolean, { nullable: true, description: "Whether the person is politically exposed (PEP)." })
  politicallyExposed?: boolean | null;
}

registerGraphQLEnum(screamingEnumOf([...KYB_FILE_TYPES, ...RELATED_PERSON_FILE_TYPES]), {
  name: "DomesticKybFileType",
  description:
    "A file of a KYB submission, as REST's fileType spells it in camelCase (TAX_ID_DOCUMENT: taxIdDocument).",
  valuesConfig: {
    TAX_ID_DOCUMENT: { description: "The business's tax id document." },
    ARTICLES_INCORPORATION: { description: "The articles of incorporation." },
    PROOF_ADDRESS: { description: "A proof of the business's address." },
    SHAREHOLDER_REGISTRY: { description: "The shareholder registry." },
    BUSINESS_LICENSE: { description: "The business license." },
    UPLOAD_AML_POLICY: { description: "The business's anti-money-laundering policy." },
    DOC_FRONT: { description: "A related person's identity document, front." },
    DOC_BACK: { description: "A related person's identity document, back." },
  },
});

@InputType({ description: "A business's KYB information, handed to the provider and not stored here." })
export class DomesticKybInformationInput {
  @Field({ description: "The registered name, 1 to 100 characters after trimming." })
  businessName!: string;

  @Field({ description: "The business's tax id in its country, 1 to 50 characters after trimming." })
  taxId!: string;

  @Field(() => String, { nullable: true, description: "Street address (at most 200 characters)." })
  address?: string | null;

  @Field(() => String, { nullable: true, description: "City (at most 200 characters)." })
  city?: string | null;

  @Field(() => String, { nullable: true, description: "State or province (at most 200 characters)." })
  state?: string | null;

  @Field(() => String, { nullable: true, description: "Postal code (at most 200 characters)." })
  zipCode?: string | null;

  @Field(() => String, { nullable: true, description: "The business's website (at most 200 characters)." })
  website?: string | null;

  @Field(() => String, { nullable: true, description: "What the business does (at most 200 characters)." })
  businessActivities?: string | null;

  @Field(() => String, { nullable: true, description: "What the account will be used for (at most 200 characters)." })
  accountPurpose?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "Where the business's funds come from (at most 200 characters).",
  })
  sourceOfFunds?: string | null;

  @Field(() => [DomesticKybRelatedPersonInput], {
    nullable: true,
    description:
      "The business's legal representatives and owners (1 to 20); their documents are uploaded under the ids domesticKybSubmissions lists.",
  })
  relatedPersons?: DomesticKybRelatedPersonInput[] | null;

  @Field(() => String, {
    nullable: true,
    description: "The business's wallet addresses, or N/A (at most 200 characters).",
  })
  walletAddresses?: string | null;

  @Field(() => Boolean, { nullable: true, description: "Whether the business transmits its customers' funds." })
  transmitsCustomerFunds?: boolean | null;

  @Field(() => Boolean, {
    nullable: true,
    description: "Whether the business screens its customers (required when it transmits their funds).",
  })
  conductsComplianceScreening?: boolean | null;

  @Field(() => String, {
    nullable: true,
    description: "How it screens them (required when it does; at most 200 characters).",
  })
  complianceScreeningDescription?: string | null;

  @Field(() => Boolean, { nullable: true, description: "Whether the business operates in sanctioned countries." })
  operatesInSanctionedCountries?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: "Whether a regulator supervises the business." })
  isRegulatedBusiness?: boolean | null;

  @Field(() => Float, { nullable: true, description: "The volume it expects a month, in US dollars (0 or more)." })
  expectedMonthlyVolumeUsd?: number | null;

  @Field(() => Int, { nullable: true, description: "The transactions it expects a month (0 or more)." })
  expectedMonthlyTransactions?: number | null;
}
