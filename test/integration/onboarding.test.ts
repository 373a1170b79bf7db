import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Corridor, CustomerType } from "../../src/reference-data/corridors.js";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { rememberSecret } from "../support/secrets.js";

/**
 * Ramp eligibility, limits and onboarding (CONTRACT.md, Ramp domain; issue 4 item 7): GET /v1/ramp-info,
 * POST /v1/limits, GET /v1/onboarding/status and GET /v1/onboarding/requirements, directly and for managed
 * children, on the project's engine.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" }, { workers: true });
});
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------------------
// Helpers

type Headers = Record<string, string>;
type KycStatus = "not_started" | "pending" | "approved" | "rejected";
type Policy = { allowedCorridors: Corridor[]; allowedCustomerTypes?: CustomerType[] | null; isActive: boolean };

const CORRIDORS: Corridor[] = ["AR", "BR", "CO", "EU", "MX", "US"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const WALLET = "0x2222222222222222222222222222222222222222";

interface Profile {
  profileId: string;
  session: Headers;
  secret: Headers;
  publicKey: Headers;
}

function expectRestError(response: HttpResponse, status: number, code: string, context = ""): void {
  expect({ status: response.status, code: response.body?.error?.code }, `${context} ${JSON.stringify(response.body)}`).toEqual({ status, code });
  expect(response.body.error.status).toBe(status);
}

function expectStatus(response: HttpResponse, status: number, context = ""): void {
  expect(response.status, `${context} ${JSON.stringify(response.body)}`).toBe(status);
}

/** A signed-in profile (its email may carry a sandbox KYC marker) with a credential of its own. */
async function newProfile(marker = ""): Promise<Profile> {
  const session = await t.signIn(`user-${randomUUID().slice(0, 8)}${marker}@example.com`);
  const credential = await t.createCredential(session.headers);
  return { profileId: session.profileId, session: session.headers, secret: { "x-api-key": credential.secretKey }, publicKey: { "x-public-key": credential.publicKey } };
}

async function newManager(policy: Policy): Promise<Profile> {
  const manager = await newProfile();
  const response = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, { headers: t.operatorHeaders, body: policy });
  expect([200, 201], JSON.stringify(response.body)).toContain(response.status);
  return manager;
}

interface Child {
  profileId: string;
  own: Headers;
  ownPublic: Headers;
}

async function newChild(manager: Profile, customerType: CustomerType, marker = ""): Promise<Child> {
  const created = await t.request("POST", "/v1/managed-profiles", {
    headers: manager.secret,
    body: { externalSubjectId: `subject-${randomUUID()}`, contactEmail: `child-${randomUUID().slice(0, 8)}${marker}@example.com`, customerType },
  });
  expectStatus(created, 201, "create child");
  const profileId: string = created.body.managedProfile.profileId;
  const key = await t.request("POST", `/v1/managed-profiles/${profileId}/api-credentials`, { headers: manager.secret, body: {} });
  expectStatus(key, 201, "child credential");
  rememberSecret(key.body.secretKey);
  return { profileId, own: { "x-api-key": key.body.secretKey }, ownPublic: { "x-public-key": key.body.publicKey } };
}

const selecting = (headers: Headers, childId: string): Headers => ({ ...headers, "x-managed-profile-id": childId });

/** The ramp-info body with every corridor the same, then the given overrides. */
function eligibility(kycStatus: KycStatus, open: boolean, overrides: Partial<Record<Corridor, { kycStatus: KycStatus; canBuy: boolean; canSell: boolean }>> = {}) {
  return { corridors: { ...Object.fromEntries(CORRIDORS.map((corridor) => [corridor, { kycStatus, canBuy: open, canSell: open }])), ...overrides } };
}
const closed = (kycStatus: KycStatus = "approved") => ({ kycStatus, canBuy: false, canSell: false });

async function rampInfo(headers: Headers, query = "") {
  const response = await t.request("GET", `/v1/ramp-info${query}`, { headers });
  expectStatus(response, 200, "ramp-info");
  return response.body;
}

const limits = (headers: Headers, corridors: unknown) => t.request("POST", "/v1/limits", { headers, body: { corridors } });

