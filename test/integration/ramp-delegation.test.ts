import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Corridor, CustomerType } from "../../src/reference-data/corridors.js";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { rememberSecret } from "../support/secrets.js";
import { EVM_ADDRESS, PIX_KEY, signedTxs, waitFor } from "../support/kit.js";

/**
 * Delegation on the ramp domain over REST (CONTRACT.md, "Managed profiles and delegation", "Selector
 * checks, in this order"): every row on the corridor-bound routes (register, update, start, limits) and
 * on the reads (ramp, errors, history, quote read and creation), on the project's engine, with the ramp
 * processor running.
 */

let t: TestApp;
beforeAll(async () => {
  // Many requests from one address and one key: the rate limits have tests of their own.
  t = await startTestApp(
    { RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" },
    { workers: true },
  );
});
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------------------
// Helpers

type Headers = Record<string, string>;
type Policy = { allowedCorridors: Corridor[]; allowedCustomerTypes?: CustomerType[] | null; isActive: boolean };

const CHILD_CORRIDORS: Corridor[] = ["AR", "BR", "CO", "MX", "US"];
const POLICY: Policy = { allowedCorridors: CHILD_CORRIDORS, isActive: true };
const WALLET = "0x1111111111111111111111111111111111111111";
const DENIED = [403, "MANAGED_PROFILE_ACCESS_DENIED"] as const;

/** Quote requests the sandbox prices within each rail's limits. */
const QUOTES = {
  BR_BUY: {
    rampType: "BUY",
    from: "pix",
    to: "polygon",
    inputAmount: "100",
    inputCurrency: "BRL",
    outputCurrency: "USDC",
  },
  BR_SELL: {
    rampType: "SELL",
    from: "polygon",
    to: "pix",
    inputAmount: "50",
    inputCurrency: "USDC",
    outputCurrency: "BRL",
  },
  MX_BUY: {
    rampType: "BUY",
    from: "spei",
    to: "polygon",
    inputAmount: "1000",
    inputCurrency: "MXN",
    outputCurrency: "USDC",
  },
  AR_BUY: {
    rampType: "BUY",
    from: "cbu",
    to: "polygon",
    inputAmount: "20000",
    inputCurrency: "ARS",
    outputCurrency: "USDC",
  },
  EU_BUY: {
    rampType: "BUY",
    from: "sepa",
    to: "polygon",
    inputAmount: "100",
    inputCurrency: "EUR",
    outputCurrency: "USDC",
  },
} as const;
type QuoteKind = keyof typeof QUOTES;

interface Manager {
  profileId: string;
  session: Headers;
  secret: Headers;
  publicKey: Headers;
}

interface Child {
  profileId: string;
  customerType: CustomerType;
  /** The child's own secret key. */
  own: Headers;
}

function expectRestError(response: HttpResponse, status: number, code: string, context = ""): void {
  expect(
    { status: response.status, code: response.body?.error?.code },
    `${context} ${JSON.stringify(response.body)}`,
  ).toEqual({ status, code });
  expect(response.body.error.status).toBe(status);
}

function expectStatus(response: HttpResponse, status: number, context = ""): void {
  expect(response.status, `${context} ${JSON.stringify(response.body)}`).toBe(status);
}

async function putManager(profileId: string, policy: Policy): Promise<void> {
  const response = await t.request("PUT", `/v1/admin/managers/${profileId}`, {
    headers: t.operatorHeaders,
    body: policy,
  });
  expect([200, 201], JSON.stringify(response.body)).toContain(response.status);
}

/** A signed-in profile with keys of its own; the operator enables it as a manager unless `policy` is null. */
async function newManager(policy: Policy | null = POLICY): Promise<Manager> {
  const session = await t.signIn();
  const credential = await t.createCredential(session.headers, { name: "manager's own" });
  if (policy) await putManager(session.profileId, policy);
  return {
    profileId: session.profileId,
    session: session.headers,
    secret: { "x-api-key": credential.secretKey },
    publicKey: { "x-public-key": credential.publicKey },
  };
}

/** A managed child of the manager with its own key; KYC (KYB for a business) approved through the selector in `kyc`. */
async function newChild(
  manager: Manager,
  customerType: CustomerType = "individual",
  kyc: Corridor[] = [],
): Promise<Child> {
  const created = await t.request("POST", "/v1/managed-profiles", {
    headers: manager.secret,
    body: {
      externalSubjectId: `subject-${randomUUID()}`,
      contactEmail: `child-${randomUUID()}@example.com`,
      customerType,
    },
  });
  expectStatus(created, 201, "create child");
  const profileId: string = created.body.managedProfile.profileId;
  const key = await t.request("POST", `/v1/managed-profiles/${profileId}/api-credentials`, {
    headers: manager.secret,
    body: { name: "child's own" },
  });
  expectStatus(key, 201, "child credential");
  rememberSecret(key.body.secretKey);
  if (kyc.length > 0) await t.completeKyc(selecting(manager.secret, profileId), kyc, customerType);
  return { profileId, customerType, own: { "x-api-key": key.body.secretKey } };
}

const selecting = (headers: Headers, childId: string): Headers => ({ ...headers, "x-managed-profile-id": childId });

async function quote(headers: Headers, kind: QuoteKind = "BR_BUY"): Promise<string> {
  const response = await t.request("POST", "/v1/quotes", { headers, body: QUOTES[kind] });
  expectStatus(response, 201, `quote ${kind}`);
  return response.body.id;
}

const registerBody = (quoteId: string, kind: QuoteKind) =>
  QUOTES[kind].rampType === "BUY"
    ? { quoteId, destinationAddress: WALLET }
    : { quoteId, additionalData: { walletAddress: WALLET, pixDestination: PIX_KEY } };

const register = (headers: Headers, quoteId: string, kind: QuoteKind = "BR_BUY") =>
  t.request("POST", "/v1/ramp/register", { headers, body: registerBody(quoteId, kind) });

/** Quotes and registers a ramp for whoever the headers act as; returns the ramp. */
async function newRamp(headers: Headers, kind: QuoteKind = "BR_BUY") {
  const response = await register(headers, await quote(headers, kind), kind);
  expectStatus(response, 201, `register ${kind}`);
  return response.body as {
    id: string;
    quoteId: string;
    status: string;
    currentPhase: string;
    unsignedTxs: Record<string, unknown>[];
  };
}

const readRamp = async (headers: Headers, rampId: string) => {
  const response = await t.request("GET", `/v1/ramp/${rampId}`, { headers });
  expectStatus(response, 200, "read ramp");
  return response.body as { id: string; status: string; currentPhase: string };
};

const waitForStatus = (headers: Headers, rampId: string, status: string) =>
  waitFor(
    () => readRamp(headers, rampId),
    (ramp) => ramp.status === status,
  );

/** A child with an unconsumed quote of its own and a registered (initial) ramp, both made through the selector. */
interface Fixture {
  manager: Manager;
  child: Child;
  quoteId: string;
  rampId: string;
}

async function fixture(policy: Policy = POLICY, customerType: CustomerType = "individual"): Promise<Fixture> {
  const manager = await newManager(policy);
  const child = await newChild(manager, customerType, ["BR"]);
  const acting = selecting(manager.secret, child.profileId);
  const ramp = await newRamp(acting);
  return { manager, child, quoteId: await quote(acting), rampId: ramp.id };
}

type Route = readonly [method: string, url: string, body?: unknown];

/** The corridor-bound routes, for a fixture's quote and ramp. */
const corridorRoutes = (f: Fixture): Route[] => [
  ["POST", "/v1/ramp/register", registerBody(f.quoteId, "BR_BUY")],
  ["POST", "/v1/ramp/update", { rampId: f.rampId, presignedTxs: [] }],
  ["POST", "/v1/ramp/start", { rampId: f.rampId }],
  ["POST", "/v1/limits", { corridors: ["BR"] }],
];

/** The reads: no corridor checks, but every other selector check. */
const readRoutes = (f: Fixture): Route[] => [
  ["GET", `/v1/ramp/${f.rampId}`],
  ["GET", `/v1/ramp/${f.rampId}/errors`],
  ["GET", "/v1/ramp/history"],
  ["GET", `/v1/ramp/history/${EVM_ADDRESS}`],
  ["GET", `/v1/quotes/${f.quoteId}`],
  ["POST", "/v1/quotes", QUOTES.BR_BUY],
];

const allRoutes = (f: Fixture) => [...corridorRoutes(f), ...readRoutes(f)];

const call = (route: Route, headers: Headers) => {
  const [method, url, body] = route;
  return t.request(method, url, { headers, ...(body !== undefined && { body }) });
};

/** Every route answers the same error for these headers. */
async function expectEveryRoute(routes: Route[], headers: Headers, status: number, code: string, label: string) {
  for (const route of routes)
    expectRestError(await call(route, headers), status, code, `${label}: ${route[0]} ${route[1]}`);
}

/** The fixture's quote is still unconsumed and its ramp still initial: the refusals changed nothing. */
async function expectUntouched(f: Fixture) {
  const row = await t.app.db.quote.findUniqueOrThrow({ where: { id: f.quoteId } });
  expect(row.consumedAt).toBeNull();
  const ramp = await t.app.db.ramp.findUniqueOrThrow({ where: { id: f.rampId } });
  expect({ phase: ramp.currentPhase, presignedTxs: ramp.presignedTxs }).toEqual({
    phase: "initial",
    presignedTxs: "[]",
  });
  expect(await t.app.db.ramp.count({ where: { quoteId: f.quoteId } })).toBe(0);
}

// ---------------------------------------------------------------------------------------------------------

describe("who may send the selector (every ramp and quote route)", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture();
  });

  it("the reads and corridor-bound routes work through the selector (the control for the refusals below)", async () => {
    const acting = selecting(f.manager.secret, f.child.profileId);
    for (const route of readRoutes(f)) expect([200, 201], `${route[1]}`).toContain((await call(route, acting)).status);
    expectStatus(await call(["POST", "/v1/limits", { corridors: ["BR"] }], acting), 200);
  });

  it("a child's own credential with a selector -> 403 MANAGED_PROFILE_ACCESS_DENIED, even a malformed selector", async () => {
    const sibling = await newChild(f.manager);
    for (const selector of [f.child.profileId, sibling.profileId, "not-a-uuid"]) {
      await expectEveryRoute(
        allRoutes(f),
        selecting(f.child.own, selector),
        ...DENIED,
        `child key selecting ${selector}`,
      );
    }
    await expectUntouched(f);
  });

  it("a selector that is not a UUID -> 400 INVALID_MANAGED_PROFILE_ID (manager's key, session, public key)", async () => {
    for (const headers of [f.manager.secret, f.manager.session, f.manager.publicKey]) {
      for (const selector of ["not-a-uuid", `${f.child.profileId}x`, ""]) {
        await expectEveryRoute(
          allRoutes(f),
          selecting(headers, selector),
          400,
          "INVALID_MANAGED_PROFILE_ID",
          `selector ${JSON.stringify(selector)}`,
        );
      }
    }
    await expectUntouched(f);
  });

  it("a public key with a selector -> 401 AUTHENTICATION_REQUIRED (a public key is not an actor)", async () => {
    await expectEveryRoute(
      allRoutes(f),
      selecting(f.manager.publicKey, f.child.profileId),
      401,
      "AUTHENTICATION_REQUIRED",
      "public key",
    );
    await expectUntouched(f);
  });

  it("no credential with a selector, even a malformed one -> 401 AUTHENTICATION_REQUIRED (never a validation error)", async () => {
    await expectEveryRoute(allRoutes(f), selecting({}, f.child.profileId), 401, "AUTHENTICATION_REQUIRED", "anonymous");
    await expectEveryRoute(
      allRoutes(f),
      selecting({}, "not-a-uuid"),
      401,
      "AUTHENTICATION_REQUIRED",
      "anonymous, malformed selector",
    );
    await expectUntouched(f);
  });
});

