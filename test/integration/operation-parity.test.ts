import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRAPHQL_FACES } from "../../src/graphql/operation-field.js";
import * as admin from "../../src/operations/admin.js";
import * as credentials from "../../src/operations/credentials.js";
import { BRAZIL_CUSTOMER_OPERATIONS, BRLA_CUSTOMER_OPERATIONS } from "../../src/operations/brazil-customers.js";
import {
  ALIASED_CUSTOMER_OPERATIONS,
  DOMESTIC_CUSTOMER_OPERATIONS as DOMESTIC,
} from "../../src/operations/customers.js";
import * as fiatAccounts from "../../src/operations/fiat-accounts.js";
import * as identity from "../../src/operations/identity.js";
import * as managedProfiles from "../../src/operations/managed-profiles.js";
import * as onboarding from "../../src/operations/onboarding.js";
import type { AnyOperation } from "../../src/operations/operation.js";
import * as quotes from "../../src/operations/quotes.js";
import * as ramps from "../../src/operations/ramps.js";
import * as recipients from "../../src/operations/recipients.js";
import * as referenceData from "../../src/operations/reference-data.js";
import * as webhooks from "../../src/operations/webhooks.js";
import { REST_FACES } from "../../src/rest/operation-route.js";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { ok } from "../support/kit.js";
import { LEVEL_ONE_KYC, randomCnpj, randomCpf, uploadKycDocuments } from "../support/kyc.js";
import { rememberSecret } from "../support/secrets.js";

/**
 * Every operation served both over REST and as a GraphQL root field accepts and refuses the same inputs
 * with the same codes (issue 12, item 1). The inputs are a well-formed one (a success or a domain answer,
 * which both faces must agree on) and variants derived from the operation's schema: each field left out,
 * each field null, each field of the wrong JSON type, each string one character over its limit.
 * Each face gets its own freshly prepared caller and input, so one face's success never changes the other's.
 */

type Headers = Record<string, string>;
type Input = Record<string, unknown>;

interface Parity {
  /** A caller and a well-formed input, made afresh for every request. */
  prepare(): Promise<{ headers: Headers; input: Input }>;
  /** The GraphQL face: its document and variables for an input under the operation's names. */
  graphql(input: Input): { query: string; variables: Input };
}

/** Operations with both faces whose inputs differ by design, so that no input is the same on both. */
const DIFFERENT_INPUTS = new Map<AnyOperation, string>([
  [
    BRAZIL_CUSTOMER_OPERATIONS.importToken,
    "REST takes the idempotency key from the Idempotency-Key header and refuses it in the body; GraphQL takes it as the idempotencyKey argument (kyc-import-token.test.ts runs both faces)",
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.createKybDocument,
    "REST names the subaccount in the query and the document in the body, as the reference; GraphQL takes both as arguments (uploads.test.ts runs both faces)",
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.createKybUbo,
    "REST names the subaccount in the query and the owner in the body, as the reference; GraphQL takes the subaccount and an input argument (kyb-api.test.ts runs both faces)",
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.submitKybApi,
    "REST names the subaccount in the query and the company in the body, as the reference; GraphQL takes the subaccount and an input argument (kyb-api.test.ts runs both faces)",
  ],
  [ramps.getRampHistory, "REST pages by limit and offset, GraphQL by first and an opaque cursor"],
  [
    fiatAccounts.listDomesticFiatAccounts,
    "REST takes the country from the alias path or the query and pages by limit and offset; GraphQL requires the country and pages by first and an opaque cursor",
  ],
  [webhooks.listWebhooks, "REST pages by limit and offset, GraphQL by first and an opaque cursor"],
  [
    webhooks.listWebhookDeliveries,
    "REST names the webhook in the path and pages by limit and offset; GraphQL reads the deliveries as a field of a webhook, paged by first and an opaque cursor",
  ],
  [managedProfiles.listManagedProfiles, "REST pages by limit and offset, GraphQL by first and an opaque cursor"],
  [
    managedProfiles.listManagedProfileApiCredentials,
    "REST names the child in the path and pages by limit and offset; GraphQL reads them as a field of the child, paged by first and an opaque cursor",
  ],
  [credentials.listApiCredentials, "REST pages by limit and offset, GraphQL by first and an opaque cursor"],
  [recipients.listRecipients, "REST pages by limit and offset, GraphQL by first and an opaque cursor"],
  [recipients.listRecipientInvitations, "REST pages by limit and offset, GraphQL by first and an opaque cursor"],
  [admin.listAuditEvents, "REST pages by limit and offset, GraphQL by first and an opaque cursor"],
]);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
    RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000",
    RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "100000",
  });
});
afterAll(() => t?.close());

async function session(): Promise<Headers> {
  return (await t.signIn()).headers;
}

async function manager(): Promise<Headers> {
  return (await t.newManager(["BR", "MX"])).session;
}

async function child(headers: Headers): Promise<string> {
  const created = await t.request("POST", "/v1/managed-profiles", {
    headers,
    body: { externalSubjectId: randomUUID(), contactEmail: `${randomUUID()}@example.com`, customerType: "individual" },
  });
  return ok(created, 201).managedProfile.profileId;
}

async function quote(headers: Headers): Promise<string> {
  const body = {
    rampType: "BUY",
    from: "pix",
    to: "polygon",
    inputAmount: "100",
    inputCurrency: "BRL",
    outputCurrency: "USDC",
  };
  return ok(await t.request("POST", "/v1/quotes", { headers, body }), 201).id;
}

/** A caller with approved KYC and a ramp registered from a BUY quote, still startable. */
async function registeredRamp(): Promise<{ headers: Headers; rampId: string }> {
  const headers = await session();
  await t.completeKyc(headers);
  const body = { quoteId: await quote(headers), destinationAddress: "0x1111111111111111111111111111111111111111" };
  return { headers, rampId: ok(await t.request("POST", "/v1/ramp/register", { headers, body }), 201).id };
}

async function invitation(headers: Headers, email = `${randomUUID()}@example.com`): Promise<string> {
  const body = { email, relationship: "friend" };
  return ok(await t.request("POST", "/v1/recipients/invitations", { headers, body }), 201).id;
}

/** An invitee signed in with the invited email, and the code mailed to it. */
async function invitee(): Promise<{ headers: Headers; input: Input }> {
  const email = `${randomUUID()}@example.com`;
  await invitation(await session(), email);
  const code = await t.smtp.nextInvitationCode(email);
  return { headers: (await t.signIn(email)).headers, input: { code } };
}

