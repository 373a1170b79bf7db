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
