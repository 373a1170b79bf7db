import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRICING_PROFILE_NAMES } from "../../src/quotes/pricing.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { rememberSecret } from "../support/secrets.js";
import { expectError } from "../support/kit.js";

/**
 * The operator surface (CONTRACT.md, "Managed profiles and delegation"): `/v1/admin/*` and the operator
 * GraphQL operations at `/admin/graphql`, authenticated by `Authorization: Bearer <OPERATOR_TOKEN>` only; manager policies,
 * pricing assignments, partners and partner-managed credentials.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

type Headers = Record<string, string>;

/** A call to the operator surface, with the operator token unless other headers are given. */
const admin = (method: string, path: string, body?: unknown, headers?: Headers) =>
  t.request(method, path, { headers: headers ?? t.operatorHeaders, ...(body !== undefined && { body }) });

/** An operation on the operator's GraphQL endpoint, with the operator token unless other headers are given. */
const gql = (query: string, variables?: Record<string, unknown>, headers?: Headers) =>
  t.adminGraphql(query, variables, headers ?? t.operatorHeaders);

const me = (key: Headers) => t.graphql("{ me { id } }", undefined, key);

/** Expects one GraphQL error carrying the contract's code and status in its extensions. */
function expectGraphQLError(response: { status: number; body: any }, code: string, status: number) {
  expect(response.body.errors, JSON.stringify(response.body)).toBeDefined();
  expect(response.body.errors[0].extensions).toMatchObject({ code, status });
  // No partial data for the failed root field.
  expect(response.body.data?.[Object.keys(response.body.data ?? {})[0]] ?? null).toBeNull();
}

