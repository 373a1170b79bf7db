import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DelegationRule } from "../../src/auth/delegation.js";
import type { Corridor, CustomerType } from "../../src/reference-data/corridors.js";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { rememberSecret } from "../support/secrets.js";
import { expectGraphQLError, expectPagedList, ok, seedCredentials, sleep } from "../support/kit.js";

/**
 * Managed (headless) children, their credentials and delegation (CONTRACT.md, "Managed profiles and
 * delegation"), over REST and GraphQL, on the project's engine.
 */

let t: TestApp;
beforeAll(async () => {
  // Many requests from one address and one key: the rate limits have tests of their own.
  t = await startTestApp({ RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" });
});
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------------------
// Helpers

type Headers = Record<string, string>;
type Policy = { allowedCorridors: Corridor[]; allowedCustomerTypes?: CustomerType[] | null; isActive: boolean };

const ALL_CHILD_CORRIDORS: Corridor[] = ["BR", "MX", "US", "AR", "CO"];
const POLICY: Policy = { allowedCorridors: ALL_CHILD_CORRIDORS, isActive: true };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Manager {
  profileId: string;
  accessToken: string;
  /** The manager's session. */
  session: Headers;
  /** The manager's own secret key. */
  secret: Headers;
  credential: { id: string; publicKey: string; secretKey: string };
}

interface ChildView {
  profileId: string;
  externalSubjectId: string;
  contactEmail: string;
  customerType: CustomerType;
  creationSource: "manager";
  status: "active" | "deleted";
  deletedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

async function putManager(profileId: string, policy: Policy): Promise<HttpResponse> {
  const response = await t.request("PUT", `/v1/admin/managers/${profileId}`, {
    headers: t.operatorHeaders,
    body: policy,
  });
  expect([200, 201], JSON.stringify(response.body)).toContain(response.status);
  return response;
}

/** A signed-in profile with a secret key of its own; the operator enables it as a manager unless `policy` is null. */
async function newManager(policy: Policy | null = POLICY): Promise<Manager> {
  const session = await t.signIn();
  const credential = await t.createCredential(session.headers, { name: "manager's own" });
  if (policy) await putManager(session.profileId, policy);
  return {
    profileId: session.profileId,
    accessToken: session.accessToken,
    session: session.headers,
    secret: { "x-api-key": credential.secretKey },
    credential,
  };
}

const childBody = (overrides: Record<string, unknown> = {}) => ({
  externalSubjectId: `subject-${randomUUID()}`,
  contactEmail: `child-${randomUUID()}@example.com`,
  customerType: "individual",
  ...overrides,
});

async function createChild(manager: Manager, overrides: Record<string, unknown> = {}): Promise<ChildView> {
  const created = await t.request("POST", "/v1/managed-profiles", {
    headers: manager.secret,
    body: childBody(overrides),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.managedProfile;
}

async function issueChildCredential(manager: Manager, childId: string, body: Record<string, unknown> = {}) {
  const created = await t.request("POST", `/v1/managed-profiles/${childId}/api-credentials`, {
    headers: manager.secret,
    body,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  rememberSecret(created.body.secretKey);
  return created.body as {
    id: string;
    publicKey: string;
    secretKey: string;
    profileId: string;
    partnerId: string | null;
  };
}

function expectRestError(response: HttpResponse, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.error?.code }, JSON.stringify(response.body)).toEqual({
    status,
    code,
  });
  expect(response.body.error.status).toBe(status);
}

/** The error body without its requestId: what two refusals must share to be indistinguishable. */
const errorWithoutRequestId = (response: HttpResponse) => {
  const { requestId: _requestId, ...rest } = response.body.error;
  return { status: response.status, error: rest };
};

const me = (headers: Headers) => t.graphql("{ me { id email } }", undefined, headers);
const selecting = (headers: Headers, childId: string) => ({ ...headers, "x-managed-profile-id": childId });
const CHILD_FIELDS =
  "profileId externalSubjectId contactEmail customerType creationSource status deletedAt createdAt updatedAt";
const GQL = {
  create: `mutation Create($input: CreateManagedProfileInput!) { createManagedProfile(input: $input) { created managedProfile { ${CHILD_FIELDS} } } }`,
  list: `query List($status: ManagedProfileFilter!, $first: Int!, $after: String) {
    managedProfiles(status: $status, first: $first, after: $after) { count totalCount edges { cursor node { ${CHILD_FIELDS} } } pageInfo { hasNextPage endCursor } }
  }`,
  get: `query Get($id: ID!) { managedProfile(profileId: $id) { ${CHILD_FIELDS} } }`,
  policy: "query { managerPolicy { profileId allowedCorridors allowedCustomerTypes isActive } }",
  credentials:
    "query Keys($id: ID!) { managedProfile(profileId: $id) { profileId apiCredentials { count edges { node { id profileId partnerId revokedAt } } } } }",
  delete: "mutation Delete($id: ID!) { deleteManagedProfile(profileId: $id) { deletedProfileId } }",
  issue: `mutation Issue($id: ID!, $input: CreateApiCredentialInput) {
    createManagedProfileCredential(profileId: $id, input: $input) {
      credential { secretKey credential { id name profileId partnerId publicKey secretKeyPrefix revokedAt } }
    }
  }`,
  revoke:
    "mutation Revoke($id: ID!, $credentialId: ID!) { revokeManagedProfileCredential(profileId: $id, credentialId: $credentialId) { revokedCredentialId } }",
};

/** Every managed-profile REST route, for the given child and child credential. */
const restRoutes = (childId: string, credentialId: string) =>
  [
    ["POST", "/v1/managed-profiles", childBody()],
    ["GET", "/v1/managed-profiles", undefined],
    ["GET", `/v1/managed-profiles/${childId}`, undefined],
    ["DELETE", `/v1/managed-profiles/${childId}`, undefined],
    ["POST", `/v1/managed-profiles/${childId}/api-credentials`, { name: "attempt" }],
    ["GET", `/v1/managed-profiles/${childId}/api-credentials`, undefined],
    ["DELETE", `/v1/managed-profiles/${childId}/api-credentials/${credentialId}`, undefined],
  ] as const;

/** Every managed-profile GraphQL operation, for the given child and child credential. */
const graphQLOperations = (childId: string, credentialId: string): [string, Record<string, unknown>][] => [
  [GQL.create, { input: { ...childBody(), customerType: "INDIVIDUAL" } }],
  [GQL.list, { status: "ALL", first: 10 }],
  [GQL.get, { id: childId }],
  [GQL.policy, {}],
  [GQL.credentials, { id: childId }],
  [GQL.delete, { id: childId }],
  [GQL.issue, { id: childId, input: { name: "attempt" } }],
  [GQL.revoke, { id: childId, credentialId }],
];

// ---------------------------------------------------------------------------------------------------------

describe("the operator enables managers", () => {
  it("PUT /v1/admin/managers/{profileId}: 201 the first time, 200 after; GET returns the policy", async () => {
    const profile = await t.signIn();
    const first = await t.request("PUT", `/v1/admin/managers/${profile.profileId}`, {
      headers: t.operatorHeaders,
      body: POLICY,
    });
    expect(first.status).toBe(201);
    expect(first.body.manager).toMatchObject({
      profileId: profile.profileId,
      allowedCustomerTypes: null,
      isActive: true,
    });
    expect([...first.body.manager.allowedCorridors].sort()).toEqual([...ALL_CHILD_CORRIDORS].sort());
    expect(first.body.manager.createdAt).toMatch(ISO);

    const again = await t.request("PUT", `/v1/admin/managers/${profile.profileId}`, {
      headers: t.operatorHeaders,
      body: { allowedCorridors: ["BR"], allowedCustomerTypes: ["business"], isActive: false },
    });
    expect(again.status).toBe(200);
    expect(again.body.manager).toMatchObject({
      profileId: profile.profileId,
      allowedCorridors: ["BR"],
      allowedCustomerTypes: ["business"],
      isActive: false,
    });
    const read = await t.request("GET", `/v1/admin/managers/${profile.profileId}`, { headers: t.operatorHeaders });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(again.body);

    // A managed child cannot be made a manager; an unknown profile is not found.
    const manager = await newManager();
    const child = await createChild(manager);
    const onChild = await t.request("PUT", `/v1/admin/managers/${child.profileId}`, {
      headers: t.operatorHeaders,
      body: POLICY,
    });
    expectRestError(onChild, 400, "VALIDATION_FAILED");
    expect(await t.app.db.manager.findUnique({ where: { profileId: child.profileId } })).toBeNull();
    expectRestError(
      await t.request("PUT", `/v1/admin/managers/${randomUUID()}`, { headers: t.operatorHeaders, body: POLICY }),
      404,
      "NOT_FOUND",
    );
  });

  it("a non-manager gets 403 MANAGED_PROFILE_ACCESS_DENIED on every managed-profile route, REST and GraphQL", async () => {
    const someone = await newManager(null);
    const rows = await t.app.db.profile.count();
    for (const headers of [someone.secret, someone.session]) {
      for (const [method, url, body] of restRoutes(randomUUID(), randomUUID())) {
        const response = await t.request(method, url, { headers, ...(body && { body }) });
        expectRestError(response, 403, "MANAGED_PROFILE_ACCESS_DENIED");
      }
      // Validation comes after delegation: an invalid body is still refused for the caller.
      expectRestError(
        await t.request("POST", "/v1/managed-profiles", { headers, body: { contactEmail: "nope" } }),
        403,
        "MANAGED_PROFILE_ACCESS_DENIED",
      );
      for (const [document, variables] of graphQLOperations(randomUUID(), randomUUID())) {
        expectGraphQLError(await t.graphql(document, variables, headers), 403, "MANAGED_PROFILE_ACCESS_DENIED");
      }
    }
    expect(await t.app.db.profile.count()).toBe(rows);
  });

  it("an inactive manager gets 403 MANAGED_PROFILE_ACCESS_DENIED on every route and changes nothing", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const credential = await issueChildCredential(manager, child.profileId);
    await putManager(manager.profileId, { ...POLICY, isActive: false });
    for (const headers of [manager.secret, manager.session]) {
      for (const [method, url, body] of restRoutes(child.profileId, credential.id)) {
        const response = await t.request(method, url, { headers, ...(body && { body }) });
        expectRestError(response, 403, "MANAGED_PROFILE_ACCESS_DENIED");
      }
      for (const [document, variables] of graphQLOperations(child.profileId, credential.id)) {
        expectGraphQLError(await t.graphql(document, variables, headers), 403, "MANAGED_PROFILE_ACCESS_DENIED");
      }
    }
    expect(await t.app.db.profile.count({ where: { managerProfileId: manager.profileId } })).toBe(1);
    expect((await t.app.db.profile.findUniqueOrThrow({ where: { id: child.profileId } })).deletedAt).toBeNull();
    expect(await t.app.db.apiCredential.count({ where: { profileId: child.profileId, revokedAt: null } })).toBe(1);

    // Reactivated, the same manager sees its child again.
    await putManager(manager.profileId, POLICY);
    const read = await t.request("GET", `/v1/managed-profiles/${child.profileId}`, { headers: manager.secret });
    expect(read.status).toBe(200);
  });
});

describe("creating a managed child", () => {
  it("201 with the record; the child is a profile with one customer entity and no login email", async () => {
    const manager = await newManager();
    const before = Date.now();
    const body = childBody({ customerType: "business" });
    const created = await t.request("POST", "/v1/managed-profiles", { headers: manager.secret, body });
    expect(created.status).toBe(201);
    const child: ChildView = created.body.managedProfile;
    expect(Object.keys(created.body)).toEqual(["managedProfile"]);
    expect(child).toEqual({
      profileId: expect.stringMatching(UUID),
      externalSubjectId: body.externalSubjectId,
      contactEmail: body.contactEmail,
      customerType: "business",
      // The reference's creationSource: every child here is created by its manager.
      creationSource: "manager",
      status: "active",
      // The one null, which the reference types as nullable: optional strings are left out, never null.
      deletedAt: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(new Date(child.createdAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const row = await t.app.db.profile.findUniqueOrThrow({
      where: { id: child.profileId },
      include: { customerEntities: true },
    });
    expect(row).toMatchObject({ managerProfileId: manager.profileId, email: null, deletedAt: null });
    expect(row.customerEntities).toEqual([expect.objectContaining({ customerType: "business", isActive: true })]);

    // With a session: same rules.
    const bySession = await t.request("POST", "/v1/managed-profiles", { headers: manager.session, body: childBody() });
    expect(bySession.status).toBe(201);
  });

  it("an identical retry answers 200 with the same record, the email compared normalized", async () => {
    const manager = await newManager();
    const body = childBody({ contactEmail: `Mixed.Case-${randomUUID()}@Example.COM` });
    const created = await t.request("POST", "/v1/managed-profiles", { headers: manager.secret, body });
    expect(created.status).toBe(201);
    expect(created.body.managedProfile.contactEmail).toBe(body.contactEmail.toLowerCase());

    const retry = await t.request("POST", "/v1/managed-profiles", { headers: manager.secret, body });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(created.body);
    const spaced = await t.request("POST", "/v1/managed-profiles", {
      headers: manager.session,
      body: { ...body, contactEmail: `  ${body.contactEmail.toUpperCase()}  ` },
    });
    expect(spaced.status).toBe(200);
    expect(spaced.body).toEqual(created.body);
    expect(await t.app.db.profile.count({ where: { managerProfileId: manager.profileId } })).toBe(1);
    expect(await t.app.db.customerEntity.count({ where: { profileId: created.body.managedProfile.profileId } })).toBe(
      1,
    );
  });

  it("stores the contact email trimmed and lower-cased", async () => {
    const manager = await newManager();
    const local = `trim-${randomUUID()}`;
    const child = await createChild(manager, { contactEmail: `\t ${local.toUpperCase()}@EXAMPLE.org  ` });
    expect(child.contactEmail).toBe(`${local}@example.org`);
    const row = await t.app.db.profile.findUniqueOrThrow({ where: { id: child.profileId } });
    expect(row.contactEmail).toBe(`${local}@example.org`);
  });

  it("the same subject or the same email with other data -> 409 MANAGED_PROFILE_CONFLICT", async () => {
    const manager = await newManager();
    const first = await createChild(manager);
    const second = await createChild(manager);
    const attempts = [
      {
        externalSubjectId: first.externalSubjectId,
        contactEmail: `other-${randomUUID()}@example.com`,
        customerType: "individual",
      },
      { externalSubjectId: `other-${randomUUID()}`, contactEmail: first.contactEmail, customerType: "individual" },
      { externalSubjectId: first.externalSubjectId, contactEmail: first.contactEmail, customerType: "business" },
      // Subject of one child, email of another.
      { externalSubjectId: first.externalSubjectId, contactEmail: second.contactEmail, customerType: "individual" },
    ];
    for (const body of attempts) {
      const response = await t.request("POST", "/v1/managed-profiles", { headers: manager.secret, body });
      expectRestError(response, 409, "MANAGED_PROFILE_CONFLICT");
    }
    expect(await t.app.db.profile.count({ where: { managerProfileId: manager.profileId } })).toBe(2);
    const unchanged = await t.request("GET", `/v1/managed-profiles/${first.profileId}`, { headers: manager.secret });
    expect(unchanged.body.managedProfile).toEqual(first);
  });

  it("rejects invalid input with 400 VALIDATION_FAILED and field details", async () => {
    const manager = await newManager();
    const cases: [Record<string, unknown>, string][] = [
      [childBody({ contactEmail: "not-an-email" }), "contactEmail"],
      [childBody({ customerType: "person" }), "customerType"],
      [childBody({ externalSubjectId: "   " }), "externalSubjectId"],
      [{ contactEmail: "a@example.com", customerType: "individual" }, "externalSubjectId"],
    ];
    for (const [body, field] of cases) {
      const response = await t.request("POST", "/v1/managed-profiles", { headers: manager.secret, body });
      expectRestError(response, 400, "VALIDATION_FAILED");
      expect(response.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
    expect(await t.app.db.profile.count({ where: { managerProfileId: manager.profileId } })).toBe(0);
  });

  it("subjects and emails are unique per manager only: another manager may use the same ones", async () => {
    const first = await newManager();
    const second = await newManager();
    const body = childBody();
    const mine = await t.request("POST", "/v1/managed-profiles", { headers: first.secret, body });
    const theirs = await t.request("POST", "/v1/managed-profiles", { headers: second.secret, body });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.managedProfile.profileId).not.toBe(mine.body.managedProfile.profileId);
    expect(theirs.body.managedProfile).toMatchObject({
      externalSubjectId: body.externalSubjectId,
      contactEmail: body.contactEmail,
    });
  });

  it("a deleted child's subject and email stay reserved (409), an identical retry included", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    expect(
      (await t.request("DELETE", `/v1/managed-profiles/${child.profileId}`, { headers: manager.secret })).status,
    ).toBe(204);
    const attempts = [
      {
        externalSubjectId: child.externalSubjectId,
        contactEmail: child.contactEmail,
        customerType: child.customerType,
      },
      {
        externalSubjectId: child.externalSubjectId,
        contactEmail: `new-${randomUUID()}@example.com`,
        customerType: child.customerType,
      },
      { externalSubjectId: `new-${randomUUID()}`, contactEmail: child.contactEmail, customerType: child.customerType },
    ];
    for (const body of attempts) {
      expectRestError(
        await t.request("POST", "/v1/managed-profiles", { headers: manager.secret, body }),
        409,
        "MANAGED_PROFILE_CONFLICT",
      );
    }
    expect(await t.app.db.profile.count({ where: { managerProfileId: manager.profileId } })).toBe(1);
  });

  it("a child never becomes a login identity: signing in with its contact email creates a different profile", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const session = await t.signIn(child.contactEmail);
    expect(session.profileId).not.toBe(child.profileId);
    const signedIn = await me(session.headers);
    expect(signedIn.body.data.me).toEqual({ id: session.profileId, email: child.contactEmail });
    const profile = await t.app.db.profile.findUniqueOrThrow({ where: { id: session.profileId } });
    expect(profile.managerProfileId).toBeNull();
    const childRow = await t.app.db.profile.findUniqueOrThrow({ where: { id: child.profileId } });
    expect(childRow.email).toBeNull();
    // The signed-in profile is no manager and cannot reach the child.
    expectRestError(
      await t.request("GET", `/v1/managed-profiles/${child.profileId}`, { headers: session.headers }),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    expectGraphQLError(await me(selecting(session.headers, child.profileId)), 403, "MANAGED_PROFILE_ACCESS_DENIED");
  });

  it("GraphQL createManagedProfile: created true, an identical retry false with the same record, a conflict 409", async () => {
    const manager = await newManager();
    const input = {
      externalSubjectId: `gql-${randomUUID()}`,
      contactEmail: ` GQL-${randomUUID()}@Example.com `,
      customerType: "BUSINESS",
    };
    const created = await t.graphql(GQL.create, { input }, manager.secret);
    expect(created.body.errors).toBeUndefined();
    const payload = created.body.data.createManagedProfile;
    expect(payload.created).toBe(true);
    expect(payload.managedProfile).toMatchObject({
      externalSubjectId: input.externalSubjectId,
      contactEmail: input.contactEmail.trim().toLowerCase(),
      customerType: "BUSINESS",
      creationSource: "MANAGER",
      status: "ACTIVE",
      deletedAt: null,
    });
    const retry = await t.graphql(GQL.create, { input }, manager.session);
    expect(retry.body.data.createManagedProfile).toEqual({ created: false, managedProfile: payload.managedProfile });
    const rest = await t.request("GET", `/v1/managed-profiles/${payload.managedProfile.profileId}`, {
      headers: manager.secret,
    });
    expect(rest.body.managedProfile).toMatchObject({
      customerType: "business",
      creationSource: "manager",
      contactEmail: payload.managedProfile.contactEmail,
    });

    const conflict = await t.graphql(GQL.create, { input: { ...input, customerType: "INDIVIDUAL" } }, manager.secret);
    expectGraphQLError(conflict, 409, "MANAGED_PROFILE_CONFLICT");
    const invalid = await t.graphql(
      GQL.create,
      { input: { ...input, externalSubjectId: `x-${randomUUID()}`, contactEmail: "nope" } },
      manager.secret,
    );
    expectGraphQLError(invalid, 400, "VALIDATION_FAILED");
  });
});

describe("listing managed children", () => {
  /** A manager with `count` children created one after another (oldest first), the second one deleted. */
  async function managerWithChildren(count: number, policy: Policy = POLICY) {
    const manager = await newManager(policy);
    const children: ChildView[] = [];
    for (let i = 0; i < count; i++) {
      children.push(await createChild(manager, { customerType: i % 2 ? "business" : "individual" }));
      await sleep(3);
    }
    expect(
      (await t.request("DELETE", `/v1/managed-profiles/${children[1]!.profileId}`, { headers: manager.secret })).status,
    ).toBe(204);
    return { manager, children };
  }
  const ids = (response: HttpResponse) => response.body.managedProfiles.map((child: ChildView) => child.profileId);

  it("filters by status (default active), newest first, with pagination (50 by default) and the manager's policy", async () => {
    const { manager, children } = await managerWithChildren(4, {
      ...POLICY,
      allowedCustomerTypes: ["business", "individual"],
    });
    const [a, b, c, d] = children.map((child) => child.profileId);

    const active = await t.request("GET", "/v1/managed-profiles", { headers: manager.secret });
    expect(active.status).toBe(200);
    expect(ids(active)).toEqual([d, c, a]);
    expect(active.body.pagination).toEqual({ limit: 50, offset: 0, total: 3 });
    expect(Object.keys(active.body).sort()).toEqual(["managedProfiles", "manager", "pagination"]);
    expect(active.body.manager).toEqual({
      profileId: manager.profileId,
      allowedCorridors: expect.arrayContaining(ALL_CHILD_CORRIDORS),
      allowedCustomerTypes: expect.arrayContaining(["business", "individual"]),
    });
    expect(active.body.manager.allowedCorridors).toHaveLength(ALL_CHILD_CORRIDORS.length);
    expect(active.body.manager.allowedCustomerTypes).toHaveLength(2);
    expect(active.body.managedProfiles[0]).toEqual(children[3]);

    const explicit = await t.request("GET", "/v1/managed-profiles?status=active", { headers: manager.session });
    expect(ids(explicit)).toEqual([d, c, a]);
    const deleted = await t.request("GET", "/v1/managed-profiles?status=deleted", { headers: manager.secret });
    expect(ids(deleted)).toEqual([b]);
    expect(deleted.body.managedProfiles[0]).toMatchObject({ status: "deleted", deletedAt: expect.stringMatching(ISO) });
    expect(deleted.body.pagination).toEqual({ limit: 50, offset: 0, total: 1 });
    const all = await t.request("GET", "/v1/managed-profiles?status=all", { headers: manager.secret });
    expect(ids(all)).toEqual([d, c, b, a]);
    expect(all.body.pagination.total).toBe(4);

    const page = await t.request("GET", "/v1/managed-profiles?status=all&limit=2&offset=1", {
      headers: manager.secret,
    });
    expect(ids(page)).toEqual([c, b]);
    expect(page.body.pagination).toEqual({ limit: 2, offset: 1, total: 4 });
    const last = await t.request("GET", "/v1/managed-profiles?status=all&limit=100&offset=3", {
      headers: manager.secret,
    });
    expect(ids(last)).toEqual([a]);
    expect(last.body.pagination).toEqual({ limit: 100, offset: 3, total: 4 });
    const beyond = await t.request("GET", "/v1/managed-profiles?limit=1&offset=50", { headers: manager.secret });
    expect(beyond.status).toBe(200);
    expect(beyond.body.managedProfiles).toEqual([]);
    expect(beyond.body.pagination).toEqual({ limit: 1, offset: 50, total: 3 });
  });

  it("lists only the caller's children; the policy's customer types are null without narrowing", async () => {
    const { manager } = await managerWithChildren(2);
    const other = await newManager();
    await createChild(other);
    const listed = await t.request("GET", "/v1/managed-profiles?status=all", { headers: other.secret });
    expect(listed.body.pagination.total).toBe(1);
    expect(listed.body.manager).toEqual({
      profileId: other.profileId,
      allowedCorridors: expect.arrayContaining(ALL_CHILD_CORRIDORS),
      allowedCustomerTypes: null,
    });
    const mine = await t.request("GET", "/v1/managed-profiles?status=all", { headers: manager.secret });
    expect(mine.body.pagination.total).toBe(2);
  });

  it("rejects bad status, limit and offset values with 400 VALIDATION_FAILED and details", async () => {
    const manager = await newManager();
    const cases: [string, string][] = [
      ["status=bogus", "status"],
      ["status=ACTIVE", "status"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=-5", "limit"],
      ["limit=abc", "limit"],
      ["limit=2.5", "limit"],
      ["offset=-1", "offset"],
      ["offset=xyz", "offset"],
      ["offset=1.5", "offset"],
    ];
    for (const [query, field] of cases) {
      const response = await t.request("GET", `/v1/managed-profiles?${query}`, { headers: manager.secret });
      expectRestError(response, 400, "VALIDATION_FAILED");
      expect(response.body.error.details, query).toEqual(
        expect.arrayContaining([expect.objectContaining({ field, message: expect.any(String) })]),
      );
    }
    for (const query of ["limit=1", "limit=100", "offset=0"]) {
      expect((await t.request("GET", `/v1/managed-profiles?${query}`, { headers: manager.secret })).status, query).toBe(
        200,
      );
    }
  });

  it("GraphQL managedProfiles: status filter, newest first, cursor pagination; managerPolicy", async () => {
    const { manager, children } = await managerWithChildren(3);
    const [a, b, c] = children.map((child) => child.profileId);
    const nodes = (response: HttpResponse) =>
      response.body.data.managedProfiles.edges.map((edge: { node: { profileId: string } }) => edge.node.profileId);

    const active = await t.graphql(GQL.list, { status: "ACTIVE", first: 10 }, manager.secret);
    expect(active.body.errors).toBeUndefined();
    expect(nodes(active)).toEqual([c, a]);
    expect(active.body.data.managedProfiles).toMatchObject({ count: 2, totalCount: 2 });
    const deleted = await t.graphql(GQL.list, { status: "DELETED", first: 10 }, manager.session);
    expect(nodes(deleted)).toEqual([b]);
    expect(deleted.body.data.managedProfiles).toMatchObject({ count: 1, totalCount: 1 });
    expect(deleted.body.data.managedProfiles.edges[0].node).toMatchObject({
      status: "DELETED",
      deletedAt: expect.stringMatching(ISO),
    });

    const first = await t.graphql(GQL.list, { status: "ALL", first: 2 }, manager.secret);
    expect(nodes(first)).toEqual([c, b]);
    expect(first.body.data.managedProfiles.pageInfo.hasNextPage).toBe(true);
    // count is the page's size; totalCount the whole (filtered) list's, on every page.
    expect(first.body.data.managedProfiles).toMatchObject({ count: 2, totalCount: 3 });
    const second = await t.graphql(
      GQL.list,
      { status: "ALL", first: 2, after: first.body.data.managedProfiles.pageInfo.endCursor },
      manager.secret,
    );
    expect(nodes(second)).toEqual([a]);
    expect(second.body.data.managedProfiles.pageInfo.hasNextPage).toBe(false);
    expect(second.body.data.managedProfiles).toMatchObject({ count: 1, totalCount: 3 });

    const policy = await t.graphql(GQL.policy, {}, manager.secret);
    expect(policy.body.data.managerPolicy).toMatchObject({
      profileId: manager.profileId,
      allowedCustomerTypes: null,
      isActive: true,
    });
    expect([...policy.body.data.managerPolicy.allowedCorridors].sort()).toEqual([...ALL_CHILD_CORRIDORS].sort());
  });
});

describe("reading and deleting a managed child", () => {
  it("reads a child; DELETE -> 204 and again 204; credentials revoked at once; history kept; credential routes 404", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const credential = await issueChildCredential(manager, child.profileId);
    const read = await t.request("GET", `/v1/managed-profiles/${child.profileId}`, { headers: manager.session });
    expect(read.status).toBe(200);
    // (updatedAt is left out: issuing the credential above bumped the child's row.)
    expect(read.body).toEqual({ managedProfile: { ...child, updatedAt: expect.stringMatching(ISO) } });

    // The child's key and the manager's selector work (and are now cached) before the deletion.
    expect((await me({ "x-api-key": credential.secretKey })).body.data.me.id).toBe(child.profileId);
    expect((await me(selecting(manager.session, child.profileId))).body.data.me.id).toBe(child.profileId);
    expect(
      (await me({ "x-api-key": credential.secretKey, "x-public-key": credential.publicKey })).body.data.me.id,
    ).toBe(child.profileId);

    const deleted = await t.request("DELETE", `/v1/managed-profiles/${child.profileId}`, { headers: manager.secret });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();

    // The very next request with the child's key is refused.
    const afterwards = await me({ "x-api-key": credential.secretKey });
    expect(afterwards.status).toBe(401);
    expect(afterwards.body.errors[0].extensions.code).toBe("INVALID_API_KEY");
    expectRestError(
      await t.request("GET", "/v1/managed-profiles", { headers: { "x-api-key": credential.secretKey } }),
      401,
      "INVALID_API_KEY",
    );
    expect((await me({ "x-public-key": credential.publicKey })).body.errors[0].extensions.code).toBe(
      "INVALID_PUBLIC_KEY",
    );
    // New activity for the child is blocked at once: the manager can no longer act for it either.
    expectGraphQLError(await me(selecting(manager.session, child.profileId)), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    const credentialRow = await t.app.db.apiCredential.findUniqueOrThrow({ where: { id: credential.id } });
    expect(credentialRow.revokedAt).not.toBeNull();

    const again = await t.request("DELETE", `/v1/managed-profiles/${child.profileId}`, { headers: manager.session });
    expect(again.status).toBe(204);

    const history = await t.request("GET", `/v1/managed-profiles/${child.profileId}`, { headers: manager.secret });
    expect(history.status).toBe(200);
    expect(history.body.managedProfile).toMatchObject({
      profileId: child.profileId,
      externalSubjectId: child.externalSubjectId,
      contactEmail: child.contactEmail,
      customerType: child.customerType,
      creationSource: "manager",
      status: "deleted",
      deletedAt: expect.stringMatching(ISO),
      createdAt: child.createdAt,
    });
    // Deleting again did not move the deletion time.
    const deletedAt = (await t.app.db.profile.findUniqueOrThrow({ where: { id: child.profileId } })).deletedAt;
    expect(history.body.managedProfile.deletedAt).toBe(deletedAt!.toISOString());
    expect(await t.app.db.customerEntity.count({ where: { profileId: child.profileId } })).toBe(1);

    const routes = [
      t.request("POST", `/v1/managed-profiles/${child.profileId}/api-credentials`, {
        headers: manager.secret,
        body: {},
      }),
      t.request("GET", `/v1/managed-profiles/${child.profileId}/api-credentials`, { headers: manager.secret }),
      t.request("DELETE", `/v1/managed-profiles/${child.profileId}/api-credentials/${credential.id}`, {
        headers: manager.secret,
      }),
    ];
    for (const response of await Promise.all(routes)) expectRestError(response, 404, "MANAGED_PROFILE_NOT_FOUND");
    expect(await t.app.db.apiCredential.count({ where: { profileId: child.profileId } })).toBe(1);
  });

  it("ids are case-insensitive UUIDs: DELETE with the child's id in upper case deletes it and revokes its keys at once", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const credential = await issueChildCredential(manager, child.profileId);
    // Used (and so cached) before the deletion, through its key and through the manager's selector.
    expect((await me({ "x-api-key": credential.secretKey })).body.data?.me?.id).toBe(child.profileId);
    expect((await me(selecting(manager.secret, child.profileId))).body.data?.me?.id).toBe(child.profileId);

    const deleted = await t.request("DELETE", `/v1/managed-profiles/${child.profileId.toUpperCase()}`, {
      headers: manager.secret,
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    const afterwards = await me({ "x-api-key": credential.secretKey });
    expect(afterwards.body.errors?.[0]?.extensions?.code, JSON.stringify(afterwards.body)).toBe("INVALID_API_KEY");
    expectGraphQLError(await me(selecting(manager.secret, child.profileId)), 403, "MANAGED_PROFILE_ACCESS_DENIED");
  });

  it("revoking a child's credential by its id in upper case stops the key at once", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const credential = await issueChildCredential(manager, child.profileId);
    expect((await me({ "x-api-key": credential.secretKey })).body.data?.me?.id).toBe(child.profileId);
    const revoked = await t.request(
      "DELETE",
      `/v1/managed-profiles/${child.profileId}/api-credentials/${credential.id.toUpperCase()}`,
      { headers: manager.secret },
    );
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(204);
    const afterwards = await me({ "x-api-key": credential.secretKey });
    expect(afterwards.body.errors?.[0]?.extensions?.code, JSON.stringify(afterwards.body)).toBe("INVALID_API_KEY");
  });

  it("an unknown child id -> 404 MANAGED_PROFILE_NOT_FOUND; one that is no UUID -> 400 VALIDATION_FAILED", async () => {
    const manager = await newManager();
    for (const [id, status, code] of [
      [randomUUID(), 404, "MANAGED_PROFILE_NOT_FOUND"],
      ["not-a-uuid", 400, "VALIDATION_FAILED"],
    ] as const) {
      for (const method of ["GET", "DELETE"])
        expectRestError(
          await t.request(method, `/v1/managed-profiles/${id}`, { headers: manager.secret }),
          status,
          code,
        );
    }
  });

  it("GraphQL: a child's credentials come a page at a time, in the order REST lists them", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    for (let i = 0; i < 3; i++) await issueChildCredential(manager, child.profileId, { name: `key ${i}` });
    const listed = await t.request("GET", `/v1/managed-profiles/${child.profileId}/api-credentials`, {
      headers: manager.secret,
    });
    const order = (listed.body.credentials as { id: string }[]).map((credential) => credential.id);
    expect(order).toHaveLength(3);
    const page = (after?: string) =>
      t.graphql(
        "query Page($id: ID!, $after: String) { managedProfile(profileId: $id) { apiCredentials(first: 2, after: $after) { count totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } } }",
        { id: child.profileId, after },
        manager.secret,
      );
    const ids = (connection: { edges: { node: { id: string } }[] }) => connection.edges.map((edge) => edge.node.id);
    const first = (await page()).body.data.managedProfile.apiCredentials;
    expect(ids(first)).toEqual(order.slice(0, 2));
    expect(first.pageInfo.hasNextPage).toBe(true);
    expect(first).toMatchObject({ count: 2, totalCount: 3 });
    const second = (await page(first.pageInfo.endCursor)).body.data.managedProfile.apiCredentials;
    expect(ids(second)).toEqual(order.slice(2));
    expect(second.pageInfo.hasNextPage).toBe(false);
    expect(second).toMatchObject({ count: 1, totalCount: 3 });
  });

  it("lists a child's credentials a page at a time: 50 by default, then by limit and offset, newest first; a limit over 100 is 400", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const seeded = await seedCredentials(t.app.db, child.profileId, 55);
    const ids = (credentials: { id: string }[]) => credentials.map((credential) => credential.id);
    const read = (query: string) =>
      t.request("GET", `/v1/managed-profiles/${child.profileId}/api-credentials?${query}`, { headers: manager.secret });
    expect(Object.keys(ok(await read(""))).sort()).toEqual(["credentials", "pagination"]);
    await expectPagedList(
      {
        read,
        ids: (body) => ids(body.credentials),
        connection: async (first, after) => {
          const { apiCredentials } = ok(
            await t.graphql(
              "query ($id: ID!, $first: Int!, $after: String) { managedProfile(profileId: $id) { apiCredentials(first: $first, after: $after) { count totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } } }",
              { id: child.profileId, first, after },
              manager.secret,
            ),
          ).data.managedProfile;
          return {
            ids: ids(apiCredentials.edges.map((edge: { node: { id: string } }) => edge.node)),
            ...apiCredentials.pageInfo,
            count: apiCredentials.count,
            totalCount: apiCredentials.totalCount,
          };
        },
      },
      seeded,
    );
  });

  it("GraphQL: managedProfile, deleteManagedProfile (idempotent), credentials of a deleted child not found", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const credential = await issueChildCredential(manager, child.profileId);
    const read = await t.graphql(GQL.get, { id: child.profileId }, manager.secret);
    expect(read.body.data.managedProfile).toMatchObject({
      profileId: child.profileId,
      status: "ACTIVE",
      customerType: "INDIVIDUAL",
      creationSource: "MANAGER",
    });

    const deleted = await t.graphql(GQL.delete, { id: child.profileId }, manager.session);
    expect(deleted.body).toEqual({ data: { deleteManagedProfile: { deletedProfileId: child.profileId } } });
    expect((await me({ "x-api-key": credential.secretKey })).body.errors[0].extensions.code).toBe("INVALID_API_KEY");
    const again = await t.graphql(GQL.delete, { id: child.profileId }, manager.secret);
    expect(again.body).toEqual({ data: { deleteManagedProfile: { deletedProfileId: child.profileId } } });
    const history = await t.graphql(GQL.get, { id: child.profileId }, manager.secret);
    expect(history.body.data.managedProfile).toMatchObject({
      status: "DELETED",
      deletedAt: expect.stringMatching(ISO),
    });

    // The deleted child is still read; only its credentials are not found (the field alone is null).
    const credentials = await t.graphql(GQL.credentials, { id: child.profileId }, manager.secret);
    expect(credentials.body.data.managedProfile).toEqual({ profileId: child.profileId, apiCredentials: null });
    expect(credentials.body.errors.map((error: any) => [error.path, error.extensions.code])).toEqual([
      [["managedProfile", "apiCredentials"], "MANAGED_PROFILE_NOT_FOUND"],
    ]);
    expectGraphQLError(
      await t.graphql(GQL.issue, { id: child.profileId }, manager.secret),
      404,
      "MANAGED_PROFILE_NOT_FOUND",
    );
    expectGraphQLError(
      await t.graphql(GQL.revoke, { id: child.profileId, credentialId: credential.id }, manager.secret),
      404,
      "MANAGED_PROFILE_NOT_FOUND",
    );
    expectGraphQLError(
      await t.graphql(GQL.get, { id: randomUUID() }, manager.secret),
      404,
      "MANAGED_PROFILE_NOT_FOUND",
    );
  });
});

describe("another manager's child", () => {
  it("is not found on every route, exactly as an id that does not exist; nothing changes", async () => {
    const owner = await newManager();
    const intruder = await newManager();
    const child = await createChild(owner);
    const credential = await issueChildCredential(owner, child.profileId);
    const routes = (childId: string, credentialId: string) =>
      [
        ["GET", `/v1/managed-profiles/${childId}`, undefined],
        ["DELETE", `/v1/managed-profiles/${childId}`, undefined],
        ["GET", `/v1/managed-profiles/${childId}/api-credentials`, undefined],
        ["POST", `/v1/managed-profiles/${childId}/api-credentials`, { name: "intruder" }],
        ["DELETE", `/v1/managed-profiles/${childId}/api-credentials/${credentialId}`, undefined],
      ] as const;
    const real = routes(child.profileId, credential.id);
    const unknown = routes(randomUUID(), randomUUID());
    for (const headers of [intruder.secret, intruder.session]) {
      for (let i = 0; i < real.length; i++) {
        const [method, url, body] = real[i]!;
        const [, unknownUrl] = unknown[i]!;
        const forReal = await t.request(method, url, { headers, ...(body && { body }) });
        const forUnknown = await t.request(method, unknownUrl, { headers, ...(body && { body }) });
        expectRestError(forReal, 404, "MANAGED_PROFILE_NOT_FOUND");
        expect(errorWithoutRequestId(forReal), `${method} ${url}`).toEqual(errorWithoutRequestId(forUnknown));
      }
      // GraphQL alike.
      for (const [document, variables] of [
        [GQL.get, (id: string) => ({ id })],
        [GQL.delete, (id: string) => ({ id })],
        [GQL.credentials, (id: string) => ({ id })],
        [GQL.issue, (id: string) => ({ id })],
        [GQL.revoke, (id: string) => ({ id, credentialId: credential.id })],
      ] as const) {
        const forReal = await t.graphql(document, variables(child.profileId), headers);
        const forUnknown = await t.graphql(document, variables(randomUUID()), headers);
        expectGraphQLError(forReal, 404, "MANAGED_PROFILE_NOT_FOUND");
        expect(forReal.body.errors[0].message).toBe(forUnknown.body.errors[0].message);
        expect(forReal.body.errors[0].extensions).toEqual(forUnknown.body.errors[0].extensions);
      }
    }
    const row = await t.app.db.profile.findUniqueOrThrow({ where: { id: child.profileId } });
    expect(row.deletedAt).toBeNull();
    expect(await t.app.db.apiCredential.count({ where: { profileId: child.profileId } })).toBe(1);
    expect((await t.app.db.apiCredential.findUniqueOrThrow({ where: { id: credential.id } })).revokedAt).toBeNull();
    const listed = await t.request("GET", "/v1/managed-profiles?status=all", { headers: intruder.secret });
    expect(listed.body.managedProfiles).toEqual([]);
  });
});

describe("a managed child's credentials", () => {
  it("create (201, secret once, partnerId null), list without secrets, revoke (204, idempotent)", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const created = await t.request("POST", `/v1/managed-profiles/${child.profileId}/api-credentials`, {
      headers: manager.session,
      body: { name: "child server" },
    });
    expect(created.status).toBe(201);
    rememberSecret(created.body.secretKey);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(UUID),
      name: "child server",
      profileId: child.profileId,
      partnerId: null,
      environment: "test",
      revokedAt: null,
      publicLastUsedAt: null,
      secretLastUsedAt: null,
    });
    expect(created.body.publicKey).toMatch(/^pk_test_[A-Za-z0-9]{32}$/);
    expect(created.body.secretKey).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    expect(created.body.secretKeyPrefix).toBe(created.body.secretKey.slice(0, 16));
    const second = await issueChildCredential(manager, child.profileId);

    const listed = await t.request("GET", `/v1/managed-profiles/${child.profileId}/api-credentials`, {
      headers: manager.secret,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.credentials.map((c: { id: string }) => c.id)).toEqual([second.id, created.body.id]);
    for (const credential of listed.body.credentials) {
      expect(credential).not.toHaveProperty("secretKey");
      expect(credential.profileId).toBe(child.profileId);
    }
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secretKey);
    expect(JSON.stringify(listed.body)).not.toContain(second.secretKey);
    // The child's credentials are not the manager's.
    const own = await t.request("GET", "/v1/api-credentials", { headers: manager.session });
    expect(own.body.credentials.map((c: { id: string }) => c.id)).toEqual([manager.credential.id]);

    const revoked = await t.request(
      "DELETE",
      `/v1/managed-profiles/${child.profileId}/api-credentials/${created.body.id}`,
      { headers: manager.secret },
    );
    expect(revoked.status).toBe(204);
    expect((await me({ "x-api-key": created.body.secretKey })).body.errors[0].extensions.code).toBe("INVALID_API_KEY");
    const again = await t.request(
      "DELETE",
      `/v1/managed-profiles/${child.profileId}/api-credentials/${created.body.id}`,
      { headers: manager.session },
    );
    expect(again.status).toBe(204);
    const after = await t.request("GET", `/v1/managed-profiles/${child.profileId}/api-credentials`, {
      headers: manager.secret,
    });
    expect(after.body.credentials.find((c: { id: string }) => c.id === created.body.id).revokedAt).toMatch(ISO);
    expect(after.body.credentials.find((c: { id: string }) => c.id === second.id).revokedAt).toBeNull();

    // Unknown ids, and the manager's own credential, are not the child's; an id that is no UUID is refused.
    const revoke = (credentialId: string) =>
      t.request("DELETE", `/v1/managed-profiles/${child.profileId}/api-credentials/${credentialId}`, {
        headers: manager.secret,
      });
    for (const credentialId of [randomUUID(), manager.credential.id])
      expectRestError(await revoke(credentialId), 404, "CREDENTIAL_NOT_FOUND");
    expectRestError(await revoke("not-a-uuid"), 400, "VALIDATION_FAILED");
    expect(
      (await t.app.db.apiCredential.findUniqueOrThrow({ where: { id: manager.credential.id } })).revokedAt,
    ).toBeNull();
    // Another child's credential through this child's path: not found, not revoked.
    const sibling = await createChild(manager);
    const siblingCredential = await issueChildCredential(manager, sibling.profileId);
    expectRestError(
      await t.request("DELETE", `/v1/managed-profiles/${child.profileId}/api-credentials/${siblingCredential.id}`, {
        headers: manager.secret,
      }),
      404,
      "CREDENTIAL_NOT_FOUND",
    );
    expect(
      (await t.app.db.apiCredential.findUniqueOrThrow({ where: { id: siblingCredential.id } })).revokedAt,
    ).toBeNull();
  });

  it("validates the name and expiry like the profile's own credentials", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const url = `/v1/managed-profiles/${child.profileId}/api-credentials`;
    expectRestError(
      await t.request("POST", url, { headers: manager.secret, body: { name: "x".repeat(101) } }),
      400,
      "INVALID_CREDENTIAL_NAME",
    );
    expectRestError(
      await t.request("POST", url, {
        headers: manager.secret,
        body: { expiresAt: new Date(Date.now() - 1000).toISOString() },
      }),
      400,
      "INVALID_CREDENTIAL_EXPIRY",
    );
    expect(await t.app.db.apiCredential.count({ where: { profileId: child.profileId } })).toBe(0);
  });

  it("holds the cap of 5 active credentials for a child (409 CREDENTIAL_LIMIT_REACHED)", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const issued = [];
    for (let i = 0; i < 5; i++) issued.push(await issueChildCredential(manager, child.profileId));
    const sixth = await t.request("POST", `/v1/managed-profiles/${child.profileId}/api-credentials`, {
      headers: manager.secret,
      body: {},
    });
    expectRestError(sixth, 409, "CREDENTIAL_LIMIT_REACHED");
    const gql = await t.graphql(GQL.issue, { id: child.profileId }, manager.secret);
    expectGraphQLError(gql, 409, "CREDENTIAL_LIMIT_REACHED");
    // The manager's own cap is separate: it can still issue for itself.
    expect((await t.request("POST", "/v1/api-credentials", { headers: manager.session, body: {} })).status).toBe(201);
    // Revoking one frees exactly one slot.
    await t.request("DELETE", `/v1/managed-profiles/${child.profileId}/api-credentials/${issued[0]!.id}`, {
      headers: manager.secret,
    });
    await issueChildCredential(manager, child.profileId);
    expectRestError(
      await t.request("POST", `/v1/managed-profiles/${child.profileId}/api-credentials`, {
        headers: manager.secret,
        body: {},
      }),
      409,
      "CREDENTIAL_LIMIT_REACHED",
    );
    expect(await t.app.db.apiCredential.count({ where: { profileId: child.profileId, revokedAt: null } })).toBe(5);
  });

  it("GraphQL: createManagedProfileCredential, ManagedProfile.apiCredentials, revokeManagedProfileCredential (idempotent)", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const created = await t.graphql(GQL.issue, { id: child.profileId, input: { name: "gql child" } }, manager.session);
    expect(created.body.errors).toBeUndefined();
    const { secretKey, credential } = created.body.data.createManagedProfileCredential.credential;
    rememberSecret(secretKey);
    expect(credential).toMatchObject({
      name: "gql child",
      profileId: child.profileId,
      partnerId: null,
      revokedAt: null,
    });
    expect(secretKey).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    expect((await me({ "x-api-key": secretKey })).body.data.me.id).toBe(child.profileId);

    const listed = await t.graphql(GQL.credentials, { id: child.profileId }, manager.secret);
    expect(listed.body.data.managedProfile.apiCredentials).toEqual({
      count: 1,
      edges: [{ node: { id: credential.id, profileId: child.profileId, partnerId: null, revokedAt: null } }],
    });
    const revoked = await t.graphql(GQL.revoke, { id: child.profileId, credentialId: credential.id }, manager.secret);
    expect(revoked.body).toEqual({ data: { revokeManagedProfileCredential: { revokedCredentialId: credential.id } } });
    expect((await me({ "x-api-key": secretKey })).body.errors[0].extensions.code).toBe("INVALID_API_KEY");
    const again = await t.graphql(GQL.revoke, { id: child.profileId, credentialId: credential.id }, manager.session);
    expect(again.body).toEqual({ data: { revokeManagedProfileCredential: { revokedCredentialId: credential.id } } });
    expectGraphQLError(
      await t.graphql(GQL.revoke, { id: child.profileId, credentialId: randomUUID() }, manager.secret),
      404,
      "CREDENTIAL_NOT_FOUND",
    );
  });
});

