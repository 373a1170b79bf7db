import { z } from "zod";
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
import {
  customerInput,
  customerTypeInput,
  domesticCase,
  domesticCaseOf,
  domesticCaseView,
  hostedLinkView,
  retriedCaseView,
  kybCountryInput,
  kybInformation,
  kybSubmissions,
  kybSubmissionView,
  kycInformation,
  redirectLinkInput,
  sendSubmissionInput,
  submissionView,
  typedCase,
} from "../kyc/domestic.js";
import { kybFileInput, kycFileInput, relatedPersonFileInput } from "../kyc/domestic-files.js";
import { pixKeyInput, pixKeyType, pixKeyValidity } from "../kyc/pix-keys.js";
import { taxIdCustomerType } from "../kyc/tax-ids.js";
import { initialKycAttemptInput, initialKycAttemptView } from "../onboarding/kyc-attempts.js";
import type { CaseKey } from "../kyc/reads.js";
import { customerView } from "../kyc/types.js";
import type { CustomerType } from "../reference-data/corridors.js";
import { aliasedName, DOMESTIC_COUNTRIES, type DomesticCountry, type PathAlias } from "../reference-data/domestic.js";
import { defineOperation, gate, type Gate } from "./operation.js";

/** The subject's customers and KYC/KYB, or a managed child's (the selector works; changes pass the policy gates below). */
const CUSTOMERS = { requires: ["PROVIDER_ACCOUNTS"], delegation: "DELEGATED" } as const;

const individual = (corridor: DomesticCountry): CaseKey => ({ corridor, customerType: "individual" });
const business = (corridor: DomesticCountry): CaseKey => ({ corridor, customerType: "business" });

/*
 * Changes are corridor-bound: a managed child's manager must allow the corridor (and the child's customer
 * type must be the one the operation is for) before anything else about the input is read (specification
 * rule 5). The services check it again where they change a case; the policy is cached.
 */
const countryField = z.object({ country: z.enum(DOMESTIC_COUNTRIES) });
/** The policy for the input's country and a customer type the operation fixes. */
const domesticPolicy = (customerType: CustomerType) =>
  gate(countryField, (app, acting, { country }) => app.delegation.authorizeCorridor(acting, country, customerType));
/** The policy for the input's country and the customer its `type` names (individual unless BUSINESS). */
const typedPolicy = gate(countryField.extend({ type: z.unknown().optional() }), (app, acting, { country, type }) =>
  app.delegation.authorizeCorridor(acting, country, type === "BUSINESS" ? "business" : "individual"),
);
/** The policy for Brazil; the customer type from `customerTypeOf` (undefined: not known yet). */
const brazilPolicy = (customerTypeOf: (input: unknown) => CustomerType | undefined): Gate<void> => ({
  check: (app, acting, input) => app.delegation.authorizeCorridor(acting, "BR", customerTypeOf(input)),
});

/** The subject's customers in every corridor (at most one per corridor and customer type), oldest first. */
export const listCustomers = defineOperation({
  name: "listCustomers",
  summary:
    "List the subject's provider customers in every corridor (at most one per corridor and customer type), oldest first",
  access: CUSTOMERS,
  input: z.object({}),
  output: z.array(customerView),
  run: (app, acting) => app.kyc.customersOf(acting.subjectProfileId),
});

/** Where the subject last started Brazilian KYC from (GraphQL reads it with the onboarding status). */
export const getLatestBrazilKycAttempt = defineOperation({
  name: "getLatestBrazilKycAttempt",
  summary: "Get where the subject last started Brazilian KYC from",
  access: CUSTOMERS,
  input: z.object({}),
  output: initialKycAttemptView.nullable(),
  run: (app, acting) => app.initialKycAttempts.latest(acting),
});

/**
 * Customers and KYC/KYB of a domestic corridor (AR, CO, MX, US), under `/v1/domestic` (no alias) or a
 * country alias: the input's country is decided (a REST adapter takes it from the path, the query or the body).
 */
