import { idempotencyKey } from "../../idempotency/service.js";
import { BRAZIL_CUSTOMER_OPERATIONS } from "../../operations/brazil-customers.js";
import { operationField, operationResolver } from "../operation-field.js";
import {
  CreateBrazilSubaccountInput,
  ImportBrazilKycTokenInput,
  RequestBrazilKycUploadsInput,
  SubmitBrazilKycInput,
} from "../types/brazil-customers.js";
import {
  CreateBrazilKybBeneficialOwnerInput,
  CreateBrazilKybDocumentInput,
  SubmitBrazilKybInput,
} from "../types/brazil-kyb.js";
import { RampDirectionEnum } from "../types/reference-data.js";
import { DecimalScalar } from "../types/scalars.js";
import { initialKycAttemptInput, initialKycAttemptView } from "../../onboarding/kyc-attempts.js";
import { inputType } from "../types/input-type.js";
import { documentUploadView } from "../../onboarding/brazil-subaccount-types.js";

const BR = BRAZIL_CUSTOMER_OPERATIONS;

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
