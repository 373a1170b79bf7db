import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEngine } from "../support/database.js";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { ok } from "../support/kit.js";

/**
 * A manager's dashboard reads its children with their credentials, ramps and customers in one GraphQL query
 * (issue 14, item 5): each list nested in the list of children costs a fixed number of statements, however
 * many children the page holds, and each child's list is that child's alone.
 */

type Headers = Record<string, string>;
const WALLET = "0x1111111111111111111111111111111111111111";
const BR_BUY = {
  rampType: "BUY",
  from: "pix",
  to: "polygon",
  inputAmount: "100",
  inputCurrency: "BRL",
  outputCurrency: "USDC",
};

let t: TestApp;
/** A second instance on the same database that caches nothing: every read a request needs is a statement. */
let uncached: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  uncached = await startTestApp({ CACHE_TTL_SECONDS: "0" }, { database: t.database });
});
afterAll(async () => {
  await uncached?.close();
  await t?.close();
});

const selecting = (headers: Headers, childId: string): Headers => ({ ...headers, "x-managed-profile-id": childId });

/** A signed-in manager the operator allows BR for: its session's headers. */
const newManager = async (): Promise<Headers> => (await t.newManager()).session;

/** A child with `credentials` keys, approved BR KYC and `ramps` started ramps: its id and its ramps' ids. */
async function newChild(manager: Headers, credentials: number, ramps: number) {
  const body = {
    externalSubjectId: randomUUID(),
    contactEmail: `${randomUUID()}@example.com`,
    customerType: "individual",
  };
  const profileId: string = ok(await t.request("POST", "/v1/managed-profiles", { headers: manager, body }), 201)
    .managedProfile.profileId;
  for (let i = 0; i < credentials; i++)
    ok(
      await t.request("POST", `/v1/managed-profiles/${profileId}/api-credentials`, { headers: manager, body: {} }),
      201,
    );
  const acting = selecting(manager, profileId);
  await t.completeKyc(acting, ["BR"]);
  const rampIds: string[] = [];
  for (let i = 0; i < ramps; i++) {
    const quote = ok(await t.request("POST", "/v1/quotes", { headers: acting, body: BR_BUY }), 201);
    const registered = { quoteId: quote.id, destinationAddress: WALLET };
    const ramp = ok(await t.request("POST", "/v1/ramp/register", { headers: acting, body: registered }), 201);
    ok(await t.request("POST", "/v1/ramp/start", { headers: acting, body: { rampId: ramp.id } }));
    rampIds.push(ramp.id);
  }
  // Newest first, as the history lists them.
  return { profileId, rampIds: rampIds.reverse() };
}

const DASHBOARD = `query($status: ManagedProfileFilter! = ACTIVE) {
  managedProfiles(first: 20, status: $status) { edges { node {
    profileId
    apiCredentials(first: 5) { totalCount edges { node { profileId } } }
    ramps(first: 5) { totalCount edges { node { id status inputAmount } } pageInfo { hasNextPage } }
    customers { corridor customerType kycStatus }
  } } }
}`;

/** The statements a request costs the instance that serves it. */
async function statementsOf(instance: TestApp, send: () => Promise<HttpResponse>): Promise<number> {
  const before = instance.app.statements.count;
  const response = await send();
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.errors, JSON.stringify(response.body)).toBeUndefined();
  return instance.app.statements.count - before;
}