describe("whom the selector may name (every ramp and quote route)", () => {
  it("a profile that is not a manager -> 403 (its key and its session)", async () => {
    const f = await fixture();
    const someone = await newManager(null);
    for (const headers of [someone.secret, someone.session]) {
      await expectEveryRoute(
        allRoutes(f),
        selecting(headers, f.child.profileId),
        ...DENIED,
        "non-manager, existing child",
      );
      await expectEveryRoute(allRoutes(f), selecting(headers, randomUUID()), ...DENIED, "non-manager, unknown child");
    }
    await expectUntouched(f);
  });

  it("another manager's child, an unknown profile, or the manager itself -> 403", async () => {
    const f = await fixture();
    const other = await newManager();
    for (const headers of [other.secret, other.session]) {
      await expectEveryRoute(allRoutes(f), selecting(headers, f.child.profileId), ...DENIED, "other manager");
    }
    await expectEveryRoute(allRoutes(f), selecting(f.manager.secret, randomUUID()), ...DENIED, "unknown child");
    await expectEveryRoute(
      allRoutes(f),
      selecting(f.manager.secret, f.manager.profileId),
      ...DENIED,
      "the manager itself",
    );
    await expectUntouched(f);
  });

  it("a deleted child -> 403 through the selector; its own key is revoked (401 INVALID_API_KEY)", async () => {
    const f = await fixture();
    expectStatus(
      await t.request("DELETE", `/v1/managed-profiles/${f.child.profileId}`, { headers: f.manager.secret }),
      204,
    );
    for (const headers of [f.manager.secret, f.manager.session]) {
      await expectEveryRoute(allRoutes(f), selecting(headers, f.child.profileId), ...DENIED, "deleted child");
    }
    await expectEveryRoute(allRoutes(f), f.child.own, 401, "INVALID_API_KEY", "deleted child's own key");
    await expectUntouched(f);
  });

  it("a child without exactly one active customer entity -> 403", async () => {
    const manager = await newManager();
    const child = await newChild(manager);
    await t.app.db.customerEntity.updateMany({ where: { profileId: child.profileId }, data: { isActive: false } });
    const f: Fixture = { manager, child, quoteId: randomUUID(), rampId: randomUUID() };
    await expectEveryRoute(allRoutes(f), selecting(manager.secret, child.profileId), ...DENIED, "no active entity");
    await expectEveryRoute(allRoutes(f), child.own, ...DENIED, "no active entity, own key");
  });

  it("an inactive manager -> 403 through the selector and for the child's own key, reads included; reactivated, both work again", async () => {
    const f = await fixture();
    await putManager(f.manager.profileId, { ...POLICY, isActive: false });
    for (const headers of [f.manager.secret, f.manager.session]) {
      await expectEveryRoute(allRoutes(f), selecting(headers, f.child.profileId), ...DENIED, "inactive manager");
    }
    await expectEveryRoute(allRoutes(f), f.child.own, ...DENIED, "inactive manager, child's own key");
    await expectUntouched(f);

    await putManager(f.manager.profileId, POLICY);
    expect((await readRamp(selecting(f.manager.secret, f.child.profileId), f.rampId)).id).toBe(f.rampId);
    expect((await readRamp(f.child.own, f.rampId)).id).toBe(f.rampId);
    expectStatus(await register(selecting(f.manager.session, f.child.profileId), f.quoteId), 201);
  });
});

