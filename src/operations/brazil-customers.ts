import {
  beneficialOwnerView,
  kybAttemptInput,
  kybAttemptView,
  kybDocumentInput,
  kybDocumentReadInput,
  kybDocumentView,
  kybLevelOneInput,
  kybUboInput,
  startedKybView,
  startKybInput,
  submittedKybView,
} from "../onboarding/brazil-kyb-types.js";
import {
  createdSubaccountView,
  createSubaccountInput,
  documentUploadView,
  importedTokenView,
  importTokenInput,
  kycStatusView,
  kycUploadsView,
  newKycInput,
  optionalTaxIdInput,
  remainingLimitInput,
  remainingLimitView,
  submittedKycView,
  taxIdInput,
  uploadUrlsInput,
  userView,
} from "../onboarding/brazil-subaccount-types.js";
import { pixKeyInput, pixKeyType, pixKeyValidity } from "../kyc/pix-keys.js";
import { taxIdCustomerType } from "../kyc/tax-ids.js";
import { initialKycAttemptInput, initialKycAttemptView } from "../onboarding/kyc-attempts.js";
import type { CustomerType } from "../reference-data/corridors.js";
import { aliasedName, type PathAlias } from "../reference-data/domestic.js";
import { CUSTOMERS } from "./customers.js";
import { defineOperation, type Gate } from "./operation.js";

/** The policy for Brazil; the customer type from `customerTypeOf` (undefined: not known yet). */
const brazilPolicy = (customerTypeOf: (input: unknown) => CustomerType | undefined): Gate<void> => ({
  check: (app, acting, input) => app.delegation.authorizeCorridor(acting, "BR", customerTypeOf(input)),
});

