import { z } from "zod";
import { idempotencyKey } from "../../idempotency/service.js";
import {
  createSubaccountInput,
  documentUploadView,
  importTokenInput,
  newKycInput,
  uploadUrlsInput,
} from "../../onboarding/brazil-subaccount-types.js";
import { kybDocumentInput, kybLevelOneInput, kybUboInput } from "../../onboarding/brazil-kyb-types.js";
import { initialKycAttemptInput, initialKycAttemptView } from "../../onboarding/kyc-attempts.js";
import { BRAZIL_CUSTOMER_OPERATIONS } from "../../operations/brazil-customers.js";
import { named } from "../../output.js";
import { CUSTOMER_TYPES } from "../../reference-data/corridors.js";
import { operationField, operationResolver } from "../operation-field.js";
import { inputType } from "../types/input-type.js";
import { RampDirectionEnum } from "../types/ramps.js";
import { DecimalScalar } from "../types/scalars.js";

const BR = BRAZIL_CUSTOMER_OPERATIONS;

// GraphQL names the account type by its customer type (REST's INDIVIDUAL and COMPANY): the resolver maps it back.
const { accountType, ...subaccountFields } = createSubaccountInput.shape;
const CreateBrazilSubaccountInput = inputType(
  "CreateBrazilSubaccountInput",
  z.object({
    customerType: named("CustomerType", z.enum(CUSTOMER_TYPES)).describe(
      `INDIVIDUAL (KYC, a CPF) or BUSINESS (KYB, a CNPJ); REST names them ${accountType.options.join(" and ")}.`,
    ),
    ...subaccountFields,
  }),
  { description: "A BR subaccount: created, returned unchanged when it exists, or reopened when it was rejected." },
);

const SubmitBrazilKycInput = inputType("SubmitBrazilKycInput", newKycInput, {
  description: "Level 1 KYC of an individual subaccount: handed to the provider, never stored here.",
});

const ImportBrazilKycTokenInput = inputType("ImportBrazilKycTokenInput", importTokenInput, {
  description: "A KYC share token to import: a secret, handed to the provider only (never stored, logged or returned).",
  fields: ["importToken", "consentAttested"], // the idempotency key is an argument of its own
});

const RequestBrazilKycUploadsInput = inputType("RequestBrazilKycUploadsInput", uploadUrlsInput, {
  description: "The identity document level 1 KYC of an individual subaccount will name, with a selfie.",
});

// The subaccount is an argument of its own, in each of these.
const CreateBrazilKybDocumentInput = inputType(
  "CreateBrazilKybDocumentInput",
  kybDocumentInput.omit({ subAccountId: true }),
  {
    description: "A document to upload for a company subaccount's KYB.",
  },
);

const CreateBrazilKybBeneficialOwnerInput = inputType(
  "CreateBrazilKybBeneficialOwnerInput",
  kybUboInput.omit({ subAccountId: true }),
  {
    description:
      "An ultimate beneficial owner of a company subaccount: the person's data goes to the provider and is not stored here.",
  },
);

const SubmitBrazilKybInput = inputType("SubmitBrazilKybInput", kybLevelOneInput.omit({ subAccountId: true }), {
  description: "Level 1 KYB of a company subaccount: the company's data goes to the provider and is not stored here.",
});

const RecordBrazilKycAttemptInput = inputType("RecordBrazilKycAttemptInput", initialKycAttemptInput, {
  description:
    "The quote (and widget session) Brazilian KYC starts from, and the CPF or CNPJ given: only checked for form, never kept.",
});

/**
 * Brazilian customers (subaccounts) and their KYC/KYB, the same operations as REST's /v1/brl/* (its legacy
 * alias /v1/brla/* has no fields of its own). Changes pass the manager's BR policy for a child first.
 */