/** A BR subaccount of the caller's (a company's with a CNPJ): its id and tax id. */
async function brazilSubaccount(
  headers: Headers,
  accountType: "INDIVIDUAL" | "COMPANY",
): Promise<{ subAccountId: string; taxIdNumber: string }> {
  const taxId = accountType === "COMPANY" ? randomCnpj() : randomCpf();
  const body = { accountType, name: "Ana Souza", taxId };
  const { subAccountId } = ok(await t.request("POST", "/v1/brl/createSubaccount", { headers, body }));
  return { subAccountId, taxIdNumber: taxId };
}

/** A signed-in profile enabled as a manager by the operator: its id. */
async function managerId(): Promise<string> {
  return (await t.newManager()).profileId;
}

/** A quote request every face accepts: a BUY over PIX to Polygon, with the optional fields that must match it. */
const QUOTE_REQUEST = {
  rampType: "BUY",
  from: "pix",
  to: "polygon",
  inputAmount: "100",
  inputCurrency: "BRL",
  outputCurrency: "USDC",
  network: "polygon",
  paymentMethod: "pix",
  countryCode: "BR",
};

/** Webhook management is a secret key's: a fresh profile's key. */
async function secretKey(): Promise<Headers> {
  return { "x-api-key": (await t.createCredential(await session())).secretKey };
}

/** A key and a webhook it registered for a quote created with it. */
async function webhook(): Promise<{ headers: Headers; id: string }> {
  const headers = await secretKey();
  const body = { url: "https://93.184.215.14/hook", quoteId: await quote(headers) };
  return { headers, id: ok(await t.request("POST", "/v1/webhook", { headers, body }), 201).id };
}

/** A fresh session whose subject has a domestic customer of that type in the country (made over REST). */
async function domesticCustomer(country: string, customerType: "Individual" | "Business" = "Individual") {
  const headers = await session();
  ok(await t.request("POST", `/v1/domestic/create${customerType}Customer`, { headers, body: { country } }));
  return headers;
}

/** An individual's KYC information under the project's names (REST's face renames some of them). */
const DOMESTIC_KYC = {
  firstName: "Ana",
  lastName: "Souza",
  dateOfBirth: "1990-04-12",
  documentType: "NATIONAL_ID",
  documentNumber: "12345678",
  email: "ana@example.com",
  nationalities: ["MX"],
  politicallyExposed: false,
};

/** A session with a domestic customer whose information was submitted through the API: its submission. */
async function domesticSubmission(country: string, customerType: "Individual" | "Business") {
  const headers = await domesticCustomer(country, customerType);
  const [path, body] =
    customerType === "Individual"
      ? ["/v1/domestic/submitKycInformation", { country, ...DOMESTIC_KYC }]
      : ["/v1/domestic/submitKybInformation", { country, businessName: "Acme", taxId: "ACM010101ABC" }];
  const { submissionId } = ok(await t.request("POST", path, { headers, body }));
  return { headers, input: { country, submissionId } };
}

/** A session with a domestic customer whose hosted KYC link was handed out. */
async function domesticHostedFlow(country: string) {
  const headers = await domesticCustomer(country);
  ok(await t.request("GET", `/v1/domestic/getKycRedirectLink?country=${country}`, { headers }));
  return headers;
}

/** A domestic field taking the country and REST's `type` as `customerType`; left out stays left out. */
const domesticTyped =
  (document: typeof query, field: string, selection = "") =>
  ({ type, ...input }: Input) => ({
    query: document(field, { country: "DomesticCountry!", customerType: "CustomerType" }, selection),
    variables: { ...input, customerType: type },
  });

/** GraphQL names enum values in capitals; anything else passes as it is. */
const graphqlEnum = (value: unknown) => (typeof value === "string" ? value.toUpperCase() : value);

const operationDocument =
  (kind: "query" | "mutation") =>
  (field: string, args: Record<string, string>, selection = "") => {
    const declared = Object.entries(args).map(([name, type]) => `$${name}: ${type}`);
    const passed = Object.keys(args).map((name) => `${name}: $${name}`);
    return `${kind}(${declared.join(", ")}) { ${field}(${passed.join(", ")}) ${selection} }`;
  };
const mutation = operationDocument("mutation");
const query = operationDocument("query");