describe("corridor checks on corridor-bound routes (the manager's current policy and the capability table)", () => {
  it("a corridor outside the policy: quoting and reading work, register and limits -> 403 (selector and own key)", async () => {
    const manager = await newManager({ allowedCorridors: ["BR"], isActive: true });
    const child = await newChild(manager, "individual", ["BR"]);
    for (const headers of [
      selecting(manager.secret, child.profileId),
      selecting(manager.session, child.profileId),
      child.own,
    ]) {
      const mxQuote = await quote(headers, "MX_BUY"); // quote discovery skips the corridor checks
      expectStatus(await t.request("GET", `/v1/quotes/${mxQuote}`, { headers }), 200);
      expectRestError(await register(headers, mxQuote, "MX_BUY"), ...DENIED, "register MX");
      expect((await t.app.db.quote.findUniqueOrThrow({ where: { id: mxQuote } })).consumedAt).toBeNull();
      expectRestError(
        await t.request("POST", "/v1/limits", { headers, body: { corridors: ["MX"] } }),
        ...DENIED,
        "limits MX",
      );
      expectRestError(
        await t.request("POST", "/v1/limits", { headers, body: { corridors: ["BR", "MX"] } }),
        ...DENIED,
        "limits BR+MX",
      );
      expectStatus(await t.request("POST", "/v1/limits", { headers, body: { corridors: ["BR"] } }), 200);
      // The allowed corridor registers.
      expectStatus(await register(headers, await quote(headers, "BR_BUY")), 201);
    }
    expect(await t.app.db.ramp.count({ where: { profileId: child.profileId, corridor: "MX" } })).toBe(0);
  });

  it("customer-type narrowing: allowedCustomerTypes [individual] refuses a business child (403), not an individual one", async () => {
    const manager = await newManager({
      allowedCorridors: CHILD_CORRIDORS,
      allowedCustomerTypes: ["individual"],
      isActive: true,
    });
    // The business child cannot even start KYB under this policy: its refusals are the policy's.
    const business = await newChild(manager, "business");
    const individual = await newChild(manager, "individual", ["BR"]);
    for (const headers of [selecting(manager.secret, business.profileId), business.own]) {
      const brQuote = await quote(headers, "BR_BUY");
      expectRestError(await register(headers, brQuote), ...DENIED, "business child, BR");
      expectRestError(
        await t.request("POST", "/v1/limits", { headers, body: { corridors: ["BR"] } }),
        ...DENIED,
        "business limits",
      );
      // Reads still answer for the business child.
      expectStatus(await t.request("GET", `/v1/quotes/${brQuote}`, { headers }), 200);
      expectStatus(await t.request("GET", "/v1/ramp/history", { headers }), 200);
    }
    for (const headers of [selecting(manager.secret, individual.profileId), individual.own]) {
      expectStatus(await register(headers, await quote(headers, "BR_BUY")), 201);
    }
    expect(await t.app.db.ramp.count({ where: { profileId: business.profileId } })).toBe(0);
  });

  it("the capability table: AR for a business child -> 403, AR for an individual -> 201; EU for any child -> 403 though the policy lists it", async () => {
    const manager = await newManager({ allowedCorridors: ["AR", "BR", "CO", "EU", "MX", "US"], isActive: true });
    const business = await newChild(manager, "business", ["BR"]);
    const individual = await newChild(manager, "individual");
    // KYC with the child's own key works as through the selector.
    await t.completeKyc(individual.own, ["AR"]);
    for (const headers of [
      selecting(manager.secret, business.profileId),
      selecting(manager.session, business.profileId),
      business.own,
    ]) {
      expectRestError(await register(headers, await quote(headers, "AR_BUY"), "AR_BUY"), ...DENIED, "business AR");
      expectRestError(await register(headers, await quote(headers, "EU_BUY"), "EU_BUY"), ...DENIED, "business EU");
      expectRestError(
        await t.request("POST", "/v1/limits", { headers, body: { corridors: ["AR"] } }),
        ...DENIED,
        "business AR limits",
      );
      expectStatus(await register(headers, await quote(headers, "BR_BUY")), 201);
    }
    for (const headers of [
      selecting(manager.secret, individual.profileId),
      selecting(manager.session, individual.profileId),
      individual.own,
    ]) {
      expectRestError(await register(headers, await quote(headers, "EU_BUY"), "EU_BUY"), ...DENIED, "individual EU");
      expectStatus(await register(headers, await quote(headers, "AR_BUY"), "AR_BUY"), 201);
      expectStatus(await t.request("POST", "/v1/limits", { headers, body: { corridors: ["AR"] } }), 200);
    }
    expect(
      await t.app.db.ramp.count({
        where: { profileId: { in: [business.profileId, individual.profileId] }, corridor: "EU" },
      }),
    ).toBe(0);
    expect(await t.app.db.ramp.count({ where: { profileId: business.profileId, corridor: "AR" } })).toBe(0);

    // The manager itself is a direct profile: EU is open to it.
    expectStatus(await register(manager.secret, await quote(manager.secret, "EU_BUY"), "EU_BUY"), 201);
  });

  it("tightening after registration: update/start -> 403, reads stay 200; a started ramp still completes; relaxing reopens", async () => {
    const manager = await newManager({ allowedCorridors: ["BR", "MX"], isActive: true });
    const child = await newChild(manager, "individual", ["BR"]);
    const bySelector = selecting(manager.secret, child.profileId);
    const waiting = await newRamp(bySelector);
    const sell = await newRamp(child.own, "BR_SELL");
    const inFlight = await newRamp(bySelector);

    // Hold the processor so the started ramp is surely mid-way when the policy tightens.
    await t.app.rampProcessor.stop();
    try {
      expectStatus(
        await t.request("POST", "/v1/ramp/start", { headers: bySelector, body: { rampId: inFlight.id } }),
        200,
      );
      await putManager(manager.profileId, { allowedCorridors: ["MX"], isActive: true });
      expect((await t.app.db.ramp.findUniqueOrThrow({ where: { id: inFlight.id } })).currentPhase).toBe(
        "awaitingPayment",
      );

      for (const headers of [bySelector, selecting(manager.session, child.profileId), child.own]) {
        expectRestError(
          await t.request("POST", "/v1/ramp/update", { headers, body: { rampId: waiting.id, presignedTxs: [] } }),
          ...DENIED,
          "update",
        );
        expectRestError(
          await t.request("POST", "/v1/ramp/start", { headers, body: { rampId: waiting.id } }),
          ...DENIED,
          "start",
        );
        expectRestError(
          await t.request("POST", "/v1/ramp/update", {
            headers,
            body: { rampId: sell.id, presignedTxs: [{ signed: "0xab" }] },
          }),
          ...DENIED,
          "update SELL",
        );
        expectRestError(
          await t.request("POST", "/v1/limits", { headers, body: { corridors: ["BR"] } }),
          ...DENIED,
          "limits",
        );
        // A denied corridor with a malformed rest of the body is still 403, not 400.
        expectRestError(
          await t.request("POST", "/v1/ramp/update", { headers, body: { rampId: waiting.id, presignedTxs: "nope" } }),
          ...DENIED,
          "update, bad body",
        );
        // Reads skip the corridor checks.
        expect((await readRamp(headers, waiting.id)).currentPhase).toBe("initial");
        expectStatus(await t.request("GET", `/v1/ramp/${waiting.id}/errors`, { headers }), 200);
        const history = await t.request("GET", "/v1/ramp/history", { headers });
        expectStatus(history, 200);
        // History lists non-initial ramps (the reference's rule): the started one.
        expect(history.body.transactions.map((entry: { id: string }) => entry.id)).toEqual([inFlight.id]);
        expectStatus(await t.request("GET", `/v1/quotes/${waiting.quoteId}`, { headers }), 200);
      }
      expect((await t.app.db.ramp.findUniqueOrThrow({ where: { id: waiting.id } })).currentPhase).toBe("initial");
    } finally {
      t.app.rampProcessor.start();
    }
    // Tightening never cancels a started ramp.
    const done = await waitForStatus(bySelector, inFlight.id, "COMPLETE");
    expect(done.currentPhase).toBe("complete");
    expect((await t.request("GET", `/v1/ramp/${inFlight.id}/errors`, { headers: child.own })).body).toEqual([]);
    // The ramp waiting for a start is still waiting (refusals changed nothing).
    expect((await readRamp(bySelector, waiting.id)).status).toBe("PENDING");

    // Narrowing by customer type blocks the same way.
    await putManager(manager.profileId, {
      allowedCorridors: ["BR", "MX"],
      allowedCustomerTypes: ["business"],
      isActive: true,
    });
    expectRestError(
      await t.request("POST", "/v1/ramp/start", { headers: bySelector, body: { rampId: waiting.id } }),
      ...DENIED,
      "start, narrowed",
    );

    // The check reads the current policy: relaxed again, the waiting ramps start and complete.
    await putManager(manager.profileId, { allowedCorridors: ["BR", "MX"], isActive: true });
    expectStatus(await t.request("POST", "/v1/ramp/start", { headers: child.own, body: { rampId: waiting.id } }), 200);
    expectStatus(
      await t.request("POST", "/v1/ramp/update", {
        headers: bySelector,
        body: { rampId: sell.id, presignedTxs: signedTxs(sell.unsignedTxs) },
      }),
      200,
    );
    expectStatus(await t.request("POST", "/v1/ramp/start", { headers: bySelector, body: { rampId: sell.id } }), 200);
    await waitForStatus(bySelector, waiting.id, "COMPLETE");
    await waitForStatus(child.own, sell.id, "COMPLETE");
  });
});

