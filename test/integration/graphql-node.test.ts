import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { BUY_QUOTE, EVM_ADDRESS, expectGraphQLError, ok } from "../support/kit.js";

/**
 * node(id) (issue 14, item 5): the objects that have a lookup of their own by id (Ramp, Quote, ManagedProfile)
 * are found by that id alone, answered by their own lookup under its rules; anything the caller may not see
 * is null with NOT_FOUND, whoever owns it.
 */

let t: TestApp;
beforeAll(async () => {
  // No last-use flush and no cache expiry during a statement count (as in hot-paths.test.ts).
  t = await startTestApp({ LAST_USED_FLUSH_INTERVAL_MS: "3600000", CACHE_TTL_SECONDS: "300" });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;

const NODE = `query ($id: ID!) {
  node(id: $id) {
    __typename
    id
    ... on Ramp { currentPhase quoteId }
    ... on Quote { rampType inputAmount }
    ... on ManagedProfile { profileId externalSubjectId status }
  }
}`;
/** Each type's own field, selecting what NODE selects on it. */
const OWN_FIELD = {
  Ramp: "query ($id: ID!) { ramp(id: $id) { __typename id currentPhase quoteId } }",
  Quote: "query ($id: ID!) { quote(id: $id) { __typename id rampType inputAmount } }",
  ManagedProfile:
    "query ($id: ID!) { managedProfile(profileId: $id) { __typename id profileId externalSubjectId status } }",
} as const;
type NodeType = keyof typeof OWN_FIELD;

const node = (id: string, headers: Headers) => t.graphql(NODE, { id }, headers);
const ownField = (type: NodeType, id: string, headers: Headers) => t.graphql(OWN_FIELD[type], { id }, headers);

/** What node(id) answered, which must be what the type's own field answered. */
async function found(id: string, headers: Headers, type: NodeType): Promise<Record<string, unknown>> {
  const answer = ok(await node(id, headers));
  expect(answer.errors, JSON.stringify(answer)).toBeUndefined();
  expect(answer.data.node).toMatchObject({ __typename: type, id });
  const own = ok(await ownField(type, id, headers));
  expect(Object.values(own.data)[0]).toEqual(answer.data.node);
  return answer.data.node;
}

function expectNotFound(response: HttpResponse): void {
  expectGraphQLError(response, 404, "NOT_FOUND");
  expect(response.body.data).toEqual({ node: null });
}

async function quoteOf(headers: Headers): Promise<string> {
  return ok(await t.request("POST", "/v1/quotes", { headers, body: BUY_QUOTE }), 201).id;
}

/** A ramp registered by the subject the headers act as (its KYC approved in BR beforehand). */
async function rampOf(headers: Headers): Promise<string> {
  const body = { quoteId: await quoteOf(headers), destinationAddress: EVM_ADDRESS };
  return ok(await t.request("POST", "/v1/ramp/register", { headers, body }), 201).id;
}

const selecting = (headers: Headers, childId: string) => ({ ...headers, "x-managed-profile-id": childId });

describe("node(id)", () => {
  it("finds each Node type by its id, answered as the type's own field answers it", async () => {
    const owner = await t.newProfile();
    await t.completeKyc(owner.secret);
    await found(await rampOf(owner.secret), owner.secret, "Ramp");
    await found(await rampOf(owner.session), owner.session, "Ramp");
    await found(await quoteOf(owner.secret), owner.secret, "Quote");
    // A quote nobody owns is anyone's to read, as quote(id) reads it.
    await found(await quoteOf({}), owner.session, "Quote");

    const manager = await t.newManager();
    const { profileId } = await t.newChild(manager);
    const child = await found(profileId, manager.secret, "ManagedProfile");
    expect(child).toMatchObject({ id: profileId, profileId, status: "ACTIVE" });
  });

  it("another owner's id or an unknown one: null with NOT_FOUND, as the type's own field answers; no UUID is refused", async () => {
    const owner = await t.newProfile();
    await t.completeKyc(owner.secret);
    const stranger = await t.newProfile();
    const manager = await t.newManager();
    const { profileId: childId } = await t.newChild(manager);
    const owned: [NodeType, string][] = [
      ["Ramp", await rampOf(owner.secret)],
      ["Quote", await quoteOf(owner.secret)],
      ["ManagedProfile", childId],
    ];
    for (const [type, id] of owned) {
      for (const headers of [stranger.secret, stranger.session]) {
        expectNotFound(await node(id, headers));
        // The type's own field answers nothing either (managedProfile refuses a caller that is no manager).
        expect(Object.values((await ownField(type, id, headers)).body.data)).toEqual([null]);
      }
    }
    // A manager that has no such child, and the child's owner seen from its own key: nothing of theirs.
    expectNotFound(await node(childId, (await t.newManager()).secret));
    expectNotFound(await node(randomUUID(), owner.secret));
    const malformed = await node("not-a-uuid", owner.secret);
    expectGraphQLError(malformed, 400, "VALIDATION_FAILED");
    expect(malformed.body.errors[0].extensions.details).toEqual([{ field: "id", message: "must be a UUID" }]);
  });

  it("a manager acting for a child sees the child's objects as each type's own lookup lets it", async () => {
    const manager = await t.newManager();
    const child = await t.newChild(manager);
    const forChild = selecting(manager.secret, child.profileId);
    await t.completeKyc(forChild);
    const childRamp = await rampOf(forChild);
    const childQuote = await quoteOf(forChild);

    await found(childRamp, forChild, "Ramp");
    await found(childQuote, forChild, "Quote");
    await found(childRamp, child.own, "Ramp");
    // Acting for itself, the manager owns neither the child's ramp nor its quote (ramp(id) says so too).
    expectNotFound(await node(childRamp, manager.secret));
    expectNotFound(await node(childQuote, manager.secret));
    // The child is the manager's ManagedProfile; acting for the child (or as it) it is no child of the subject's.
    await found(child.profileId, manager.secret, "ManagedProfile");
    expectNotFound(await node(child.profileId, forChild));
    expectNotFound(await node(child.profileId, child.own));
    // The type's own rules still apply once the id is found: an inactive manager is refused its children.
    ok(
      await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
        headers: t.operatorHeaders,
        body: { allowedCorridors: ["BR"], isActive: false },
      }),
    );
    const refused = await node(child.profileId, manager.secret);
    expectGraphQLError(refused, 403, "MANAGED_PROFILE_ACCESS_DENIED");
    expect(refused.body.errors[0].message).toBe(
      (await ownField("ManagedProfile", child.profileId, manager.secret)).body.errors[0].message,
    );
    // The selector's own rules apply before anything is looked up: another manager's child is refused.
    const other = await t.newChild(await t.newManager());
    expectGraphQLError(
      await node(childRamp, selecting(manager.secret, other.profileId)),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
  });

  it("costs the type's own lookup and one statement more, which tells the type apart", async () => {
    const owner = await t.newManager();
    await t.completeKyc(owner.secret);
    const objects: Record<NodeType, () => Promise<string>> = {
      Ramp: () => rampOf(owner.secret),
      Quote: () => quoteOf(owner.secret),
      ManagedProfile: async () => (await t.newChild(owner)).profileId,
    };
    const statementsOf = async (send: () => Promise<HttpResponse>) => {
      const before = t.app.statements.count;
      const answer = ok(await send());
      expect(answer.errors, JSON.stringify(answer)).toBeUndefined();
      return t.app.statements.count - before;
    };
    for (const [type, create] of Object.entries(objects) as [NodeType, () => Promise<string>][]) {
      // Two objects of the type, so each face reads its own the first time (cold), then again (warm).
      const [viaField, viaNode] = [await create(), await create()];
      const field = [
        await statementsOf(() => ownField(type, viaField, owner.secret)),
        await statementsOf(() => ownField(type, viaField, owner.secret)),
      ];
      const nodes = [
        await statementsOf(() => node(viaNode, owner.secret)),
        await statementsOf(() => node(viaNode, owner.secret)),
      ];
      expect({ type, nodes }).toEqual({ type, nodes: field.map((count) => count + 1) });
    }
  });
});