const PARITY = new Map<AnyOperation, Parity>([
  [
    credentials.createApiCredential,
    {
      prepare: async () => ({ headers: await session(), input: { name: "parity" } }),
      graphql: (input) => ({
        query: mutation("createApiCredential", { input: "CreateApiCredentialInput" }, "{ credential { secretKey } }"),
        variables: { input },
      }),
    },
  ],
  [
    credentials.revokeApiCredential,
    {
      prepare: async () => {
        const headers = await session();
        return { headers, input: { credentialId: (await t.createCredential(headers)).id } };
      },
      graphql: ({ credentialId }) => ({
        query: mutation("revokeApiCredential", { id: "ID!" }, "{ revokedCredentialId }"),
        variables: { id: credentialId },
      }),
    },
  ],
  [
    credentials.createManagedProfileApiCredential,
    {
      prepare: async () => {
        const headers = await manager();
        return { headers, input: { profileId: await child(headers), name: "parity" } };
      },
      graphql: ({ profileId, ...input }) => ({
        query: mutation(
          "createManagedProfileCredential",
          { profileId: "ID!", input: "CreateApiCredentialInput" },
          "{ credential { secretKey } }",
        ),
        variables: { profileId, input },
      }),
    },
  ],
  [
    credentials.revokeManagedProfileApiCredential,
    {
      prepare: async () => {
        const headers = await manager();
        const profileId = await child(headers);
        const issued = await t.request("POST", `/v1/managed-profiles/${profileId}/api-credentials`, { headers });
        rememberSecret(ok(issued, 201).secretKey);
        return { headers, input: { profileId, credentialId: issued.body.id } };
      },
      graphql: (input) => ({
        query: mutation(
          "revokeManagedProfileCredential",
          { profileId: "ID!", credentialId: "ID!" },
          "{ revokedCredentialId }",
        ),
        variables: input,
      }),
    },
  ],
  [
    credentials.createPartnerApiCredential,
    {
      prepare: async () => {
        const partner = await t.request("POST", "/v1/admin/partners", {
          headers: t.operatorHeaders,
          body: { name: "Parity partner" },
        });
        const { profileId } = await t.signIn();
        return {
          headers: t.operatorHeaders,
          input: { partnerId: ok(partner, 201).partner.id, profileId, name: "parity" },
        };
      },
      graphql: ({ partnerId, ...input }) => ({
        query: mutation(
          "issuePartnerCredential",
          { partnerId: "ID!", input: "PartnerCredentialInput!" },
          "{ credential { secretKey } }",
        ),
        variables: { partnerId, input },
      }),
    },
  ],
  [
    ramps.registerRamp,
    {
      // KYC is not approved: a well-formed registration gets as far as KYC_NOT_APPROVED, consuming nothing.
      prepare: async () => {
        const headers = await session();
        const input = {
          quoteId: await quote(headers),
          destinationAddress: "0x1111111111111111111111111111111111111111",
        };
        return { headers, input };
      },
      graphql: (input) => ({
        query: mutation("registerRamp", { input: "RegisterRampInput!" }, "{ ramp { id } }"),
        variables: { input },
      }),
    },
  ],
  [
    ramps.updateRamp,
    {
      prepare: async () => {
        const { headers, rampId } = await registeredRamp();
        return {
          headers,
          input: { rampId, presignedTxs: [{ tx: "0x00" }], additionalData: { squidRouterSwapHash: "0x01" } },
        };
      },
      graphql: (input) => ({
        query: mutation("updateRamp", { input: "UpdateRampInput!" }, "{ ramp { id } }"),
        variables: { input },
      }),
    },
  ],
  [
    ramps.startRamp,
    {
      prepare: async () => {
        const { headers, rampId } = await registeredRamp();
        return { headers, input: { rampId } };
      },
      graphql: ({ rampId }) => ({
        query: mutation("startRamp", { rampId: "ID!" }, "{ ramp { id } }"),
        variables: { rampId },
      }),
    },
  ],
  [
    ramps.getRampStatus,
    {
      prepare: async () => {
        const { headers, rampId } = await registeredRamp();
        return { headers, input: { id: rampId } };
      },
      graphql: ({ id }) => ({ query: "query($id: ID!) { ramp(id: $id) { id } }", variables: { id } }),
    },
  ],
  [
    recipients.inviteRecipient,
    {
      prepare: async () => ({
        headers: await session(),
        input: { email: `${randomUUID()}@example.com`, relationship: "friend" },
      }),
      graphql: ({ relationship, ...input }) => ({
        query: mutation(
          "inviteRecipient",
          { email: "String!", relationship: "RecipientRelationship!" },
          "{ invitation { id } }",
        ),
        variables: { ...input, relationship: graphqlEnum(relationship) },
      }),
    },
  ],
  [
    recipients.archiveRecipientInvitation,
    {
      prepare: async () => {
        const headers = await session();
        return { headers, input: { id: await invitation(headers) } };
      },
      graphql: (input) => ({
        query: mutation("archiveRecipientInvitation", { id: "ID!" }, "{ invitation { id } }"),
        variables: input,
      }),
    },
  ],
  [
    recipients.updateRecipient,
    {
      prepare: async () => {
        const headers = await session();
        return { headers, input: { id: await invitation(headers), relationship: "family" } };
      },
      graphql: ({ relationship, ...input }) => ({
        query: mutation(
          "updateRecipientRelationship",
          { id: "ID!", relationship: "RecipientRelationship!" },
          "{ relationship }",
        ),
        variables: { ...input, relationship: graphqlEnum(relationship) },
      }),
    },
  ],
  [
    recipients.getRecipientEligibility,
    {
      // A pending invitation is no recipient yet: NOT_FOUND on both faces.
      prepare: async () => {
        const headers = await session();
        return { headers, input: { id: await invitation(headers) } };
      },
      graphql: (input) => ({
        query: "query($id: ID!) { recipientEligibility(id: $id) { corridor canReceive } }",
        variables: input,
      }),
    },
  ],
  [
    recipients.previewRecipientInvitation,
    {
      prepare: invitee,
      graphql: (input) => ({
        query: "query($code: String!) { recipientInvitationPreview(code: $code) { invitationId } }",
        variables: input,
      }),
    },
  ],
  [
    recipients.acceptRecipientInvitation,
    {
      prepare: invitee,
      graphql: (input) => ({
        query: mutation("acceptRecipientInvitation", { code: "String!" }, "{ invitationId }"),
        variables: input,
      }),
    },
  ],
  [
    admin.setManagerPolicy,
    {
      prepare: async () => ({
        headers: t.operatorHeaders,
        input: {
          profileId: (await t.signIn()).profileId,
          allowedCorridors: ["BR", "MX"],
          allowedCustomerTypes: ["individual"],
          isActive: true,
        },
      }),
      graphql: ({ profileId, ...policy }) => ({
        query: mutation("putManager", { profileId: "ID!", policy: "ManagerPolicyInput!" }, "{ manager { profileId } }"),
        variables: {
          profileId,
          // GraphQL names customer types in capitals; left out stays left out (JSON drops undefined).
          policy: {
            ...policy,
            allowedCustomerTypes: Array.isArray(policy.allowedCustomerTypes)
              ? policy.allowedCustomerTypes.map(graphqlEnum)
              : policy.allowedCustomerTypes,
          },
        },
      }),
    },
  ],
  [
    admin.getManagerPolicy,
    {
      prepare: async () => ({ headers: t.operatorHeaders, input: { profileId: await managerId() } }),
      graphql: ({ profileId }) => ({
        query: "query($profileId: ID!) { manager(profileId: $profileId) { profileId } }",
        variables: { profileId },
      }),
    },
  ],
  [
    admin.setPricingAssignment,
    {
      prepare: async () => ({
        headers: t.operatorHeaders,
        input: { profileId: (await t.signIn()).profileId, pricingProfile: "reduced" },
      }),
      graphql: (input) => ({
        query: mutation(
          "assignPricingProfile",
          { profileId: "ID!", pricingProfile: "PricingProfileName!" },
          "{ pricingAssignment { profileId } }",
        ),
        // GraphQL names partner-markup PARTNER_MARKUP (the PricingProfileName enum).
        variables: {
          ...input,
          pricingProfile:
            typeof input.pricingProfile === "string"
              ? input.pricingProfile.replace(/-/g, "_").toUpperCase()
              : input.pricingProfile,
        },
      }),
    },
  ],
  [
    admin.getPricingAssignment,
    {
      prepare: async () => {
        const { profileId } = await t.signIn();
        ok(
          await t.request("PUT", `/v1/admin/pricing-assignments/${profileId}`, {
            headers: t.operatorHeaders,
            body: { pricingProfile: "reduced" },
          }),
          200,
        );
        return { headers: t.operatorHeaders, input: { profileId } };
      },
      graphql: ({ profileId }) => ({
        query: "query($profileId: ID!) { pricingAssignment(profileId: $profileId) { pricingProfile } }",
        variables: { profileId },
      }),
    },
  ],
  [
    admin.createPartner,
    {
      prepare: async () => ({ headers: t.operatorHeaders, input: { name: "Parity partner" } }),
      graphql: (input) => ({
        query: mutation("createPartner", { name: "String!" }, "{ partner { id } }"),
        variables: input,
      }),
    },
  ],
  [
    admin.updatePartner,
    {
      prepare: async () => {
        const partner = await t.request("POST", "/v1/admin/partners", {
          headers: t.operatorHeaders,
          body: { name: "Parity partner" },
        });
        return { headers: t.operatorHeaders, input: { partnerId: ok(partner, 201).partner.id, isActive: false } };
      },
      graphql: (input) => ({
        query: mutation("setPartnerActive", { partnerId: "ID!", isActive: "Boolean!" }, "{ partner { id } }"),
        variables: input,
      }),
    },
  ],
  [
    managedProfiles.createManagedProfile,
    {
      prepare: async () => ({
        headers: await manager(),
        input: {
          externalSubjectId: randomUUID(),
          contactEmail: `${randomUUID()}@example.com`,
          customerType: "individual",
        },
      }),
      graphql: ({ customerType, ...input }) => ({
        query: mutation("createManagedProfile", { input: "CreateManagedProfileInput!" }, "{ created }"),
        // Left out stays left out: JSON drops undefined.
        variables: { input: { ...input, customerType: graphqlEnum(customerType) } },
      }),
    },
  ],
  [
    managedProfiles.getManagedProfile,
    {
      prepare: async () => {
        const headers = await manager();
        return { headers, input: { profileId: await child(headers) } };
      },
      graphql: ({ profileId }) => ({
        query: "query($profileId: ID!) { managedProfile(profileId: $profileId) { profileId } }",
        variables: { profileId },
      }),
    },
  ],
  [
    managedProfiles.deleteManagedProfile,
    {
      prepare: async () => {
        const headers = await manager();
        return { headers, input: { profileId: await child(headers) } };
      },
      graphql: ({ profileId }) => ({
        query: mutation("deleteManagedProfile", { profileId: "ID!" }, "{ deletedProfileId }"),
        variables: { profileId },
      }),
    },
  ],
  // createWidgetSession are sent with no credential at all (the operation runs with acting null).

  [
    quotes.createQuote,
    {
      prepare: async () => ({ headers: {}, input: { ...QUOTE_REQUEST } }),
      graphql: (input) => ({
        query: mutation("createQuote", { input: "CreateQuoteInput!" }, "{ quote { id } }"),
        variables: {
          input: { ...input, network: graphqlEnum(input.network), paymentMethod: graphqlEnum(input.paymentMethod) },
        },
      }),
    },
  ],
  [
    quotes.createBestQuote,
    {
      prepare: async () => ({
        headers: await session(),
        input: {
          rampType: "BUY",
          from: "pix",
          inputAmount: "500",
          inputCurrency: "BRL",
          outputCurrency: "USDC",
          networks: ["ethereum", "polygon", "base"],
          paymentMethod: "pix",
          countryCode: "BR",
        },
      }),
      graphql: (input) => ({
        query: mutation("createBestQuote", { input: "CreateBestQuoteInput!" }, "{ quote { id } }"),
        variables: {
          input: {
            ...input,
            networks: Array.isArray(input.networks) ? input.networks.map(graphqlEnum) : input.networks,
            paymentMethod: graphqlEnum(input.paymentMethod),
          },
        },
      }),
    },
  ],
  [
    identity.requestOtp,
    {
      prepare: async () => ({ headers: {}, input: { email: `${randomUUID()}@example.com`, locale: "en" } }),
      graphql: (input) => ({
        query: mutation("requestOtp", { email: "String!", locale: "String" }, "{ success }"),
        variables: input,
      }),
    },
  ],
  [
    identity.verifyOtp,
    {
      prepare: async () => {
        const email = `${randomUUID()}@example.com`;
        ok(await t.request("POST", "/v1/auth/request-otp", { body: { email } }));
        return { headers: {}, input: { email, token: await t.smtp.nextCode(email) } };
      },
      graphql: (input) => ({
        query: mutation("verifyOtp", { email: "String!", token: "String!" }, "{ session { accessToken } }"),
        variables: input,
      }),
    },
  ],
  [
    identity.refreshSession,
    {
      prepare: async () => ({ headers: {}, input: { refreshToken: (await t.signIn()).refreshToken } }),
      graphql: (input) => ({
        query: mutation("refreshSession", { refreshToken: "String!" }, "{ session { accessToken } }"),
        variables: input,
      }),
    },
  ],
  [
    identity.logout,
    {
      prepare: async () => ({ headers: {}, input: { refreshToken: (await t.signIn()).refreshToken } }),
      graphql: (input) => ({
        query: mutation("logout", { refreshToken: "String!" }, "{ loggedOut }"),
        variables: input,
      }),
    },
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.validatePixKey,
    {
      prepare: async () => ({ headers: await secretKey(), input: { pixKey: "+5511987654321" } }),
      graphql: (input) => ({ query: query("pixKeyValid", { pixKey: "String!" }), variables: input }),
    },
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.createSubaccount,
    {
      prepare: async () => ({
        headers: await session(),
        input: { accountType: "INDIVIDUAL", name: "Ana Souza", taxId: randomCpf() },
      }),
      // GraphQL names the account type by the project's customer type (COMPANY is BUSINESS).
      graphql: ({ accountType, ...input }) => ({
        query: mutation("createBrazilSubaccount", { input: "CreateBrazilSubaccountInput!" }, "{ subAccountId }"),
        variables: { input: { ...input, customerType: accountType === "COMPANY" ? "BUSINESS" : accountType } },
      }),
    },
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.newKyc,
    {
      prepare: async () => {
        const headers = await session();
        const subaccount = await brazilSubaccount(headers, "INDIVIDUAL");
        const uploads = await uploadKycDocuments(t.send, headers, subaccount.taxIdNumber);
        return { headers, input: { ...LEVEL_ONE_KYC, ...subaccount, ...uploads } };
      },
      graphql: (input) => ({
        query: mutation("submitBrazilKyc", { input: "SubmitBrazilKycInput!" }, "{ submissionId }"),
        variables: { input },
      }),
    },
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.uploadUrls,
    {
      prepare: async () => {
        const headers = await session();
        const { taxIdNumber } = await brazilSubaccount(headers, "INDIVIDUAL");
        return { headers, input: { taxId: taxIdNumber, documentType: "DRIVERS-LICENSE", isDoubleSided: true } };
      },
      // GraphQL names DRIVERS-LICENSE DRIVERS_LICENSE.
      graphql: ({ documentType, ...input }) => ({
        query: mutation(
          "requestBrazilKycUploads",
          { input: "RequestBrazilKycUploadsInput!" },
          "{ identityDocument { documentId } }",
        ),
        variables: {
          input: {
            ...input,
            documentType: typeof documentType === "string" ? documentType.replace("-", "_") : documentType,
          },
        },
      }),
    },
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.selfieUpload,
    {
      prepare: async () => {
        const headers = await session();
        return { headers, input: { taxId: (await brazilSubaccount(headers, "INDIVIDUAL")).taxIdNumber } };
      },
      graphql: (input) => ({
        query: mutation("requestBrazilSelfieUpload", { taxId: "String!" }, "{ selfieUpload { documentId } }"),
        variables: input,
      }),
    },
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.kybDocument,
    {
      // A company's document whose file was not sent: the read succeeds on both faces.
      prepare: async () => {
        const headers = await session();
        const { subAccountId } = await brazilSubaccount(headers, "COMPANY");
        const url = `/v1/brl/kyb/documents?subAccountId=${subAccountId}`;
        const body = { documentType: "CERTIFICATE-OF-INCORPORATION" };
        const { id } = ok(await t.request("POST", url, { headers, body }), 201);
        return { headers, input: { subAccountId, documentId: id } };
      },
      graphql: (input) => ({
        query: query("brazilKybDocument", { subAccountId: "ID!", documentId: "ID!" }, "{ ready }"),
        variables: input,
      }),
    },
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.kycStatus,
    {
      prepare: async () => {
        const headers = await session();
        return { headers, input: { taxId: (await t.completeKyc(headers, ["BR"])).brTaxId } };
      },
      graphql: (input) => ({ query: query("brazilKycStatus", { taxId: "String!" }, "{ status }"), variables: input }),
    },
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.user,
    {
      prepare: async () => {
        const headers = await session();
        return { headers, input: { taxId: (await brazilSubaccount(headers, "INDIVIDUAL")).taxIdNumber } };
      },
      graphql: (input) => ({ query: query("brazilUser", { taxId: "String" }, "{ subAccountId }"), variables: input }),
    },
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.remainingLimit,
    {
      prepare: async () => {
        const headers = await session();
        await brazilSubaccount(headers, "INDIVIDUAL");
        return { headers, input: { direction: "BUY" } };
      },
      graphql: (input) => ({
        query: query("brazilRemainingLimit", { direction: "RampDirection!", taxId: "String" }),
        variables: input,
      }),
    },
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.startKyb,
    {
      prepare: async () => {
        const headers = await session();
        return { headers, input: { subAccountId: (await brazilSubaccount(headers, "COMPANY")).subAccountId } };
      },
      graphql: (input) => ({
        query: mutation("startBrazilKyb", { subAccountId: "ID!" }, "{ attemptId }"),
        variables: input,
      }),
    },
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.kybAttemptStatus,
    {
      prepare: async () => {
        const headers = await session();
        const { subAccountId } = await brazilSubaccount(headers, "COMPANY");
        const url = `/v1/brl/kyb/new-level-1/web-sdk?subAccountId=${subAccountId}`;
        return { headers, input: { attemptId: ok(await t.request("POST", url, { headers })).attemptId } };
      },
      graphql: (input) => ({ query: query("brazilKybAttempt", { attemptId: "ID!" }, "{ status }"), variables: input }),
    },
  ],
  [
    BRAZIL_CUSTOMER_OPERATIONS.recordKycAttempt,
    {
      prepare: async () => {
        const headers = await session();
        return { headers, input: { quoteId: await quote(headers), taxId: randomCpf() } };
      },
      graphql: (input) => ({
        query: mutation(
          "recordBrazilKycAttempt",
          { input: "RecordBrazilKycAttemptInput!" },
          "{ kycAttempt { quoteId } }",
        ),
        variables: { input },
      }),
    },
  ],
  [
    onboarding.getRampInfo,
    {
      prepare: async () => ({ headers: await secretKey(), input: {} }),
      graphql: () => ({ query: "{ rampInfo { corridors { corridor kycStatus } } }", variables: {} }),
    },
  ],
  [
    onboarding.getOnboardingStatus,
    {
      prepare: async () => ({ headers: await secretKey(), input: {} }),
      graphql: () => ({ query: "{ onboardingStatus { activeEntityId } }", variables: {} }),
    },
  ],
  [
    onboarding.selectActiveCustomerEntity,
    {
      // Every signed-in profile has its individual entity to choose.
      prepare: async () => ({ headers: await session(), input: { type: "individual" } }),
      graphql: ({ type }) => ({
        query: mutation("selectActiveEntity", { customerType: "CustomerType!" }, "{ activeEntity { activeEntityId } }"),
        variables: { customerType: graphqlEnum(type) },
      }),
    },
  ],
  [
    referenceData.getOnboardingRequirements,
    {
      prepare: async () => ({ headers: {}, input: { country: "BR", customerType: "individual" } }),
      graphql: ({ country, customerType }) => ({
        query: query("onboardingRequirements", { country: "Corridor!", customerType: "CustomerType!" }, "{ flow }"),
        variables: { country, customerType: graphqlEnum(customerType) },
      }),
    },
  ],
  [
    onboarding.getUserLimits,
    {
      prepare: async () => ({ headers: await session(), input: { corridors: ["BR", "MX"] } }),
      graphql: (input) => ({
        query: query("limits", { corridors: "[Corridor!]!" }, "{ corridor max }"),
        variables: input,
      }),
    },
  ],
  [
    referenceData.listSupportedCountries,
    {
      prepare: async () => ({ headers: {}, input: { countryCode: "br", name: "Brazil", fiatCurrency: "BRL" } }),
      graphql: (input) => ({
        query: query(
          "supportedCountries",
          { countryCode: "String", name: "String", fiatCurrency: "FiatCurrencySymbol" },
          "{ countryCode }",
        ),
        variables: input,
      }),
    },
  ],
  [
    referenceData.listSupportedCryptocurrencies,
    {
      prepare: async () => ({ headers: await secretKey(), input: { network: "polygon" } }),
      graphql: ({ network }) => ({
        query: query("supportedCryptocurrencies", { network: "Network" }, "{ assetSymbol }"),
        variables: { network: graphqlEnum(network) },
      }),
    },
  ],
  [
    referenceData.listSupportedFiatCurrencies,
    {
      prepare: async () => ({ headers: await session(), input: {} }),
      graphql: () => ({ query: "{ supportedFiatCurrencies { symbol } }", variables: {} }),
    },
  ],
  [
    webhooks.getPublicKey,
    {
      prepare: async () => ({ headers: await session(), input: {} }),
      graphql: () => ({ query: "{ webhookSigningKey { publicKey } }", variables: {} }),
    },
  ],
  [
    referenceData.listSupportedPaymentMethods,
    {
      prepare: async () => ({ headers: {}, input: { type: "sell", fiat: "BRL" } }),
      graphql: (input) => ({
        query: query("supportedPaymentMethods", { type: "RampDirection", fiat: "FiatCurrencySymbol" }, "{ id }"),
        variables: { ...input, type: graphqlEnum(input.type) },
      }),
    },
  ],
  [
    quotes.getQuote,
    {
      prepare: async () => {
        const headers = await session();
        return { headers, input: { id: await quote(headers) } };
      },
      graphql: ({ id }) => ({ query: "query($id: ID!) { quote(id: $id) { id } }", variables: { id } }),
    },
  ],
  [
    quotes.createWidgetSession,
    {
      // The refresh form (the widget quotes); a null or wrong quoteId makes it the locked form, refused for
      // the refresh form's keys on both faces.
      prepare: async () => ({
        headers: {},
        input: { rampType: "BUY", network: "polygon", inputAmount: "100", externalSessionId: "parity", fiat: "BRL" },
      }),
      // GraphQL names networks in capitals (the Network enum).
      graphql: ({ network, ...input }) => ({
        query: mutation(
          "createWidgetSession",
          { input: "CreateWidgetSessionInput!" },
          "{ widgetSession { sessionId } }",
        ),
        variables: { input: { ...input, network: typeof network === "string" ? network.toUpperCase() : network } },
      }),
    },
  ],
  [
    webhooks.registerWebhook,
    {
      // A public IP literal: no DNS; a quote created with the very key, so the registration succeeds.
      prepare: async () => {
        const headers = await secretKey();
        return { headers, input: { url: "https://93.184.215.14/hook", quoteId: await quote(headers) } };
      },
      graphql: (input) => ({
        query: mutation("registerWebhook", { input: "RegisterWebhookInput!" }, "{ webhook { id } }"),
        variables: { input },
      }),
    },
  ],
  [
    webhooks.deleteWebhook,
    {
      prepare: async () => {
        const { headers, id } = await webhook();
        return { headers, input: { id } };
      },
      graphql: (input) => ({
        query: mutation("deleteWebhook", { id: "ID!" }, "{ deletedWebhookId }"),
        variables: input,
      }),
    },
  ],
  [
    webhooks.redeliverWebhookDelivery,
    {
      // The webhook has no delivery yet: NOT_FOUND on both faces.
      prepare: async () => {
        const { headers, id } = await webhook();
        return { headers, input: { id, deliveryId: randomUUID() } };
      },
      graphql: ({ id, deliveryId }) => ({
        query: mutation("redeliverWebhookDelivery", { webhookId: "ID!", deliveryId: "ID!" }, "{ delivery { id } }"),
        variables: { webhookId: id, deliveryId },
      }),
    },
  ],
  [
    webhooks.sendWebhookTestEvent,
    {
      // An active webhook of the key's: each face queues its own test event.
      prepare: async () => {
        const { headers, id } = await webhook();
        return { headers, input: { id } };
      },
      graphql: ({ id }) => ({
        query: mutation("sendWebhookTestEvent", { webhookId: "ID!" }, "{ delivery { id } }"),
        variables: { webhookId: id },
      }),
    },
  ],
  [
    fiatAccounts.createDomesticFiatAccount,
    {
      // A US customer exists: the well-formed account is created on both faces.
      prepare: async () => {
        const headers = await session();
        ok(await t.request("POST", "/v1/domestic/createIndividualCustomer", { headers, body: { country: "US" } }), 200);
        const input = {
          country: "US",
          type: "ACH",
          accountNumber: "000123456789",
          routingNumber: "021000021",
          accountType: "checking",
          accountName: "Jane Doe",
        };
        return { headers, input };
      },
      graphql: (input) => ({
        query: mutation("createFiatAccount", { input: "CreateFiatAccountInput!" }, "{ fiatAccount { fiatAccountId } }"),
        variables: { input: { ...input, accountType: graphqlEnum(input.accountType) } },
      }),
    },
  ],
  [
    fiatAccounts.deleteDomesticFiatAccount,
    {
      // A US customer and one of its accounts: the deletion succeeds on both faces.
      prepare: async () => {
        const headers = await session();
        ok(await t.request("POST", "/v1/domestic/createIndividualCustomer", { headers, body: { country: "US" } }), 200);
        const body = {
          country: "US",
          type: "ACH",
          accountNumber: "000123456789",
          routingNumber: "021000021",
          accountType: "checking",
          accountName: "Jane Doe",
        };
        const created = ok(await t.request("POST", "/v1/domestic/fiatAccounts", { headers, body }), 200);
        return { headers, input: { fiatAccountId: created.fiatAccountId } };
      },
      graphql: (input) => ({
        query: mutation("deleteFiatAccount", { fiatAccountId: "ID!" }, "{ deletedFiatAccountId }"),
        variables: input,
      }),
    },
  ],
  // Domestic customers and KYC/KYB: REST's country (path alias, query or body) is GraphQL's `country` argument.
  [
    DOMESTIC.createIndividualCustomer,
    {
      prepare: async () => ({ headers: await session(), input: { country: "MX" } }),
      graphql: (input) => ({
        query: mutation(
          "createDomesticIndividualCustomer",
          { country: "DomesticCountry!" },
          "{ customer { customerId } }",
        ),
        variables: input,
      }),
    },
  ],
  [
    DOMESTIC.createBusinessCustomer,
    {
      prepare: async () => ({ headers: await session(), input: { country: "CO" } }),
      graphql: (input) => ({
        query: mutation(
          "createDomesticBusinessCustomer",
          { country: "DomesticCountry!" },
          "{ customer { customerId } }",
        ),
        variables: input,
      }),
    },
  ],
  [
    DOMESTIC.submitKycInformation,
    {
      prepare: async () => ({ headers: await domesticCustomer("MX"), input: { country: "MX", ...DOMESTIC_KYC } }),
      graphql: ({ country, ...input }) => ({
        query: mutation(
          "submitDomesticKycInformation",
          { country: "DomesticCountry!", input: "DomesticKycInformationInput!" },
          "{ submission { submissionId } }",
        ),
        variables: { country, input },
      }),
    },
  ],
  [
    DOMESTIC.sendKycSubmission,
    {
      prepare: () => domesticSubmission("US", "Individual"),
      graphql: (input) => ({
        query: mutation(
          "sendDomesticKycSubmission",
          { country: "DomesticCountry!", submissionId: "ID!" },
          "{ sentSubmissionId }",
        ),
        variables: input,
      }),
    },
  ],
  [
    DOMESTIC.submitKybInformation,
    {
      prepare: async () => ({
        headers: await domesticCustomer("CO", "Business"),
        input: {
          country: "CO",
          businessName: "Acme SAS",
          taxId: "900123456",
          website: "https://acme.example.com",
          relatedPersons: [
            {
              firstName: "Juana",
              lastName: "Pérez",
              email: "juana@example.com",
              dateOfBirth: "1985-02-03",
              nationalities: ["CO"],
            },
          ],
        },
      }),
      graphql: ({ country, ...input }) => ({
        query: mutation(
          "submitDomesticKybInformation",
          { country: "DomesticKybCountry!", input: "DomesticKybInformationInput!" },
          "{ submission { submissionId } }",
        ),
        variables: { country, input },
      }),
    },
  ],
  [
    DOMESTIC.sendKybSubmission,
    {
      prepare: () => domesticSubmission("MX", "Business"),
      graphql: (input) => ({
        query: mutation(
          "sendDomesticKybSubmission",
          { country: "DomesticCountry!", submissionId: "ID!" },
          "{ sentSubmissionId }",
        ),
        variables: input,
      }),
    },
  ],
  [
    DOMESTIC.kycRedirectLink,
    {
      prepare: async () => ({ headers: await domesticCustomer("AR"), input: { country: "AR" } }),
      graphql: (input) => ({
        query: mutation(
          "requestDomesticKycLink",
          { country: "DomesticCountry!" },
          "{ hostedLink { submissionId url } }",
        ),
        variables: input,
      }),
    },
  ],
  [
    DOMESTIC.kybRedirectLink,
    {
      prepare: async () => ({ headers: await domesticCustomer("US", "Business"), input: { country: "US" } }),
      graphql: (input) => ({
        query: mutation(
          "requestDomesticKybLink",
          { country: "DomesticCountry!" },
          "{ hostedLink { submissionId url } }",
        ),
        variables: input,
      }),
    },
  ],
  [
    DOMESTIC.redirectOpened,
    {
      prepare: async () => ({ headers: await domesticHostedFlow("CO"), input: { country: "CO", type: "INDIVIDUAL" } }),
      graphql: domesticTyped(mutation, "reportDomesticHostedFlowOpened", "{ recorded }"),
    },
  ],
  [
    DOMESTIC.redirectFinished,
    {
      prepare: async () => ({ headers: await domesticHostedFlow("MX"), input: { country: "MX", type: "INDIVIDUAL" } }),
      graphql: domesticTyped(mutation, "reportDomesticHostedFlowFinished", "{ recorded }"),
    },
  ],
  [
    DOMESTIC.retry,
    {
      // A submission the sandbox rejects (its marker in the last name), sent and decided at once.
      prepare: async () => {
        const headers = await domesticCustomer("CO");
        const body = { country: "CO", ...DOMESTIC_KYC, lastName: "Rejectable" };
        const { submissionId } = ok(await t.request("POST", "/v1/domestic/submitKycInformation", { headers, body }));
        const send = { country: "CO", submissionId };
        ok(await t.request("POST", "/v1/domestic/sendKycSubmission", { headers, body: send }));
        return { headers, input: { country: "CO", type: "INDIVIDUAL" } };
      },
      graphql: domesticTyped(mutation, "retryDomesticKyc", "{ hostedLink { url } }"),
    },
  ],
  [
    DOMESTIC.kycStatus,
    {
      prepare: async () => ({ headers: await domesticCustomer("MX"), input: { country: "MX", type: "INDIVIDUAL" } }),
      graphql: domesticTyped(query, "domesticKycStatus", "{ status }"),
    },
  ],
  [
    DOMESTIC.customerStatus,
    {
      prepare: async () => ({
        headers: await domesticCustomer("US", "Business"),
        input: { country: "US", type: "BUSINESS" },
      }),
      graphql: domesticTyped(query, "domesticCustomer", "{ status createdAt }"),
    },
  ],
  [
    DOMESTIC.kybSubmissions,
    {
      prepare: async () => ({
        headers: (await domesticSubmission("CO", "Business")).headers,
        input: { country: "CO" },
      }),
      graphql: ({ country }) => ({
        query: query("domesticKybSubmissions", { country: "DomesticKybCountry!" }, "{ submissionId }"),
        variables: { country },
      }),
    },
  ],
]);