describe("order of checks", () => {
  it("an unauthenticated caller with a bad body gets 401, never 400", async () => {
    const bodies = [{}, { quoteId: "nope", rampId: 42, corridors: "EU" }];
    for (const url of ["/v1/ramp/register", "/v1/ramp/update", "/v1/ramp/start", "/v1/limits"]) {
      for (const body of bodies)
        expectRestError(await t.request("POST", url, { body }), 401, "AUTHENTICATION_REQUIRED", url);
      expectRestError(
        await t.request("POST", url, { rawBody: "{not json" }),
        401,
        "AUTHENTICATION_REQUIRED",
        `${url} malformed JSON`,
      );
    }
  });

  it("a denied selector with a malformed body gets 403, never 400", async () => {
    const f = await fixture();
    const other = await newManager();
    for (const headers of [selecting(other.secret, f.child.profileId), selecting(f.child.own, f.child.profileId)]) {
      for (const url of ["/v1/ramp/register", "/v1/ramp/update", "/v1/ramp/start", "/v1/limits", "/v1/quotes"]) {
        expectRestError(
          await t.request("POST", url, { headers, body: { quoteId: "nope", rampId: 42, corridors: "EU" } }),
          ...DENIED,
          url,
        );
        expectRestError(
          await t.request("POST", url, { headers, rawBody: "{not json" }),
          ...DENIED,
          `${url} malformed JSON`,
        );
      }
    }
    // A corridor refusal comes before validating the rest of the register body.
    const narrow = await newManager({ allowedCorridors: ["BR"], isActive: true });
    const child = await newChild(narrow);
    const mxQuote = await quote(selecting(narrow.secret, child.profileId), "MX_BUY");
    const badRest = { quoteId: mxQuote, destinationAddress: 42, additionalData: "nope", sessionId: "nope" };
    expectRestError(
      await t.request("POST", "/v1/ramp/register", {
        headers: selecting(narrow.secret, child.profileId),
        body: badRest,
      }),
      ...DENIED,
      "register, bad body",
    );
    expectRestError(
      await t.request("POST", "/v1/ramp/register", { headers: child.own, body: badRest }),
      ...DENIED,
      "register own key, bad body",
    );
    // Allowed, the same caller gets the validation error.
    expectRestError(
      await t.request("POST", "/v1/ramp/register", {
        headers: selecting(f.manager.secret, f.child.profileId),
        body: { quoteId: "nope" },
      }),
      400,
      "VALIDATION_FAILED",
    );
    await expectUntouched(f);
  });
});