function domesticOperations(alias?: "ar" | "co" | "mx") {
  const named = (name: string, summary: string) => aliasedName(name, summary, alias);
  return {
    createIndividualCustomer: defineOperation({
      ...named("createDomesticIndividualCustomer", "Create the individual provider customer"),
      access: CUSTOMERS,
      gate: domesticPolicy("individual"),
      input: customerInput,
      output: domesticCaseView,
      run: async (app, acting, { country }) => domesticCase(await app.kyc.createCustomer(acting, individual(country))),
    }),
    createBusinessCustomer: defineOperation({
      ...named("createDomesticBusinessCustomer", "Create the business provider customer"),
      access: CUSTOMERS,
      gate: domesticPolicy("business"),
      input: customerInput,
      output: domesticCaseView,
      run: async (app, acting, { country }) => domesticCase(await app.kyc.createCustomer(acting, business(country))),
    }),
    submitKycInformation: defineOperation({
      ...named("submitDomesticKycInformation", "Submit an individual's KYC information"),
      access: CUSTOMERS,
      gate: domesticPolicy("individual"),
      input: kycInformation,
      output: submissionView,
      run: (app, acting, form) => app.kyc.submitInformation(acting, individual(form.country), form),
    }),
    sendKycSubmission: defineOperation({
      ...named("sendDomesticKycSubmission", "Send a KYC submission for review"),
      access: CUSTOMERS,
      gate: domesticPolicy("individual"),
      input: sendSubmissionInput,
      run: (app, acting, { country, submissionId }) =>
        app.kyc.sendSubmission(acting, individual(country), submissionId),
    }),
    submitKybInformation: defineOperation({
      ...named("submitDomesticKybInformation", "Submit a business's KYB information"),
      access: CUSTOMERS,
      gate: domesticPolicy("business"),
      input: kybInformation,
      output: submissionView,
      run: (app, acting, form) => app.kyc.submitInformation(acting, business(form.country), form),
    }),
    sendKybSubmission: defineOperation({
      ...named("sendDomesticKybSubmission", "Send a KYB submission for review"),
      access: CUSTOMERS,
      gate: domesticPolicy("business"),
      input: sendSubmissionInput,
      run: (app, acting, { country, submissionId }) => app.kyc.sendSubmission(acting, business(country), submissionId),
    }),
    kycRedirectLink: defineOperation({
      ...named("getDomesticKycRedirectLink", "Get a link to the provider's hosted KYC"),
      access: CUSTOMERS,
      gate: domesticPolicy("individual"),
      input: redirectLinkInput,
      output: hostedLinkView,
      run: (app, acting, { country }) => app.kyc.redirectLink(acting, individual(country)),
    }),
    kybRedirectLink: defineOperation({
      ...named("getDomesticKybRedirectLink", "Get a link to the provider's hosted KYB"),
      access: CUSTOMERS,
      gate: domesticPolicy("business"),
      input: redirectLinkInput,
      output: hostedLinkView,
      run: (app, acting, { country }) => app.kyc.redirectLink(acting, business(country)),
    }),
    redirectOpened: defineOperation({
      ...named("notifyDomesticKycRedirectOpened", "Report that the hosted KYC or KYB was opened"),
      access: CUSTOMERS,
      gate: typedPolicy,
      input: customerTypeInput,
      run: (app, acting, input) => app.kyc.redirectOpened(acting, typedCase(input)),
    }),
    redirectFinished: defineOperation({
      ...named("notifyDomesticKycRedirectFinished", "Report that the hosted KYC or KYB was finished"),
      access: CUSTOMERS,
      gate: typedPolicy,
      input: customerTypeInput,
      run: (app, acting, input) => app.kyc.redirectFinished(acting, typedCase(input)),
    }),
    retry: defineOperation({
      ...named("retryDomesticKyc", "Retry a failed KYC or KYB"),
      access: CUSTOMERS,
      gate: typedPolicy,
      input: customerTypeInput,
      output: retriedCaseView,
      run: (app, acting, input) => app.kyc.retry(acting, typedCase(input)),
    }),
    kycStatus: defineOperation({
      ...named("getDomesticKycStatus", "Get the KYC or KYB status"),
      access: CUSTOMERS,
      input: customerTypeInput,
      output: domesticCaseView,
      run: (app, acting, input) => domesticCaseOf(app.kyc, acting, typedCase(input)),
    }),
    customerStatus: defineOperation({
      ...named("getDomesticStatus", "Get the provider customer's status"),
      access: CUSTOMERS,
      input: customerTypeInput,
      output: domesticCaseView,
      run: (app, acting, input) => domesticCaseOf(app.kyc, acting, typedCase(input)),
    }),
    kybSubmissions: defineOperation({
      ...named("findDomesticKybCustomerAndBusiness", "Find the business customer's KYB submission details"),
      access: CUSTOMERS,
      input: kybCountryInput,
      output: z.array(kybSubmissionView),
      run: (app, acting, { country }) => kybSubmissions(app.kyc, app.domesticKycFiles, acting, country),
    }),
    submitKycFile: defineOperation({
      ...named("submitDomesticKycFile", "Upload a KYC file"),
      access: CUSTOMERS,
      gate: domesticPolicy("individual"),
      input: kycFileInput,
      run: (app, acting, input) => app.domesticKycFiles.submitKycFile(acting, input),
    }),
    submitKybFile: defineOperation({
      ...named("submitDomesticKybFile", "Upload a KYB file"),
      access: CUSTOMERS,
      gate: domesticPolicy("business"),
      input: kybFileInput,
      run: (app, acting, input) => app.domesticKycFiles.submitKybFile(acting, input),
    }),
    submitKybRelatedPersonFile: defineOperation({
      ...named("submitDomesticKybRelatedPersonFile", "Upload a related-person KYB file"),
      access: CUSTOMERS,
      gate: domesticPolicy("business"),
      input: relatedPersonFileInput,
      run: (app, acting, input) => app.domesticKycFiles.submitRelatedPersonFile(acting, input),
    }),
  };
}