/** The schema under optional, nullable, default and transform wrappers: what a field accepts on the wire. */
function wireSchema(schema: z.ZodType): z.ZodType {
  const def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } } })._zod
    .def;
  if (def.innerType) return wireSchema(def.innerType);
  if (def.type === "pipe" && def.in) return wireSchema(def.in);
  return schema;
}

const WRONG_TYPE: Record<string, unknown> = {
  // Not a number: GraphQL's ID takes one as a string.
  string: true,
  enum: "NOT_A_VALUE",
  number: "not a number",
  boolean: "yes",
  // GraphQL reads a lone value as a list of one (input coercion): the value must be a wrong item too, so
  // neither a string (a list of strings) nor an object (a list of JSON objects). No list here holds booleans.
  array: true,
  object: "not an object",
  record: "not an object",
};

/** The variants of a well-formed input: each names what it changed. */
function variants(operation: AnyOperation, input: Input, pathFields: string[], inQuery: boolean): [string, Input][] {
  const cases: [string, Input][] = [["well-formed", input]];
  for (const [field, schema] of Object.entries(operation.input.shape as Record<string, z.ZodType>)) {
    // Path parameters are strings by construction, and both faces require them.
    if (pathFields.includes(field)) continue;
    const wire = wireSchema(schema);
    const type = (wire as unknown as { _zod: { def: { type: string } } })._zod.def.type;
    const { [field]: _left, ...rest } = input;
    cases.push([`${field} left out`, rest]);
    cases.push([`${field} null`, { ...input, [field]: null }]);
    // A query string carries nothing but strings: a string field cannot have the wrong type there.
    if (type in WRONG_TYPE && !(inQuery && type === "string"))
      cases.push([`${field} of the wrong type`, { ...input, [field]: WRONG_TYPE[type] }]);
    const maxLength = (wire as { maxLength?: number | null }).maxLength;
    if (typeof maxLength === "number")
      cases.push([`${field} too long`, { ...input, [field]: "x".repeat(maxLength + 1) }]);
  }
  return cases;
}