describe("full ramps of a child", () => {
  const callerLabels = ["manager's key + selector", "manager's session + selector", "child's own key"] as const;

  it("BUY and SELL complete via the manager's key, the manager's session and the child's own key; the child owns them", async () => {
    const manager = await newManager();
    const child = await newChild(manager, "individual", ["BR"]);
    const callers: Record<(typeof callerLabels)[number], Headers> = {
      "manager's key + selector": selecting(manager.secret, child.profileId),
      "manager's session + selector": selecting(manager.session, child.profileId),
      "child's own key": child.own,
    };
    const rampIds = await Promise.all(
      callerLabels.map(async (label) => {
        const headers = callers[label];
        const buy = await newRamp(headers, "BR_BUY");
        expect(buy.status, label).toBe("PENDING");
        expectStatus(
          await t.request("POST", "/v1/ramp/start", { headers, body: { rampId: buy.id } }),
          200,
          `${label} start BUY`,
        );

        const sell = await newRamp(headers, "BR_SELL");
        expect(sell.unsignedTxs.length, label).toBeGreaterThan(0);
        const updated = await t.request("POST", "/v1/ramp/update", {
          headers,
          body: { rampId: sell.id, presignedTxs: signedTxs(sell.unsignedTxs) },
        });
        expectStatus(updated, 200, `${label} update SELL`);
        expectStatus(
          await t.request("POST", "/v1/ramp/start", { headers, body: { rampId: sell.id } }),
          200,
          `${label} start SELL`,
        );

        for (const id of [buy.id, sell.id]) {
          const done = await waitForStatus(headers, id, "COMPLETE");
          expect(done.currentPhase, label).toBe("complete");
        }
        const rows = await t.app.db.ramp.findMany({ where: { id: { in: [buy.id, sell.id] } } });
        const actor = label === "child's own key" ? child.profileId : manager.profileId;
        for (const row of rows)
          expect({ profileId: row.profileId, actorProfileId: row.actorProfileId }, label).toEqual({
            profileId: child.profileId,
            actorProfileId: actor,
          });
        return [buy.id, sell.id];
      }),
    );
    const ids = rampIds.flat().sort();

    // The child's history lists all six, through the selector and through its own key.
    for (const headers of Object.values(callers)) {
      const history = await t.request("GET", "/v1/ramp/history", { headers });
      expectStatus(history, 200);
      expect(history.body.totalCount).toBe("6");
      expect(history.body.transactions.map((entry: { id: string }) => entry.id).sort()).toEqual(ids);
      expect(history.body.transactions.every((entry: { status: string }) => entry.status === "COMPLETE")).toBe(true);
    }
    // The manager's own history does not: the ramps are the child's.
    for (const headers of [manager.secret, manager.session]) {
      const own = await t.request("GET", "/v1/ramp/history", { headers });
      expectStatus(own, 200);
      expect(own.body).toEqual({ totalCount: "0", transactions: [] });
      for (const id of ids) expectRestError(await t.request("GET", `/v1/ramp/${id}`, { headers }), 404, "NOT_FOUND");
    }
  });
});