async function createPartner(name = `Partner ${randomUUID().slice(0, 8)}`) {
  const created = await admin("POST", "/v1/admin/partners", { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.partner as { id: string; name: string; isActive: boolean };
}

async function issuePartnerCredential(partnerId: string, body: Record<string, unknown>) {
  const issued = await admin("POST", `/v1/admin/partners/${partnerId}/api-credentials`, body);
  expect(issued.status, JSON.stringify(issued.body)).toBe(201);
  rememberSecret(issued.body.secretKey);
  return issued.body as { id: string; profileId: string; partnerId: string; publicKey: string; secretKey: string };
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/* ------------------------------------------------------------------ authentication */

describe("operator authentication", () => {
  it("accepts the operator token on /v1/admin/*", async () => {
    const session = await t.signIn();
    const put = await admin("PUT", `/v1/admin/managers/${session.profileId}`, {
      allowedCorridors: ["BR"],
      isActive: true,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(201);
    const got = await admin("GET", `/v1/admin/managers/${session.profileId}`);
    expect(got.status).toBe(200);
    // Only the operator token's own scheme word is case-insensitive; the token itself is exact.
    const lowerScheme = await admin("GET", `/v1/admin/managers/${session.profileId}`, undefined, {
      authorization: t.operatorHeaders.authorization.replace(/^Bearer/, "bearer"),
    });
    expect(lowerScheme.status).toBe(200);
  });

  it("refuses every admin route without the operator token: none, wrong, session JWT, API key -> 401", async () => {
    const session = await t.signIn();
    const key = await t.createCredential(session.headers);
    const partner = await createPartner();
    const operatorToken = t.operatorHeaders.authorization.slice("Bearer ".length);
    const routes: [string, string, unknown][] = [
      ["PUT", `/v1/admin/managers/${session.profileId}`, { allowedCorridors: ["BR"], isActive: true }],
      ["GET", `/v1/admin/managers/${session.profileId}`, undefined],
      ["PUT", `/v1/admin/pricing-assignments/${session.profileId}`, { pricingProfile: "reduced" }],
      ["GET", `/v1/admin/pricing-assignments/${session.profileId}`, undefined],
      ["POST", "/v1/admin/partners", { name: "Intruder" }],
      ["PATCH", `/v1/admin/partners/${partner.id}`, { isActive: false }],
      ["POST", `/v1/admin/partners/${partner.id}/api-credentials`, { profileId: session.profileId }],
    ];
    const callers: [string, Headers, string][] = [
      ["no credential", {}, "AUTHENTICATION_REQUIRED"],
      ["a wrong bearer token", { authorization: `Bearer ${operatorToken}x` }, "INVALID_BEARER_TOKEN"],
      ["a random bearer token", { authorization: `Bearer ${randomUUID()}` }, "INVALID_BEARER_TOKEN"],
      ["the token under another scheme", { authorization: `Basic ${operatorToken}` }, "INVALID_BEARER_TOKEN"],
      ["a session JWT", session.headers, "AUTHENTICATION_REQUIRED"],
      ["a secret API key", { "x-api-key": key.secretKey }, "AUTHENTICATION_REQUIRED"],
      ["a public API key", { "x-public-key": key.publicKey }, "AUTHENTICATION_REQUIRED"],
      ["the token as X-API-Key", { "x-api-key": operatorToken }, "INVALID_SECRET_KEY"],
    ];
    for (const [method, path, body] of routes) {
      for (const [label, headers, code] of callers) {
        const response = await admin(method, path, body, headers);
        expect(response.status, `${method} ${path} with ${label}: ${JSON.stringify(response.body)}`).toBe(401);
        expect(response.body.error.code, `${method} ${path} with ${label}`).toBe(code);
      }
    }
    // Nothing happened: no manager, no pricing, the partner still active, no partner credential.
    expect((await admin("GET", `/v1/admin/managers/${session.profileId}`)).status).toBe(404);
    expect((await admin("GET", `/v1/admin/pricing-assignments/${session.profileId}`)).status).toBe(404);
    expect(await t.app.db.partner.count({ where: { name: "Intruder" } })).toBe(0);
    expect((await t.app.db.partner.findUniqueOrThrow({ where: { id: partner.id } })).isActive).toBe(true);
    expect(await t.app.db.apiCredential.count({ where: { partnerId: partner.id } })).toBe(0);
  });

  it("answers an unauthenticated caller with an authentication error, never a validation error", async () => {
    const session = await t.signIn();
    const invalid = await admin("PUT", `/v1/admin/managers/${session.profileId}`, { allowedCorridors: "nope" }, {});
    expectError(invalid, 401, "AUTHENTICATION_REQUIRED");
    const invalidAsSession = await admin("POST", "/v1/admin/partners", {}, session.headers);
    expectError(invalidAsSession, 401, "AUTHENTICATION_REQUIRED");
  });

  it("refuses the operator token on routes outside the operator surface (capability matrix: FORBIDDEN)", async () => {
    const listed = await admin("GET", "/v1/api-credentials");
    expectError(listed, 403, "FORBIDDEN");
    const created = await admin("POST", "/v1/api-credentials", { name: "operator" });
    expectError(created, 403, "FORBIDDEN");
    const managed = await admin("GET", "/v1/managed-profiles");
    expectError(managed, 403, "FORBIDDEN");
    const profile = await t.graphql("{ me { id } }", undefined, t.operatorHeaders);
    expect(profile.status).toBe(403);
    expectGraphQLError(profile, "FORBIDDEN", 403);
  });

  it("serves the operator GraphQL operations at /admin/graphql only: /graphql's introspection lists none", async () => {
    const FIELDS = "{ __schema { queryType { fields { name } } mutationType { fields { name } } } }";
    const names = (response: { body: any }) =>
      [response.body.data.__schema.queryType, response.body.data.__schema.mutationType].flatMap((type) =>
        type.fields.map(({ name }: { name: string }) => name),
      );
    const operatorFields = names(await gql(FIELDS));
    expect(operatorFields.sort()).toEqual(
      [
        "assignPricingProfile",
        "auditEvents",
        "createPartner",
        "issuePartnerCredential",
        "manager",
        "pricingAssignment",
        "putManager",
        "setPartnerActive",
      ].sort(),
    );
    const session = await t.signIn();
    for (const headers of [{}, session.headers, t.operatorHeaders]) {
      const listed = names(await t.graphql(FIELDS, undefined, headers));
      expect(listed).toContain("me");
      expect(listed.filter((name) => operatorFields.includes(name))).toEqual([]);
    }
    // Asked on /graphql, an operator field is no field at all, for the operator too.
    const unknown = await t.graphql(
      "query ($id: ID!) { manager(profileId: $id) { profileId } }",
      { id: session.profileId },
      t.operatorHeaders,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].extensions.code).toBe("VALIDATION_FAILED");
    expect(unknown.body.errors[0].message).toMatch(/Cannot query field "manager"/);
  });

  it("refuses /admin/graphql to any other caller before reading the request: 401, even for a malformed body", async () => {
    const session = await t.signIn();
    const key = await t.createCredential(session.headers);
    for (const headers of [{}, session.headers, { "x-api-key": key.secretKey }, { "x-public-key": key.publicKey }]) {
      const introspection = await gql("{ __schema { types { name } } }", undefined, headers);
      expect(introspection.status, JSON.stringify(introspection.body)).toBe(401);
      expect(introspection.body.errors[0].extensions.code).toBe("AUTHENTICATION_REQUIRED");
      expect(introspection.body.data ?? null).toBeNull();
      const malformed = await t.request("POST", "/admin/graphql", { headers, rawBody: "{not json" });
      expect(malformed.status, JSON.stringify(malformed.body)).toBe(401);
    }
  });

  it("refuses the operator GraphQL operations to anyone but the operator", async () => {
    const session = await t.signIn();
    const key = await t.createCredential(session.headers);
    const operations: [string, Record<string, unknown>][] = [
      ["query ($id: ID!) { manager(profileId: $id) { profileId } }", { id: session.profileId }],
      [
        "mutation ($id: ID!) { putManager(profileId: $id, policy: { allowedCorridors: [BR], isActive: true }) { manager { profileId } } }",
        { id: session.profileId },
      ],
      ["query ($id: ID!) { pricingAssignment(profileId: $id) { pricingProfile } }", { id: session.profileId }],
      [
        "mutation ($id: ID!) { assignPricingProfile(profileId: $id, pricingProfile: REDUCED) { pricingAssignment { pricingProfile } } }",
        { id: session.profileId },
      ],
      ['mutation { createPartner(name: "Intruder") { partner { id } } }', {}],
      [
        "mutation ($id: ID!) { setPartnerActive(partnerId: $id, isActive: false) { partner { id } } }",
        { id: randomUUID() },
      ],
      [
        "mutation ($id: ID!, $p: ID!) { issuePartnerCredential(partnerId: $id, input: { profileId: $p }) { credential { secretKey } } }",
        { id: randomUUID(), p: session.profileId },
      ],
    ];
    const callers: [string, Headers][] = [
      ["no credential", {}],
      ["a session JWT", session.headers],
      ["a secret API key", { "x-api-key": key.secretKey }],
    ];
    for (const [query, variables] of operations) {
      for (const [label, headers] of callers) {
        const response = await gql(query, variables, headers);
        expect(response.status, `${query} with ${label}: ${JSON.stringify(response.body)}`).toBe(401);
        expect(response.body.errors?.[0]?.extensions?.code, `${query} with ${label}`).toBe("AUTHENTICATION_REQUIRED");
        expect(response.body.data ?? null, `${query} with ${label}`).toBeNull();
      }
    }
    const wrong = await gql(
      "query ($id: ID!) { manager(profileId: $id) { profileId } }",
      { id: session.profileId },
      { authorization: `Bearer ${randomUUID()}` },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].extensions.code).toBe("INVALID_BEARER_TOKEN");
    expect(await t.app.db.partner.count({ where: { name: "Intruder" } })).toBe(0);
    expect(await t.app.db.manager.count({ where: { profileId: session.profileId } })).toBe(0);
  });
});

/* ------------------------------------------------------------------------ managers */

describe("managers (REST)", () => {
  it("PUT creates the policy (201), then replaces it (200); GET returns the current one", async () => {
    const session = await t.signIn();
    const path = `/v1/admin/managers/${session.profileId}`;
    const created = await admin("PUT", path, {
      allowedCorridors: ["BR", "MX"],
      allowedCustomerTypes: ["individual"],
      isActive: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(Object.keys(created.body)).toEqual(["manager"]);
    expect(created.body.manager).toEqual({
      profileId: session.profileId,
      allowedCorridors: ["BR", "MX"],
      allowedCustomerTypes: ["individual"],
      isActive: true,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect((await admin("GET", path)).body).toEqual(created.body);

    const updated = await admin("PUT", path, {
      allowedCorridors: ["CO"],
      allowedCustomerTypes: ["business"],
      isActive: false,
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.manager).toMatchObject({
      profileId: session.profileId,
      allowedCorridors: ["CO"],
      allowedCustomerTypes: ["business"],
      isActive: false,
      createdAt: created.body.manager.createdAt,
    });
    expect(Date.parse(updated.body.manager.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(created.body.manager.createdAt),
    );
    const got = await admin("GET", path);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(updated.body);

    // Still 200 (not 201) on every later PUT, including one that re-enables it.
    const again = await admin("PUT", path, { allowedCorridors: ["CO"], isActive: true });
    expect(again.status).toBe(200);
    expect(await t.app.db.manager.count({ where: { profileId: session.profileId } })).toBe(1);
  });

  it("allowedCustomerTypes omitted or null means no narrowing (null in the response); duplicates are removed", async () => {
    const session = await t.signIn();
    const path = `/v1/admin/managers/${session.profileId}`;
    const omitted = await admin("PUT", path, { allowedCorridors: ["MX", "BR", "MX", "BR"], isActive: true });
    expect(omitted.status, JSON.stringify(omitted.body)).toBe(201);
    expect(omitted.body.manager.allowedCustomerTypes).toBeNull();
    expect([...omitted.body.manager.allowedCorridors].sort()).toEqual(["BR", "MX"]);

    const narrowed = await admin("PUT", path, {
      allowedCorridors: ["US"],
      allowedCustomerTypes: ["business", "individual", "business"],
      isActive: true,
    });
    expect(narrowed.status).toBe(200);
    expect([...narrowed.body.manager.allowedCustomerTypes].sort()).toEqual(["business", "individual"]);

    // Replacing the policy without the field clears an earlier narrowing.
    const explicitNull = await admin("PUT", path, {
      allowedCorridors: ["US"],
      allowedCustomerTypes: null,
      isActive: true,
    });
    expect(explicitNull.status).toBe(200);
    expect(explicitNull.body.manager.allowedCustomerTypes).toBeNull();
    expect((await admin("GET", path)).body.manager.allowedCustomerTypes).toBeNull();

    const empty = await admin("PUT", path, { allowedCorridors: [], isActive: true });
    expect(empty.status).toBe(200);
    expect(empty.body.manager.allowedCorridors).toEqual([]);
  });

  it("unknown profile -> 404 NOT_FOUND; no policy -> 404 on GET; no UUID -> 400", async () => {
    const unknown = randomUUID();
    expectError(
      await admin("PUT", `/v1/admin/managers/${unknown}`, { allowedCorridors: ["BR"], isActive: true }),
      404,
      "NOT_FOUND",
    );
    expectError(await admin("GET", `/v1/admin/managers/${unknown}`), 404, "NOT_FOUND");
    expectError(
      await admin("PUT", "/v1/admin/managers/not-a-uuid", { allowedCorridors: ["BR"], isActive: true }),
      400,
      "VALIDATION_FAILED",
      "profileId",
    );
    expectError(await admin("GET", "/v1/admin/managers/not-a-uuid"), 400, "VALIDATION_FAILED", "profileId");
    const session = await t.signIn();
    expectError(await admin("GET", `/v1/admin/managers/${session.profileId}`), 404, "NOT_FOUND");
    expect(await t.app.db.manager.count({ where: { profileId: unknown } })).toBe(0);
  });

  it("invalid bodies -> 400 VALIDATION_FAILED naming the field, and nothing is stored", async () => {
    const session = await t.signIn();
    const path = `/v1/admin/managers/${session.profileId}`;
    const cases: [string, unknown, string][] = [
      ["an unknown corridor", { allowedCorridors: ["BR", "XX"], isActive: true }, "allowedCorridors.1"],
      ["a lower-case corridor", { allowedCorridors: ["br"], isActive: true }, "allowedCorridors.0"],
      ["corridors not a list", { allowedCorridors: "BR", isActive: true }, "allowedCorridors"],
      ["corridors missing", { isActive: true }, "allowedCorridors"],
      [
        "an empty customer-type list",
        { allowedCorridors: ["BR"], allowedCustomerTypes: [], isActive: true },
        "allowedCustomerTypes",
      ],
      [
        "an unknown customer type",
        { allowedCorridors: ["BR"], allowedCustomerTypes: ["robot"], isActive: true },
        "allowedCustomerTypes.0",
      ],
      ["isActive missing", { allowedCorridors: ["BR"] }, "isActive"],
      ["isActive not a boolean", { allowedCorridors: ["BR"], isActive: "yes" }, "isActive"],
    ];
    for (const [label, body, field] of cases) {
      const response = await admin("PUT", path, body);
      expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body.error.code, label).toBe("VALIDATION_FAILED");
      expect(response.body.error.details, label).toEqual(
        expect.arrayContaining([expect.objectContaining({ field, message: expect.any(String) })]),
      );
    }
    expectError(await admin("GET", path), 404, "NOT_FOUND");
  });

  it("a managed child cannot be made a manager", async () => {
    const manager = await t.signIn();
    await admin("PUT", `/v1/admin/managers/${manager.profileId}`, { allowedCorridors: ["BR"], isActive: true });
    const child = await t.request("POST", "/v1/managed-profiles", {
      headers: manager.headers,
      body: {
        externalSubjectId: `ext-${randomUUID()}`,
        contactEmail: `${randomUUID()}@example.com`,
        customerType: "individual",
      },
    });
    expect(child.status, JSON.stringify(child.body)).toBe(201);
    const refused = await admin("PUT", `/v1/admin/managers/${child.body.managedProfile.profileId}`, {
      allowedCorridors: ["BR"],
      isActive: true,
    });
    expectError(refused, 400, "VALIDATION_FAILED");
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: "profileId" })]);
  });

  it("a policy change applies to the manager's very next request", async () => {
    const session = await t.signIn();
    const path = `/v1/admin/managers/${session.profileId}`;
    const list = () => t.request("GET", "/v1/managed-profiles", { headers: session.headers });
    // Not a manager yet.
    expectError(await list(), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    await admin("PUT", path, { allowedCorridors: ["BR", "MX"], allowedCustomerTypes: ["individual"], isActive: true });
    const listed = await list();
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.manager).toEqual({
      profileId: session.profileId,
      allowedCorridors: ["BR", "MX"],
      allowedCustomerTypes: ["individual"],
    });

    expect((await admin("PUT", path, { allowedCorridors: ["BR"], isActive: false })).status).toBe(200);
    expectError(await list(), 403, "MANAGED_PROFILE_ACCESS_DENIED");

    expect((await admin("PUT", path, { allowedCorridors: ["US"], isActive: true })).status).toBe(200);
    const reenabled = await list();
    expect(reenabled.status).toBe(200);
    expect(reenabled.body.manager).toEqual({
      profileId: session.profileId,
      allowedCorridors: ["US"],
      allowedCustomerTypes: null,
    });
  });

  it("disabling a manager stops delegation at once, even when its policy was cached; re-enabling restores it", async () => {
    const manager = await t.signIn();
    const path = `/v1/admin/managers/${manager.profileId}`;
    await admin("PUT", path, { allowedCorridors: ["BR"], isActive: true });
    const child = await t.request("POST", "/v1/managed-profiles", {
      headers: manager.headers,
      body: {
        externalSubjectId: `ext-${randomUUID()}`,
        contactEmail: `${randomUUID()}@example.com`,
        customerType: "individual",
      },
    });
    expect(child.status, JSON.stringify(child.body)).toBe(201);
    const childId = child.body.managedProfile.profileId;
    const childKey = await t.request("POST", `/v1/managed-profiles/${childId}/api-credentials`, {
      headers: manager.headers,
      body: {},
    });
    expect(childKey.status, JSON.stringify(childKey.body)).toBe(201);
    rememberSecret(childKey.body.secretKey);
    const asChild = () => me({ "x-api-key": childKey.body.secretKey });
    const viaSelector = () => me({ ...manager.headers, "x-managed-profile-id": childId });

    // Both paths read the manager's policy through the delegation cache.
    for (let i = 0; i < 2; i++) {
      expect((await asChild()).body.data?.me.id).toBe(childId);
      expect((await viaSelector()).body.data?.me.id).toBe(childId);
    }
    expect((await admin("PUT", path, { allowedCorridors: ["BR"], isActive: false })).status).toBe(200);
    for (const response of [await asChild(), await viaSelector()]) {
      expect(response.body.errors?.[0]?.extensions?.code, JSON.stringify(response.body)).toBe(
        "MANAGED_PROFILE_ACCESS_DENIED",
      );
    }
    expect((await admin("PUT", path, { allowedCorridors: ["BR"], isActive: true })).status).toBe(200);
    expect((await asChild()).body.data?.me.id).toBe(childId);
    expect((await viaSelector()).body.data?.me.id).toBe(childId);
  });
});

/* ------------------------------------------------------------------------- pricing */

describe("pricing assignments (REST)", () => {
  it("PUT assigns (200 {pricingAssignment}), PUT again replaces, GET returns it", async () => {
    const session = await t.signIn();
    const path = `/v1/admin/pricing-assignments/${session.profileId}`;
    expectError(await admin("GET", path), 404, "NOT_FOUND");
    const assigned = await admin("PUT", path, { pricingProfile: "partner-markup" });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(assigned.body).toEqual({
      pricingAssignment: {
        profileId: session.profileId,
        pricingProfile: "partner-markup",
        updatedAt: expect.stringMatching(ISO),
      },
    });
    expect((await admin("GET", path)).body).toEqual(assigned.body);

    const replaced = await admin("PUT", path, { pricingProfile: "reduced" });
    expect(replaced.status).toBe(200);
    expect(replaced.body.pricingAssignment.pricingProfile).toBe("reduced");
    const got = await admin("GET", path);
    expect(got.status).toBe(200);
    expect(got.body.pricingAssignment).toMatchObject({ profileId: session.profileId, pricingProfile: "reduced" });
    expect(await t.app.db.pricingAssignment.count({ where: { profileId: session.profileId } })).toBe(1);
  });

  it("any profile can be assigned, a managed child included", async () => {
    const manager = await t.signIn();
    await admin("PUT", `/v1/admin/managers/${manager.profileId}`, { allowedCorridors: ["BR"], isActive: true });
    const child = await t.request("POST", "/v1/managed-profiles", {
      headers: manager.headers,
      body: {
        externalSubjectId: `ext-${randomUUID()}`,
        contactEmail: `${randomUUID()}@example.com`,
        customerType: "business",
      },
    });
    const childId = child.body.managedProfile.profileId;
    const assigned = await admin("PUT", `/v1/admin/pricing-assignments/${childId}`, { pricingProfile: "zero-fee" });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(assigned.body.pricingAssignment).toMatchObject({ profileId: childId, pricingProfile: "zero-fee" });
  });

  it("names outside the pricing catalog -> 400 VALIDATION_FAILED; unknown profile -> 404; no UUID -> 400", async () => {
    const session = await t.signIn();
    const path = `/v1/admin/pricing-assignments/${session.profileId}`;
    for (const pricingProfile of ["", "Default", "REDUCED", "vip", "has space", "x".repeat(65), 42, null]) {
      const response = await admin("PUT", path, { pricingProfile });
      expect(response.status, `${JSON.stringify(pricingProfile)}: ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body.error.code).toBe("VALIDATION_FAILED");
      expect(response.body.error.details).toEqual([expect.objectContaining({ field: "pricingProfile" })]);
    }
    const missing = await admin("PUT", path, {});
    expectError(missing, 400, "VALIDATION_FAILED");
    expect(missing.body.error.details).toEqual([expect.objectContaining({ field: "pricingProfile" })]);
    for (const pricingProfile of PRICING_PROFILE_NAMES)
      expect((await admin("PUT", path, { pricingProfile })).status).toBe(200);

    expectError(
      await admin("PUT", `/v1/admin/pricing-assignments/${randomUUID()}`, { pricingProfile: "reduced" }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await admin("PUT", "/v1/admin/pricing-assignments/not-a-uuid", { pricingProfile: "reduced" }),
      400,
      "VALIDATION_FAILED",
      "profileId",
    );
    expectError(await admin("GET", `/v1/admin/pricing-assignments/${randomUUID()}`), 404, "NOT_FOUND");
  });
});

/* ------------------------------------------------------------------------ partners */

describe("partners (REST)", () => {
  it("POST creates an active partner (201); PATCH switches it (200); unknown -> 404; no UUID -> 400", async () => {
    const created = await admin("POST", "/v1/admin/partners", { name: "Acme Wallets" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({
      partner: {
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        name: "Acme Wallets",
        isActive: true,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    });
    const { id } = created.body.partner;
    const off = await admin("PATCH", `/v1/admin/partners/${id}`, { isActive: false });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.partner).toMatchObject({
      id,
      name: "Acme Wallets",
      isActive: false,
      createdAt: created.body.partner.createdAt,
    });
    expect((await t.app.db.partner.findUniqueOrThrow({ where: { id } })).isActive).toBe(false);
    const on = await admin("PATCH", `/v1/admin/partners/${id}`, { isActive: true });
    expect(on.status).toBe(200);
    expect(on.body.partner).toMatchObject({ id, isActive: true });

    expectError(await admin("PATCH", `/v1/admin/partners/${randomUUID()}`, { isActive: false }), 404, "NOT_FOUND");
    expectError(
      await admin("PATCH", "/v1/admin/partners/not-a-uuid", { isActive: false }),
      400,
      "VALIDATION_FAILED",
      "partnerId",
    );
  });

  it("invalid partner bodies -> 400 VALIDATION_FAILED", async () => {
    for (const body of [{}, { name: "" }, { name: "   " }, { name: "x".repeat(101) }, { name: 7 }]) {
      const response = await admin("POST", "/v1/admin/partners", body);
      expect(response.status, `${JSON.stringify(body)}: ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body.error.code).toBe("VALIDATION_FAILED");
      expect(response.body.error.details).toEqual([expect.objectContaining({ field: "name" })]);
    }
    const partner = await createPartner();
    for (const body of [{}, { isActive: "false" }, { isActive: null }]) {
      const response = await admin("PATCH", `/v1/admin/partners/${partner.id}`, body);
      expect(response.status, `${JSON.stringify(body)}: ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body.error).toMatchObject({
        code: "VALIDATION_FAILED",
        details: [expect.objectContaining({ field: "isActive" })],
      });
    }
    expect((await t.app.db.partner.findUniqueOrThrow({ where: { id: partner.id } })).isActive).toBe(true);
  });
});

describe("partner-managed credentials (REST)", () => {
  it("issues a credential bound to the profile and attributed to the partner (201, secret once)", async () => {
    const owner = await t.signIn();
    const partner = await createPartner();
    const before = Date.now();
    const issued = await admin("POST", `/v1/admin/partners/${partner.id}/api-credentials`, {
      profileId: owner.profileId,
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    rememberSecret(issued.body.secretKey);
    expect(issued.body).toMatchObject({
      id: expect.any(String),
      name: "API Credential",
      profileId: owner.profileId,
      partnerId: partner.id,
      environment: "test",
      revokedAt: null,
      publicLastUsedAt: null,
      secretLastUsedAt: null,
    });
    expect(issued.body.publicKey).toMatch(/^pk_test_[A-Za-z0-9]{32}$/);
    expect(issued.body.secretKey).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    expect(issued.body.secretKeyPrefix).toBe(issued.body.secretKey.slice(0, 16));
    const expiry = Date.parse(issued.body.expiresAt);
    expect(expiry).toBeGreaterThan(before + 364 * 86_400_000);
    expect(expiry).toBeLessThan(before + 367 * 86_400_000);

    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const named = await issuePartnerCredential(partner.id, {
      profileId: owner.profileId,
      name: "wallet backend",
      expiresAt,
    });
    expect(named).toMatchObject({
      name: "wallet backend",
      expiresAt,
      partnerId: partner.id,
      profileId: owner.profileId,
    });

    // The owner sees both, attributed to the partner, never with the secret.
    const listed = await t.request("GET", "/v1/api-credentials", { headers: owner.headers });
    expect(listed.status).toBe(200);
    expect(listed.body.credentials.map((c: { id: string }) => c.id).sort()).toEqual([issued.body.id, named.id].sort());
    for (const credential of listed.body.credentials) {
      expect(credential).toMatchObject({ partnerId: partner.id, profileId: owner.profileId });
      expect(credential).not.toHaveProperty("secretKey");
    }
    expect(JSON.stringify(listed.body)).not.toContain(issued.body.secretKey);
  });

  it("an unknown subject -> 404 CREDENTIAL_SUBJECT_REQUIRED; an unknown partner -> 404 NOT_FOUND, no UUID 400", async () => {
    const partner = await createPartner();
    const path = `/v1/admin/partners/${partner.id}/api-credentials`;
    expectError(await admin("POST", path, { profileId: randomUUID() }), 404, "CREDENTIAL_SUBJECT_REQUIRED");
    expectError(await admin("POST", path, { profileId: "not-a-uuid" }), 404, "CREDENTIAL_SUBJECT_REQUIRED");
    expect(await t.app.db.apiCredential.count({ where: { partnerId: partner.id } })).toBe(0);

    const owner = await t.signIn();
    expectError(
      await admin("POST", `/v1/admin/partners/${randomUUID()}/api-credentials`, { profileId: owner.profileId }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await admin("POST", "/v1/admin/partners/not-a-uuid/api-credentials", { profileId: owner.profileId }),
      400,
      "VALIDATION_FAILED",
      "partnerId",
    );
    expect(await t.app.db.apiCredential.count({ where: { profileId: owner.profileId } })).toBe(0);
  });

  it("a missing subject (no profileId) -> 404 CREDENTIAL_SUBJECT_REQUIRED (CONTRACT.md: partner-managed issuance)", async () => {
    const partner = await createPartner();
    const path = `/v1/admin/partners/${partner.id}/api-credentials`;
    expectError(await admin("POST", path, {}), 404, "CREDENTIAL_SUBJECT_REQUIRED");
    expectError(await admin("POST", path, { name: "no subject" }), 404, "CREDENTIAL_SUBJECT_REQUIRED");
    expectError(await admin("POST", path, { profileId: null }), 404, "CREDENTIAL_SUBJECT_REQUIRED");
    expect(await t.app.db.apiCredential.count({ where: { partnerId: partner.id } })).toBe(0);
  });

  it("an inactive partner cannot be issued credentials; name and expiry rules apply", async () => {
    const owner = await t.signIn();
    const partner = await createPartner();
    const path = `/v1/admin/partners/${partner.id}/api-credentials`;
    expectError(
      await admin("POST", path, { profileId: owner.profileId, name: "x".repeat(101) }),
      400,
      "INVALID_CREDENTIAL_NAME",
    );
    expectError(
      await admin("POST", path, { profileId: owner.profileId, expiresAt: new Date(Date.now() - 1000).toISOString() }),
      400,
      "INVALID_CREDENTIAL_EXPIRY",
    );
    expectError(
      await admin("POST", path, {
        profileId: owner.profileId,
        expiresAt: new Date(Date.now() + 2 * 366 * 86_400_000).toISOString(),
      }),
      400,
      "INVALID_CREDENTIAL_EXPIRY",
    );
    await admin("PATCH", `/v1/admin/partners/${partner.id}`, { isActive: false });
    expectError(await admin("POST", path, { profileId: owner.profileId }), 404, "NOT_FOUND");
    expect(await t.app.db.apiCredential.count({ where: { profileId: owner.profileId } })).toBe(0);
  });

  it("authenticates only its bound profile, with the rights of a secret key", async () => {
    const owner = await t.signIn();
    const other = await t.signIn();
    const partner = await createPartner();
    const credential = await issuePartnerCredential(partner.id, { profileId: owner.profileId });
    const asSecret = await me({ "x-api-key": credential.secretKey });
    expect(asSecret.status, JSON.stringify(asSecret.body)).toBe(200);
    expect(asSecret.body.data.me.id).toBe(owner.profileId);
    expect(asSecret.body.data.me.id).not.toBe(other.profileId);
    // Both values together identify the one credential.
    const both = await me({ "x-api-key": credential.secretKey, "x-public-key": credential.publicKey });
    expect(both.body.data.me.id).toBe(owner.profileId);
    // It cannot reach another profile through the selector: its profile is no manager.
    const selecting = await me({ "x-api-key": credential.secretKey, "x-managed-profile-id": other.profileId });
    expect(selecting.body.errors?.[0]?.extensions?.code, JSON.stringify(selecting.body)).toBe(
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    expect(selecting.body.data ?? null).toBeNull();
    // Not a session: no credential lifecycle, and no operator rights.
    expectError(
      await t.request("GET", "/v1/api-credentials", { headers: { "x-api-key": credential.secretKey } }),
      403,
      "FORBIDDEN",
    );
    expectError(
      await admin("GET", `/v1/admin/managers/${owner.profileId}`, undefined, { "x-api-key": credential.secretKey }),
      401,
      "AUTHENTICATION_REQUIRED",
    );
  });

  it("the owner can revoke it: 204, then it is refused; again -> 404", async () => {
    const owner = await t.signIn();
    const partner = await createPartner();
    const credential = await issuePartnerCredential(partner.id, { profileId: owner.profileId });
    expect((await me({ "x-api-key": credential.secretKey })).body.data.me.id).toBe(owner.profileId);
    const revoked = await t.request("DELETE", `/v1/api-credentials/${credential.id}`, { headers: owner.headers });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(204);
    const afterwards = await me({ "x-api-key": credential.secretKey });
    expect(afterwards.status).toBe(401);
    expect(afterwards.body.errors[0].extensions.code).toBe("INVALID_API_KEY");
    const listed = await t.request("GET", "/v1/api-credentials", { headers: owner.headers });
    expect(listed.body.credentials[0]).toMatchObject({
      id: credential.id,
      partnerId: partner.id,
      revokedAt: expect.stringMatching(ISO),
    });
    expectError(
      await t.request("DELETE", `/v1/api-credentials/${credential.id}`, { headers: owner.headers }),
      404,
      "CREDENTIAL_NOT_FOUND",
    );
    // Another profile cannot revoke a partner credential it is not bound to.
    const stranger = await t.signIn();
    const second = await issuePartnerCredential(partner.id, { profileId: owner.profileId });
    expectError(
      await t.request("DELETE", `/v1/api-credentials/${second.id}`, { headers: stranger.headers }),
      404,
      "CREDENTIAL_NOT_FOUND",
    );
    expect((await me({ "x-api-key": second.secretKey })).body.data.me.id).toBe(owner.profileId);
  });

  it("deactivating the partner refuses its credentials on the very next request, even when cached; reactivating restores them", async () => {
    const owner = await t.signIn();
    const partner = await createPartner();
    const otherPartner = await createPartner();
    const credential = await issuePartnerCredential(partner.id, { profileId: owner.profileId });
    const unaffected = await issuePartnerCredential(otherPartner.id, { profileId: owner.profileId });
    const own = await t.createCredential(owner.headers, { name: "own" });

    // Cached by successful calls (the cache keeps entries for CACHE_TTL_SECONDS, 30 s by default).
    for (let i = 0; i < 3; i++)
      expect((await me({ "x-api-key": credential.secretKey })).body.data.me.id).toBe(owner.profileId);
    const rest = (key: Headers) => t.request("GET", "/v1/managed-profiles", { headers: key });
    expect((await rest({ "x-api-key": credential.secretKey })).body.error?.code).not.toBe("INVALID_API_KEY");

    const off = await admin("PATCH", `/v1/admin/partners/${partner.id}`, { isActive: false });
    expect(off.status).toBe(200);
    const refused = await me({ "x-api-key": credential.secretKey });
    expect(refused.status, JSON.stringify(refused.body)).toBe(401);
    expect(refused.body.errors[0].extensions.code).toBe("INVALID_API_KEY");
    expectError(await rest({ "x-api-key": credential.secretKey }), 401, "INVALID_API_KEY");
    const publicRefused = await me({ "x-public-key": credential.publicKey });
    expect(publicRefused.status).toBe(401);
    expect(publicRefused.body.errors[0].extensions.code).toBe("INVALID_PUBLIC_KEY");
    // Only that partner's credentials: another partner's and the owner's own keep working.
    expect((await me({ "x-api-key": unaffected.secretKey })).body.data.me.id).toBe(owner.profileId);
    expect((await me({ "x-api-key": own.secretKey })).body.data.me.id).toBe(owner.profileId);
    // The credential itself is not revoked: the owner still lists it as active.
    const listed = await t.request("GET", "/v1/api-credentials", { headers: owner.headers });
    expect(listed.body.credentials.find((c: { id: string }) => c.id === credential.id)).toMatchObject({
      revokedAt: null,
      partnerId: partner.id,
    });

    const on = await admin("PATCH", `/v1/admin/partners/${partner.id}`, { isActive: true });
    expect(on.status).toBe(200);
    const restored = await me({ "x-api-key": credential.secretKey });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body.data.me.id).toBe(owner.profileId);

    // And once more, now that the restored state is cached again.
    await admin("PATCH", `/v1/admin/partners/${partner.id}`, { isActive: false });
    expect((await me({ "x-api-key": credential.secretKey })).body.errors[0].extensions.code).toBe("INVALID_API_KEY");
  });

  it("counts partner credentials toward the cap of 5 active credentials of the profile", async () => {
    const owner = await t.signIn();
    const partner = await createPartner();
    for (let i = 0; i < 3; i++) await t.createCredential(owner.headers, { name: `own ${i}` });
    const first = await issuePartnerCredential(partner.id, { profileId: owner.profileId });
    await issuePartnerCredential(partner.id, { profileId: owner.profileId });

    expectError(
      await t.request("POST", "/v1/api-credentials", { headers: owner.headers }),
      409,
      "CREDENTIAL_LIMIT_REACHED",
    );
    expectError(
      await admin("POST", `/v1/admin/partners/${partner.id}/api-credentials`, { profileId: owner.profileId }),
      409,
      "CREDENTIAL_LIMIT_REACHED",
    );
    expect(await t.app.db.apiCredential.count({ where: { profileId: owner.profileId } })).toBe(5);

    // Revoking a partner credential frees exactly one slot, for either issuer.
    expect((await t.request("DELETE", `/v1/api-credentials/${first.id}`, { headers: owner.headers })).status).toBe(204);
    await issuePartnerCredential(partner.id, { profileId: owner.profileId });
    expectError(
      await t.request("POST", "/v1/api-credentials", { headers: owner.headers }),
      409,
      "CREDENTIAL_LIMIT_REACHED",
    );
  });

  it("holds the cap under concurrent issuance by the operator and the owner", async () => {
    const owner = await t.signIn();
    const partner = await createPartner();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0
          ? admin("POST", `/v1/admin/partners/${partner.id}/api-credentials`, { profileId: owner.profileId })
          : t.request("POST", "/v1/api-credentials", { headers: owner.headers }),
      ),
    );
    for (const result of results) if (result.status === 201) rememberSecret(result.body.secretKey);
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.code === "CREDENTIAL_LIMIT_REACHED")).toBe(
      true,
    );
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
  });
});

/* ------------------------------------------------------------------------- GraphQL */

const MANAGER_FIELDS = "profileId allowedCorridors allowedCustomerTypes isActive createdAt updatedAt";
const PUT_MANAGER = `mutation ($id: ID!, $policy: ManagerPolicyInput!) { putManager(profileId: $id, policy: $policy) { manager { ${MANAGER_FIELDS} } } }`;
const MANAGER = `query ($id: ID!) { manager(profileId: $id) { ${MANAGER_FIELDS} } }`;
const ASSIGN =
  "mutation ($id: ID!, $p: PricingProfileName!) { assignPricingProfile(profileId: $id, pricingProfile: $p) { pricingAssignment { profileId pricingProfile updatedAt } } }";
const PRICING = "query ($id: ID!) { pricingAssignment(profileId: $id) { profileId pricingProfile updatedAt } }";
const CREATE_PARTNER =
  "mutation ($name: String!) { createPartner(name: $name) { partner { id name isActive createdAt updatedAt } } }";
const SET_PARTNER =
  "mutation ($id: ID!, $on: Boolean!) { setPartnerActive(partnerId: $id, isActive: $on) { partner { id name isActive } } }";
const ISSUE = `mutation ($id: ID!, $input: PartnerCredentialInput!) {
  issuePartnerCredential(partnerId: $id, input: $input) {
    credential { secretKey credential { id name profileId partnerId publicKey secretKeyPrefix expiresAt revokedAt } }
  }
}`;

describe("operator operations (GraphQL)", () => {
  it("putManager and manager: the same policy as REST, with enums", async () => {
    const session = await t.signIn();
    const put = await gql(PUT_MANAGER, {
      id: session.profileId,
      policy: { allowedCorridors: ["MX", "BR", "MX"], allowedCustomerTypes: ["INDIVIDUAL"], isActive: true },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.errors).toBeUndefined();
    expect(put.body.data.putManager.manager).toMatchObject({
      profileId: session.profileId,
      allowedCustomerTypes: ["INDIVIDUAL"],
      isActive: true,
    });
    expect([...put.body.data.putManager.manager.allowedCorridors].sort()).toEqual(["BR", "MX"]);

    const got = await gql(MANAGER, { id: session.profileId });
    expect(got.body.data.manager).toEqual(put.body.data.putManager.manager);
    const rest = await admin("GET", `/v1/admin/managers/${session.profileId}`);
    expect(rest.body.manager).toMatchObject({
      profileId: session.profileId,
      allowedCustomerTypes: ["individual"],
      isActive: true,
    });
    expect([...rest.body.manager.allowedCorridors].sort()).toEqual(["BR", "MX"]);

    // Omitting the narrowing clears it; the second put is an update of the same record.
    const updated = await gql(PUT_MANAGER, {
      id: session.profileId,
      policy: { allowedCorridors: ["US"], isActive: false },
    });
    expect(updated.body.data.putManager.manager).toMatchObject({
      allowedCorridors: ["US"],
      allowedCustomerTypes: null,
      isActive: false,
      createdAt: put.body.data.putManager.manager.createdAt,
    });
    expect(await t.app.db.manager.count({ where: { profileId: session.profileId } })).toBe(1);
  });

  it("manager errors carry extensions.code: NOT_FOUND, VALIDATION_FAILED", async () => {
    const session = await t.signIn();
    expectGraphQLError(await gql(MANAGER, { id: session.profileId }), "NOT_FOUND", 404);
    expectGraphQLError(
      await gql(PUT_MANAGER, { id: randomUUID(), policy: { allowedCorridors: ["BR"], isActive: true } }),
      "NOT_FOUND",
      404,
    );
    expectGraphQLError(await gql(MANAGER, { id: "not-a-uuid" }), "VALIDATION_FAILED", 400);

    const emptyTypes = await gql(PUT_MANAGER, {
      id: session.profileId,
      policy: { allowedCorridors: ["BR"], allowedCustomerTypes: [], isActive: true },
    });
    expectGraphQLError(emptyTypes, "VALIDATION_FAILED", 400);
    expect(emptyTypes.body.errors[0].extensions.details).toEqual([
      expect.objectContaining({ field: "allowedCustomerTypes" }),
    ]);
    const badCorridor = await gql(PUT_MANAGER, {
      id: session.profileId,
      policy: { allowedCorridors: ["XX"], isActive: true },
    });
    expectGraphQLError(badCorridor, "VALIDATION_FAILED", 400);
    const noActive = await gql(PUT_MANAGER, { id: session.profileId, policy: { allowedCorridors: ["BR"] } });
    expectGraphQLError(noActive, "VALIDATION_FAILED", 400);
    expectGraphQLError(await gql(MANAGER, { id: session.profileId }), "NOT_FOUND", 404);
  });

  it("assignPricingProfile and pricingAssignment", async () => {
    const session = await t.signIn();
    expectGraphQLError(await gql(PRICING, { id: session.profileId }), "NOT_FOUND", 404);
    const assigned = await gql(ASSIGN, { id: session.profileId, p: "ZERO_FEE" });
    expect(assigned.body.errors).toBeUndefined();
    expect(assigned.body.data.assignPricingProfile.pricingAssignment).toEqual({
      profileId: session.profileId,
      pricingProfile: "ZERO_FEE",
      updatedAt: expect.stringMatching(ISO),
    });
    expect((await gql(PRICING, { id: session.profileId })).body.data.pricingAssignment).toEqual(
      assigned.body.data.assignPricingProfile.pricingAssignment,
    );
    expect(
      (await admin("GET", `/v1/admin/pricing-assignments/${session.profileId}`)).body.pricingAssignment.pricingProfile,
    ).toBe("zero-fee");

    // The name is an enum: REST's spelling, or any other name, fails the variables' validation.
    const invalid = await gql(ASSIGN, { id: session.profileId, p: "zero-fee" });
    expectGraphQLError(invalid, "VALIDATION_FAILED", 400);
    expect(invalid.body.errors[0].message).toMatch(/"zero-fee" does not exist in "PricingProfileName" enum/);
    expectGraphQLError(await gql(ASSIGN, { id: randomUUID(), p: "ZERO_FEE" }), "NOT_FOUND", 404);
    expect((await gql(PRICING, { id: session.profileId })).body.data.pricingAssignment.pricingProfile).toBe("ZERO_FEE");
  });

  it("createPartner, setPartnerActive and issuePartnerCredential, end to end", async () => {
    const owner = await t.signIn();
    const created = await gql(CREATE_PARTNER, { name: "GraphQL Partner" });
    expect(created.body.errors).toBeUndefined();
    const partner = created.body.data.createPartner.partner;
    expect(partner).toEqual({
      id: expect.any(String),
      name: "GraphQL Partner",
      isActive: true,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });

    const issued = await gql(ISSUE, { id: partner.id, input: { profileId: owner.profileId, name: "via graphql" } });
    expect(issued.body.errors, JSON.stringify(issued.body)).toBeUndefined();
    const { secretKey, credential } = issued.body.data.issuePartnerCredential.credential;
    rememberSecret(secretKey);
    expect(secretKey).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    expect(credential).toMatchObject({
      name: "via graphql",
      profileId: owner.profileId,
      partnerId: partner.id,
      revokedAt: null,
      secretKeyPrefix: secretKey.slice(0, 16),
    });
    expect((await me({ "x-api-key": secretKey })).body.data.me.id).toBe(owner.profileId);
    const listed = await t.request("GET", "/v1/api-credentials", { headers: owner.headers });
    expect(listed.body.credentials).toEqual([expect.objectContaining({ id: credential.id, partnerId: partner.id })]);

    const off = await gql(SET_PARTNER, { id: partner.id, on: false });
    expect(off.body.data.setPartnerActive.partner).toEqual({
      id: partner.id,
      name: "GraphQL Partner",
      isActive: false,
    });
    const refused = await me({ "x-api-key": secretKey });
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].extensions.code).toBe("INVALID_API_KEY");
    expectGraphQLError(await gql(ISSUE, { id: partner.id, input: { profileId: owner.profileId } }), "NOT_FOUND", 404);

    const on = await gql(SET_PARTNER, { id: partner.id, on: true });
    expect(on.body.data.setPartnerActive.partner.isActive).toBe(true);
    expect((await me({ "x-api-key": secretKey })).body.data.me.id).toBe(owner.profileId);
  });

  it("partner errors carry extensions.code: NOT_FOUND, CREDENTIAL_SUBJECT_REQUIRED, VALIDATION_FAILED", async () => {
    const owner = await t.signIn();
    const partner = (await gql(CREATE_PARTNER, { name: "Errors Partner" })).body.data.createPartner.partner;
    expectGraphQLError(await gql(SET_PARTNER, { id: randomUUID(), on: false }), "NOT_FOUND", 404);
    expectGraphQLError(await gql(ISSUE, { id: randomUUID(), input: { profileId: owner.profileId } }), "NOT_FOUND", 404);
    expectGraphQLError(
      await gql(ISSUE, { id: partner.id, input: { profileId: randomUUID() } }),
      "CREDENTIAL_SUBJECT_REQUIRED",
      404,
    );
    expectGraphQLError(
      await gql(ISSUE, { id: partner.id, input: { profileId: "not-a-uuid" } }),
      "CREDENTIAL_SUBJECT_REQUIRED",
      404,
    );
    expectGraphQLError(
      await gql(ISSUE, { id: partner.id, input: { profileId: owner.profileId, name: "x".repeat(101) } }),
      "INVALID_CREDENTIAL_NAME",
      400,
    );
    expectGraphQLError(await gql(CREATE_PARTNER, { name: "" }), "VALIDATION_FAILED", 400);
    expect(await t.app.db.apiCredential.count({ where: { partnerId: partner.id } })).toBe(0);
  });
});