describe("a managed child's own secret key", () => {
  it("acts as the child; no selector; no managed-profile routes; stops with its manager and resumes with it", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const credential = await issueChildCredential(manager, child.profileId);
    const childKey = { "x-api-key": credential.secretKey };

    const itself = await me(childKey);
    expect(itself.body).toEqual({ data: { me: { id: child.profileId, email: null } } });

    // A child's credential cannot select, not even itself, nor another child of its manager.
    const sibling = await createChild(manager);
    for (const selector of [child.profileId, sibling.profileId, "not-a-uuid"]) {
      expectGraphQLError(await me(selecting(childKey, selector)), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    }
    // The child-credential check comes first, even where a selector is not supported at all.
    const withSelector = await t.request("POST", "/v1/managed-profiles", {
      headers: selecting(childKey, child.profileId),
      body: childBody(),
    });
    expectRestError(withSelector, 403, "MANAGED_PROFILE_ACCESS_DENIED");
    // Managing children is the manager's: 403 on every managed-profile route, REST and GraphQL.
    for (const [method, url, body] of restRoutes(child.profileId, credential.id)) {
      expectRestError(
        await t.request(method, url, { headers: childKey, ...(body && { body }) }),
        403,
        "MANAGED_PROFILE_ACCESS_DENIED",
      );
    }
    for (const [document, variables] of graphQLOperations(child.profileId, credential.id)) {
      expectGraphQLError(await t.graphql(document, variables, childKey), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    }
    // Its own credential lifecycle is a session's task: a key is FORBIDDEN there.
    expectRestError(await t.request("GET", "/v1/api-credentials", { headers: childKey }), 403, "FORBIDDEN");
    expect(await t.app.db.profile.count({ where: { managerProfileId: manager.profileId } })).toBe(2);
    expect((await t.app.db.apiCredential.findUniqueOrThrow({ where: { id: credential.id } })).revokedAt).toBeNull();

    // The manager's current policy applies on every use: deactivated, the child's key stops at once.
    await putManager(manager.profileId, { ...POLICY, isActive: false });
    expectGraphQLError(await me(childKey), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    await putManager(manager.profileId, POLICY);
    expect((await me(childKey)).body).toEqual({ data: { me: { id: child.profileId, email: null } } });
  });
});

describe("selecting a managed child (X-Managed-Profile-Id on GraphQL me)", () => {
  it("the manager's secret key or session with its own child's id acts as the child", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    expect((await me(selecting(manager.secret, child.profileId))).body).toEqual({
      data: { me: { id: child.profileId, email: null } },
    });
    expect((await me(selecting(manager.session, child.profileId))).body).toEqual({
      data: { me: { id: child.profileId, email: null } },
    });
    // Both values of the manager's credential are one secret principal.
    const both = { ...manager.secret, "x-public-key": manager.credential.publicKey };
    expect((await me(selecting(both, child.profileId))).body.data.me.id).toBe(child.profileId);
    // Without the header, the manager is itself.
    expect((await me(manager.secret)).body.data.me.id).toBe(manager.profileId);
  });

  it("an upper-case UUID selector names the same child on both engines, and the acting context carries the canonical id", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const selector = child.profileId.toUpperCase();
    // The product's UUID check accepts upper case, so the selector is a UUID: it must name the child
    // (or be refused as not a UUID) the same way on SQLite and PostgreSQL.
    const response = await me(selecting(manager.secret, selector));
    expect(response.body, JSON.stringify(response.body)).toEqual({
      data: { me: { id: child.profileId, email: null } },
    });
    const acting = await t.app.delegation.resolve(await t.app.authenticator.authenticate(manager.secret), selector, {
      selector: "supported",
      childCredential: "allowed",
    });
    // Services compare ids as strings: the subject must be the stored (lower-case) id.
    expect(acting?.subjectProfileId).toBe(child.profileId);
  });

  it("a selector that is not a UUID -> 400 INVALID_MANAGED_PROFILE_ID", async () => {
    const manager = await newManager();
    for (const headers of [manager.secret, manager.session]) {
      for (const selector of ["not-a-uuid", "1234", `${randomUUID()}x`]) {
        expectGraphQLError(await me(selecting(headers, selector)), 400, "INVALID_MANAGED_PROFILE_ID");
      }
    }
  });

  it("a public key with a selector -> 401 AUTHENTICATION_REQUIRED (a public key is not an actor)", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    expectGraphQLError(
      await me(selecting({ "x-public-key": manager.credential.publicKey }, child.profileId)),
      401,
      "AUTHENTICATION_REQUIRED",
    );
  });

  it("another manager's child, a deleted child, an unknown id, an inactive manager -> 403 MANAGED_PROFILE_ACCESS_DENIED", async () => {
    const manager = await newManager();
    const other = await newManager();
    const othersChild = await createChild(other);
    const deletedChild = await createChild(manager);
    await t.request("DELETE", `/v1/managed-profiles/${deletedChild.profileId}`, { headers: manager.secret });
    const child = await createChild(manager);
    const notManager = await newManager(null);
    for (const headers of [manager.secret, manager.session]) {
      for (const selector of [
        othersChild.profileId,
        deletedChild.profileId,
        randomUUID(),
        manager.profileId,
        other.profileId,
      ]) {
        expectGraphQLError(await me(selecting(headers, selector)), 403, "MANAGED_PROFILE_ACCESS_DENIED");
      }
    }
    // A profile that is no manager selects nothing.
    expectGraphQLError(await me(selecting(notManager.secret, child.profileId)), 403, "MANAGED_PROFILE_ACCESS_DENIED");

    // The selector works for the active child, then stops with the manager, then resumes.
    expect((await me(selecting(manager.secret, child.profileId))).body.data.me.id).toBe(child.profileId);
    await putManager(manager.profileId, { ...POLICY, isActive: false });
    for (const headers of [manager.secret, manager.session]) {
      expectGraphQLError(await me(selecting(headers, child.profileId)), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    }
    await putManager(manager.profileId, POLICY);
    expect((await me(selecting(manager.session, child.profileId))).body.data.me.id).toBe(child.profileId);
  });

  it("a selector where delegation is not supported -> 400 MANAGED_PROFILE_UNSUPPORTED, and nothing happens", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const ownCredentials = await t.request("GET", "/v1/api-credentials", {
      headers: selecting(manager.session, child.profileId),
    });
    expectRestError(ownCredentials, 400, "MANAGED_PROFILE_UNSUPPORTED");
    const issue = await t.request("POST", "/v1/api-credentials", {
      headers: selecting(manager.session, child.profileId),
      body: {},
    });
    expectRestError(issue, 400, "MANAGED_PROFILE_UNSUPPORTED");
    for (const headers of [manager.secret, manager.session]) {
      const create = await t.request("POST", "/v1/managed-profiles", {
        headers: selecting(headers, child.profileId),
        body: childBody(),
      });
      expectRestError(create, 400, "MANAGED_PROFILE_UNSUPPORTED");
      const list = await t.request("GET", "/v1/managed-profiles", { headers: selecting(headers, child.profileId) });
      expectRestError(list, 400, "MANAGED_PROFILE_UNSUPPORTED");
      const del = await t.request("DELETE", `/v1/managed-profiles/${child.profileId}`, {
        headers: selecting(headers, child.profileId),
      });
      expectRestError(del, 400, "MANAGED_PROFILE_UNSUPPORTED");
      expectGraphQLError(
        await t.graphql(
          GQL.create,
          { input: { ...childBody(), customerType: "INDIVIDUAL" } },
          selecting(headers, child.profileId),
        ),
        400,
        "MANAGED_PROFILE_UNSUPPORTED",
      );
    }
    expectGraphQLError(
      await t.graphql("{ apiCredentials { count } }", undefined, selecting(manager.session, child.profileId)),
      400,
      "MANAGED_PROFILE_UNSUPPORTED",
    );
    expect(await t.app.db.profile.count({ where: { managerProfileId: manager.profileId } })).toBe(1);
    expect((await t.app.db.profile.findUniqueOrThrow({ where: { id: child.profileId } })).deletedAt).toBeNull();
    expect(
      await t.app.db.apiCredential.count({ where: { profileId: { in: [manager.profileId, child.profileId] } } }),
    ).toBe(1);
  });
});

