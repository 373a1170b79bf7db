import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGraphQLSchema } from "../../src/graphql/schema.js";
import { startTestApp, type TestApp } from "../support/app.js";
import {
  authenticatingRoutes,
  documentedRoutes,
  graphQLCoordinatesToCover,
  isRest,
  routerRoutes,
  SECURITY_SUITE_ENV,
  securitySuite,
  type SecurityTarget,
} from "../support/security-suite.js";

/**
 * The registry: every authenticated REST route and every GraphQL operation. A new route or operation
 * joins with one entry here (its capabilities from CAPABILITY_MATRIX and how to call it validly); the
 * completeness checks below fail until it does.
 */
const TARGETS: SecurityTarget[] = [
  // REST: the session's own credentials.
  { route: "POST /v1/api-credentials", capabilities: ["OWN_CREDENTIALS"], body: () => ({ name: "security suite: created" }) },
  { route: "GET /v1/api-credentials", capabilities: ["OWN_CREDENTIALS"] },
  {
    route: "DELETE /v1/api-credentials/{credentialId}",
    capabilities: ["OWN_CREDENTIALS"],
    // A real, active credential of the caller: refused calls must leave it active.
    params: async (fx) => ({ credentialId: (await fx.spareCredential()).id }),
  },
  // REST: session renewal, open to every kind; only broken credentials are refused.
  { route: "POST /v1/auth/refresh", capabilities: ["SIGN_IN"], body: async (fx) => ({ refresh_token: await fx.liveRefreshToken() }) },
  { route: "POST /v1/auth/logout", capabilities: ["SIGN_IN"], body: async (fx) => ({ refresh_token: await fx.liveRefreshToken() }) },

  // REST: public reference data, open to every kind; only broken credentials are refused.
  { route: "GET /v1/supported-countries", capabilities: ["REFERENCE_DATA"] },
  { route: "GET /v1/supported-cryptocurrencies", capabilities: ["REFERENCE_DATA"] },
  { route: "GET /v1/supported-fiat-currencies", capabilities: ["REFERENCE_DATA"] },
  { route: "GET /v1/supported-payment-methods", capabilities: ["REFERENCE_DATA"] },

  // REST: a manager's headless children and their credentials. The manager acts for itself: a selector is
  // unsupported and a child's own credential is refused (MANAGER_ONLY).
  {
    route: "POST /v1/managed-profiles",
    capabilities: ["MANAGED_PROFILES"],
    childCredential: "refused",
    body: () => ({ externalSubjectId: `security-created-${randomUUID()}`, contactEmail: `security-created-${randomUUID()}@example.com`, customerType: "business" }),
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
  { route: "GET /v1/admin/managers/{profileId}", capabilities: ["OPERATOR"], params: (fx) => ({ profileId: fx.owner.profileId }) },
  {
    route: "PUT /v1/admin/pricing-assignments/{profileId}",
    capabilities: ["OPERATOR"],
    params: (fx) => ({ profileId: fx.pricedProfileId }),
    // A new name every time, so a refused call would have changed the assignment.
    body: () => ({ pricingProfile: "reduced" }),
  },
  { route: "GET /v1/admin/pricing-assignments/{profileId}", capabilities: ["OPERATOR"], params: (fx) => ({ profileId: fx.pricedProfileId }) },
  { route: "POST /v1/admin/partners", capabilities: ["OPERATOR"], body: () => ({ name: "security suite: created partner" }) },
  {
    route: "PATCH /v1/admin/partners/{partnerId}",
    capabilities: ["OPERATOR"],
    params: (fx) => ({ partnerId: fx.togglePartnerId }),
    // The opposite of the partner's state, so a refused call would have changed it.
    body: async (fx) => ({ isActive: !(await fx.t.app.db.partner.findUniqueOrThrow({ where: { id: fx.togglePartnerId } })).isActive }),
  },
  {
    route: "POST /v1/admin/partners/{partnerId}/api-credentials",
    capabilities: ["OPERATOR"],
    params: (fx) => ({ partnerId: fx.partner.id }),
    body: async (fx) => ({ profileId: await fx.partner.subject(), name: "security suite: partner-managed" }),
  },

  // GraphQL.
  { field: "Query.me", capabilities: ["PROFILE_READ"], document: "query { me { id email } }" },
  { field: "Query.apiCredentials", capabilities: ["OWN_CREDENTIALS"], document: "query { apiCredentials(first: 5) { count edges { node { id publicKey } } } }" },
  { field: "Profile.apiCredentials", capabilities: ["PROFILE_READ", "OWN_CREDENTIALS"], document: "query { me { id apiCredentials { count } } }" },
  {
    field: "Mutation.createApiCredential",
    capabilities: ["OWN_CREDENTIALS"],
    document: "mutation Create($input: CreateApiCredentialInput) { createApiCredential(input: $input) { secretKey credential { id } } }",
    variables: () => ({ input: { name: "security suite: created" } }),
    invalidVariables: () => ({ input: { expiresAt: "tomorrow" } }),
  },
  {
    field: "Mutation.revokeApiCredential",
    capabilities: ["OWN_CREDENTIALS"],
    document: "mutation Revoke($id: ID!) { revokeApiCredential(id: $id) }",
    variables: async (fx) => ({ id: (await fx.spareCredential()).id }),
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.refreshSession",
    capabilities: ["SIGN_IN"],
    document: "mutation Refresh($token: String!) { refreshSession(refreshToken: $token) { accessToken refreshToken } }",
    variables: async (fx) => ({ token: await fx.liveRefreshToken() }),
    invalidVariables: () => ({ token: 42 }),
  },
  {
    field: "Mutation.logout",
    capabilities: ["SIGN_IN"],
    document: "mutation Logout($token: String!) { logout(refreshToken: $token) }",
    variables: async (fx) => ({ token: await fx.liveRefreshToken() }),
    invalidVariables: () => ({ token: 42 }),
  },

  // GraphQL: public reference data.
  {
    field: "Query.supportedCountries",
    capabilities: ["REFERENCE_DATA"],
    document: "query Countries($fiat: FiatCurrencySymbol) { supportedCountries(fiatCurrency: $fiat) { countryCode name support { buy sell } } }",
    variables: () => ({ fiat: "EUR" }),
    invalidVariables: () => ({ fiat: "JPY" }),
  },
  {
    field: "Query.supportedCryptocurrencies",
    capabilities: ["REFERENCE_DATA"],
    document: "query Assets($network: Network) { supportedCryptocurrencies(network: $network) { assetSymbol assetContractAddress } }",
    variables: () => ({ network: "POLYGON" }),
    invalidVariables: () => ({ network: "SOLANA" }),
  },
  { field: "Query.supportedFiatCurrencies", capabilities: ["REFERENCE_DATA"], document: "query { supportedFiatCurrencies { symbol decimals } }" },
  {
    field: "Query.supportedPaymentMethods",
    capabilities: ["REFERENCE_DATA"],
    document: "query Rails($type: RampDirection, $fiat: FiatCurrencySymbol) { supportedPaymentMethods(type: $type, fiat: $fiat) { id limits { min max } } }",
    variables: () => ({ type: "SELL", fiat: "BRL" }),
    invalidVariables: () => ({ type: "SWAP" }),
  },

  // GraphQL: managed children.
  {
    field: "Query.managedProfiles",
    capabilities: ["MANAGED_PROFILES"],
    childCredential: "refused",
    document: "query List($status: ManagedProfileFilter!) { managedProfiles(first: 5, status: $status) { count edges { node { profileId status } } } }",
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
    document: "query Keys($id: ID!) { managedProfile(profileId: $id) { profileId apiCredentials { count edges { node { id publicKey } } } } }",
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
      input: { externalSubjectId: `security-created-${randomUUID()}`, contactEmail: `security-created-${randomUUID()}@example.com`, customerType: "INDIVIDUAL" },
    }),
    invalidVariables: () => ({ input: { externalSubjectId: "x", contactEmail: "x@example.com", customerType: "PERSON" } }),
  },
  {
    field: "Mutation.deleteManagedProfile",
    capabilities: ["MANAGED_PROFILES"],
    childCredential: "refused",
    document: "mutation Delete($id: ID!) { deleteManagedProfile(profileId: $id) }",
    variables: async (fx) => ({ id: (await fx.child()).profileId }),
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.createManagedProfileCredential",
    capabilities: ["MANAGE_CHILD_CREDENTIALS"],
    childCredential: "refused",
    document:
      "mutation Issue($id: ID!, $input: CreateApiCredentialInput) { createManagedProfileCredential(profileId: $id, input: $input) { secretKey credential { id profileId } } }",
    variables: async (fx) => ({ id: (await fx.child()).profileId, input: { name: "security suite: child credential" } }),
    invalidVariables: async (fx) => ({ id: (await fx.child()).profileId, input: { expiresAt: "tomorrow" } }),
  },
  {
    field: "Mutation.revokeManagedProfileCredential",
    capabilities: ["MANAGE_CHILD_CREDENTIALS"],
    childCredential: "refused",
    document: "mutation Revoke($id: ID!, $credentialId: ID!) { revokeManagedProfileCredential(profileId: $id, credentialId: $credentialId) }",
    variables: async (fx) => {
      const credential = await fx.spareChildCredential();
      return { id: credential.profileId, credentialId: credential.id };
    },
    invalidVariables: () => ({}),
  },

  // GraphQL: the operator surface.
  {
    field: "Query.manager",
    capabilities: ["OPERATOR"],
    document: "query Manager($id: ID!) { manager(profileId: $id) { profileId allowedCorridors isActive } }",
    variables: (fx) => ({ id: fx.owner.profileId }),
    invalidVariables: () => ({}),
  },
  {
    field: "Query.pricingAssignment",
    capabilities: ["OPERATOR"],
    document: "query Pricing($id: ID!) { pricingAssignment(profileId: $id) { profileId pricingProfile } }",
    variables: (fx) => ({ id: fx.pricedProfileId }),
    invalidVariables: () => ({}),
  },
  {
    field: "Mutation.putManager",
    capabilities: ["OPERATOR"],
    document: "mutation Put($id: ID!, $policy: ManagerPolicyInput!) { putManager(profileId: $id, policy: $policy) { profileId isActive } }",
    variables: async (fx) => ({ id: await fx.nonManagerProfile(), policy: { allowedCorridors: ["BR", "MX"], isActive: true } }),
    invalidVariables: async (fx) => ({ id: await fx.nonManagerProfile(), policy: { allowedCorridors: ["XX"], isActive: true } }),
  },
  {
    field: "Mutation.assignPricingProfile",
    capabilities: ["OPERATOR"],
    document: "mutation Assign($id: ID!, $name: String!) { assignPricingProfile(profileId: $id, pricingProfile: $name) { profileId pricingProfile } }",
    variables: (fx) => ({ id: fx.pricedProfileId, name: "reduced" }),
    invalidVariables: (fx) => ({ id: fx.pricedProfileId, name: 42 }),
  },
  {
    field: "Mutation.createPartner",
    capabilities: ["OPERATOR"],
    document: "mutation Partner($name: String!) { createPartner(name: $name) { id name isActive } }",
    variables: () => ({ name: "security suite: created partner" }),
    invalidVariables: () => ({ name: 42 }),
  },
  {
    field: "Mutation.setPartnerActive",
    capabilities: ["OPERATOR"],
    document: "mutation Toggle($id: ID!, $active: Boolean!) { setPartnerActive(partnerId: $id, isActive: $active) { id isActive } }",
    variables: async (fx) => ({
      id: fx.togglePartnerId,
      active: !(await fx.t.app.db.partner.findUniqueOrThrow({ where: { id: fx.togglePartnerId } })).isActive,
    }),
    invalidVariables: (fx) => ({ id: fx.togglePartnerId, active: "yes" }),
  },
  {
    field: "Mutation.issuePartnerCredential",
    capabilities: ["OPERATOR"],
    document:
      "mutation IssuePartner($id: ID!, $input: PartnerCredentialInput!) { issuePartnerCredential(partnerId: $id, input: $input) { secretKey credential { id partnerId profileId } } }",
    variables: async (fx) => ({ id: fx.partner.id, input: { profileId: await fx.partner.subject(), name: "security suite: partner-managed" } }),
    invalidVariables: (fx) => ({ id: fx.partner.id, input: { name: "no subject" } }),
  },
];

