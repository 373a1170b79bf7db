import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAdminGraphQLSchema, buildGraphQLSchema } from "../../src/graphql/schema.js";
import { PRICING_PROFILE_NAMES } from "../../src/quotes/pricing.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { BENEFICIAL_OWNER, JPEG_FILE, KYB_LEVEL_ONE_COMPANY, LEVEL_ONE_KYC, randomCpf } from "../support/kyc.js";
import {
  authenticatingRoutes,
  documentedRoutes,
  graphQLCoordinatesToCover,
  isRest,
  routerRoutes,
  SECURITY_SUITE_ENV,
  securitySuite,
  type SecurityFixtures,
  type SecurityTarget,
} from "../support/security-suite.js";
import { BUY_QUOTE } from "../support/kit.js";

const EVM_ADDRESS = `0x${"1".repeat(40)}`;

/**
 * The registry: every authenticated REST route and every GraphQL operation. A new route or operation
 * joins with one entry here (its capabilities from CAPABILITY_MATRIX and how to call it validly); the
 * completeness checks below fail until it does.
 */
/** A pricing profile other than the one assigned now, so a refused assignment would show as a change. */
async function otherPricingProfile(fx: SecurityFixtures): Promise<string> {
  const current = (await fx.t.app.admin.getPricing(fx.pricedProfileId)).pricingProfile;
  return PRICING_PROFILE_NAMES.find((name) => name !== current)!;
}

const WEBHOOK_URL = "https://93.184.215.14/hook";
let lastOwnerWebhook: string | undefined;
/** A webhook subscription of the owner's (registered with its secret key); a new one once it was deleted. */
async function ownerWebhook(fx: SecurityFixtures): Promise<string> {
  if (lastOwnerWebhook && (await fx.t.app.db.webhookSubscription.count({ where: { id: lastOwnerWebhook } })))
    return lastOwnerWebhook;
  const headers = { "x-api-key": fx.owner.credential.secretKey };
  const created = await fx.t.request("POST", "/v1/webhook", {
    headers,
    body: { url: WEBHOOK_URL, quoteId: await fx.quote(headers) },
  });
  if (created.status !== 201) throw new Error(`fixture: webhook: ${JSON.stringify(created.body)}`);
  lastOwnerWebhook = created.body.id as string;
  return lastOwnerWebhook;
}
let lastOwnerDelivery: { id: string; deliveryId: string } | undefined;
/** A queued delivery of an owner's webhook (no workers run here, so it stays pending). */
async function ownerDelivery(fx: SecurityFixtures): Promise<{ id: string; deliveryId: string }> {
  if (lastOwnerDelivery && (await fx.t.app.db.webhookDelivery.count({ where: { id: lastOwnerDelivery.deliveryId } })))
    return lastOwnerDelivery;
  const headers = { "x-api-key": fx.owner.credential.secretKey };
  const quoteId = await fx.quote(headers);
  const created = await fx.t.request("POST", "/v1/webhook", { headers, body: { url: WEBHOOK_URL, quoteId } });
  if (created.status !== 201) throw new Error(`fixture: webhook: ${JSON.stringify(created.body)}`);
  const ramp = await fx.t.request("POST", "/v1/ramp/register", {
    headers,
    body: { quoteId, destinationAddress: `0x${"2".repeat(40)}` },
  });
  if (ramp.status !== 201) throw new Error(`fixture: ramp: ${JSON.stringify(ramp.body)}`);
  const delivery = await fx.t.app.db.webhookDelivery.findFirstOrThrow({ where: { subscriptionId: created.body.id } });
  lastOwnerDelivery = { id: created.body.id as string, deliveryId: delivery.id };
  return lastOwnerDelivery;
}
/** A valid account body per route prefix (the alias names the country; /v1/domestic takes it from the body). */
const FIAT_ACCOUNTS: [prefix: `/${string}`, body: Record<string, string>, query: Record<string, string>][] = [
  [
    "/v1/domestic",
    {
      country: "US",
      type: "ACH",
      accountNumber: "000123456789",
      routingNumber: "021000021",
      accountType: "checking",
      accountName: "Jane Doe",
    },
    { country: "US" },
  ],
  ["/v1/mx", { type: "SPEI", accountNumber: "032180000118359719", accountName: "Juana Pérez" }, {}],
  [
    "/v1/ar",
    {
      type: "COELSA",
      accountNumber: "2850590940090418135201",
      documentType: "CUIT",
      documentNumber: "20123456786",
      accountName: "Juan García",
    },
    {},
  ],
  [
    "/v1/co",
    {
      type: "ACH",
      accountNumber: "123456789",
      accountType: "savings",
      accountBankCode: "1007",
      documentType: "CC",
      documentNumber: "1234567890",
      accountName: "Ana Gómez",
    },
    {},
  ],
];
/** Usable accounts already made, by prefix and the headers they were made with (reused while undeleted). */
const fiatAccounts = new Map<string, string>();
/** A usable account created with the caller's headers; with the owner's secret key when the caller may not create one. */
async function fiatAccountOf(
  fx: SecurityFixtures,
  caller: Record<string, string>,
  prefix: string,
  body: Record<string, string>,
): Promise<string> {
  const cacheKey = `${prefix} ${JSON.stringify(caller)}`;
  const known = fiatAccounts.get(cacheKey);
  if (known && (await fx.t.app.db.fiatAccount.count({ where: { id: known, deletedAt: null } }))) return known;
  for (const headers of [caller, { "x-api-key": fx.owner.credential.secretKey }]) {
    const created = await fx.t.request("POST", `${prefix}/fiatAccounts`, { headers, body });
    if (created.status === 200) {
      fiatAccounts.set(cacheKey, created.body.fiatAccountId as string);
      return created.body.fiatAccountId as string;
    }
  }
  throw new Error(`fixture: no fiat account could be created under ${prefix}`);
}

/** The domestic customer and KYC/KYB operations, per route prefix; `country` names the corridor where the path does not. */
function domesticKycTargets(prefix: `/${string}`, country: Record<string, string>): SecurityTarget[] {
  const kyc = { capabilities: ["PROVIDER_ACCOUNTS"] as const };
  // Changes depend on the case's state (a customer exists, a submission is open...): allowed callers get 2xx or 4xx, never 401/403.
  const change = { ...kyc, allowedOutcome: "not-refused" as const };
  return [
    { route: `POST ${prefix}/createIndividualCustomer`, ...change, body: () => country },
    { route: `POST ${prefix}/createBusinessCustomer`, ...change, body: () => country },
    {
      route: `POST ${prefix}/submitKycInformation`,
      ...change,
      body: () => ({
        ...country,
        firstName: "Ana",
        lastName: "Souza",
        dateOfBirth: "1990-04-12",
        documentType: "NATIONAL_ID",
        documentNumber: "12345678",
      }),
    },
    { route: `POST ${prefix}/sendKycSubmission`, ...change, body: () => ({ ...country, submissionId: randomUUID() }) },
    {
      route: `POST ${prefix}/submitKybInformation`,
      ...change,
      body: () => ({ ...country, businessName: "Acme", taxId: "ACM010101ABC" }),
    },
    { route: `POST ${prefix}/sendKybSubmission`, ...change, body: () => ({ ...country, submissionId: randomUUID() }) },
    { route: `GET ${prefix}/getKycRedirectLink`, ...change, query: () => country },
    { route: `GET ${prefix}/getKybRedirectLink`, ...change, query: () => country },
    { route: `POST ${prefix}/kycRedirectOpened`, ...change, body: () => country },
    { route: `POST ${prefix}/kycRedirectFinished`, ...change, body: () => country },
    { route: `POST ${prefix}/retryKyc`, ...change, body: () => country },
    // The owner and the suite's children completed KYC in every domestic corridor: their status reads succeed.
    { route: `GET ${prefix}/getKycStatus`, ...kyc, query: () => country },
    { route: `GET ${prefix}/alfredpayStatus`, ...kyc, query: () => country },
    // KYB details exist in CO and MX only (400 elsewhere), for a business customer (404 before one): never 401/403.
    {
      route: `GET ${prefix}/findKybCustomerAndBusiness`,
      ...change,
      query: (): Record<string, string> => ("country" in country ? { country: "CO" } : {}),
    },
    // Files of a submission or related person the caller does not have (a form): an allowed caller gets 400 or 404.
    ...(
      [
        ["submitKycFile", { submissionId: randomUUID(), fileType: "Selfie" }],
        ["submitKybFile", { submissionId: randomUUID(), fileType: "taxIdDocument" }],
        ["submitKybRelatedPersonFile", { relatedPersonId: randomUUID(), fileType: "docFront" }],
      ] as const
    ).map(([operation, fields]) => ({
      route: `POST ${prefix}/${operation}` as const,
      ...change,
      form: true as const,
      body: () => ({
        ...("country" in country && { country: "CO" }),
        ...fields,
        file: { bytes: JPEG_FILE, contentType: "image/jpeg" },
      }),
    })),
  ];
}