/** What an answer says: success, or the code of the error (the first one GraphQL reports). */
function outcome(response: HttpResponse, face: "REST" | "GraphQL"): string {
  if (face === "REST") return response.status < 300 ? "success" : `${response.status} ${response.body?.error?.code}`;
  const error = response.body.errors?.[0];
  return error ? `${error.extensions.status} ${error.extensions.code}` : "success";
}

function restRequest(
  face: { method: string; url: string; inQuery: boolean; wireNames?: Record<string, string> },
  input: Input,
) {
  const pathFields = [...face.url.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);
  const url = face.url.replace(/:([A-Za-z]+)/g, (_all, name: string) => encodeURIComponent(String(input[name])));
  // Fields the REST face names otherwise (the reference's snake_case) go under the wire's name.
  const rest = Object.fromEntries(
    Object.entries(input)
      .filter(([key]) => !pathFields.includes(key))
      .map(([key, value]) => [face.wireNames?.[key] ?? key, value]),
  );
  if (face.inQuery) {
    // A query string has no null: a field sent as null is left out of it.
    const search = new URLSearchParams(
      Object.entries(rest)
        .filter(([, value]) => value !== null)
        .map(([key, value]): [string, string] => [key, String(value)]),
    );
    return { url: search.size > 0 ? `${url}?${search}` : url, body: undefined, pathFields, inQuery: true };
  }
  return { url, body: rest, pathFields, inQuery: false };
}

