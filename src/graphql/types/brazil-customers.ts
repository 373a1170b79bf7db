import { Field, ID, InputType } from "type-graphql";
import {
  BRAZIL_IDENTITY_STATUSES,
  BRAZIL_VERIFICATION_PROGRESS,
  BRAZIL_VERIFICATION_RESULTS,
  createdSubaccountView,
  importedTokenView,
  kycStatusView,
  kycUploadsView,
  submittedKycView,
  userView,
} from "../../onboarding/brazil-subaccount-types.js";
import { enumOf, namedEnumOf } from "./enums.js";
import { CustomerTypeEnum } from "./managed-profiles.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";

/*
 * Brazilian customers (subaccounts) and their KYC/KYB: the operations REST serves under /v1/brl (and its
 * legacy alias /v1/brla), under the project's names (KYB's own in brazil-kyb.ts). Inputs keep the operations'
 * field names.
 */

const BrazilVerificationProgressEnum = enumOf(BRAZIL_VERIFICATION_PROGRESS);
registerGraphQLEnum(BrazilVerificationProgressEnum, {
  name: "BrazilVerificationProgress",
  description: "How far a BR KYC or KYB attempt is, as REST's status spells it.",
  valuesConfig: {
    PENDING: { description: "The subaccount exists; nothing was submitted." },
    PROCESSING: { description: "Submitted and awaiting the provider's decision." },
    COMPLETED: { description: "Decided: the result says how." },
  },
});

const BrazilVerificationResultEnum = enumOf(BRAZIL_VERIFICATION_RESULTS);
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
const BrazilIdentityStatusEnum = namedEnumOf(BRAZIL_IDENTITY_STATUSES, (status) => status.replace("-", "_"));
registerGraphQLEnum(BrazilIdentityStatusEnum, {
  name: "BrazilIdentityStatus",
  description: "Whether the subaccount's holder is identified (REST spells NOT_IDENTIFIED as NOT-IDENTIFIED).",
  valuesConfig: {
    NOT_IDENTIFIED: { description: "KYC (KYB) is not approved yet, or was rejected." },
    CONFIRMED: { description: "KYC (KYB) is approved: level 1." },
  },
});

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

@InputType({ description: "The identity document level 1 KYC of an individual subaccount will name, with a selfie." })
export class RequestBrazilKycUploadsInput {
  @Field({ description: "The individual subaccount's CPF (formatting ignored)." })
  taxId!: string;

  @Field(() => BrazilIdentityDocumentTypeEnum, { description: "The identity document's type." })
  documentType!: string;

  @Field(() => Boolean, { nullable: true, description: "True when its back is uploaded too; false when left out." })
  isDoubleSided?: boolean | null;
}

export const CreateBrazilSubaccountPayload = outputType(createdSubaccountView);
export const SubmitBrazilKycPayload = outputType(submittedKycView);
export const BrazilKycStatus = outputType(kycStatusView);
export const BrazilUser = outputType(userView);
export const ImportBrazilKycTokenPayload = outputType(importedTokenView);
export const RequestBrazilKycUploadsPayload = outputType(kycUploadsView);