/** The GraphQL faces of the domestic customer and KYC/KYB operations. */
function domesticKycGraphQLTargets(): SecurityTarget[] {
  const kyc = { capabilities: ["PROVIDER_ACCOUNTS"] as const };
  const change = { ...kyc, allowedOutcome: "not-refused" as const };
  const byCountry = (field: string, selection = "") => ({
    field: `Mutation.${field}` as const,
    ...change,
    document: `mutation Change($country: DomesticCountry!) { ${field}(country: $country) ${selection} }`,
    variables: () => ({ country: "US" }),
    invalidVariables: () => ({ country: "BR" }),
  });
  const typed = (kind: "Query" | "Mutation", field: string, selection = "") => ({
    field: `${kind}.${field}` as const,
    document: `${kind.toLowerCase()} Typed($country: DomesticCountry!, $type: CustomerType) { ${field}(country: $country, customerType: $type) ${selection} }`,
    variables: () => ({ country: "US", type: "INDIVIDUAL" }),
    invalidVariables: () => ({ country: "US", type: "PERSON" }),
  });
  const send = (field: string, country: string) => ({
    field: `Mutation.${field}` as const,
    ...change,
    document: `mutation Send($country: DomesticCountry!, $id: ID!) { ${field}(country: $country, submissionId: $id) { sentSubmissionId } }`,
    variables: () => ({ country, id: randomUUID() }),
    invalidVariables: () => ({ country }),
  });
  return [
    byCountry("createDomesticIndividualCustomer", "{ customer { customerId status } }"),
    byCountry("createDomesticBusinessCustomer", "{ customer { customerId status } }"),
    {
      field: "Mutation.submitDomesticKycInformation",
      ...change,
      document:
        "mutation Submit($country: DomesticCountry!, $input: DomesticKycInformationInput!) { submitDomesticKycInformation(country: $country, input: $input) { submission { submissionId } } }",
      variables: () => ({
        country: "US",
        input: {
          firstName: "Ana",
          lastName: "Souza",
          dateOfBirth: "1990-04-12",
          documentType: "NATIONAL_ID",
          documentNumber: "12345678",
        },
      }),
      invalidVariables: () => ({ country: "US", input: { firstName: 7 } }),
    },
    send("sendDomesticKycSubmission", "US"),
    {
      field: "Mutation.submitDomesticKybInformation",
      ...change,
      document:
        "mutation Submit($country: DomesticKybCountry!, $input: DomesticKybInformationInput!) { submitDomesticKybInformation(country: $country, input: $input) { submission { submissionId } } }",
      variables: () => ({ country: "MX", input: { businessName: "Acme", taxId: "ACM010101ABC" } }),
      invalidVariables: () => ({ country: "US", input: { businessName: "Acme", taxId: "ACM010101ABC" } }),
    },
    send("sendDomesticKybSubmission", "MX"),
    byCountry("requestDomesticKycLink", "{ hostedLink { submissionId url } }"),
    byCountry("requestDomesticKybLink", "{ hostedLink { submissionId url } }"),
    { ...typed("Mutation", "reportDomesticHostedFlowOpened", "{ recorded }"), ...change },
    { ...typed("Mutation", "reportDomesticHostedFlowFinished", "{ recorded }"), ...change },
    { ...typed("Mutation", "retryDomesticKyc", "{ hostedLink { submissionId url } }"), ...change },
    { ...typed("Query", "domesticKycStatus", "{ customerId country customerType status updatedAt }"), ...kyc },
    { ...typed("Query", "domesticCustomer", "{ country status createdAt }"), ...kyc },
    {
      field: "Query.domesticKybSubmissions",
      ...change,
      document:
        "query Kyb($country: DomesticKybCountry!) { domesticKybSubmissions(country: $country) { submissionId relatedPersonIds } }",
      variables: () => ({ country: "CO" }),
      invalidVariables: () => ({ country: "US" }),
    },
  ];
}

/** The BR subaccount and KYC/KYB operations under a prefix (/v1/brl, /v1/brla). */
function brazilKycTargets(prefix: `/${string}`): SecurityTarget[] {
  const kyc = { capabilities: ["PROVIDER_ACCOUNTS"] as const };
  const change = { ...kyc, allowedOutcome: "not-refused" as const };
  return [
    {
      route: `POST ${prefix}/createSubaccount`,
      ...change,
      body: () => ({ accountType: "INDIVIDUAL", name: "Ana Souza", taxId: randomCpf() }),
    },
    // A subaccount and uploads that name nothing: an allowed caller gets 404.
    {
      route: `POST ${prefix}/newKyc`,
      ...change,
      body: () => ({ ...LEVEL_ONE_KYC, ...unknownSubaccountAndUploads() }),
    },
    { route: `GET ${prefix}/getKycStatus`, ...change, query: () => ({ taxId: randomCpf() }) },
    { route: `GET ${prefix}/getUser`, ...kyc },
    { route: `GET ${prefix}/getUserRemainingLimit`, ...kyc, query: () => ({ direction: "BUY" }) },
    { route: `GET ${prefix}/validatePixKey`, ...kyc, query: () => ({ pixKey: "+5511987654321" }) },
    { route: `POST ${prefix}/kyb/new-level-1/web-sdk`, ...change, query: () => ({ subAccountId: randomUUID() }) },
    { route: `GET ${prefix}/kyb/attempt-status`, ...change, query: () => ({ attemptId: randomUUID() }) },
    // Started from a quote of the caller's own; the same quote again is no error.
    {
      route: `POST ${prefix}/kyc/record-attempt`,
      ...kyc,
      ownedInputs: true,
      body: async (fx, caller) => ({ quoteId: await fx.quote(caller), taxId: randomCpf() }),
    },
    // Without an Idempotency-Key an allowed caller gets 400; a child's own key is refused even so.
    {
      route: `POST ${prefix}/kyc/import-token`,
      capabilities: ["BR_KYC_IMPORT"],
      childCredential: "refused",
      allowedOutcome: "not-refused",
      body: () => ({ importToken: "share-token", consentAttested: true }),
    },
    // Uploads of a subaccount the caller does not have: an allowed caller gets 400 or 404.
    { route: `POST ${prefix}/getUploadUrls`, ...change, body: () => ({ taxId: randomCpf(), documentType: "ID" }) },
    { route: `GET ${prefix}/getSelfieLivenessUrl`, ...change, query: () => ({ taxId: randomCpf() }) },
    {
      route: `POST ${prefix}/kyb/documents`,
      ...change,
      query: () => ({ subAccountId: randomUUID() }),
      body: () => ({ documentType: "CERTIFICATE-OF-INCORPORATION" }),
    },
    {
      route: `GET ${prefix}/kyb/documents/{documentId}`,
      ...change,
      params: () => ({ documentId: randomUUID() }),
      query: () => ({ subAccountId: randomUUID() }),
    },
    // A subaccount the caller does not have: an allowed caller gets 404.
    {
      route: `POST ${prefix}/kyb/ubos`,
      ...change,
      query: () => ({ subAccountId: randomUUID() }),
      body: () => ({ ...BENEFICIAL_OWNER, uploadedIdentificationId: randomUUID() }),
    },
    {
      route: `POST ${prefix}/kyb/new-level-1/api`,
      ...change,
      query: () => ({ subAccountId: randomUUID() }),
      body: unknownKybLevelOne,
    },
  ];
}

/** A level 1 KYB whose ids name nothing: the UBO and the company's documents. */
const unknownKybLevelOne = () => ({
  ...KYB_LEVEL_ONE_COMPANY,
  uboIds: [randomUUID()],
  taxIdentificationNumberTin: "11222333000181",
  certificateOfIncorporationDocumentId: randomUUID(),
  taxIdentificationDocumentId: randomUUID(),
});

/** newKyc's ids when they name nothing: the subaccount and the uploads. */
const unknownSubaccountAndUploads = () => ({
  subAccountId: randomUUID(),
  taxIdNumber: randomCpf(),
  uploadedDocumentId: randomUUID(),
  uploadedSelfieId: randomUUID(),
});