describe(`a manager's children with their lists, in one query (${testEngine()})`, () => {
  let few: Headers;
  let many: Headers;
  let manyChildren: Awaited<ReturnType<typeof newChild>>[];
  beforeAll(async () => {
    [few, many] = [await newManager(), await newManager()];
    await newChild(few, 1, 1);
    manyChildren = [];
    for (let i = 0; i < 6; i++) manyChildren.push(await newChild(many, 2, i === 0 ? 7 : 2));
  });

  it("costs the same statements for six children as for one, with and without caches", async () => {
    const dashboard = (instance: TestApp, manager: Headers) =>
      statementsOf(instance, () => instance.graphql(DASHBOARD, {}, manager));
    // The session; the manager's gate, the children's page and count; the credentials' manager gate, children
    // and page; the manager's policy and the children's delegation state; the ramps' page; the customers' KYC.
    expect(await dashboard(uncached, few)).toBe(11);
    expect(await dashboard(uncached, many)).toBe(11);
    // Policies, delegation states and KYC states come from memory once read.
    expect(await dashboard(t, many)).toBe(await dashboard(t, few));
  });

  it("gives each child its own credentials, ramps and customers, paged", async () => {
    const { edges } = ok(await t.graphql(DASHBOARD, {}, many)).data.managedProfiles;
    expect(edges).toHaveLength(6);
    for (const child of manyChildren) {
      const node = edges.find(({ node }: { node: { profileId: string } }) => node.profileId === child.profileId).node;
      expect(node.apiCredentials.totalCount).toBe(2);
      expect(node.apiCredentials.edges.map(({ node }: { node: { profileId: string } }) => node.profileId)).toEqual([
        child.profileId,
        child.profileId,
      ]);
      expect(node.ramps.totalCount).toBe(child.rampIds.length);
      expect(node.ramps.edges.map(({ node }: { node: { id: string } }) => node.id)).toEqual(child.rampIds.slice(0, 5));
      expect(node.ramps.edges[0].node).toMatchObject({ status: "PENDING", inputAmount: "100" });
      expect(node.ramps.pageInfo.hasNextPage).toBe(child.rampIds.length > 5);
      expect(node.customers).toEqual([{ corridor: "BR", customerType: "INDIVIDUAL", kycStatus: "APPROVED" }]);
    }
  });

  it("reads the next page of every child's ramps after the same cursor, with the total past the end", async () => {
    const query = `query($after: String) { managedProfiles { edges { node {
      profileId ramps(first: 5, after: $after) { totalCount edges { node { id } } pageInfo { hasNextPage endCursor } }
    } } } }`;
    const rampsOf = (edges: { node: { profileId: string; ramps: any } }[], profileId: string) =>
      edges.find(({ node }) => node.profileId === profileId)!.node.ramps;
    const firstPage = ok(await t.graphql(query, {}, many)).data.managedProfiles.edges;
    const after = rampsOf(firstPage, manyChildren[0]!.profileId).pageInfo.endCursor;
    const { edges } = ok(await t.graphql(query, { after }, many)).data.managedProfiles;
    for (const child of manyChildren) {
      const ramps = rampsOf(edges, child.profileId);
      expect(ramps.totalCount).toBe(child.rampIds.length);
      expect(ramps.edges.map(({ node }: { node: { id: string } }) => node.id)).toEqual(child.rampIds.slice(5));
      expect(ramps.pageInfo.hasNextPage).toBe(false);
    }
  });

  it("filters every child's ramps as the subject's own history filters them", async () => {
    const query = `{ managedProfiles { edges { node { ramps(status: COMPLETE) { totalCount } } } } }`;
    const { edges } = ok(await t.graphql(query, {}, many)).data.managedProfiles;
    expect(edges.map(({ node }: { node: { ramps: { totalCount: number } } }) => node.ramps.totalCount)).toEqual(
      manyChildren.map(() => 0),
    );
  });

  it("answers a deleted child's lists null with the selector's refusal, and keeps the other children's", async () => {
    const manager = await newManager();
    const kept = await newChild(manager, 1, 1);
    const deleted = await newChild(manager, 1, 1);
    ok(await t.request("DELETE", `/v1/managed-profiles/${deleted.profileId}`, { headers: manager }), 204);
    const response = await t.graphql(DASHBOARD, { status: "ALL" }, manager);
    const nodes: { profileId: string; ramps: unknown; customers: unknown; apiCredentials: unknown }[] =
      response.body.data.managedProfiles.edges.map(({ node }: { node: unknown }) => node);
    const gone = nodes.find((node) => node.profileId === deleted.profileId)!;
    expect(gone).toMatchObject({ ramps: null, customers: null, apiCredentials: null });
    const here = nodes.find((node) => node.profileId === kept.profileId)!;
    expect(here).toMatchObject({ ramps: { totalCount: 1 }, apiCredentials: { totalCount: 1 } });
    const codes = Object.fromEntries(
      response.body.errors.map((error: { path: (string | number)[]; extensions: { code: string } }) => [
        error.path.at(-1),
        error.extensions.code,
      ]),
    );
    expect(codes).toEqual({
      ramps: "MANAGED_PROFILE_ACCESS_DENIED",
      customers: "MANAGED_PROFILE_ACCESS_DENIED",
      apiCredentials: "MANAGED_PROFILE_NOT_FOUND",
    });
  });
});