/**
 * REST operations without a GraphQL field of their own, and why: everything else REST does, GraphQL does too
 * (issue 14, item 4).
 */
const REST_ONLY = new Map<AnyOperation, string>([
  [ramps.getRampHistoryOfWallet, "GraphQL's ramps(walletAddress:) is the same listing under the same filter"],
  [ramps.getRampErrorLogs, "GraphQL reads a ramp's error log as its errors field, batched for a page of ramps"],
  [
    recipients.unarchiveRecipientInvitation,
    "GraphQL's archiveRecipientInvitation(archived: false) performs it: one field archives and restores",
  ],
  ...Object.values(fiatAccounts.ALIASED_FIAT_ACCOUNT_OPERATIONS)
    .flatMap(Object.values)
    .map((operation): [AnyOperation, string] => [
      operation,
      "a /v1/ar, /v1/co or /v1/mx alias of a /v1/domestic fiat-account operation; GraphQL takes the country as an argument",
    ]),
  ...[
    ...Object.values(ALIASED_CUSTOMER_OPERATIONS).flatMap(Object.values),
    ...Object.values(BRLA_CUSTOMER_OPERATIONS),
  ].map((operation): [AnyOperation, string] => [
    operation,
    "an alias path of a /v1/domestic or /v1/brl operation, kept for clients of the reference; GraphQL has the operation once",
  ]),
  ...[DOMESTIC.submitKycFile, DOMESTIC.submitKybFile, DOMESTIC.submitKybRelatedPersonFile].map(
    (operation): [AnyOperation, string] => [
      operation,
      "a multipart file upload: its input holds the file's bytes, which GraphQL does not carry (files reach GraphQL " +
        "clients' flows through upload URLs, PUT /v1/uploads/{id}); domesticKybSubmissions shows the files that arrived",
    ],
  ),
]);