describe("corridor-bound delegation (app.delegation.resolve)", () => {
  const rule = (corridor?: Corridor, customerType?: CustomerType): DelegationRule => ({
    selector: "supported",
    childCredential: "allowed",
    ...(corridor && { corridor }),
    ...(customerType && { customerType }),
  });
  const READ = rule();
  const principalOf = (headers: Headers) => t.app.authenticator.authenticate(headers);
  const denied = { code: "MANAGED_PROFILE_ACCESS_DENIED", status: 403 };

  it("allows a corridor of the manager's policy that the capability table supports", async () => {
    const manager = await newManager({ allowedCorridors: ["BR", "US", "AR"], isActive: true });
    const individual = await createChild(manager, { customerType: "individual" });
    const business = await createChild(manager, { customerType: "business" });
    for (const headers of [manager.secret, manager.session]) {
      const principal = await principalOf(headers);
      const acting = await t.app.delegation.resolve(principal, individual.profileId, rule("BR", "individual"));
      expect(acting).toMatchObject({
        actorProfileId: manager.profileId,
        subjectProfileId: individual.profileId,
        controllingManagerId: manager.profileId,
        principalKind: principal.kind,
      });
      await expect(
        t.app.delegation.resolve(principal, business.profileId, rule("US", "business")),
      ).resolves.toMatchObject({ subjectProfileId: business.profileId });
      await expect(t.app.delegation.resolve(principal, individual.profileId, rule("AR"))).resolves.toMatchObject({
        subjectProfileId: individual.profileId,
      });
    }
  });

  it("refuses a corridor outside the manager's current policy (403)", async () => {
    const manager = await newManager({ allowedCorridors: ["BR"], isActive: true });
    const child = await createChild(manager);
    const principal = await principalOf(manager.secret);
    for (const corridor of ["MX", "US", "CO", "AR"] as const) {
      await expect(
        t.app.delegation.resolve(principal, child.profileId, rule(corridor)),
        corridor,
      ).rejects.toMatchObject(denied);
    }
    await expect(t.app.delegation.resolve(principal, child.profileId, rule("BR"))).resolves.toMatchObject({
      subjectProfileId: child.profileId,
    });
  });

  it("refuses a customer type outside allowedCustomerTypes (403)", async () => {
    const manager = await newManager({
      allowedCorridors: ["BR", "MX"],
      allowedCustomerTypes: ["individual"],
      isActive: true,
    });
    const individual = await createChild(manager, { customerType: "individual" });
    const business = await createChild(manager, { customerType: "business" });
    const principal = await principalOf(manager.session);
    await expect(t.app.delegation.resolve(principal, business.profileId, rule("BR"))).rejects.toMatchObject(denied);
    await expect(t.app.delegation.resolve(principal, business.profileId, rule("MX", "business"))).rejects.toMatchObject(
      denied,
    );
    await expect(t.app.delegation.resolve(principal, individual.profileId, rule("BR"))).resolves.toMatchObject({
      subjectProfileId: individual.profileId,
    });
    // Reads skip the corridor checks: the business child is still readable.
    await expect(t.app.delegation.resolve(principal, business.profileId, READ)).resolves.toMatchObject({
      subjectProfileId: business.profileId,
    });
  });

  it("refuses what the capability table does not support: AR business, EU for anyone (403)", async () => {
    const manager = await newManager({ allowedCorridors: ["AR", "BR", "CO", "EU", "MX", "US"], isActive: true });
    const individual = await createChild(manager, { customerType: "individual" });
    const business = await createChild(manager, { customerType: "business" });
    const principal = await principalOf(manager.secret);
    await expect(t.app.delegation.resolve(principal, business.profileId, rule("AR"))).rejects.toMatchObject(denied);
    await expect(t.app.delegation.resolve(principal, individual.profileId, rule("AR"))).resolves.toBeTruthy();
    for (const child of [individual, business]) {
      await expect(
        t.app.delegation.resolve(principal, child.profileId, rule("EU")),
        child.customerType,
      ).rejects.toMatchObject(denied);
    }
    for (const corridor of ["BR", "CO", "MX", "US"] as const) {
      await expect(
        t.app.delegation.resolve(principal, business.profileId, rule(corridor)),
        corridor,
      ).resolves.toBeTruthy();
    }
  });

  it("a route customer type that differs from the child's -> 400 MANAGED_PROFILE_CUSTOMER_TYPE_MISMATCH, after the corridor checks", async () => {
    const manager = await newManager();
    const individual = await createChild(manager, { customerType: "individual" });
    const business = await createChild(manager, { customerType: "business" });
    const principal = await principalOf(manager.secret);
    const mismatch = { code: "MANAGED_PROFILE_CUSTOMER_TYPE_MISMATCH", status: 400 };
    await expect(
      t.app.delegation.resolve(principal, individual.profileId, rule("BR", "business")),
    ).rejects.toMatchObject(mismatch);
    await expect(
      t.app.delegation.resolve(principal, business.profileId, rule("MX", "individual")),
    ).rejects.toMatchObject(mismatch);
    await expect(t.app.delegation.resolve(principal, business.profileId, rule("MX", "business"))).resolves.toBeTruthy();
    // The corridor checks come first: AR for a business child is 403 even when the type differs too.
    await expect(
      t.app.delegation.resolve(principal, business.profileId, rule("AR", "individual")),
    ).rejects.toMatchObject(denied);
  });

  it("tightening the policy blocks a corridor-bound resolve at once; a read rule still passes", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const credential = await issueChildCredential(manager, child.profileId);
    const managerPrincipal = await principalOf(manager.secret);
    const childPrincipal = await principalOf({ "x-api-key": credential.secretKey });
    // Warm every cache first.
    await expect(t.app.delegation.resolve(managerPrincipal, child.profileId, rule("BR"))).resolves.toBeTruthy();
    await expect(t.app.delegation.resolve(childPrincipal, undefined, rule("BR"))).resolves.toMatchObject({
      actorProfileId: child.profileId,
      subjectProfileId: child.profileId,
      controllingManagerId: manager.profileId,
    });

    await putManager(manager.profileId, { allowedCorridors: ["MX"], isActive: true });
    await expect(t.app.delegation.resolve(managerPrincipal, child.profileId, rule("BR"))).rejects.toMatchObject(denied);
    await expect(t.app.delegation.resolve(childPrincipal, undefined, rule("BR"))).rejects.toMatchObject(denied);
    await expect(t.app.delegation.resolve(managerPrincipal, child.profileId, rule("MX"))).resolves.toBeTruthy();
    await expect(t.app.delegation.resolve(managerPrincipal, child.profileId, READ)).resolves.toMatchObject({
      subjectProfileId: child.profileId,
    });
    await expect(t.app.delegation.resolve(childPrincipal, undefined, READ)).resolves.toMatchObject({
      subjectProfileId: child.profileId,
    });

    // Narrowing the customer types acts at once too.
    await putManager(manager.profileId, {
      allowedCorridors: ["MX"],
      allowedCustomerTypes: ["business"],
      isActive: true,
    });
    await expect(t.app.delegation.resolve(managerPrincipal, child.profileId, rule("MX"))).rejects.toMatchObject(denied);
    await expect(t.app.delegation.resolve(childPrincipal, undefined, rule("MX"))).rejects.toMatchObject(denied);
    await expect(t.app.delegation.resolve(managerPrincipal, child.profileId, READ)).resolves.toBeTruthy();
  });

  it("checks the selector in the contract's order", async () => {
    const manager = await newManager();
    const child = await createChild(manager);
    const credential = await issueChildCredential(manager, child.profileId);
    const childPrincipal = await principalOf({ "x-api-key": credential.secretKey });
    const publicPrincipal = await principalOf({ "x-public-key": manager.credential.publicKey });
    // A child credential with a selector: 403 before the UUID check.
    await expect(t.app.delegation.resolve(childPrincipal, "not-a-uuid", READ)).rejects.toMatchObject(denied);
    // Not a UUID: 400 before the actor check.
    await expect(t.app.delegation.resolve(publicPrincipal, "not-a-uuid", READ)).rejects.toMatchObject({
      code: "INVALID_MANAGED_PROFILE_ID",
      status: 400,
    });
    // No actor: 401.
    await expect(t.app.delegation.resolve(publicPrincipal, child.profileId, READ)).rejects.toMatchObject({
      code: "AUTHENTICATION_REQUIRED",
      status: 401,
    });
    await expect(t.app.delegation.resolve({ kind: "anonymous" }, child.profileId, READ)).rejects.toMatchObject({
      code: "AUTHENTICATION_REQUIRED",
      status: 401,
    });
  });
});