/** Open sign-in, rate-limited per IP: not part of the suite. */
const EXEMPT_REST = ["POST /v1/auth/request-otp", "POST /v1/auth/verify-otp"];
const EXEMPT_GRAPHQL = ["Mutation.requestOtp", "Mutation.verifyOtp"];

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(SECURITY_SUITE_ENV);
});
afterAll(() => t?.close());

securitySuite(() => t, TARGETS, { schema: buildGraphQLSchema });

describe("security suite registry is complete", () => {
  const restTargets: string[] = TARGETS.filter(isRest).map((target) => target.route).sort();
  const graphQLTargets: string[] = TARGETS.flatMap((target) => (isRest(target) ? [] : [target.field])).sort();

  it("registers every documented REST operation (OpenAPI at /v1/openapi.json)", async () => {
    const documented = await documentedRoutes(t);
    expect(documented.filter((route) => !EXEMPT_REST.includes(route) && !restTargets.includes(route))).toEqual([]);
    expect(restTargets.filter((route) => !documented.includes(route))).toEqual([]);
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

  it("registers every Query and Mutation field and every other field carrying @auth", async () => {
    const schema = await buildGraphQLSchema();
    const toCover = graphQLCoordinatesToCover(schema, EXEMPT_GRAPHQL);
    expect(toCover).toContain("Profile.apiCredentials");
    expect(toCover.filter((coordinate) => !graphQLTargets.includes(coordinate))).toEqual([]);
    expect(graphQLTargets.filter((coordinate) => !toCover.includes(coordinate))).toEqual([]);
  });
});