describe("quote ownership under delegation", () => {
  it("a quote made through the selector is the child's: the manager itself gets 404 reading or registering it", async () => {
    const manager = await newManager();
    const child = await newChild(manager, "individual", ["BR"]);
    const sibling = await newChild(manager);
    const acting = selecting(manager.secret, child.profileId);
    const quoteId = await quote(acting);

    for (const headers of [
      manager.secret,
      manager.session,
      selecting(manager.secret, sibling.profileId),
      sibling.own,
    ]) {
      expectRestError(await t.request("GET", `/v1/quotes/${quoteId}`, { headers }), 404, "NOT_FOUND", "read");
      expectRestError(await register(headers, quoteId), 404, "NOT_FOUND", "register");
    }
    expect((await t.app.db.quote.findUniqueOrThrow({ where: { id: quoteId } })).consumedAt).toBeNull();

    // A quote the manager made for itself is not the child's either.
    const managersQuote = await quote(manager.secret);
    expectRestError(await register(acting, managersQuote), 404, "NOT_FOUND", "manager's quote via selector");
    expectRestError(await register(child.own, managersQuote), 404, "NOT_FOUND", "manager's quote via child key");

    // The child (through the selector or its own key) reads and registers it.
    expectStatus(await t.request("GET", `/v1/quotes/${quoteId}`, { headers: child.own }), 200);
    const ramp = await register(selecting(manager.session, child.profileId), quoteId);
    expectStatus(ramp, 201);
    expect((await t.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.body.id } })).profileId).toBe(child.profileId);
  });
});
