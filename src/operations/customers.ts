import { z } from "zod";
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
import { initialKycAttemptView } from "../onboarding/kyc-attempts.js";
import type { CaseKey } from "../kyc/reads.js";
import { customerView } from "../kyc/types.js";
import type { CustomerType } from "../reference-data/corridors.js";
import { aliasedName, DOMESTIC_COUNTRIES, type DomesticCountry } from "../reference-data/domestic.js";
import { defineOperation, gate } from "./operation.js";

/** The subject's customers and KYC/KYB, or a managed child's (the selector works; changes pass the policy gates below). */
export const CUSTOMERS = { requires: ["PROVIDER_ACCOUNTS"], delegation: "DELEGATED" } as const;

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
      ...named(
        "createDomesticIndividualCustomer",
        "Create the subject's individual provider customer in a country (one per country); its KYC starts CONSULTED",
      ),
      access: CUSTOMERS,
      gate: domesticPolicy("individual"),
      input: customerInput,
      output: domesticCaseView,
      run: async (app, acting, { country }) => domesticCase(await app.kyc.createCustomer(acting, individual(country))),
    }),
    createBusinessCustomer: defineOperation({
      ...named(
        "createDomesticBusinessCustomer",
        "Create the subject's business provider customer in a country (one per country); its KYB starts CONSULTED",
      ),
      access: CUSTOMERS,
      gate: domesticPolicy("business"),
      input: customerInput,
      output: domesticCaseView,
      run: async (app, acting, { country }) => domesticCase(await app.kyc.createCustomer(acting, business(country))),
    }),
    submitKycInformation: defineOperation({
      ...named(
        "submitDomesticKycInformation",
        "Hand the individual customer's KYC information to the provider (USER_COMPLETED); given again before it is sent, it replaces the submission",
      ),
      access: CUSTOMERS,
      gate: domesticPolicy("individual"),
      input: kycInformation,
      output: submissionView,
      run: (app, acting, form) => app.kyc.submitInformation(acting, individual(form.country), form),
    }),
    sendKycSubmission: defineOperation({
      ...named(
        "sendDomesticKycSubmission",
        "Send the KYC submission for review (VERIFYING until the provider decides)",
      ),
      access: CUSTOMERS,
      gate: domesticPolicy("individual"),
      input: sendSubmissionInput,
      run: (app, acting, { country, submissionId }) =>
        app.kyc.sendSubmission(acting, individual(country), submissionId),
    }),
    submitKybInformation: defineOperation({
      ...named(
        "submitDomesticKybInformation",
        "Hand the business customer's KYB information to the provider; given again before it is sent, it replaces the submission",
      ),
      access: CUSTOMERS,
      gate: domesticPolicy("business"),
      input: kybInformation,
      output: submissionView,
      run: (app, acting, form) => app.kyc.submitInformation(acting, business(form.country), form),
    }),
    sendKybSubmission: defineOperation({
      ...named(
        "sendDomesticKybSubmission",
        "Send the KYB submission for review (VERIFYING until the provider decides)",
      ),
      access: CUSTOMERS,
      gate: domesticPolicy("business"),
      input: sendSubmissionInput,
      run: (app, acting, { country, submissionId }) => app.kyc.sendSubmission(acting, business(country), submissionId),
    }),
    kycRedirectLink: defineOperation({
      ...named(
        "getDomesticKycRedirectLink",
        "Get a link to the provider's hosted KYC for the individual customer: a new attempt, or the one the subject already opened",
      ),
      access: CUSTOMERS,
      gate: domesticPolicy("individual"),
      input: redirectLinkInput,
      output: hostedLinkView,
      run: (app, acting, { country }) => app.kyc.redirectLink(acting, individual(country)),
    }),
    kybRedirectLink: defineOperation({
      ...named(
        "getDomesticKybRedirectLink",
        "Get a link to the provider's hosted KYB for the business customer: a new attempt, or the one the subject already opened",
      ),
      access: CUSTOMERS,
      gate: domesticPolicy("business"),
      input: redirectLinkInput,
      output: hostedLinkView,
      run: (app, acting, { country }) => app.kyc.redirectLink(acting, business(country)),
    }),
    redirectOpened: defineOperation({
      ...named(
        "notifyDomesticKycRedirectOpened",
        "Report that the subject opened the hosted KYC or KYB (LINK_OPENED); again, nothing changes",
      ),
      access: CUSTOMERS,
      gate: typedPolicy,
      input: customerTypeInput,
      run: (app, acting, input) => app.kyc.redirectOpened(acting, typedCase(input)),
    }),
    redirectFinished: defineOperation({
      ...named(
        "notifyDomesticKycRedirectFinished",
        "Report that the subject finished the hosted KYC or KYB: the provider decides (VERIFYING until then); again, nothing changes",
      ),
      access: CUSTOMERS,
      gate: typedPolicy,
      input: customerTypeInput,
      run: (app, acting, input) => app.kyc.redirectFinished(acting, typedCase(input)),
    }),
    retry: defineOperation({
      ...named(
        "retryDomesticKyc",
        "Retry a FAILED KYC or KYB (CONSULTED again): a hosted one with a new link, an API one for new information",
      ),
      access: CUSTOMERS,
      gate: typedPolicy,
      input: customerTypeInput,
      output: retriedCaseView,
      run: (app, acting, input) => app.kyc.retry(acting, typedCase(input)),
    }),
    kycStatus: defineOperation({
      ...named(
        "getDomesticKycStatus",
        "Get the KYC (KYB) status of the subject's customer in a country; NOT_FOUND before the customer exists",
      ),
      access: CUSTOMERS,
      input: customerTypeInput,
      output: domesticCaseView,
      run: (app, acting, input) => domesticCaseOf(app.kyc, acting, typedCase(input)),
    }),
    customerStatus: defineOperation({
      ...named(
        "getDomesticStatus",
        "Get the subject's customer in a country, when it was created and where it stands; NOT_FOUND before it exists",
      ),
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