describe("every REST operation", () => {
  it("has a GraphQL field, or is listed with the reason it has none", () => {
    const withoutField = [...REST_FACES.keys()].filter((operation) => !GRAPHQL_FACES.has(operation));
    expect(withoutField.filter((operation) => !REST_ONLY.has(operation)).map(({ name }) => name)).toEqual([]);
    // The list holds only what still lacks a field.
    expect([...REST_ONLY.keys()].filter((operation) => GRAPHQL_FACES.has(operation)).map(({ name }) => name)).toEqual(
      [],
    );
  });
});

describe("operations with a REST and a GraphQL face", () => {
  it("are all in this test, or listed with the reason their inputs differ", () => {
    const both = [...REST_FACES.keys()].filter((operation) => GRAPHQL_FACES.has(operation));
    expect(both.length).toBeGreaterThanOrEqual(PARITY.size);
    const missing = both.filter((operation) => !PARITY.has(operation) && !DIFFERENT_INPUTS.has(operation));
    expect(missing.map((operation) => operation.name)).toEqual([]);
    for (const operation of PARITY.keys()) {
      expect(REST_FACES.has(operation) && GRAPHQL_FACES.has(operation), operation.name).toBe(true);
    }
  });

  for (const [operation, parity] of PARITY) {
    it(`${operation.name}: the same answer on both faces for every input`, async () => {
      const face = REST_FACES.get(operation)!;
      const { input: sample } = await parity.prepare();
      const { pathFields, inQuery } = restRequest(face, sample);
      const cases = variants(operation, sample, pathFields, inQuery);
      const differences: string[] = [];
      const outcomes = new Set<string>();
      // The variants are independent (each face prepares its own caller and input): sent side by side.
      await Promise.all(
        cases.map(async ([name]) => {
          const answer = async (via: "REST" | "GraphQL") => {
            const { headers, input: fresh } = await parity.prepare();
            const input = variants(operation, fresh, pathFields, inQuery).find(([label]) => label === name)![1];
            if (via === "REST") {
              const { url, body } = restRequest(face, input);
              return outcome(await t.request(face.method, url, { headers, body }), via);
            }
            const { query, variables } = parity.graphql(input);
            // The operator's operations are served on the operator's endpoint.
            const graphql = operation.access.requires.includes("OPERATOR") ? t.adminGraphql : t.graphql;
            return outcome(await graphql(query, variables, headers), via);
          };
          const [rest, graphql] = await Promise.all([answer("REST"), answer("GraphQL")]);
          outcomes.add(rest);
          if (rest !== graphql) differences.push(`${name}: REST ${rest}, GraphQL ${graphql}`);
        }),
      );
      expect(differences).toEqual([]);
      // Where a variant must be refused (a required field left out, a wrong type, a string over its limit), the
      // variants reached validation. An input of optional strings in a query string has no such variant.
      const required = Object.entries(operation.input.shape as Record<string, z.ZodType>).some(
        ([field, schema]) => !pathFields.includes(field) && !schema.safeParse(undefined).success,
      );
      if (required || cases.some(([name]) => / (of the wrong type|too long)$/.test(name)))
        expect([...outcomes]).toContain("400 VALIDATION_FAILED");
    });
  }
});