export const BrazilCustomersResolver = operationResolver("BrazilCustomersResolver", [
  operationField(BR.createSubaccount, {
    mutation: "createBrazilSubaccount",
    args: { input: { type: () => CreateBrazilSubaccountInput } },
    toInput: ({ input }) => {
      const { customerType, ...fields } = input as { customerType: string };
      return { ...fields, accountType: customerType === "business" ? "COMPANY" : "INDIVIDUAL" };
    },
  }),
  operationField(BR.newKyc, {
    mutation: "submitBrazilKyc",
    args: { input: { type: () => SubmitBrazilKycInput } },
  }),
  operationField(BR.kycStatus, {
    query: "brazilKycStatus",
    nullable: true,
  }),
  operationField(BR.user, {
    query: "brazilUser",
    nullable: true,
  }),
  operationField(BR.remainingLimit, {
    query: "brazilRemainingLimit",
    returns: () => DecimalScalar,
    args: { taxId: {}, direction: { type: () => RampDirectionEnum } },
    toResult: ({ remainingLimit }) => remainingLimit.toFixed(2),
  }),
  operationField(BR.startKyb, {
    mutation: "startBrazilKyb",
    description: "Starts the hosted level 1 KYB of a company subaccount; brazilKybAttempt follows it.",
  }),
  operationField(BR.kybAttemptStatus, {
    query: "brazilKybAttempt",
    nullable: true,
  }),
  operationField(BR.importToken, {
    mutation: "importBrazilKycToken",
    args: {
      idempotencyKey: {
        description:
          "1 to 128 visible ASCII characters (else IDEMPOTENCY_KEY_REQUIRED), as REST's Idempotency-Key header, with which it shares its keys: another input under a used key is IDEMPOTENCY_KEY_MISMATCH, one still running IDEMPOTENCY_KEY_IN_USE.",
      },
      input: { type: () => ImportBrazilKycTokenInput },
    },
    // The key is checked as REST checks the header, and refused after the corridor policy like it.
    check: ({ idempotencyKey: key }) => idempotencyKey(key as string),
  }),
  operationField(BR.recordKycAttempt, {
    mutation: "recordBrazilKycAttempt",
    payload: {
      kycAttempt: initialKycAttemptView.describe("The recorded attempt, or the first record of the same start."),
    },
    description:
      "Records that the subject started Brazilian KYC from a quote (and a widget session); recording it again answers the first record. OnboardingStatus.latestBrazilKycAttempt shows it.",
    args: { input: { type: () => RecordBrazilKycAttemptInput } },
  }),
  operationField(BR.uploadUrls, {
    mutation: "requestBrazilKycUploads",
    args: { input: { type: () => RequestBrazilKycUploadsInput } },
  }),
  operationField(BR.selfieUpload, {
    mutation: "requestBrazilSelfieUpload",
    payload: { selfieUpload: documentUploadView.describe("Where to PUT the selfie, and its liveness check.") },
    args: { taxId: { description: "The individual subaccount's CPF (formatting ignored)." } },
  }),
  operationField(BR.createKybDocument, {
    mutation: "createBrazilKybDocument",
    payload: { documentUpload: documentUploadView.describe("The opened document and where to PUT its files.") },
    description: "Opens the upload of a document for a company subaccount's KYB; brazilKybDocument follows its files.",
    args: { input: { type: () => CreateBrazilKybDocumentInput }, subAccountId: {} },
  }),
  operationField(BR.kybDocument, {
    query: "brazilKybDocument",
    nullable: true,
    args: { documentId: {}, subAccountId: {} },
  }),
  operationField(BR.createKybUbo, {
    mutation: "createBrazilKybBeneficialOwner",
    description:
      "Adds an ultimate beneficial owner to a company subaccount, identified by KYB documents of it whose files arrived; submitBrazilKyb names it.",
    args: { input: { type: () => CreateBrazilKybBeneficialOwnerInput }, subAccountId: {} },
  }),
  operationField(BR.submitKybApi, {
    mutation: "submitBrazilKyb",
    description:
      "Submits level 1 KYB of a company subaccount through the API: in review at once, decided after the provider's delay; brazilKybAttempt follows it.",
    args: { input: { type: () => SubmitBrazilKybInput }, subAccountId: {} },
  }),
]);