/** The limit entries as `corridor direction -> used`. */
async function usedOf(headers: Headers, corridors: Corridor[]): Promise<Record<string, string>> {
  const response = await limits(headers, corridors);
  expectStatus(response, 200, "limits");
  return Object.fromEntries(response.body.limits.map((limit: { corridor: string; direction: string; used: string }) => [`${limit.corridor} ${limit.direction}`, limit.used]));
}

const QUOTES = {
  BUY: { rampType: "BUY", from: "pix", to: "polygon", inputCurrency: "BRL", outputCurrency: "USDC" },
  SELL: { rampType: "SELL", from: "polygon", to: "pix", inputCurrency: "USDC", outputCurrency: "BRL" },
} as const;

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`waitFor: condition not met in ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * A BR ramp for whoever the headers act as: registered, and unless `start` is false started and run to
 * `status`. Returns the quote's amounts.
 */
async function brRamp(headers: Headers, type: "BUY" | "SELL", inputAmount: string, options: { start?: boolean; status?: string } = {}) {
  const quote = await t.request("POST", "/v1/quotes", { headers, body: { ...QUOTES[type], inputAmount } });
  expectStatus(quote, 201, "quote");
  const body = type === "BUY" ? { quoteId: quote.body.id, destinationAddress: WALLET } : { quoteId: quote.body.id, additionalData: { walletAddress: WALLET } };
  const ramp = await t.request("POST", "/v1/ramp/register", { headers, body });
  expectStatus(ramp, 201, "register");
  if (options.start !== false) {
    if (type === "SELL") expectStatus(await t.request("POST", "/v1/ramp/update", { headers, body: { rampId: ramp.body.id, presignedTxs: [{ signed: "0x01" }] } }), 200);
    expectStatus(await t.request("POST", "/v1/ramp/start", { headers, body: { rampId: ramp.body.id } }), 200, "start");
    const status = options.status ?? "COMPLETE";
    await waitFor(
      () => t.request("GET", `/v1/ramp/${ramp.body.id}`, { headers }),
      (read) => read.body.status === status,
    );
  }
  return { inputAmount: quote.body.inputAmount as string, outputAmount: quote.body.outputAmount as string };
}

// ---------------------------------------------------------------------------------------------------------

describe("GET /v1/ramp-info", () => {
  it("public and secret keys -> 200 with exactly the corridors and, per corridor, kycStatus, canBuy, canSell", async () => {
    const profile = await newProfile();
    for (const headers of [profile.publicKey, profile.secret, { ...profile.publicKey, ...profile.secret }]) {
      const response = await t.request("GET", "/v1/ramp-info", { headers });
      expectStatus(response, 200);
      expect(response.body).toEqual(eligibility("approved", true));
      expect(Object.keys(response.body)).toEqual(["corridors"]);
      expect(Object.keys(response.body.corridors).sort()).toEqual(CORRIDORS);
      for (const entry of Object.values(response.body.corridors)) expect(Object.keys(entry as object).sort()).toEqual(["canBuy", "canSell", "kycStatus"]);
    }
  });

  it("a session -> 403 FORBIDDEN; no key -> 401 CREDENTIAL_REQUIRED; an unknown public key -> 401 INVALID_PUBLIC_KEY", async () => {
    const profile = await newProfile();
    expectRestError(await t.request("GET", "/v1/ramp-info", { headers: profile.session }), 403, "FORBIDDEN");
    expectRestError(await t.request("GET", "/v1/ramp-info"), 401, "CREDENTIAL_REQUIRED");
    for (const selector of [profile.profileId, "not-a-uuid"]) {
      expectRestError(await t.request("GET", "/v1/ramp-info", { headers: { "x-managed-profile-id": selector } }), 401, "CREDENTIAL_REQUIRED");
    }
    expectRestError(await t.request("GET", "/v1/ramp-info", { headers: { "x-public-key": `pk_test_${"A".repeat(32)}` } }), 401, "INVALID_PUBLIC_KEY");
  });

  it("the sandbox's KYC markers in the email set kycStatus, and only approved corridors can buy and sell", async () => {
    for (const [marker, kycStatus] of [
      ["+kyc-none", "not_started"],
      ["+kyc-pending", "pending"],
      ["+kyc-rejected", "rejected"],
    ] as const) {
      const profile = await newProfile(marker);
      expect(await rampInfo(profile.publicKey), marker).toEqual(eligibility(kycStatus, false));
      expect(await rampInfo(profile.secret), marker).toEqual(eligibility(kycStatus, false));
    }
  });

  it("a manager's secret key + selector gives the child's view: policy corridors only, EU never, AR not for a business", async () => {
    const manager = await newManager({ allowedCorridors: ["AR", "BR", "EU", "MX"], isActive: true });
    const individual = await newChild(manager, "individual");
    const business = await newChild(manager, "business");
    const pending = await newChild(manager, "individual", "+kyc-pending");

    const individualView = eligibility("approved", true, { CO: closed(), EU: closed(), US: closed() });
    expect(await rampInfo(selecting(manager.secret, individual.profileId))).toEqual(individualView);
    expect(await rampInfo(individual.own)).toEqual(individualView);
    expect(await rampInfo(individual.ownPublic)).toEqual(individualView);

    const businessView = eligibility("approved", true, { AR: closed(), CO: closed(), EU: closed(), US: closed() });
    expect(await rampInfo(selecting(manager.secret, business.profileId))).toEqual(businessView);
    expect(await rampInfo(business.ownPublic)).toEqual(businessView);

    // The child's KYC follows its contact email.
    expect(await rampInfo(selecting(manager.secret, pending.profileId))).toEqual(eligibility("pending", false));

    // The manager itself is a direct profile: every corridor, EU included.
    expect(await rampInfo(manager.secret)).toEqual(eligibility("approved", true));

    // The view follows the manager's current policy.
    const tightened = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, { headers: t.operatorHeaders, body: { allowedCorridors: ["MX"], isActive: true } });
    expectStatus(tightened, 200);
    expect(await rampInfo(individual.own)).toEqual(eligibility("approved", false, { MX: { kycStatus: "approved", canBuy: true, canSell: true } }));
  });

  it("a public key with a selector -> 401 AUTHENTICATION_REQUIRED; a session with one -> 403 FORBIDDEN; other selector rows as everywhere", async () => {
    const manager = await newManager({ allowedCorridors: ["BR"], isActive: true });
    const child = await newChild(manager, "individual");
    expectRestError(await t.request("GET", "/v1/ramp-info", { headers: selecting(manager.publicKey, child.profileId) }), 401, "AUTHENTICATION_REQUIRED");
    expectRestError(await t.request("GET", "/v1/ramp-info", { headers: selecting(manager.session, child.profileId) }), 403, "FORBIDDEN");
    expectRestError(await t.request("GET", "/v1/ramp-info", { headers: selecting(manager.secret, "not-a-uuid") }), 400, "INVALID_MANAGED_PROFILE_ID");
    expectRestError(await t.request("GET", "/v1/ramp-info", { headers: selecting(child.ownPublic, child.profileId) }), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    const other = await newManager({ allowedCorridors: ["BR"], isActive: true });
    expectRestError(await t.request("GET", "/v1/ramp-info", { headers: selecting(other.secret, child.profileId) }), 403, "MANAGED_PROFILE_ACCESS_DENIED");
  });

  it("query parameters never change the subject", async () => {
    const approved = await newProfile();
    const pending = await newProfile("+kyc-pending");
    const manager = await newManager({ allowedCorridors: ["BR"], isActive: true });
    const child = await newChild(manager, "business", "+kyc-rejected");
    const queries = [
      `?profileId=${pending.profileId}`,
      `?userId=${pending.profileId}`,
      `?managedProfileId=${child.profileId}`,
      `?x-managed-profile-id=${child.profileId}&profile_id=${pending.profileId}&subject=${child.profileId}`,
    ];
    for (const query of queries) {
      expect(await rampInfo(approved.publicKey, query), query).toEqual(eligibility("approved", true));
      expect(await rampInfo(approved.secret, query), query).toEqual(eligibility("approved", true));
      expect(await rampInfo(manager.secret, query), query).toEqual(eligibility("approved", true));
      expect(await rampInfo(pending.secret, `?profileId=${approved.profileId}`), query).toEqual(eligibility("pending", false));
    }
  });
});

describe("POST /v1/limits", () => {
  it("both directions of each requested corridor: max and used as decimal strings with the fiat's digits, the current UTC month", async () => {
    const profile = await newProfile();
    const before = new Date();
    const response = await limits(profile.secret, ["BR", "US"]);
    const after = new Date();
    expectStatus(response, 200);
    expect(Object.keys(response.body)).toEqual(["limits"]);
    const month = (at: Date) => ({
      type: "calendar_month",
      startsAt: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)).toISOString(),
      endsAt: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)).toISOString(),
    });
    const period = response.body.limits[0].period;
    // The month of the request (one of the two, should the request straddle a month boundary).
    expect([month(before), month(after)]).toContainEqual(period);
    expect(period.startsAt).toMatch(/^\d{4}-\d{2}-01T00:00:00\.000Z$/);
    expect(response.body.limits).toEqual([
      { corridor: "BR", currency: "BRL", direction: "BUY", max: "50000.00", used: "0.00", period },
      { corridor: "BR", currency: "BRL", direction: "SELL", max: "50000.00", used: "0.00", period },
      { corridor: "US", currency: "USD", direction: "BUY", max: "10000.00", used: "0.00", period },
      { corridor: "US", currency: "USD", direction: "SELL", max: "10000.00", used: "0.00", period },
    ]);
    // A session gets the same.
    const bySession = await limits(profile.session, ["BR", "US"]);
    expectStatus(bySession, 200);
    expect(bySession.body).toEqual(response.body);
  });

  it("used grows with completed ramps in that corridor and direction only", async () => {
    const profile = await newProfile();
    // Neither a ramp never started nor a failed one counts.
    await brRamp(profile.secret, "BUY", "70", { start: false });
    await brRamp(profile.secret, "BUY", "80.66", { status: "FAILED" });
    expect(await usedOf(profile.secret, ["BR", "US"])).toEqual({ "BR BUY": "0.00", "BR SELL": "0.00", "US BUY": "0.00", "US SELL": "0.00" });

    await brRamp(profile.secret, "BUY", "100.5");
    expect(await usedOf(profile.secret, ["BR", "US"])).toEqual({ "BR BUY": "100.50", "BR SELL": "0.00", "US BUY": "0.00", "US SELL": "0.00" });

    await brRamp(profile.session, "BUY", "200");
    const sell = await brRamp(profile.secret, "SELL", "50");
    expect(sell.outputAmount).toMatch(/^\d+\.\d{2}$/);
    expect(await usedOf(profile.session, ["US", "BR"])).toEqual({ "BR BUY": "300.50", "BR SELL": sell.outputAmount, "US BUY": "0.00", "US SELL": "0.00" });
  });

  it("invalid corridor lists -> 400 VALIDATION_FAILED", async () => {
    const profile = await newProfile();
    const bodies: unknown[] = [
      { corridors: ["EU"] },
      { corridors: ["BR", "BR"] },
      { corridors: [] },
      { corridors: ["BR"], extra: true },
      { corridors: ["XX"] },
      { corridors: ["br"] },
      { corridors: "BR" },
      {},
    ];
    for (const body of bodies) {
      expectRestError(await t.request("POST", "/v1/limits", { headers: profile.secret, body }), 400, "VALIDATION_FAILED", JSON.stringify(body));
    }
    expectRestError(await t.request("POST", "/v1/limits", { headers: profile.secret, rawBody: "{" }), 400, "INVALID_JSON");
  });

  it("a public key -> 403 FORBIDDEN; no credential -> 401 AUTHENTICATION_REQUIRED", async () => {
    const profile = await newProfile();
    expectRestError(await limits(profile.publicKey, ["BR"]), 403, "FORBIDDEN");
    expectRestError(await limits({}, ["BR"]), 401, "AUTHENTICATION_REQUIRED");
  });

  it("under delegation: the child's own use, and a corridor outside the manager's policy -> 403", async () => {
    const manager = await newManager({ allowedCorridors: ["BR", "MX"], isActive: true });
    const child = await newChild(manager, "business");
    const acting = selecting(manager.secret, child.profileId);
    for (const headers of [acting, selecting(manager.session, child.profileId), child.own]) {
      expectRestError(await limits(headers, ["US"]), 403, "MANAGED_PROFILE_ACCESS_DENIED", "US");
      expectRestError(await limits(headers, ["BR", "US"]), 403, "MANAGED_PROFILE_ACCESS_DENIED", "BR+US");
      expectRestError(await limits(headers, ["AR"]), 403, "MANAGED_PROFILE_ACCESS_DENIED", "AR for a business");
    }
    await brRamp(acting, "BUY", "120");
    expect(await usedOf(acting, ["BR", "MX"])).toEqual({ "BR BUY": "120.00", "BR SELL": "0.00", "MX BUY": "0.00", "MX SELL": "0.00" });
    expect(await usedOf(child.own, ["BR"])).toEqual({ "BR BUY": "120.00", "BR SELL": "0.00" });
    // The manager's own limits count its own ramps, not its child's (and its own policy does not bind it).
    expect(await usedOf(manager.secret, ["BR", "US"])).toEqual({ "BR BUY": "0.00", "BR SELL": "0.00", "US BUY": "0.00", "US SELL": "0.00" });
  });
});

describe("GET /v1/onboarding/status", () => {
  const account = (country: Corridor, customerType: CustomerType, state: "pending" | "approved" | "rejected") => ({
    id: expect.stringMatching(UUID),
    provider: "sandbox",
    country,
    customerType,
    rail: null,
    companyName: null,
    taxReference: null,
    status: state,
    state,
    statusExternal: null,
    error: null,
    kycCase: null,
  });

  it("a direct profile: one active individual entity with an account per corridor", async () => {
    const profile = await newProfile();
    const response = await t.request("GET", "/v1/onboarding/status", { headers: profile.secret });
    expectStatus(response, 200);
    const entityId = response.body.activeEntityId;
    expect(entityId).toMatch(UUID);
    expect(response.body).toEqual({
      activeEntityId: entityId,
      selectionRequired: false,
      roles: [],
      entities: [{ id: entityId, type: "individual", status: "active", accounts: CORRIDORS.map((corridor) => account(corridor, "individual", "approved")) }],
    });
    // Stable ids, and the same through the session.
    const again = await t.request("GET", "/v1/onboarding/status", { headers: profile.session });
    expectStatus(again, 200);
    expect(again.body).toEqual(response.body);

    const pending = await newProfile("+kyc-pending");
    const pendingStatus = await t.request("GET", "/v1/onboarding/status", { headers: pending.secret });
    expect(pendingStatus.body.entities[0].accounts).toEqual(CORRIDORS.map((corridor) => account(corridor, "individual", "pending")));
    // Not started: no provider account yet.
    const none = await newProfile("+kyc-none");
    const noneStatus = await t.request("GET", "/v1/onboarding/status", { headers: none.session });
    expect(noneStatus.body.entities[0].accounts).toEqual([]);
  });

  it("a child through the selector or its own key: its entity, the managed role, the corridors children may use", async () => {
    const manager = await newManager({ allowedCorridors: ["BR", "US"], isActive: true });
    const business = await newChild(manager, "business");
    const individual = await newChild(manager, "individual", "+kyc-rejected");
    const entityOf = async (profileId: string) => (await t.app.db.customerEntity.findFirstOrThrow({ where: { profileId } })).id;

    const businessEntity = await entityOf(business.profileId);
    const businessView = {
      activeEntityId: businessEntity,
      selectionRequired: false,
      roles: ["managed_profile"],
      entities: [{ id: businessEntity, type: "business", status: "active", accounts: (["BR", "CO", "MX", "US"] as const).map((corridor) => account(corridor, "business", "approved")) }],
    };
    for (const headers of [selecting(manager.secret, business.profileId), selecting(manager.session, business.profileId), business.own]) {
      const response = await t.request("GET", "/v1/onboarding/status", { headers });
      expectStatus(response, 200);
      expect(response.body).toEqual(businessView);
    }

    const individualEntity = await entityOf(individual.profileId);
    const individualStatus = await t.request("GET", "/v1/onboarding/status", { headers: selecting(manager.secret, individual.profileId) });
    expectStatus(individualStatus, 200);
    expect(individualStatus.body).toEqual({
      activeEntityId: individualEntity,
      selectionRequired: false,
      roles: ["managed_profile"],
      entities: [{ id: individualEntity, type: "individual", status: "active", accounts: (["AR", "BR", "CO", "MX", "US"] as const).map((corridor) => account(corridor, "individual", "rejected")) }],
    });

    // The manager's own status is its own.
    const own = await t.request("GET", "/v1/onboarding/status", { headers: manager.secret });
    expect(own.body.roles).toEqual([]);
    expect(own.body.activeEntityId).not.toBe(businessEntity);
  });

  it("a public key -> 403 FORBIDDEN; no credential -> 401; selector rows as everywhere", async () => {
    const manager = await newManager({ allowedCorridors: ["BR"], isActive: true });
    const child = await newChild(manager, "individual");
    expectRestError(await t.request("GET", "/v1/onboarding/status", { headers: manager.publicKey }), 403, "FORBIDDEN");
    expectRestError(await t.request("GET", "/v1/onboarding/status"), 401, "AUTHENTICATION_REQUIRED");
    expectRestError(await t.request("GET", "/v1/onboarding/status", { headers: selecting(manager.publicKey, child.profileId) }), 401, "AUTHENTICATION_REQUIRED");
    expectRestError(await t.request("GET", "/v1/onboarding/status", { headers: selecting(manager.secret, "nope") }), 400, "INVALID_MANAGED_PROFILE_ID");
    expectRestError(await t.request("GET", "/v1/onboarding/status", { headers: selecting(child.own, child.profileId) }), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    const other = await newManager({ allowedCorridors: ["BR"], isActive: true });
    expectRestError(await t.request("GET", "/v1/onboarding/status", { headers: selecting(other.secret, child.profileId) }), 403, "MANAGED_PROFILE_ACCESS_DENIED");
  });
});

describe("GET /v1/onboarding/requirements", () => {
  it("anonymous -> 200 with the flow, ordered non-GET steps and Cache-Control", async () => {
    const response = await t.request("GET", "/v1/onboarding/requirements?country=BR&customerType=individual");
    expectStatus(response, 200);
    expect(response.headers["cache-control"]).toMatch(/max-age=\d+/);
    expect(response.body).toMatchObject({ country: "BR", customerType: "individual", provider: expect.any(String), flow: expect.any(String), mode: "api", requirementsVersion: expect.any(String) });
    expect(Object.keys(response.body).sort()).toEqual(["country", "customerType", "documentationUrl", "documents", "flow", "mode", "openapiUrl", "provider", "requirementsVersion", "steps"]);
    expect(() => new URL(response.body.documentationUrl)).not.toThrow();
    expect(() => new URL(response.body.openapiUrl)).not.toThrow();
    expect(response.body.documents.length).toBeGreaterThan(0);
    for (const document of response.body.documents) {
      expect(document).toEqual({ type: expect.any(String), required: expect.any(Boolean), collection: expect.stringMatching(/^(direct-upload|hosted)$/), acceptedMediaTypes: expect.any(Array), description: expect.any(String) });
    }
    const steps: { order: number; method: string; path: string }[] = response.body.steps;
    expect(steps.map((step) => step.order)).toEqual(steps.map((_, index) => index + 1));
    for (const step of steps) {
      expect(["POST", "PUT"]).toContain(step.method);
      expect(step.path).toMatch(/^\/v1\//);
    }
  });

  it("every offered country and customer type answers; AR business -> 404 NOT_FOUND", async () => {
    for (const country of ["AR", "BR", "CO", "MX", "US"]) {
      for (const customerType of ["individual", "business"]) {
        const response = await t.request("GET", `/v1/onboarding/requirements?country=${country}&customerType=${customerType}`);
        if (country === "AR" && customerType === "business") {
          expectRestError(response, 404, "NOT_FOUND", "AR business");
          continue;
        }
        expectStatus(response, 200, `${country} ${customerType}`);
        expect({ country: response.body.country, customerType: response.body.customerType }).toEqual({ country, customerType });
        expect(response.headers["cache-control"]).toMatch(/max-age=\d+/);
      }
    }
  });

  it("a bad or missing country or customer type -> 400 VALIDATION_FAILED", async () => {
    for (const query of ["country=XX&customerType=individual", "country=EU&customerType=individual", "country=br&customerType=individual", "customerType=individual", "country=BR", "country=BR&customerType=person", ""]) {
      expectRestError(await t.request("GET", `/v1/onboarding/requirements?${query}`), 400, "VALIDATION_FAILED", query);
    }
  });

  it("keys and sessions may ask too; a presented credential must be valid", async () => {
    const profile = await newProfile();
    for (const headers of [profile.publicKey, profile.secret, profile.session]) {
      expectStatus(await t.request("GET", "/v1/onboarding/requirements?country=MX&customerType=business", { headers }), 200);
    }
    expectRestError(await t.request("GET", "/v1/onboarding/requirements?country=MX&customerType=business", { headers: { "x-public-key": `pk_test_${"B".repeat(32)}` } }), 401, "INVALID_PUBLIC_KEY");
  });
});