export const DOMESTIC_CUSTOMER_OPERATIONS = domesticOperations();
/** The same operations under each country alias. */
export const ALIASED_CUSTOMER_OPERATIONS = {
  ar: domesticOperations("ar"),
  co: domesticOperations("co"),
  mx: domesticOperations("mx"),
};

/** Subaccounts and KYC/KYB in Brazil, under `/v1/brl` (no alias) or its legacy alias `/v1/brla`. */
function brazilOperations(alias?: Extract<PathAlias, "brla">) {
  const named = (name: string, summary: string) => aliasedName(name, summary, alias);
  return {
    createSubaccount: defineOperation({
      ...named("createSubaccount", "Create the BR subaccount, or retry its KYC"),
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
      ...named("brNewKyc", "Submit level 1 KYC data"),
      access: CUSTOMERS,
      gate: brazilPolicy(() => "individual"),
      input: newKycInput,
      output: submittedKycView,
      run: (app, acting, form) => app.brazilOnboarding.submitLevelOne(acting, form),
    }),
    kycStatus: defineOperation({
      ...named("fetchSubaccountKycStatus", "Get the BR KYC or KYB status"),
      access: CUSTOMERS,
      input: taxIdInput,
      output: kycStatusView,
      run: (app, acting, input) => app.brazilOnboarding.kycStatus(acting, input),
    }),
    user: defineOperation({
      ...named("getBrUser", "Get the BR user"),
      access: CUSTOMERS,
      input: optionalTaxIdInput,
      output: userView,
      run: (app, acting, input) => app.brazilOnboarding.user(acting, input),
    }),
    remainingLimit: defineOperation({
      ...named("getBrUserRemainingLimit", "Get the BR user's remaining limits"),
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
      ...named("importBrKycToken", "Import an individual's KYC by share token"),
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
      ...named("brValidatePixKey", "Check a Pix key's format"),
      access: CUSTOMERS,
      input: pixKeyInput,
      output: pixKeyValidity,
      run: (_app, _acting, { pixKey }) => ({ valid: pixKeyType(pixKey) !== undefined }),
    }),
    kybAttemptStatus: defineOperation({
      ...named("getBrKybAttemptStatus", "Get the KYB attempt's status"),
      access: CUSTOMERS,
      input: kybAttemptInput,
      output: kybAttemptView,
      run: (app, acting, input) => app.brazilOnboarding.kybAttemptStatus(acting, input),
    }),
    uploadUrls: defineOperation({
      ...named("brGetUploadUrls", "Get upload URLs for the identity document and selfie of level 1 KYC"),
      access: CUSTOMERS,
      gate: brazilPolicy(() => "individual"),
      input: uploadUrlsInput,
      output: kycUploadsView,
      run: (app, acting, input) => app.brazilOnboarding.uploadUrls(acting, input),
    }),
    selfieUpload: defineOperation({
      ...named("brGetSelfieLivenessUrl", "Get a selfie upload URL and its liveness check"),
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
      ...named("getBrKybDocument", "Get a KYB document's upload status"),
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