/** Subaccounts and KYC/KYB in Brazil, under `/v1/brl` (no alias) or its legacy alias `/v1/brla`. */
function brazilOperations(alias?: Extract<PathAlias, "brla">) {
  const named = (name: string, summary: string) => aliasedName(name, summary, alias);
  return {
    createSubaccount: defineOperation({
      ...named(
        "createSubaccount",
        "Create the subject's BR subaccount, return the existing one unchanged, or reopen a rejected one for a new KYC",
      ),
      access: CUSTOMERS,
      gate: brazilPolicy((input) => {
        const { accountType } = (input ?? {}) as { accountType?: unknown };
        return accountType === "COMPANY" ? "business" : accountType === "INDIVIDUAL" ? "individual" : undefined;
      }),
      input: createSubaccountInput,
      output: createdSubaccountView,
      run: (app, acting, form) => app.brazilOnboarding.createSubaccount(acting, form),
    }),
    newKyc: defineOperation({
      ...named(
        "brNewKyc",
        "Submit level 1 KYC of an individual subaccount: in review at once, decided after the provider's delay",
      ),
      access: CUSTOMERS,
      gate: brazilPolicy(() => "individual"),
      input: newKycInput,
      output: submittedKycView,
      run: (app, acting, form) => app.brazilOnboarding.submitLevelOne(acting, form),
    }),
    kycStatus: defineOperation({
      ...named(
        "fetchSubaccountKycStatus",
        "Get the KYC (KYB) status of the subject's BR subaccount with this tax id; NOT_FOUND before anything was submitted",
      ),
      access: CUSTOMERS,
      input: taxIdInput,
      output: kycStatusView,
      run: (app, acting, input) => app.brazilOnboarding.kycStatus(acting, input),
    }),
    user: defineOperation({
      ...named(
        "getBrUser",
        "Get the subject's BR subaccount (by tax id, or its individual one before its company one); NOT_FOUND without one",
      ),
      access: CUSTOMERS,
      input: optionalTaxIdInput,
      output: userView,
      run: (app, acting, input) => app.brazilOnboarding.user(acting, input),
    }),
    remainingLimit: defineOperation({
      ...named(
        "getBrUserRemainingLimit",
        "Get what the subject's BR subaccount may still move this calendar month in a direction, in BRL: the monthly limit less completed ramps",
      ),
      access: CUSTOMERS,
      input: remainingLimitInput,
      output: remainingLimitView,
      run: (app, acting, input) => app.brazilOnboarding.remainingLimit(acting, input),
    }),
    startKyb: defineOperation({
      ...named("startBrKybLevel1Hosted", "Start hosted level 1 KYB"),
      access: CUSTOMERS,
      gate: brazilPolicy(() => "business"),
      input: startKybInput,
      output: startedKybView,
      run: (app, acting, input) => app.brazilOnboarding.startKyb(acting, input),
    }),
    importToken: defineOperation({
      ...named(
        "importBrKycToken",
        "Import a KYC share token into the subject's individual subaccount; the same idempotency key and input answer the first outcome again",
      ),
      // A managed child's own credential is refused; its manager acts for it through the selector (CONTRACT.md).
      access: { requires: ["BR_KYC_IMPORT"], delegation: "SELECTOR_ONLY" },
      gate: brazilPolicy(() => "individual"),
      input: importTokenInput,
      output: importedTokenView,
      run: (app, acting, input) => app.brazilOnboarding.importToken(acting, input),
    }),
    recordKycAttempt: defineOperation({
      ...named("recordInitialBrKycAttempt", "Record that KYC was started from a quote"),
      access: CUSTOMERS,
      // Whose KYC it is follows from the tax id: a CPF an individual's, a CNPJ a company's.
      gate: brazilPolicy((input) => {
        const { taxId } = (input ?? {}) as { taxId?: unknown };
        return typeof taxId === "string" ? taxIdCustomerType(taxId) : undefined;
      }),
      input: initialKycAttemptInput,
      output: initialKycAttemptView,
      run: (app, acting, input) => app.initialKycAttempts.record(acting, input),
    }),
    validatePixKey: defineOperation({
      ...named(
        "brValidatePixKey",
        "Check whether a Pix key is well formed: a CPF or CNPJ with valid check digits, an email, a +55 phone or a random key",
      ),
      access: CUSTOMERS,
      input: pixKeyInput,
      output: pixKeyValidity,
      run: (_app, _acting, { pixKey }) => ({ valid: pixKeyType(pixKey) !== undefined }),
    }),
    kybAttemptStatus: defineOperation({
      ...named(
        "getBrKybAttemptStatus",
        "Get a KYB attempt of one of the subject's company subaccounts; NOT_FOUND for any other id",
      ),
      access: CUSTOMERS,
      input: kybAttemptInput,
      output: kybAttemptView,
      run: (app, acting, input) => app.brazilOnboarding.kybAttemptStatus(acting, input),
    }),
    uploadUrls: defineOperation({
      ...named(
        "brGetUploadUrls",
        "Open the uploads level 1 KYC of an individual subaccount names: its identity document and a selfie, each file PUT to its URL",
      ),
      access: CUSTOMERS,
      gate: brazilPolicy(() => "individual"),
      input: uploadUrlsInput,
      output: kycUploadsView,
      run: (app, acting, input) => app.brazilOnboarding.uploadUrls(acting, input),
    }),
    selfieUpload: defineOperation({
      ...named("brGetSelfieLivenessUrl", "Open a selfie upload of an individual subaccount, with its liveness check"),
      access: CUSTOMERS,
      // It opens an upload: a change, under the policy, though the reference makes it a GET.
      gate: brazilPolicy(() => "individual"),
      input: taxIdInput,
      output: documentUploadView,
      run: (app, acting, input) => app.brazilOnboarding.selfieUpload(acting, input),
    }),
    createKybDocument: defineOperation({
      ...named("createBrKybDocument", "Create a KYB document and its upload URLs"),
      access: CUSTOMERS,
      gate: brazilPolicy(() => "business"),
      input: kybDocumentInput,
      output: documentUploadView,
      run: (app, acting, input) => app.brazilOnboarding.createKybDocument(acting, input),
    }),
    kybDocument: defineOperation({
      ...named(
        "getBrKybDocument",
        "Get a KYB document of one of the subject's company subaccounts and whether its files arrived; NOT_FOUND for any other",
      ),
      access: CUSTOMERS,
      input: kybDocumentReadInput,
      output: kybDocumentView,
      run: (app, acting, input) => app.brazilOnboarding.kybDocument(acting, input),
    }),
    createKybUbo: defineOperation({
      ...named("createBrKybUbo", "Add an ultimate beneficial owner to a company subaccount"),
      access: CUSTOMERS,
      gate: brazilPolicy(() => "business"),
      input: kybUboInput,
      output: beneficialOwnerView,
      run: (app, acting, input) => app.brazilOnboarding.addBeneficialOwner(acting, input),
    }),
    submitKybApi: defineOperation({
      ...named("submitBrKybLevel1Api", "Submit level 1 KYB data"),
      access: CUSTOMERS,
      gate: brazilPolicy(() => "business"),
      input: kybLevelOneInput,
      output: submittedKybView,
      run: (app, acting, input) => app.brazilOnboarding.submitKybLevelOne(acting, input),
    }),
  };
}

export const BRAZIL_CUSTOMER_OPERATIONS = brazilOperations();
export const BRLA_CUSTOMER_OPERATIONS = brazilOperations("brla");
