import { z } from "zod";
import {
  BRAZIL_IDENTITY_STATUSES,
  BRAZIL_VERIFICATION_PROGRESS,
  BRAZIL_VERIFICATION_RESULTS,
  createSubaccountInput,
  importTokenInput,
  newKycInput,
  uploadUrlsInput,
} from "../../onboarding/brazil-subaccount-types.js";
import { described, enumOf, namedEnumOf } from "./enums.js";
import { named } from "../../output.js";
import { CUSTOMER_TYPES } from "../../reference-data/corridors.js";
import { inputType } from "./input-type.js";
import { registerGraphQLEnum } from "./output-type.js";

/*
 * Brazilian customers (subaccounts) and their KYC/KYB: the operations REST serves under /v1/brl (and its
 * legacy alias /v1/brla), under the project's names (KYB's own in brazil-kyb.ts). Inputs keep the operations'
 * field names.
 */

registerGraphQLEnum(enumOf(BRAZIL_VERIFICATION_PROGRESS), {
  name: "BrazilVerificationProgress",
  description: "How far a BR KYC or KYB attempt is, as REST's status spells it.",
  valuesConfig: described({
    PENDING: "The subaccount exists; nothing was submitted.",
    PROCESSING: "Submitted and awaiting the provider's decision.",
    COMPLETED: "Decided: the result says how.",
  }),
});

registerGraphQLEnum(enumOf(BRAZIL_VERIFICATION_RESULTS), {
  name: "BrazilVerificationResult",
  description: "The provider's decision on a completed BR KYC or KYB attempt.",
  valuesConfig: described({
    APPROVED: "Verified: level 1, ramps may start in BR.",
    REJECTED: "Not verified; why stays with support. createBrazilSubaccount again reopens an individual's case.",
  }),
});

/** REST's identityStatus values: the GraphQL names cannot hold its hyphen. */
const BrazilIdentityStatusEnum = namedEnumOf(BRAZIL_IDENTITY_STATUSES, (status) => status.replace("-", "_"));
registerGraphQLEnum(BrazilIdentityStatusEnum, {
  name: "BrazilIdentityStatus",
  description: "Whether the subaccount's holder is identified (REST spells NOT_IDENTIFIED as NOT-IDENTIFIED).",
  valuesConfig: described({
    NOT_IDENTIFIED: "KYC (KYB) is not approved yet, or was rejected.",
    CONFIRMED: "KYC (KYB) is approved: level 1.",
  }),
});

// GraphQL names the account type by its customer type (REST's INDIVIDUAL and COMPANY): the resolver maps it back.
const { accountType, ...subaccountFields } = createSubaccountInput.shape;
export const CreateBrazilSubaccountInput = inputType(
  "CreateBrazilSubaccountInput",
  z.object({
    customerType: named("CustomerType", z.enum(CUSTOMER_TYPES)).describe(
      `INDIVIDUAL (KYC, a CPF) or BUSINESS (KYB, a CNPJ); REST names them ${accountType.options.join(" and ")}.`,
    ),
    ...subaccountFields,
  }),
  { description: "A BR subaccount: created, returned unchanged when it exists, or reopened when it was rejected." },
);

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
  valuesConfig: described({ ID: "A national identity card.", DRIVERS_LICENSE: "A driver's license." }),
});

export const RequestBrazilKycUploadsInput = inputType("RequestBrazilKycUploadsInput", uploadUrlsInput, {
  description: "The identity document level 1 KYC of an individual subaccount will name, with a selfie.",
});