describe("concurrency", () => {
  it("20 concurrent identical creations: one 201, nineteen 200 with the same profile, one row", async () => {
    const manager = await newManager();
    const body = childBody();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.request("POST", "/v1/managed-profiles", { headers: i % 2 ? manager.secret : manager.session, body }),
      ),
    );
    const statuses = results.map((response) => response.status);
    expect(
      statuses.filter((status) => status === 201),
      JSON.stringify(results.map((r) => r.body)),
    ).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(19);
    const profileIds = new Set(results.map((response) => response.body.managedProfile?.profileId));
    expect(profileIds.size).toBe(1);
    const created = results.find((response) => response.status === 201)!;
    for (const response of results) expect(response.body).toEqual(created.body);
    const rows = await t.app.db.profile.findMany({
      where: { managerProfileId: manager.profileId },
      include: { customerEntities: true },
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.customerEntities).toHaveLength(1);
  });

  it("creation racing deletion of the same subject never leaves a half-made child", async () => {
    const manager = await newManager();
    for (let round = 0; round < 5; round++) {
      const body = childBody({ customerType: round % 2 ? "business" : "individual" });
      const creations = Array.from({ length: 10 }, () =>
        t.request("POST", "/v1/managed-profiles", { headers: manager.secret, body }),
      );
      // Delete as soon as the child exists, while the other creations are still in flight.
      const deletion = Promise.race(creations).then(async (first) => {
        const created =
          first.body.managedProfile ??
          (await Promise.all(creations)).find((r) => r.body.managedProfile)!.body.managedProfile;
        return t.request("DELETE", `/v1/managed-profiles/${created.profileId}`, { headers: manager.session });
      });
      const [results, deleted] = await Promise.all([Promise.all(creations), deletion]);
      expect(deleted.status).toBe(204);
      const statuses = results.map((response) => response.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      for (const response of results) {
        expect([200, 201, 409], JSON.stringify(response.body)).toContain(response.status);
        if (response.status === 409) expect(response.body.error.code).toBe("MANAGED_PROFILE_CONFLICT");
      }
      const withSubject = await t.app.db.profile.findMany({
        where: { managerProfileId: manager.profileId, externalSubjectId: body.externalSubjectId },
      });
      expect(withSubject).toHaveLength(1);
      expect(withSubject[0]!.deletedAt).not.toBeNull();
      // The subject stays reserved after the race.
      expectRestError(
        await t.request("POST", "/v1/managed-profiles", { headers: manager.secret, body }),
        409,
        "MANAGED_PROFILE_CONFLICT",
      );
    }
    const children = await t.app.db.profile.findMany({
      where: { managerProfileId: { not: null } },
      include: { customerEntities: true },
    });
    for (const child of children) expect(child.customerEntities, child.id).toHaveLength(1);
  });

  it("credential creation racing the child's deletion never leaves an active credential on a deleted child", async () => {
    const manager = await newManager();
    for (let round = 0; round < 3; round++) {
      const child = await createChild(manager);
      const issuing = Array.from({ length: 20 }, (_, i) =>
        t.request("POST", `/v1/managed-profiles/${child.profileId}/api-credentials`, {
          headers: i % 2 ? manager.secret : manager.session,
          body: {},
        }),
      );
      const deleting = (async () => {
        await sleep(round * 3);
        return t.request("DELETE", `/v1/managed-profiles/${child.profileId}`, { headers: manager.secret });
      })();
      const [issued, deleted] = await Promise.all([Promise.all(issuing), deleting]);
      expect(deleted.status).toBe(204);
      for (const response of issued) {
        if (response.status === 201) rememberSecret(response.body.secretKey);
        else
          expect(["MANAGED_PROFILE_NOT_FOUND", "CREDENTIAL_LIMIT_REACHED"], JSON.stringify(response.body)).toContain(
            response.body.error.code,
          );
      }
      expect(await t.app.db.apiCredential.count({ where: { profileId: child.profileId, revokedAt: null } })).toBe(0);
      // Every key that was issued in the race is refused now.
      for (const response of issued.filter((r) => r.status === 201)) {
        expect((await me({ "x-api-key": response.body.secretKey })).body.errors[0].extensions.code).toBe(
          "INVALID_API_KEY",
        );
      }
    }
    const deletedChildren = await t.app.db.profile.findMany({
      where: { managerProfileId: manager.profileId, deletedAt: { not: null } },
      select: { id: true },
    });
    expect(deletedChildren).toHaveLength(3);
    expect(
      await t.app.db.apiCredential.count({
        where: { profileId: { in: deletedChildren.map((c) => c.id) }, revokedAt: null },
      }),
    ).toBe(0);
  });
});
