import { Field, InputType } from "type-graphql";
import {
  BRAZIL_IDENTITY_STATUSES,
  BRAZIL_VERIFICATION_PROGRESS,
  BRAZIL_VERIFICATION_RESULTS,
  createdSubaccountView,
  importedTokenView,
  importTokenInput,
  kycStatusView,
  kycUploadsView,
  newKycInput,
  submittedKycView,
  uploadUrlsInput,
  userView,
} from "../../onboarding/brazil-subaccount-types.js";
import { enumOf, namedEnumOf } from "./enums.js";
import { CustomerTypeEnum } from "./managed-profiles.js";
import { inputType } from "./input-type.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";

/*
 * Brazilian customers (subaccounts) and their KYC/KYB: the operations REST serves under /v1/brl (and its
 * legacy alias /v1/brla), under the project's names (KYB's own in brazil-kyb.ts). Inputs keep the operations'
 * field names.
 */

registerGraphQLEnum(enumOf(BRAZIL_VERIFICATION_PROGRESS), {
  name: "BrazilVerificationProgress",
  description: "How far a BR KYC or KYB attempt is, as REST's status spells it.",
  valuesConfig: {
    PENDING: { description: "The subaccount exists; nothing was submitted." },
    PROCESSING: { description: "Submitted and awaiting the provider's decision." },
    COMPLETED: { description: "Decided: the result says how." },
  },
});

registerGraphQLEnum(enumOf(BRAZIL_VERIFICATION_RESULTS), {
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
registerGraphQLEnum(
  namedEnumOf(BRAZIL_IDENTITY_STATUSES, (status) => status.replace("-", "_")),
  {
    name: "BrazilIdentityStatus",
    description: "Whether the subaccount's holder is identified (REST spells NOT_IDENTIFIED as NOT-IDENTIFIED).",
    valuesConfig: {
      NOT_IDENTIFIED: { description: "KYC (KYB) is not approved yet, or was rejected." },
      CONFIRMED: { description: "KYC (KYB) is approved: level 1." },
    },
  },
);

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

export const SubmitBrazilKycInput = inputType("SubmitBrazilKycInput", newKycInput, {
  description: "Level 1 KYC of an individual subaccount: handed to the provider, never stored here.",
});

export const ImportBrazilKycTokenInput = inputType("ImportBrazilKycTokenInput", importTokenInput, {
  description: "A KYC share token to import: a secret, handed to the provider only (never stored, logged or returned).",
  fields: ["importToken", "consentAttested"], // the idempotency key is an argument of its own
});

/** The identity documents level 1 KYC takes (no passport, as REST's getUploadUrls). */
registerGraphQLEnum({ ID: "ID", DRIVERS_LICENSE: "DRIVERS-LICENSE" } as const, {
  name: "BrazilIdentityDocumentType",
  description: "An identity document for BR level 1 KYC (REST spells DRIVERS_LICENSE as DRIVERS-LICENSE).",
  valuesConfig: {
    ID: { description: "A national identity card." },
    DRIVERS_LICENSE: { description: "A driver's license." },
  },
});

export const RequestBrazilKycUploadsInput = inputType("RequestBrazilKycUploadsInput", uploadUrlsInput, {
  description: "The identity document level 1 KYC of an individual subaccount will name, with a selfie.",
});

export const CreateBrazilSubaccountPayload = outputType(createdSubaccountView);
export const SubmitBrazilKycPayload = outputType(submittedKycView);
export const BrazilKycStatus = outputType(kycStatusView);
export const BrazilUser = outputType(userView);
export const ImportBrazilKycTokenPayload = outputType(importedTokenView);
export const RequestBrazilKycUploadsPayload = outputType(kycUploadsView);