let lastOwnerInvitation: string | undefined;
/** A pending invitation of the owner's (its session invites; recipients are session-only), reused while pending. */
async function ownerInvitation(fx: SecurityFixtures): Promise<string> {
  if (
    lastOwnerInvitation &&
    (await fx.t.app.db.recipientInvitation.count({ where: { id: lastOwnerInvitation, status: "pending" } }))
  )
    return lastOwnerInvitation;
  const created = await fx.t.request("POST", "/v1/recipients/invitations", {
    headers: fx.owner.headers,
    body: { email: `invitee-${randomUUID()}@example.com`, relationship: "friend" },
  });
  if (created.status !== 201) throw new Error(`fixture: invitation: ${JSON.stringify(created.body)}`);
  lastOwnerInvitation = created.body.id as string;
  return lastOwnerInvitation;
}

const TARGETS: SecurityTarget[] = [
  // REST: the session's own credentials.
  {
    route: "POST /v1/api-credentials",
    capabilities: ["OWN_CREDENTIALS"],
    body: () => ({ name: "security suite: created" }),
  },
  { route: "GET /v1/api-credentials", capabilities: ["OWN_CREDENTIALS"] },
  {
    route: "DELETE /v1/api-credentials/{credentialId}",
    capabilities: ["OWN_CREDENTIALS"],
    // A real, active credential of the caller: refused calls must leave it active.
    params: async (fx) => ({ credentialId: (await fx.spareCredential()).id }),
  },
  // REST: session renewal, open to every kind; only broken credentials are refused.
  {
    route: "POST /v1/auth/refresh",
    capabilities: ["SIGN_IN"],
    body: async (fx) => ({ refresh_token: await fx.liveRefreshToken() }),
  },
  {
    route: "POST /v1/auth/logout",
    capabilities: ["SIGN_IN"],
    body: async (fx) => ({ refresh_token: await fx.liveRefreshToken() }),
  },

  // REST: public reference data, open to every kind; only broken credentials are refused.
  { route: "GET /v1/supported-countries", capabilities: ["REFERENCE_DATA"] },
  { route: "GET /v1/supported-cryptocurrencies", capabilities: ["REFERENCE_DATA"] },
  { route: "GET /v1/supported-fiat-currencies", capabilities: ["REFERENCE_DATA"] },
  { route: "GET /v1/supported-payment-methods", capabilities: ["REFERENCE_DATA"] },
  // REST: the webhook signing key, public like the reference data.
  { route: "GET /v1/public-key", capabilities: ["REFERENCE_DATA"] },

  // REST: a manager's headless children and their credentials. The manager acts for itself: a selector is
  // unsupported and a child's own credential is refused (MANAGER_ONLY).
  {
    route: "POST /v1/managed-profiles",
    capabilities: ["MANAGED_PROFILES"],
    childCredential: "refused",
    body: () => ({
      externalSubjectId: `security-created-${randomUUID()}`,
      contactEmail: `security-created-${randomUUID()}@example.com`,
      customerType: "business",
    }),
  },
  { route: "GET /v1/managed-profiles", capabilities: ["MANAGED_PROFILES"], childCredential: "refused" },
  {
    route: "GET /v1/managed-profiles/{profileId}",
    capabilities: ["MANAGED_PROFILES"],
    childCredential: "refused",
    params: async (fx) => ({ profileId: (await fx.child()).profileId }),
  },
  {
    route: "DELETE /v1/managed-profiles/{profileId}",
    capabilities: ["MANAGED_PROFILES"],
    childCredential: "refused",
    // An active child: refused calls must leave it (and its credentials) active.
    params: async (fx) => ({ profileId: (await fx.child()).profileId }),
  },
  {
    route: "POST /v1/managed-profiles/{profileId}/api-credentials",
    capabilities: ["MANAGE_CHILD_CREDENTIALS"],
    childCredential: "refused",
    params: async (fx) => ({ profileId: (await fx.child()).profileId }),
    body: () => ({ name: "security suite: child credential" }),
  },
  {
    route: "GET /v1/managed-profiles/{profileId}/api-credentials",
    capabilities: ["MANAGE_CHILD_CREDENTIALS"],
    childCredential: "refused",
    params: async (fx) => ({ profileId: (await fx.child()).profileId }),
  },
  {
    route: "DELETE /v1/managed-profiles/{profileId}/api-credentials/{credentialId}",
    capabilities: ["MANAGE_CHILD_CREDENTIALS"],
    childCredential: "refused",
    params: async (fx) => {
      const credential = await fx.spareChildCredential();
      return { profileId: credential.profileId, credentialId: credential.id };
    },
  },

  // REST: the operator surface, for the operator token only.
  {
    route: "PUT /v1/admin/managers/{profileId}",
    capabilities: ["OPERATOR"],
    params: async (fx) => ({ profileId: await fx.nonManagerProfile() }),
    body: () => ({ allowedCorridors: ["BR", "MX"], allowedCustomerTypes: ["individual"], isActive: true }),
  },
  {
    route: "GET /v1/admin/managers/{profileId}",
    capabilities: ["OPERATOR"],
    params: (fx) => ({ profileId: fx.owner.profileId }),
  },
  {
    route: "PUT /v1/admin/pricing-assignments/{profileId}",
    capabilities: ["OPERATOR"],
    params: (fx) => ({ profileId: fx.pricedProfileId }),
    // A different name every time, so a refused call would have changed the assignment.
    body: async (fx) => ({ pricingProfile: await otherPricingProfile(fx) }),
  },
  {
    route: "GET /v1/admin/pricing-assignments/{profileId}",
    capabilities: ["OPERATOR"],
    params: (fx) => ({ profileId: fx.pricedProfileId }),
  },
  {
    route: "POST /v1/admin/partners",
    capabilities: ["OPERATOR"],
    body: () => ({ name: "security suite: created partner" }),
  },
  {
    route: "PATCH /v1/admin/partners/{partnerId}",
    capabilities: ["OPERATOR"],
    params: (fx) => ({ partnerId: fx.togglePartnerId }),
    // The opposite of the partner's state, so a refused call would have changed it.
    body: async (fx) => ({
      isActive: !(await fx.t.app.db.partner.findUniqueOrThrow({ where: { id: fx.togglePartnerId } })).isActive,
    }),
  },
  {
    route: "POST /v1/admin/partners/{partnerId}/api-credentials",
    capabilities: ["OPERATOR"],
    params: (fx) => ({ partnerId: fx.partner.id }),
    body: async (fx) => ({ profileId: await fx.partner.subject(), name: "security suite: partner-managed" }),
  },
  {
    route: "GET /v1/admin/audit-events",
    capabilities: ["OPERATOR"],
    query: () => ({ action: "partner.created", limit: "5" }),
  },
  // The operator's Prometheus text (issue 13).
  { route: "GET /metrics", capabilities: ["OPERATOR"] },

  // REST: quotes and widget sessions, open to every kind; a secret key or session owns what it creates, so
  // objects are prepared with the case's own headers (`caller`, see fx.quote and fx.ramp).
  { route: "POST /v1/quotes", capabilities: ["QUOTE"], body: () => ({ ...BUY_QUOTE }) },
  {
    route: "POST /v1/quotes/best",
    capabilities: ["QUOTE"],
    body: () => ({
      rampType: "BUY",
      inputAmount: "250.00",
      inputCurrency: "BRL",
      outputCurrency: "USDC",
      networks: ["polygon", "base"],
    }),
  },
  {
    route: "GET /v1/quotes/{id}",
    capabilities: ["QUOTE"],
    ownedInputs: true,
    params: async (fx, caller) => ({ id: await fx.quote(caller) }),
  },
  {
    route: "POST /v1/session/create",
    capabilities: ["QUOTE"],
    ownedInputs: true,
    body: async (fx, caller) => ({ quoteId: await fx.quote(caller), externalSessionId: `security-${randomUUID()}` }),
  },

  // REST: ramps, for secret keys and sessions (a child's own key acts as the child). Every case gets an unused
  // quote or an untouched ramp of its caller's (fx.quote and fx.ramp replace what register, update and start used).
  {
    route: "POST /v1/ramp/register",
    capabilities: ["RAMP_OPERATIONS"],
    ownedInputs: true,
    body: async (fx, caller) => ({ quoteId: await fx.quote(caller), destinationAddress: EVM_ADDRESS }),
  },
  {
    route: "POST /v1/ramp/update",
    capabilities: ["RAMP_OPERATIONS"],
    ownedInputs: true,
    body: async (fx, caller) => ({
      rampId: await fx.ramp(caller),
      presignedTxs: [{ phase: "security-suite", signedTransaction: "0x01" }],
    }),
  },
  {
    route: "POST /v1/ramp/start",
    capabilities: ["RAMP_OPERATIONS"],
    ownedInputs: true,
    body: async (fx, caller) => ({ rampId: await fx.ramp(caller) }),
  },
  { route: "GET /v1/ramp/history", capabilities: ["RAMP_OPERATIONS"], query: () => ({ limit: "5", offset: "0" }) },
  {
    route: "GET /v1/ramp/history/{walletAddress}",
    capabilities: ["RAMP_OPERATIONS"],
    params: () => ({ walletAddress: EVM_ADDRESS }),
    query: () => ({ limit: "5", offset: "0" }),
  },
  {
    route: "GET /v1/ramp/{id}",
    capabilities: ["RAMP_OPERATIONS"],
    ownedInputs: true,
    params: async (fx, caller) => ({ id: await fx.ramp(caller) }),
  },
  {
    route: "GET /v1/ramp/{id}/errors",
    capabilities: ["RAMP_OPERATIONS"],
    ownedInputs: true,
    params: async (fx, caller) => ({ id: await fx.ramp(caller) }),
  },

  // REST: limits, onboarding and ramp-info of the acting subject; onboarding requirements are reference data.
  { route: "POST /v1/limits", capabilities: ["EXACT_LIMITS"], body: () => ({ corridors: ["BR", "MX"] }) },
  { route: "GET /v1/onboarding/status", capabilities: ["EXACT_LIMITS"] },
  // The owner's individual entity: choosing it again answers the same.
  { route: "PUT /v1/onboarding/active-entity", capabilities: ["ACTIVE_ENTITY"], body: () => ({ type: "individual" }) },
  {
    route: "GET /v1/onboarding/requirements",
    capabilities: ["REFERENCE_DATA"],
    query: () => ({ country: "BR", customerType: "individual" }),
  },
  { route: "GET /v1/ramp-info", capabilities: ["RAMP_INFO"] },
  // REST: webhook registrations, a non-managed profile's secret key only (MANAGER_ONLY: selector 400, a child's
  // own key 403). The URL is a public IP literal, so no DNS is needed; the quote is the caller's own.
  {
    route: "POST /v1/webhook",
    capabilities: ["WEBHOOK_MANAGEMENT"],
    childCredential: "refused",
    ownedInputs: true,
    body: async (fx, caller) => ({ url: WEBHOOK_URL, quoteId: await fx.quote(caller) }),
  },
  { route: "GET /v1/webhook", capabilities: ["WEBHOOK_MANAGEMENT"], childCredential: "refused" },
  {
    route: "DELETE /v1/webhook/{id}",
    capabilities: ["WEBHOOK_MANAGEMENT"],
    childCredential: "refused",
    ownedInputs: true,
    // An existing subscription of the owner's: refused calls must leave it in place.
    params: async (fx) => ({ id: await ownerWebhook(fx) }),
  },
  {
    route: "GET /v1/webhook/{id}/deliveries",
    capabilities: ["WEBHOOK_MANAGEMENT"],
    childCredential: "refused",
    ownedInputs: true,
    params: async (fx) => ({ id: (await ownerDelivery(fx)).id }),
  },
  {
    route: "POST /v1/webhook/{id}/deliveries/{deliveryId}/redeliver",
    capabilities: ["WEBHOOK_MANAGEMENT"],
    childCredential: "refused",
    ownedInputs: true,
    params: async (fx) => ownerDelivery(fx),
  },
  {
    route: "POST /v1/webhook/{id}/test",
    capabilities: ["WEBHOOK_MANAGEMENT"],
    childCredential: "refused",
    ownedInputs: true,
    params: async (fx) => ({ id: await ownerWebhook(fx) }),
  },

  // REST: payout fiat accounts of the acting subject (DELEGATED), under /v1/domestic and the country aliases.
  ...FIAT_ACCOUNTS.flatMap(([prefix, body, query]): SecurityTarget[] => [
    { route: `POST ${prefix}/fiatAccounts`, capabilities: ["PROVIDER_ACCOUNTS"], body: () => body },
    { route: `GET ${prefix}/fiatAccounts`, capabilities: ["PROVIDER_ACCOUNTS"], query: () => query },
    {
      route: `DELETE ${prefix}/fiatAccounts/{fiatAccountId}`,
      capabilities: ["PROVIDER_ACCOUNTS"],
      ownedInputs: true,
      params: async (fx, caller) => ({ fiatAccountId: await fiatAccountOf(fx, caller, prefix, body) }),
    },
  ]),

  // REST: customers and KYC/KYB of the acting subject (DELEGATED), domestic and BR.
  ...domesticKycTargets("/v1/domestic", { country: "US" }),
  ...domesticKycTargets("/v1/ar", {}),
  ...domesticKycTargets("/v1/co", {}),
  ...domesticKycTargets("/v1/mx", {}),
  ...brazilKycTargets("/v1/brl"),
  ...brazilKycTargets("/v1/brla"),

  // REST: sender-side recipients (a session only) and the invitee's side.
  {
    route: "POST /v1/recipients/invitations",
    capabilities: ["RECIPIENTS"],
    body: () => ({ email: `invitee-${randomUUID()}@example.com`, relationship: "family" }),
  },
  { route: "GET /v1/recipients/invitations", capabilities: ["RECIPIENTS"] },
  {
    route: "POST /v1/recipients/invitations/{id}/archive",
    capabilities: ["RECIPIENTS"],
    params: async (fx) => ({ id: await ownerInvitation(fx) }),
  },
  {
    route: "POST /v1/recipients/invitations/{id}/unarchive",
    capabilities: ["RECIPIENTS"],
    params: async (fx) => ({ id: await ownerInvitation(fx) }),
  },
  { route: "GET /v1/recipients", capabilities: ["RECIPIENTS"] },
  {
    route: "PATCH /v1/recipients/{id}",
    capabilities: ["RECIPIENTS"],
    params: async (fx) => ({ id: await ownerInvitation(fx) }),
    body: () => ({ relationship: "business" }),
  },
  // A pending invitation has no eligibility yet (404): the point here is who may ask.
  {
    route: "GET /v1/recipients/{id}/eligibility",
    capabilities: ["RECIPIENTS"],
    allowedOutcome: "not-refused",
    params: async (fx) => ({ id: await ownerInvitation(fx) }),
  },
  {
    route: "POST /v1/recipient-invitations/preview",
    capabilities: ["RECIPIENTS"],
    childCredential: "refused",
    allowedOutcome: "not-refused",
    body: () => ({ code: "not-a-code" }),
  },
  {
    route: "POST /v1/recipient-invitations/accept",
    capabilities: ["RECIPIENTS"],
    childCredential: "refused",
    allowedOutcome: "not-refused",
    body: () => ({ code: "not-a-code" }),
  },

  // GraphQL.
  { field: "Query.me", capabilities: ["PROFILE_READ"], document: "query { me { id email } }" },
  {
    field: "Query.apiCredentials",
    capabilities: ["OWN_CREDENTIALS"],
    document: "query { apiCredentials(first: 5) { count edges { node { id publicKey } } } }",
  },
  {
    field: "Profile.apiCredentials",
    capabilities: ["PROFILE_READ", "OWN_CREDENTIALS"],
    document: "query { me { id apiCredentials { count } } }",
  },
  {
    field: "Mutation.createApiCredential",
    capabilities: ["OWN_CREDENTIALS"],
    document:
      "mutation Create($input: CreateApiCredentialInput) { createApiCredential(input: $input) { credential { secretKey credential { id } } } }",
    variables: () => ({ input: { name: "security suite: created" } }),
    invalidVariables: () => ({ input: { expiresAt: "tomorrow" } }),
  },
  {
    field: "Mutation.revokeApiCredential",
    capabilities: ["OWN_CREDENTIALS"],
    document: "mutation Revoke($id: ID!) { revokeApiCredential(id: $id) { revokedCredentialId } }",
    variables: async (fx) => ({ id: (await fx.spareCredential()).id }),
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.refreshSession",
    capabilities: ["SIGN_IN"],
    document:
      "mutation Refresh($token: String!) { refreshSession(refreshToken: $token) { session { accessToken refreshToken } } }",
    variables: async (fx) => ({ token: await fx.liveRefreshToken() }),
    invalidVariables: () => ({ token: 42 }),
  },
  {
    field: "Mutation.logout",
    capabilities: ["SIGN_IN"],
    document: "mutation Logout($token: String!) { logout(refreshToken: $token) { loggedOut } }",
    variables: async (fx) => ({ token: await fx.liveRefreshToken() }),
    invalidVariables: () => ({ token: 42 }),
  },

  {
    field: "Query.pixKeyValid",
    capabilities: ["PROVIDER_ACCOUNTS"],
    document: "query PixKey($key: String!) { pixKeyValid(pixKey: $key) }",
    variables: () => ({ key: "+5511987654321" }),
    invalidVariables: () => ({ key: 42 }),
  },
  // GraphQL: BR subaccounts and their KYC/KYB, like /v1/brl. The owner's individual subaccount is approved:
  // changes get a domain answer (a tax id or subaccount not its own, a case no longer open), never 401/403.
  {
    field: "Mutation.createBrazilSubaccount",
    capabilities: ["PROVIDER_ACCOUNTS"],
    allowedOutcome: "not-refused",
    document:
      "mutation Create($input: CreateBrazilSubaccountInput!) { createBrazilSubaccount(input: $input) { subAccountId } }",
    variables: () => ({ input: { customerType: "INDIVIDUAL", name: "Ana Souza", taxId: randomCpf() } }),
    invalidVariables: () => ({ input: { customerType: "COMPANY", name: "Ana Souza", taxId: randomCpf() } }),
  },
  {
    field: "Mutation.submitBrazilKyc",
    capabilities: ["PROVIDER_ACCOUNTS"],
    allowedOutcome: "not-refused",
    document: "mutation Submit($input: SubmitBrazilKycInput!) { submitBrazilKyc(input: $input) { submissionId } }",
    variables: () => ({ input: { ...LEVEL_ONE_KYC, ...unknownSubaccountAndUploads() } }),
    invalidVariables: () => ({ input: { subAccountId: randomUUID() } }),
  },
  {
    field: "Query.brazilKycStatus",
    capabilities: ["PROVIDER_ACCOUNTS"],
    allowedOutcome: "not-refused",
    document: "query Status($taxId: String!) { brazilKycStatus(taxId: $taxId) { customerType status result level } }",
    variables: () => ({ taxId: randomCpf() }),
    invalidVariables: () => ({ taxId: 42 }),
  },
  {
    field: "Query.brazilUser",
    capabilities: ["PROVIDER_ACCOUNTS"],
    document: "query { brazilUser { subAccountId evmAddress kycLevel identityStatus } }",
  },
  {
    field: "Query.brazilRemainingLimit",
    capabilities: ["PROVIDER_ACCOUNTS"],
    document: "query Remaining($direction: RampDirection!) { brazilRemainingLimit(direction: $direction) }",
    variables: () => ({ direction: "BUY" }),
    invalidVariables: () => ({ direction: "UP" }),
  },
  {
    field: "Mutation.startBrazilKyb",
    capabilities: ["PROVIDER_ACCOUNTS"],
    allowedOutcome: "not-refused",
    document: "mutation Start($id: ID!) { startBrazilKyb(subAccountId: $id) { attemptId basicCompanyDataUrl } }",
    variables: () => ({ id: randomUUID() }),
    invalidVariables: () => ({ id: true }),
  },
  {
    field: "Query.brazilKybAttempt",
    capabilities: ["PROVIDER_ACCOUNTS"],
    allowedOutcome: "not-refused",
    document: "query Attempt($id: ID!) { brazilKybAttempt(attemptId: $id) { status result retryable } }",
    variables: () => ({ id: randomUUID() }),
    invalidVariables: () => ({ id: true }),
  },
  // The owner's case is no longer open for an import: an allowed caller gets 400; a child's own key is refused.
  {
    field: "Mutation.importBrazilKycToken",
    capabilities: ["BR_KYC_IMPORT"],
    childCredential: "refused",
    allowedOutcome: "not-refused",
    document:
      "mutation Import($input: ImportBrazilKycTokenInput!, $key: String!) { importBrazilKycToken(input: $input, idempotencyKey: $key) { attemptId status } }",
    variables: () => ({ input: { importToken: "share-token", consentAttested: true }, key: randomUUID() }),
    invalidVariables: () => ({ input: { importToken: 42, consentAttested: true }, key: randomUUID() }),
  },
  // Uploads of a subaccount the caller does not have: a domain answer, never 401/403.
  {
    field: "Mutation.requestBrazilKycUploads",
    capabilities: ["PROVIDER_ACCOUNTS"],
    allowedOutcome: "not-refused",
    document:
      "mutation Uploads($input: RequestBrazilKycUploadsInput!) { requestBrazilKycUploads(input: $input) { identityDocument { documentId frontUploadUrl } selfie { documentId } } }",
    variables: () => ({ input: { taxId: randomCpf(), documentType: "ID" } }),
    invalidVariables: () => ({ input: { taxId: randomCpf(), documentType: "PASSPORT" } }),
  },
  {
    field: "Mutation.requestBrazilSelfieUpload",
    capabilities: ["PROVIDER_ACCOUNTS"],
    allowedOutcome: "not-refused",
    document:
      "mutation Selfie($taxId: String!) { requestBrazilSelfieUpload(taxId: $taxId) { selfieUpload { documentId livenessUrl } } }",
    variables: () => ({ taxId: randomCpf() }),
    invalidVariables: () => ({ taxId: 42 }),
  },
  {
    field: "Mutation.createBrazilKybDocument",
    capabilities: ["PROVIDER_ACCOUNTS"],
    allowedOutcome: "not-refused",
    document:
      "mutation Document($id: ID!, $input: CreateBrazilKybDocumentInput!) { createBrazilKybDocument(subAccountId: $id, input: $input) { documentUpload { documentId frontUploadUrl } } }",
    variables: () => ({ id: randomUUID(), input: { documentType: "CERTIFICATE_OF_INCORPORATION" } }),
    invalidVariables: () => ({ id: randomUUID(), input: { documentType: "CERTIFICATE-OF-INCORPORATION" } }),
  },
  {
    field: "Query.brazilKybDocument",
    capabilities: ["PROVIDER_ACCOUNTS"],
    allowedOutcome: "not-refused",
    document:
      "query Document($subAccountId: ID!, $documentId: ID!) { brazilKybDocument(subAccountId: $subAccountId, documentId: $documentId) { documentId front ready } }",
    variables: () => ({ subAccountId: randomUUID(), documentId: randomUUID() }),
    invalidVariables: () => ({ subAccountId: true, documentId: randomUUID() }),
  },
  {
    field: "Mutation.createBrazilKybBeneficialOwner",
    capabilities: ["PROVIDER_ACCOUNTS"],
    allowedOutcome: "not-refused",
    document:
      "mutation Owner($id: ID!, $input: CreateBrazilKybBeneficialOwnerInput!) { createBrazilKybBeneficialOwner(subAccountId: $id, input: $input) { beneficialOwnerId } }",
    variables: () => ({ id: randomUUID(), input: { ...BENEFICIAL_OWNER, uploadedIdentificationId: randomUUID() } }),
    invalidVariables: () => ({ id: randomUUID(), input: { fullName: "Bruno Lima" } }),
  },
  {
    field: "Mutation.submitBrazilKyb",
    capabilities: ["PROVIDER_ACCOUNTS"],
    allowedOutcome: "not-refused",
    document:
      "mutation Kyb($id: ID!, $input: SubmitBrazilKybInput!) { submitBrazilKyb(subAccountId: $id, input: $input) { attemptId } }",
    variables: () => ({ id: randomUUID(), input: unknownKybLevelOne() }),
    invalidVariables: () => ({ id: randomUUID(), input: { companyLegalName: "Acme" } }),
  },
  {
    field: "Mutation.recordBrazilKycAttempt",
    capabilities: ["PROVIDER_ACCOUNTS"],
    ownedInputs: true,
    document:
      "mutation Record($input: RecordBrazilKycAttemptInput!) { recordBrazilKycAttempt(input: $input) { kycAttempt { quoteId sessionId recordedAt } } }",
    variables: async (fx, caller) => ({ input: { quoteId: await fx.quote(caller), taxId: randomCpf() } }),
    invalidVariables: () => ({ input: { taxId: randomCpf() } }),
  },

  // GraphQL: public reference data.
  {
    field: "Query.supportedCountries",
    capabilities: ["REFERENCE_DATA"],
    document:
      "query Countries($fiat: FiatCurrencySymbol) { supportedCountries(fiatCurrency: $fiat) { countryCode name support { buy sell } } }",
    variables: () => ({ fiat: "EUR" }),
    invalidVariables: () => ({ fiat: "JPY" }),
  },
  {
    field: "Query.supportedCryptocurrencies",
    capabilities: ["REFERENCE_DATA"],
    document:
      "query Assets($network: Network) { supportedCryptocurrencies(network: $network) { assetSymbol assetContractAddress } }",
    variables: () => ({ network: "POLYGON" }),
    invalidVariables: () => ({ network: "SOLANA" }),
  },
  {
    field: "Query.supportedFiatCurrencies",
    capabilities: ["REFERENCE_DATA"],
    document: "query { supportedFiatCurrencies { symbol decimals } }",
  },
  {
    field: "Query.webhookSigningKey",
    capabilities: ["REFERENCE_DATA"],
    document: "query { webhookSigningKey { publicKey algorithm } }",
  },
  {
    field: "Query.supportedPaymentMethods",
    capabilities: ["REFERENCE_DATA"],
    document:
      "query Rails($type: RampDirection, $fiat: FiatCurrencySymbol) { supportedPaymentMethods(type: $type, fiat: $fiat) { id limits { min max } } }",
    variables: () => ({ type: "SELL", fiat: "BRL" }),
    invalidVariables: () => ({ type: "SWAP" }),
  },

  // GraphQL: managed children.
  {
    field: "Query.managedProfiles",
    capabilities: ["MANAGED_PROFILES"],
    childCredential: "refused",
    document:
      "query List($status: ManagedProfileFilter!) { managedProfiles(first: 5, status: $status) { count edges { node { profileId status } } } }",
    variables: () => ({ status: "ALL" }),
    invalidVariables: () => ({ status: "EVERYTHING" }),
  },
  {
    field: "Query.managedProfile",
    capabilities: ["MANAGED_PROFILES"],
    childCredential: "refused",
    document: "query Get($id: ID!) { managedProfile(profileId: $id) { profileId externalSubjectId contactEmail } }",
    variables: async (fx) => ({ id: (await fx.child()).profileId }),
    invalidVariables: () => ({}),
  },
  {
    field: "Query.managerPolicy",
    capabilities: ["MANAGED_PROFILES"],
    childCredential: "refused",
    document: "query { managerPolicy { profileId allowedCorridors allowedCustomerTypes isActive } }",
  },
  {
    field: "ManagedProfile.apiCredentials",
    capabilities: ["MANAGED_PROFILES", "MANAGE_CHILD_CREDENTIALS"],
    childCredential: "refused",
    document:
      "query Keys($id: ID!) { managedProfile(profileId: $id) { profileId apiCredentials { count edges { node { id publicKey } } } } }",
    variables: async (fx) => ({ id: (await fx.child()).profileId }),
    invalidVariables: () => ({}),
  },
  {
    field: "ManagedProfile.ramps",
    capabilities: ["MANAGED_PROFILES", "RAMP_OPERATIONS", "ACT_FOR_MANAGED_CHILD"],
    childCredential: "refused",
    document:
      "query ChildRamps($id: ID!) { managedProfile(profileId: $id) { profileId ramps(first: 5) { totalCount } } }",
    variables: async (fx) => ({ id: (await fx.child()).profileId }),
    invalidVariables: () => ({}),
  },
  {
    field: "ManagedProfile.customers",
    capabilities: ["MANAGED_PROFILES", "PROVIDER_ACCOUNTS", "ACT_FOR_MANAGED_CHILD"],
    childCredential: "refused",
    document: "query ChildCustomers($id: ID!) { managedProfile(profileId: $id) { profileId customers { corridor } } }",
    variables: async (fx) => ({ id: (await fx.child()).profileId }),
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.createManagedProfile",
    capabilities: ["MANAGED_PROFILES"],
    childCredential: "refused",
    document:
      "mutation Create($input: CreateManagedProfileInput!) { createManagedProfile(input: $input) { created managedProfile { profileId } } }",
    variables: () => ({
      input: {
        externalSubjectId: `security-created-${randomUUID()}`,
        contactEmail: `security-created-${randomUUID()}@example.com`,
        customerType: "INDIVIDUAL",
      },
    }),
    invalidVariables: () => ({
      input: { externalSubjectId: "x", contactEmail: "x@example.com", customerType: "PERSON" },
    }),
  },
  {
    field: "Mutation.deleteManagedProfile",
    capabilities: ["MANAGED_PROFILES"],
    childCredential: "refused",
    document: "mutation Delete($id: ID!) { deleteManagedProfile(profileId: $id) { deletedProfileId } }",
    variables: async (fx) => ({ id: (await fx.child()).profileId }),
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.createManagedProfileCredential",
    capabilities: ["MANAGE_CHILD_CREDENTIALS"],
    childCredential: "refused",
    document:
      "mutation Issue($id: ID!, $input: CreateApiCredentialInput) { createManagedProfileCredential(profileId: $id, input: $input) { credential { secretKey credential { id profileId } } } }",
    variables: async (fx) => ({
      id: (await fx.child()).profileId,
      input: { name: "security suite: child credential" },
    }),
    invalidVariables: async (fx) => ({ id: (await fx.child()).profileId, input: { expiresAt: "tomorrow" } }),
  },
  {
    field: "Mutation.revokeManagedProfileCredential",
    capabilities: ["MANAGE_CHILD_CREDENTIALS"],
    childCredential: "refused",
    document:
      "mutation Revoke($id: ID!, $credentialId: ID!) { revokeManagedProfileCredential(profileId: $id, credentialId: $credentialId) { revokedCredentialId } }",
    variables: async (fx) => {
      const credential = await fx.spareChildCredential();
      return { id: credential.profileId, credentialId: credential.id };
    },
    invalidVariables: () => ({}),
  },

  // GraphQL: the operator surface, on its own endpoint.
  {
    field: "Query.manager",
    endpoint: "/admin/graphql",
    capabilities: ["OPERATOR"],
    document: "query Manager($id: ID!) { manager(profileId: $id) { profileId allowedCorridors isActive } }",
    variables: (fx) => ({ id: fx.owner.profileId }),
    invalidVariables: () => ({}),
  },
  {
    field: "Query.pricingAssignment",
    endpoint: "/admin/graphql",
    capabilities: ["OPERATOR"],
    document: "query Pricing($id: ID!) { pricingAssignment(profileId: $id) { profileId pricingProfile } }",
    variables: (fx) => ({ id: fx.pricedProfileId }),
    invalidVariables: () => ({}),
  },
  {
    field: "Query.auditEvents",
    endpoint: "/admin/graphql",
    capabilities: ["OPERATOR"],
    document:
      "query Audit($action: AuditAction, $first: Int!) { auditEvents(action: $action, first: $first) { edges { node { id action actor { channel } } } } }",
    variables: () => ({ action: "PARTNER_CREATED", first: 5 }),
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.putManager",
    endpoint: "/admin/graphql",
    capabilities: ["OPERATOR"],
    document:
      "mutation Put($id: ID!, $policy: ManagerPolicyInput!) { putManager(profileId: $id, policy: $policy) { manager { profileId isActive } } }",
    variables: async (fx) => ({
      id: await fx.nonManagerProfile(),
      policy: { allowedCorridors: ["BR", "MX"], isActive: true },
    }),
    invalidVariables: async (fx) => ({
      id: await fx.nonManagerProfile(),
      policy: { allowedCorridors: ["XX"], isActive: true },
    }),
  },
  {
    field: "Mutation.assignPricingProfile",
    endpoint: "/admin/graphql",
    capabilities: ["OPERATOR"],
    document:
      "mutation Assign($id: ID!, $name: PricingProfileName!) { assignPricingProfile(profileId: $id, pricingProfile: $name) { pricingAssignment { profileId pricingProfile } } }",
    // GraphQL names partner-markup PARTNER_MARKUP (the PricingProfileName enum).
    variables: async (fx) => ({
      id: fx.pricedProfileId,
      name: (await otherPricingProfile(fx)).replace(/-/g, "_").toUpperCase(),
    }),
    invalidVariables: (fx) => ({ id: fx.pricedProfileId, name: 42 }),
  },
  {
    field: "Mutation.createPartner",
    endpoint: "/admin/graphql",
    capabilities: ["OPERATOR"],
    document: "mutation Partner($name: String!) { createPartner(name: $name) { partner { id name isActive } } }",
    variables: () => ({ name: "security suite: created partner" }),
    invalidVariables: () => ({ name: 42 }),
  },
  {
    field: "Mutation.setPartnerActive",
    endpoint: "/admin/graphql",
    capabilities: ["OPERATOR"],
    document:
      "mutation Toggle($id: ID!, $active: Boolean!) { setPartnerActive(partnerId: $id, isActive: $active) { partner { id isActive } } }",
    variables: async (fx) => ({
      id: fx.togglePartnerId,
      active: !(await fx.t.app.db.partner.findUniqueOrThrow({ where: { id: fx.togglePartnerId } })).isActive,
    }),
    invalidVariables: (fx) => ({ id: fx.togglePartnerId, active: "yes" }),
  },
  {
    field: "Mutation.issuePartnerCredential",
    endpoint: "/admin/graphql",
    capabilities: ["OPERATOR"],
    document:
      "mutation IssuePartner($id: ID!, $input: PartnerCredentialInput!) { issuePartnerCredential(partnerId: $id, input: $input) { credential { secretKey credential { id partnerId profileId } } } }",
    variables: async (fx) => ({
      id: fx.partner.id,
      input: { profileId: await fx.partner.subject(), name: "security suite: partner-managed" },
    }),
    invalidVariables: (fx) => ({ id: fx.partner.id, input: { name: "no subject" } }),
  },

  // GraphQL: quotes and widget sessions (every kind), ramps (secret keys and sessions; a child's own key acts
  // as the child), rampInfo and limits. Objects named by the inputs are fresh and the caller's own (fx.quote,
  // fx.ramp with `caller`); registerRamp consumes a quote and startRamp a ramp, so each case gets new ones.
  {
    field: "Query.quote",
    capabilities: ["QUOTE"],
    ownedInputs: true,
    document:
      "query Quote($id: ID!) { quote(id: $id) { id rampType inputAmount outputAmount totalFeeFiat totalFeeUSD expiresAt } }",
    variables: async (fx, caller) => ({ id: await fx.quote(caller) }),
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.createQuote",
    capabilities: ["QUOTE"],
    document:
      "mutation CreateQuote($input: CreateQuoteInput!) { createQuote(input: $input) { quote { id rampType outputAmount totalFeeFiat } } }",
    variables: () => ({ input: { ...BUY_QUOTE } }),
    invalidVariables: () => ({ input: { ...BUY_QUOTE, rampType: "SWAP" } }),
  },
  {
    field: "Mutation.createBestQuote",
    capabilities: ["QUOTE"],
    document:
      "mutation BestQuote($input: CreateBestQuoteInput!) { createBestQuote(input: $input) { quote { id network outputAmount } } }",
    variables: () => ({
      input: {
        rampType: "BUY",
        inputAmount: "250.00",
        inputCurrency: "BRL",
        outputCurrency: "USDC",
        networks: ["POLYGON", "BASE"],
      },
    }),
    invalidVariables: () => ({
      input: { rampType: "BUY", inputAmount: 250, inputCurrency: "BRL", outputCurrency: "USDC" },
    }),
  },
  {
    field: "Mutation.createWidgetSession",
    capabilities: ["QUOTE"],
    ownedInputs: true,
    document:
      "mutation WidgetSession($input: CreateWidgetSessionInput!) { createWidgetSession(input: $input) { widgetSession { sessionId url } } }",
    variables: async (fx, caller) => ({
      input: { quoteId: await fx.quote(caller), externalSessionId: `security-${randomUUID()}` },
    }),
    invalidVariables: () => ({
      input: { rampType: "BUY", network: "MARS", inputAmount: "100", externalSessionId: "security" },
    }),
  },
  {
    field: "Mutation.registerRamp",
    capabilities: ["RAMP_OPERATIONS"],
    ownedInputs: true,
    document:
      "mutation Register($input: RegisterRampInput!) { registerRamp(input: $input) { ramp { id status currentPhase errors { phase } } } }",
    variables: async (fx, caller) => ({ input: { quoteId: await fx.quote(caller), destinationAddress: EVM_ADDRESS } }),
    invalidVariables: () => ({ input: { destinationAddress: EVM_ADDRESS } }),
  },
  {
    field: "Mutation.updateRamp",
    capabilities: ["RAMP_OPERATIONS"],
    ownedInputs: true,
    document: "mutation Update($input: UpdateRampInput!) { updateRamp(input: $input) { ramp { id currentPhase } } }",
    variables: async (fx, caller) => ({
      input: { rampId: await fx.ramp(caller), presignedTxs: [{ phase: "security-suite", signedTransaction: "0x01" }] },
    }),
    invalidVariables: () => ({ input: { rampId: randomUUID(), presignedTxs: ["not an object"] } }),
  },
  // GraphQL: recipients, like the REST routes (a session only).
  {
    field: "Query.recipients",
    capabilities: ["RECIPIENTS"],
    document: "query { recipients(first: 5) { count edges { node { id relationship } } } }",
  },
  {
    field: "Query.recipientInvitations",
    capabilities: ["RECIPIENTS"],
    document:
      "query List($archived: Boolean!) { recipientInvitations(archived: $archived, first: 5) { count edges { node { id status } } } }",
    variables: () => ({ archived: false }),
    invalidVariables: () => ({ archived: "sometimes" }),
  },
  {
    field: "Query.recipientEligibility",
    capabilities: ["RECIPIENTS"],
    allowedOutcome: "not-refused",
    document: "query Eligibility($id: ID!) { recipientEligibility(id: $id) { corridor canReceive } }",
    variables: async (fx) => ({ id: await ownerInvitation(fx) }),
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.inviteRecipient",
    capabilities: ["RECIPIENTS"],
    document:
      "mutation Invite($email: String!) { inviteRecipient(email: $email, relationship: FRIEND) { invitation { id status } } }",
    variables: () => ({ email: `invitee-${randomUUID()}@example.com` }),
    invalidVariables: () => ({ email: 42 }),
  },
  {
    field: "Mutation.archiveRecipientInvitation",
    capabilities: ["RECIPIENTS"],
    document: "mutation Archive($id: ID!) { archiveRecipientInvitation(id: $id) { invitation { id archived } } }",
    variables: async (fx) => ({ id: await ownerInvitation(fx) }),
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.updateRecipientRelationship",
    capabilities: ["RECIPIENTS"],
    document:
      "mutation Update($id: ID!) { updateRecipientRelationship(id: $id, relationship: BUSINESS) { relationship } }",
    variables: async (fx) => ({ id: await ownerInvitation(fx) }),
    invalidVariables: () => ({}),
  },
  {
    field: "Query.recipientInvitationPreview",
    capabilities: ["RECIPIENTS"],
    childCredential: "refused",
    allowedOutcome: "not-refused",
    document: "query Preview($code: String!) { recipientInvitationPreview(code: $code) { invitationId sender } }",
    variables: () => ({ code: "not-a-code" }),
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.acceptRecipientInvitation",
    capabilities: ["RECIPIENTS"],
    childCredential: "refused",
    allowedOutcome: "not-refused",
    document: "mutation Accept($code: String!) { acceptRecipientInvitation(code: $code) { invitationId } }",
    variables: () => ({ code: "not-a-code" }),
    invalidVariables: () => ({}),
  },
  // GraphQL: the subject's customers and their KYC/KYB status.
  {
    field: "Query.customers",
    capabilities: ["PROVIDER_ACCOUNTS"],
    document: "query { customers { customerId corridor customerType kycStatus } }",
  },
  // GraphQL: domestic customers and KYC/KYB, like /v1/domestic (the country is an argument). The owner and the
  // suite's children completed KYC in US: reads succeed; changes get a domain answer, never 401/403.
  ...domesticKycGraphQLTargets(),
  // GraphQL: payout fiat accounts, like the REST routes.
  {
    field: "Query.fiatAccounts",
    capabilities: ["PROVIDER_ACCOUNTS"],
    document:
      "query List($country: FiatAccountCountry!) { fiatAccounts(country: $country, first: 5) { count edges { node { fiatAccountId accountNumber } } } }",
    variables: () => ({ country: "US" }),
    invalidVariables: () => ({ country: "BR" }),
  },
  {
    field: "Mutation.createFiatAccount",
    capabilities: ["PROVIDER_ACCOUNTS"],
    document:
      "mutation Create($input: CreateFiatAccountInput!) { createFiatAccount(input: $input) { fiatAccount { fiatAccountId customerId } } }",
    variables: () => ({ input: { ...FIAT_ACCOUNTS[0]![1], accountType: "CHECKING" } }),
    invalidVariables: () => ({ input: { country: "US" } }),
  },
  {
    field: "Mutation.deleteFiatAccount",
    capabilities: ["PROVIDER_ACCOUNTS"],
    ownedInputs: true,
    document: "mutation Delete($id: ID!) { deleteFiatAccount(fiatAccountId: $id) { deletedFiatAccountId } }",
    variables: async (fx, caller) => ({ id: await fiatAccountOf(fx, caller, "/v1/domestic", FIAT_ACCOUNTS[0]![1]) }),
    invalidVariables: () => ({}),
  },
  // GraphQL: webhook subscriptions and their delivery logs, like the REST routes.
  {
    field: "Query.webhooks",
    capabilities: ["WEBHOOK_MANAGEMENT"],
    childCredential: "refused",
    document:
      "query { webhooks(first: 5) { count edges { node { id isActive deliveries(first: 5) { count edges { node { id status attempts { statusCode } } } } } } } }",
  },
  {
    field: "Webhook.deliveries",
    capabilities: ["WEBHOOK_MANAGEMENT"],
    childCredential: "refused",
    document: "query { webhooks(first: 5) { edges { node { deliveries(first: 5) { count } } } } }",
  },
  {
    field: "Mutation.registerWebhook",
    capabilities: ["WEBHOOK_MANAGEMENT"],
    childCredential: "refused",
    ownedInputs: true,
    document:
      "mutation Register($input: RegisterWebhookInput!) { registerWebhook(input: $input) { webhook { id events isActive } } }",
    variables: async (fx, caller) => ({ input: { url: WEBHOOK_URL, quoteId: await fx.quote(caller) } }),
    invalidVariables: () => ({ input: { url: 42 } }),
  },
  {
    field: "Mutation.deleteWebhook",
    capabilities: ["WEBHOOK_MANAGEMENT"],
    childCredential: "refused",
    ownedInputs: true,
    document: "mutation Delete($id: ID!) { deleteWebhook(id: $id) { deletedWebhookId } }",
    variables: async (fx) => ({ id: await ownerWebhook(fx) }),
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.redeliverWebhookDelivery",
    capabilities: ["WEBHOOK_MANAGEMENT"],
    childCredential: "refused",
    ownedInputs: true,
    document:
      "mutation Redeliver($webhookId: ID!, $deliveryId: ID!) { redeliverWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) { delivery { id status } } }",
    variables: async (fx) => {
      const { id, deliveryId } = await ownerDelivery(fx);
      return { webhookId: id, deliveryId };
    },
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.sendWebhookTestEvent",
    capabilities: ["WEBHOOK_MANAGEMENT"],
    childCredential: "refused",
    ownedInputs: true,
    document:
      "mutation Test($webhookId: ID!) { sendWebhookTestEvent(webhookId: $webhookId) { delivery { id status } } }",
    variables: async (fx) => ({ webhookId: await ownerWebhook(fx) }),
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.startRamp",
    capabilities: ["RAMP_OPERATIONS"],
    ownedInputs: true,
    document: "mutation Start($id: ID!) { startRamp(rampId: $id) { ramp { id currentPhase startedAt } } }",
    variables: async (fx, caller) => ({ id: await fx.ramp(caller) }),
    invalidVariables: () => ({}),
  },
  {
    field: "Query.ramp",
    capabilities: ["RAMP_OPERATIONS"],
    ownedInputs: true,
    document:
      "query Ramp($id: ID!) { ramp(id: $id) { id status currentPhase paymentInstructions { reference } errors { phase error } } }",
    variables: async (fx, caller) => ({ id: await fx.ramp(caller) }),
    invalidVariables: () => ({}),
  },
  // node(id) may answer any kind that has a lookup of its own, so it needs every task of theirs.
  {
    field: "Query.node",
    capabilities: ["RAMP_OPERATIONS", "QUOTE", "MANAGED_PROFILES"],
    ownedInputs: true,
    document: "query Node($id: ID!) { node(id: $id) { id ... on Ramp { status currentPhase } } }",
    variables: async (fx, caller) => ({ id: await fx.ramp(caller) }),
    invalidVariables: () => ({}),
  },
  {
    field: "Query.ramps",
    capabilities: ["RAMP_OPERATIONS"],
    document:
      "query Ramps($first: Int!) { ramps(first: $first) { count edges { node { id status errors { phase } } } pageInfo { hasNextPage } } }",
    variables: () => ({ first: 5 }),
    invalidVariables: () => ({ first: "five" }),
  },
  {
    field: "Query.rampInfo",
    capabilities: ["RAMP_INFO"],
    document: "query { rampInfo { corridors { corridor kycStatus canBuy canSell } } }",
  },
  {
    field: "Query.limits",
    capabilities: ["EXACT_LIMITS"],
    document:
      "query Limits($corridors: [Corridor!]!) { limits(corridors: $corridors) { corridor direction max used } }",
    variables: () => ({ corridors: ["BR", "MX"] }),
    invalidVariables: () => ({ corridors: ["XX"] }),
  },
  {
    field: "Query.onboardingStatus",
    capabilities: ["EXACT_LIMITS"],
    document:
      "query { onboardingStatus { activeEntityId selectionRequired roles entities { id accounts { id corridor status } } } }",
  },
  {
    field: "OnboardingStatus.latestBrazilKycAttempt",
    capabilities: ["EXACT_LIMITS", "PROVIDER_ACCOUNTS"],
    document: "query { onboardingStatus { activeEntityId latestBrazilKycAttempt { quoteId sessionId recordedAt } } }",
  },
  {
    field: "Mutation.selectActiveEntity",
    capabilities: ["ACTIVE_ENTITY"],
    document:
      "mutation Select($type: CustomerType!) { selectActiveEntity(customerType: $type) { activeEntity { activeEntityId customerType } } }",
    variables: () => ({ type: "INDIVIDUAL" }),
    invalidVariables: () => ({ type: "PERSON" }),
  },
  {
    field: "Query.onboardingRequirements",
    capabilities: ["REFERENCE_DATA"],
    document:
      "query Requirements($country: Corridor!, $customerType: CustomerType!) { onboardingRequirements(country: $country, customerType: $customerType) { flow steps { order path } } }",
    variables: () => ({ country: "BR", customerType: "INDIVIDUAL" }),
    invalidVariables: () => ({ country: "XX", customerType: "INDIVIDUAL" }),
  },
];

