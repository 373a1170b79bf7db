import { z } from "zod";
import {
  createSubaccountInput,
  importTokenInput,
  newKycInput,
  uploadUrlsInput,
} from "../../onboarding/brazil-subaccount-types.js";
import { named } from "../../output.js";
import { CUSTOMER_TYPES } from "../../reference-data/corridors.js";
import { inputType } from "./input-type.js";

/*
 * Brazilian customers (subaccounts) and their KYC/KYB: the operations REST serves under /v1/brl (and its
 * legacy alias /v1/brla), under the project's names (KYB's own in brazil-kyb.ts). Inputs keep the operations'
 * field names.
 */

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

export const RequestBrazilKycUploadsInput = inputType("RequestBrazilKycUploadsInput", uploadUrlsInput, {
  description: "The identity document level 1 KYC of an individual subaccount will name, with a selfie.",
});