/**
 * Open sign-in, rate-limited per IP; upload URLs, which the token in them authorizes (no credential is read;
 * uploads.test.ts refuses forged, expired and used ones); and partner callbacks, which the partner's signature
 * authorizes (partner-callbacks.test.ts refuses forged, replayed, oversized and malformed ones): not part of the suite.
 */
const EXEMPT_REST = [
  "POST /v1/auth/request-otp",
  "POST /v1/auth/verify-otp",
  "PUT /v1/uploads/{uploadId}",
  "POST /v1/webhooks/avenia",
  "POST /v1/webhooks/alfredpay",
];
/** Operator routes outside the integrators' OpenAPI document. */
const UNDOCUMENTED_REST = ["GET /metrics"];
const EXEMPT_GRAPHQL = ["Mutation.requestOtp", "Mutation.verifyOtp"];

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(SECURITY_SUITE_ENV);
});
afterAll(() => t?.close());

securitySuite(() => t, TARGETS, { schema: buildGraphQLSchema, adminSchema: buildAdminGraphQLSchema });

describe("security suite registry is complete", () => {
  const restTargets: string[] = TARGETS.filter(isRest)
    .map((target) => target.route)
    .sort();
  /** The coordinates the registry covers on one endpoint. */
  const graphQLTargets = (endpoint: "/graphql" | "/admin/graphql"): string[] =>
    TARGETS.flatMap((target) =>
      isRest(target) || (target.endpoint ?? "/graphql") !== endpoint ? [] : [target.field],
    ).sort();

  it("registers every documented REST operation (OpenAPI at /v1/openapi.json)", async () => {
    const documented = await documentedRoutes(t);
    expect(documented.filter((route) => !EXEMPT_REST.includes(route) && !restTargets.includes(route))).toEqual([]);
    expect(restTargets.filter((route) => !documented.includes(route) && !UNDOCUMENTED_REST.includes(route))).toEqual(
      [],
    );
    expect(documented.filter((route) => UNDOCUMENTED_REST.includes(route))).toEqual([]);
  });

  it("registers every route of the router that authenticates, documented or not", async () => {
    const routes = routerRoutes(t);
    expect(routes).toContain("DELETE /v1/api-credentials/{credentialId}");
    expect(restTargets.filter((route) => !routes.includes(route))).toEqual([]);
    const authenticating = await authenticatingRoutes(t, { skip: EXEMPT_REST });
    // The probe itself works: the registered routes are found by it.
    expect(authenticating).toEqual(expect.arrayContaining(restTargets));
    expect(authenticating.filter((route) => !restTargets.includes(route))).toEqual([]);
  });

  it("registers every Query and Mutation field and every other field carrying @auth, on each endpoint", async () => {
    const toCover = graphQLCoordinatesToCover(await buildGraphQLSchema(), EXEMPT_GRAPHQL);
    expect(toCover).toContain("Profile.apiCredentials");
    expect(toCover.filter((coordinate) => !graphQLTargets("/graphql").includes(coordinate))).toEqual([]);
    expect(graphQLTargets("/graphql").filter((coordinate) => !toCover.includes(coordinate))).toEqual([]);
    const operatorToCover = graphQLCoordinatesToCover(await buildAdminGraphQLSchema(), []);
    expect(operatorToCover).toContain("Mutation.putManager");
    expect(graphQLTargets("/admin/graphql")).toEqual(operatorToCover);
  });
});
