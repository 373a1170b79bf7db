import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Corridor, CustomerType } from "../../src/reference-data/corridors.js";
import { startTestApp, type HttpResponse, type TestApp, type SignedInProfile } from "../support/app.js";
import { rememberSecret } from "../support/secrets.js";
import { PIX_KEY, signedTxs, waitFor } from "../support/kit.js";
import { randomCnpj } from "../support/kyc.js";

/**
 * Ramp eligibility, limits and onboarding (CONTRACT.md, Ramp domain; issue 4 item 7): GET /v1/ramp-info,
 * POST /v1/limits, GET /v1/onboarding/status and GET /v1/onboarding/requirements, directly and for managed
 * children, on the project's engine.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(
    { RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" },
    { workers: true },
  );
});
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------------------
// Helpers

type Headers = Record<string, string>;
type KycStatus = "not_started" | "pending" | "approved" | "rejected";
type Eligibility = { kycStatus: KycStatus; canBuy: boolean; canSell: boolean };
type Policy = { allowedCorridors: Corridor[]; allowedCustomerTypes?: CustomerType[] | null; isActive: boolean };

const CORRIDORS: Corridor[] = ["AR", "BR", "CO", "EU", "MX", "US"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const WALLET = "0x2222222222222222222222222222222222222222";

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

async function newManager(policy: Policy): Promise<SignedInProfile> {
  const manager = await t.newProfile();
  const response = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
    headers: t.operatorHeaders,
    body: policy,
  });
  expect([200, 201], JSON.stringify(response.body)).toContain(response.status);
  return manager;
}

interface Child {
  profileId: string;
  own: Headers;
  ownPublic: Headers;
}

/** A managed child with its own keys. */
async function newChild(manager: SignedInProfile, customerType: CustomerType): Promise<Child> {
  const created = await t.request("POST", "/v1/managed-profiles", {
    headers: manager.secret,
    body: {
      externalSubjectId: `subject-${randomUUID()}`,
      contactEmail: `child-${randomUUID().slice(0, 8)}@example.com`,
      customerType,
    },
  });
  expectStatus(created, 201, "create child");
  const profileId: string = created.body.managedProfile.profileId;
  const key = await t.request("POST", `/v1/managed-profiles/${profileId}/api-credentials`, {
    headers: manager.secret,
    body: {},
  });
  expectStatus(key, 201, "child credential");
  rememberSecret(key.body.secretKey);
  return { profileId, own: { "x-api-key": key.body.secretKey }, ownPublic: { "x-public-key": key.body.publicKey } };
}

const selecting = (headers: Headers, childId: string): Headers => ({ ...headers, "x-managed-profile-id": childId });

/** The ramp-info body with every corridor the same, then the given overrides. */
function eligibility(kycStatus: KycStatus, open: boolean, overrides: Partial<Record<Corridor, Eligibility>> = {}) {
  return {
    corridors: {
      ...Object.fromEntries(CORRIDORS.map((corridor) => [corridor, { kycStatus, canBuy: open, canSell: open }])),
      ...overrides,
    },
  };
}
const closed = (kycStatus: KycStatus = "approved"): Eligibility => ({ kycStatus, canBuy: false, canSell: false });
const OPEN: Eligibility = { kycStatus: "approved", canBuy: true, canSell: true };
/** A subject without any case: nothing started anywhere, except EU for a direct profile (its login email is the verification). */
const directWithoutCases = eligibility("not_started", false, { EU: OPEN });

// KYC cases through the real flows. The partner decides a finished attempt at once, and `t`'s workers observe its
// decision a few reconciliation passes later.

const KYC_FORM = {
  firstName: "Ana",
  lastName: "Souza",
  dateOfBirth: "1990-04-12",
  documentType: "NATIONAL_ID",
  documentNumber: "12345678",
};

/** KYC information given in a domestic corridor but not sent for review: the case is pending. Returns the submission. */
async function kycSubmittedNotSent(headers: Headers, country: Corridor, lastName = KYC_FORM.lastName): Promise<string> {
  expectStatus(
    await t.request("POST", "/v1/domestic/createIndividualCustomer", { headers, body: { country } }),
    200,
    `create customer ${country}`,
  );
  const submitted = await t.request("POST", "/v1/domestic/submitKycInformation", {
    headers,
    body: { ...KYC_FORM, country, lastName },
  });
  expectStatus(submitted, 200, `submit ${country}`);
  return submitted.body.submissionId;
}

/** A KYC in a domestic corridor that the partner rejects (the submitted name contains "reject"), once decided. */
async function kycRejected(headers: Headers, country: Corridor): Promise<void> {
  const submissionId = await kycSubmittedNotSent(headers, country, "Rejected");
  expectStatus(
    await t.request("POST", "/v1/domestic/sendKycSubmission", { headers, body: { country, submissionId } }),
    200,
    `send ${country}`,
  );
  const decided = await waitFor(
    () => t.request("GET", `/v1/domestic/getKycStatus?country=${country}`, { headers }),
    (read) => read.body.status !== "VERIFYING",
    `the partner's ${country} decision`,
  );
  expect(decided.body.status).toBe("FAILED");
}

/**
 * Runs `work` while the partner takes ten minutes to decide what it is sent meanwhile: those cases stay under way
 * (pending to the reference), however often the reconciler asks.
 */
async function whileThePartnerDeliberates<T>(work: () => Promise<T>): Promise<T> {
  t.partners.simulator.setTiming({ kycDecisionMs: 600_000 });
  try {
    return await work();
  } finally {
    t.partners.simulator.setTiming({ kycDecisionMs: 0 });
  }
}

/**
 * A business's hosted KYB link opened and not decided: the case is pending. The partner's hosted flow counts as
 * finished at once, so it decides slowly here.
 */
async function kybLinkOpened(headers: Headers, country: Corridor): Promise<void> {
  expectStatus(
    await t.request("POST", "/v1/domestic/createBusinessCustomer", { headers, body: { country } }),
    200,
    `create business ${country}`,
  );
  await whileThePartnerDeliberates(async () => {
    expectStatus(
      await t.request("GET", `/v1/domestic/getKybRedirectLink?country=${country}`, { headers }),
      200,
      `KYB link ${country}`,
    );
    expectStatus(
      await t.request("POST", "/v1/domestic/kycRedirectOpened", { headers, body: { country, type: "BUSINESS" } }),
      200,
      `KYB link opened ${country}`,
    );
  });
}

async function rampInfo(headers: Headers, query = "") {
  const response = await t.request("GET", `/v1/ramp-info${query}`, { headers });
  expectStatus(response, 200, "ramp-info");
  return response.body;
}

const limits = (headers: Headers, corridors: unknown) =>
  t.request("POST", "/v1/limits", { headers, body: { corridors } });

/** The limit entries as `corridor direction -> used`. */
async function usedOf(headers: Headers, corridors: Corridor[]): Promise<Record<string, string>> {
  const response = await limits(headers, corridors);
  expectStatus(response, 200, "limits");
  return Object.fromEntries(
    response.body.limits.map((limit: { corridor: string; direction: string; used: string }) => [
      `${limit.corridor} ${limit.direction}`,
      limit.used,
    ]),
  );
}

const QUOTES = {
  BUY: { rampType: "BUY", from: "pix", to: "polygon", inputCurrency: "BRL", outputCurrency: "USDC" },
  SELL: { rampType: "SELL", from: "polygon", to: "pix", inputCurrency: "USDC", outputCurrency: "BRL" },
} as const;

/**
 * A BR ramp for whoever the headers act as: registered, and unless `start` is false started and run to
 * `status`. Returns the quote's amounts.
 */
async function brRamp(
  headers: Headers,
  type: "BUY" | "SELL",
  inputAmount: string,
  options: { start?: boolean; status?: string } = {},
) {
  const quote = await t.request("POST", "/v1/quotes", { headers, body: { ...QUOTES[type], inputAmount } });
  expectStatus(quote, 201, "quote");
  const body =
    type === "BUY"
      ? { quoteId: quote.body.id, destinationAddress: WALLET }
      : { quoteId: quote.body.id, additionalData: { walletAddress: WALLET, pixDestination: PIX_KEY } };
  const ramp = await t.request("POST", "/v1/ramp/register", { headers, body });
  expectStatus(ramp, 201, "register");
  if (options.start !== false) {
    if (type === "SELL")
      expectStatus(
        await t.request("POST", "/v1/ramp/update", {
          headers,
          body: { rampId: ramp.body.id, presignedTxs: signedTxs(ramp.body.unsignedTxs) },
        }),
        200,
      );
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
    const profile = await t.newProfile();
    await t.completeKyc(profile.secret, ["BR"]);
    for (const headers of [profile.publicKey, profile.secret, { ...profile.publicKey, ...profile.secret }]) {
      const response = await t.request("GET", "/v1/ramp-info", { headers });
      expectStatus(response, 200);
      expect(response.body).toEqual(eligibility("not_started", false, { BR: OPEN, EU: OPEN }));
      expect(Object.keys(response.body)).toEqual(["corridors"]);
      expect(Object.keys(response.body.corridors).sort()).toEqual(CORRIDORS);
      for (const entry of Object.values(response.body.corridors))
        expect(Object.keys(entry as object).sort()).toEqual(["canBuy", "canSell", "kycStatus"]);
    }
  });

  it("a session -> 403 FORBIDDEN; no key -> 401 CREDENTIAL_REQUIRED; an unknown public key -> 401 INVALID_PUBLIC_KEY", async () => {
    const profile = await t.newProfile();
    expectRestError(await t.request("GET", "/v1/ramp-info", { headers: profile.session }), 403, "FORBIDDEN");
    expectRestError(await t.request("GET", "/v1/ramp-info"), 401, "CREDENTIAL_REQUIRED");
    for (const selector of [profile.profileId, "not-a-uuid"]) {
      expectRestError(
        await t.request("GET", "/v1/ramp-info", { headers: { "x-managed-profile-id": selector } }),
        401,
        "CREDENTIAL_REQUIRED",
      );
    }
    expectRestError(
      await t.request("GET", "/v1/ramp-info", { headers: { "x-public-key": `pk_test_${"A".repeat(32)}` } }),
      401,
      "INVALID_PUBLIC_KEY",
    );
  });

  it("each corridor's KYC case sets its kycStatus, and only approved corridors can buy and sell", async () => {
    const profile = await t.newProfile();
    expect(await rampInfo(profile.publicKey)).toEqual(directWithoutCases);
    // AR: a customer without a submission has not started; BR approved; MX given but not sent; CO rejected.
    expectStatus(
      await t.request("POST", "/v1/ar/createIndividualCustomer", { headers: profile.secret, body: {} }),
      200,
    );
    await t.completeKyc(profile.secret, ["BR"]);
    await kycSubmittedNotSent(profile.secret, "MX");
    await kycRejected(profile.secret, "CO");
    const expected = eligibility("not_started", false, {
      BR: OPEN,
      CO: closed("rejected"),
      EU: OPEN,
      MX: closed("pending"),
    });
    expect(await rampInfo(profile.publicKey)).toEqual(expected);
    expect(await rampInfo(profile.secret)).toEqual(expected);
  });

  it("a manager's secret key + selector gives the child's view: policy corridors only, EU never, AR not for a business", async () => {
    const manager = await newManager({ allowedCorridors: ["AR", "BR", "EU", "MX"], isActive: true });
    const individual = await newChild(manager, "individual");
    const business = await newChild(manager, "business");
    const pending = await newChild(manager, "individual");
    // Approved in every policy corridor a child may use: through the selector, and with the child's own key.
    await t.completeKyc(selecting(manager.secret, individual.profileId), ["AR", "BR"]);
    await t.completeKyc(individual.own, ["MX"]);
    await t.completeKyc(selecting(manager.secret, business.profileId), ["BR", "MX"], "business");

    const individualView = eligibility("not_started", false, { AR: OPEN, BR: OPEN, MX: OPEN });
    expect(await rampInfo(selecting(manager.secret, individual.profileId))).toEqual(individualView);
    expect(await rampInfo(individual.own)).toEqual(individualView);
    expect(await rampInfo(individual.ownPublic)).toEqual(individualView);

    // AR is closed to a business child: it cannot even start KYB there, though the policy lists AR.
    expectRestError(
      await t.request("POST", "/v1/ar/createBusinessCustomer", {
        headers: selecting(manager.secret, business.profileId),
        body: {},
      }),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    const businessView = eligibility("not_started", false, { BR: OPEN, MX: OPEN });
    expect(await rampInfo(selecting(manager.secret, business.profileId))).toEqual(businessView);
    expect(await rampInfo(business.ownPublic)).toEqual(businessView);

    // The child's KYC is its own: a hosted link opened (the partner deciding slowly) is pending, and only there.
    expectStatus(await t.request("POST", "/v1/mx/createIndividualCustomer", { headers: pending.own, body: {} }), 200);
    await whileThePartnerDeliberates(async () => {
      expectStatus(await t.request("GET", "/v1/mx/getKycRedirectLink", { headers: pending.own }), 200);
      expectStatus(await t.request("POST", "/v1/mx/kycRedirectOpened", { headers: pending.own, body: {} }), 200);
    });
    expect(await rampInfo(selecting(manager.secret, pending.profileId))).toEqual(
      eligibility("not_started", false, { MX: closed("pending") }),
    );

    // The manager itself is a direct profile: EU is open to it without a case, the others need KYC of its own.
    expect(await rampInfo(manager.secret)).toEqual(directWithoutCases);

    // The view follows the manager's current policy: approved corridors outside it close.
    const tightened = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
      headers: t.operatorHeaders,
      body: { allowedCorridors: ["MX"], isActive: true },
    });
    expectStatus(tightened, 200);
    expect(await rampInfo(individual.own)).toEqual(
      eligibility("not_started", false, { AR: closed(), BR: closed(), MX: OPEN }),
    );
  });

  it("a public key with a selector -> 401 AUTHENTICATION_REQUIRED; a session with one -> 403 FORBIDDEN; other selector rows as everywhere", async () => {
    const manager = await newManager({ allowedCorridors: ["BR"], isActive: true });
    const child = await newChild(manager, "individual");
    expectRestError(
      await t.request("GET", "/v1/ramp-info", { headers: selecting(manager.publicKey, child.profileId) }),
      401,
      "AUTHENTICATION_REQUIRED",
    );
    expectRestError(
      await t.request("GET", "/v1/ramp-info", { headers: selecting(manager.session, child.profileId) }),
      403,
      "FORBIDDEN",
    );
    expectRestError(
      await t.request("GET", "/v1/ramp-info", { headers: selecting(manager.secret, "not-a-uuid") }),
      400,
      "INVALID_MANAGED_PROFILE_ID",
    );
    expectRestError(
      await t.request("GET", "/v1/ramp-info", { headers: selecting(child.ownPublic, child.profileId) }),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    const other = await newManager({ allowedCorridors: ["BR"], isActive: true });
    expectRestError(
      await t.request("GET", "/v1/ramp-info", { headers: selecting(other.secret, child.profileId) }),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
  });

  it("query parameters never change the subject", async () => {
    // Four subjects with different views: BR approved, MX pending, no case at all, and a child whose KYB was rejected.
    const approved = await t.newProfile();
    await t.completeKyc(approved.secret, ["BR"]);
    const pending = await t.newProfile();
    await kycSubmittedNotSent(pending.secret, "MX");
    const manager = await newManager({ allowedCorridors: ["BR"], isActive: true });
    const child = await newChild(manager, "business");
    // Avenia rejects the hosted KYB of a company whose name contains "reject".
    const asChild = selecting(manager.secret, child.profileId);
    const subaccount = await t.request("POST", "/v1/brl/createSubaccount", {
      headers: asChild,
      body: { accountType: "COMPANY", name: "Rejected Ltda", taxId: randomCnpj() },
    });
    expectStatus(subaccount, 200, "create subaccount");
    const hostedKyb = `/v1/brl/kyb/new-level-1/web-sdk?subAccountId=${subaccount.body.subAccountId}`;
    expectStatus(await t.request("POST", hostedKyb, { headers: asChild }), 200, "hosted KYB");
    await waitFor(
      () => rampInfo(child.own),
      (view) => view.corridors.BR.kycStatus !== "pending",
      "the partner's BR decision",
    );
    expect(await rampInfo(child.own)).toEqual(eligibility("not_started", false, { BR: closed("rejected") }));
    const approvedView = eligibility("not_started", false, { BR: OPEN, EU: OPEN });
    const queries = [
      `?profileId=${pending.profileId}`,
      `?userId=${pending.profileId}`,
      `?managedProfileId=${child.profileId}`,
      `?x-managed-profile-id=${child.profileId}&profile_id=${pending.profileId}&subject=${child.profileId}`,
    ];
    for (const query of queries) {
      expect(await rampInfo(approved.publicKey, query), query).toEqual(approvedView);
      expect(await rampInfo(approved.secret, query), query).toEqual(approvedView);
      expect(await rampInfo(manager.secret, query), query).toEqual(directWithoutCases);
      expect(await rampInfo(pending.secret, `?profileId=${approved.profileId}`), query).toEqual(
        eligibility("not_started", false, { EU: OPEN, MX: closed("pending") }),
      );
    }
  });
});

describe("POST /v1/limits", () => {
  it("both directions of each requested corridor: max and used as decimal strings with the fiat's digits, the current UTC month", async () => {
    const profile = await t.newProfile();
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
    const profile = await t.newProfile();
    await t.completeKyc(profile.secret, ["BR"]);
    // Neither a ramp never started nor a failed one counts.
    await brRamp(profile.secret, "BUY", "70", { start: false });
    await brRamp(profile.secret, "BUY", "80.66", { status: "FAILED" });
    expect(await usedOf(profile.secret, ["BR", "US"])).toEqual({
      "BR BUY": "0.00",
      "BR SELL": "0.00",
      "US BUY": "0.00",
      "US SELL": "0.00",
    });

    await brRamp(profile.secret, "BUY", "100.5");
    expect(await usedOf(profile.secret, ["BR", "US"])).toEqual({
      "BR BUY": "100.50",
      "BR SELL": "0.00",
      "US BUY": "0.00",
      "US SELL": "0.00",
    });

    await brRamp(profile.session, "BUY", "200");
    const sell = await brRamp(profile.secret, "SELL", "50");
    expect(sell.outputAmount).toMatch(/^\d+\.\d{2}$/);
    expect(await usedOf(profile.session, ["US", "BR"])).toEqual({
      "BR BUY": "300.50",
      "BR SELL": sell.outputAmount,
      "US BUY": "0.00",
      "US SELL": "0.00",
    });
  });

  it("invalid corridor lists -> 400 VALIDATION_FAILED", async () => {
    const profile = await t.newProfile();
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
      expectRestError(
        await t.request("POST", "/v1/limits", { headers: profile.secret, body }),
        400,
        "VALIDATION_FAILED",
        JSON.stringify(body),
      );
    }
    expectRestError(
      await t.request("POST", "/v1/limits", { headers: profile.secret, rawBody: "{" }),
      400,
      "INVALID_JSON",
    );
  });

  it("a public key -> 403 FORBIDDEN; no credential -> 401 AUTHENTICATION_REQUIRED", async () => {
    const profile = await t.newProfile();
    expectRestError(await limits(profile.publicKey, ["BR"]), 403, "FORBIDDEN");
    expectRestError(await limits({}, ["BR"]), 401, "AUTHENTICATION_REQUIRED");
  });

  it("under delegation: the child's own use, and a corridor outside the manager's policy -> 403", async () => {
    const manager = await newManager({ allowedCorridors: ["BR", "MX"], isActive: true });
    const child = await newChild(manager, "business");
    const acting = selecting(manager.secret, child.profileId);
    await t.completeKyc(acting, ["BR"], "business");
    for (const headers of [acting, selecting(manager.session, child.profileId), child.own]) {
      expectRestError(await limits(headers, ["US"]), 403, "MANAGED_PROFILE_ACCESS_DENIED", "US");
      expectRestError(await limits(headers, ["BR", "US"]), 403, "MANAGED_PROFILE_ACCESS_DENIED", "BR+US");
      expectRestError(await limits(headers, ["AR"]), 403, "MANAGED_PROFILE_ACCESS_DENIED", "AR for a business");
    }
    await brRamp(acting, "BUY", "120");
    expect(await usedOf(acting, ["BR", "MX"])).toEqual({
      "BR BUY": "120.00",
      "BR SELL": "0.00",
      "MX BUY": "0.00",
      "MX SELL": "0.00",
    });
    expect(await usedOf(child.own, ["BR"])).toEqual({ "BR BUY": "120.00", "BR SELL": "0.00" });
    // The manager's own limits count its own ramps, not its child's (and its own policy does not bind it).
    expect(await usedOf(manager.secret, ["BR", "US"])).toEqual({
      "BR BUY": "0.00",
      "BR SELL": "0.00",
      "US BUY": "0.00",
      "US SELL": "0.00",
    });
  });
});

describe("GET /v1/onboarding/status", () => {
  const account = (
    id: string,
    country: Corridor,
    customerType: CustomerType,
    state: "pending" | "approved" | "rejected",
  ) => ({
    id,
    // Avenia verifies Brazil's subjects, Alfredpay those of the other corridors.
    provider: country === "BR" ? "avenia" : "alfredpay",
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

  /** The provider customer id of the subject's case: BR's subaccount, a domestic customer's alfred_pay_id. */
  async function providerCustomerId(
    headers: Headers,
    country: Corridor,
    customerType: CustomerType = "individual",
  ): Promise<string> {
    if (country === "BR") {
      const user = await t.request("GET", "/v1/brl/getUser", { headers });
      expectStatus(user, 200, "BR user");
      return user.body.subAccountId;
    }
    const status = await t.request(
      "GET",
      `/v1/domestic/getKycStatus?country=${country}${customerType === "business" ? "&type=BUSINESS" : ""}`,
      { headers },
    );
    expectStatus(status, 200, `${country} status`);
    return status.body.alfred_pay_id;
  }

  const accountsOf = (body: { entities: { accounts: { country: string }[] }[] }) =>
    [...body.entities[0]!.accounts].sort((a, b) => a.country.localeCompare(b.country));

  it("a direct profile: one active individual entity with an account per KYC case under way or decided", async () => {
    const profile = await t.newProfile();
    // No case yet: no provider account, and EU never has one.
    const fresh = await t.request("GET", "/v1/onboarding/status", { headers: profile.secret });
    expectStatus(fresh, 200);
    const entityId = fresh.body.activeEntityId;
    expect(entityId).toMatch(UUID);
    expect(fresh.body).toEqual({
      activeEntityId: entityId,
      selectionRequired: false,
      roles: [],
      entities: [{ id: entityId, type: "individual", status: "active", accounts: [] }],
    });

    // AR: a customer without a submission (not started, no account); BR approved; MX given but not sent (pending);
    // CO rejected; US finished while the partner takes ten minutes to decide (in review: pending to the reference).
    expectStatus(
      await t.request("POST", "/v1/ar/createIndividualCustomer", { headers: profile.secret, body: {} }),
      200,
    );
    await t.completeKyc(profile.secret, ["BR"]);
    await kycSubmittedNotSent(profile.secret, "MX");
    await kycRejected(profile.secret, "CO");
    await whileThePartnerDeliberates(() =>
      t.completeKyc(profile.secret, ["US"], "individual", { awaitDecision: false }),
    );
    expect(
      (await t.request("GET", "/v1/domestic/getKycStatus?country=US", { headers: profile.secret })).body.status,
    ).toBe("VERIFYING");

    const response = await t.request("GET", "/v1/onboarding/status", { headers: profile.secret });
    expectStatus(response, 200);
    expect({
      ...response.body,
      entities: [{ ...response.body.entities[0], accounts: accountsOf(response.body) }],
    }).toEqual({
      activeEntityId: entityId,
      selectionRequired: false,
      roles: [],
      entities: [
        {
          id: entityId,
          type: "individual",
          status: "active",
          accounts: [
            account(await providerCustomerId(profile.secret, "BR"), "BR", "individual", "approved"),
            account(await providerCustomerId(profile.secret, "CO"), "CO", "individual", "rejected"),
            account(await providerCustomerId(profile.secret, "MX"), "MX", "individual", "pending"),
            account(await providerCustomerId(profile.secret, "US"), "US", "individual", "pending"),
          ],
        },
      ],
    });
    // Stable ids, and the same through the session.
    const again = await t.request("GET", "/v1/onboarding/status", { headers: profile.session });
    expectStatus(again, 200);
    expect(again.body).toEqual(response.body);
  });

  it("a child through the selector or its own key: its entity, the managed role, its cases also outside the current policy", async () => {
    const manager = await newManager({ allowedCorridors: ["BR", "MX", "US"], isActive: true });
    const business = await newChild(manager, "business");
    const individual = await newChild(manager, "individual");
    const entityOf = async (profileId: string) =>
      (await t.app.db.customerEntity.findFirstOrThrow({ where: { profileId } })).id;

    // The business child: KYB approved in BR through the selector, a hosted KYB link opened in MX with its own key.
    await t.completeKyc(selecting(manager.secret, business.profileId), ["BR"], "business");
    await kybLinkOpened(business.own, "MX");
    // The individual child: KYC rejected in US (the submitted name contains "reject").
    await kycRejected(individual.own, "US");
    // Status is a read: a corridor the policy no longer allows keeps its account.
    const tightened = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
      headers: t.operatorHeaders,
      body: { allowedCorridors: ["BR", "US"], isActive: true },
    });
    expectStatus(tightened, 200);

    const businessEntity = await entityOf(business.profileId);
    const businessView = {
      activeEntityId: businessEntity,
      selectionRequired: false,
      roles: ["managed_profile"],
      entities: [
        {
          id: businessEntity,
          type: "business",
          status: "active",
          accounts: [
            account(await providerCustomerId(business.own, "BR", "business"), "BR", "business", "approved"),
            account(await providerCustomerId(business.own, "MX", "business"), "MX", "business", "pending"),
          ],
        },
      ],
    };
    for (const headers of [
      selecting(manager.secret, business.profileId),
      selecting(manager.session, business.profileId),
      business.own,
    ]) {
      const response = await t.request("GET", "/v1/onboarding/status", { headers });
      expectStatus(response, 200);
      expect({
        ...response.body,
        entities: [{ ...response.body.entities[0], accounts: accountsOf(response.body) }],
      }).toEqual(businessView);
    }

    const individualEntity = await entityOf(individual.profileId);
    const individualStatus = await t.request("GET", "/v1/onboarding/status", {
      headers: selecting(manager.secret, individual.profileId),
    });
    expectStatus(individualStatus, 200);
    expect(individualStatus.body).toEqual({
      activeEntityId: individualEntity,
      selectionRequired: false,
      roles: ["managed_profile"],
      entities: [
        {
          id: individualEntity,
          type: "individual",
          status: "active",
          accounts: [account(await providerCustomerId(individual.own, "US"), "US", "individual", "rejected")],
        },
      ],
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
    expectRestError(
      await t.request("GET", "/v1/onboarding/status", { headers: selecting(manager.publicKey, child.profileId) }),
      401,
      "AUTHENTICATION_REQUIRED",
    );
    expectRestError(
      await t.request("GET", "/v1/onboarding/status", { headers: selecting(manager.secret, "nope") }),
      400,
      "INVALID_MANAGED_PROFILE_ID",
    );
    expectRestError(
      await t.request("GET", "/v1/onboarding/status", { headers: selecting(child.own, child.profileId) }),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    const other = await newManager({ allowedCorridors: ["BR"], isActive: true });
    expectRestError(
      await t.request("GET", "/v1/onboarding/status", { headers: selecting(other.secret, child.profileId) }),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
  });
});

describe("GET /v1/onboarding/requirements", () => {
  it("anonymous -> 200 with the flow, ordered non-GET steps and Cache-Control", async () => {
    const response = await t.request("GET", "/v1/onboarding/requirements?country=BR&customerType=individual");
    expectStatus(response, 200);
    expect(response.headers["cache-control"]).toMatch(/max-age=\d+/);
    expect(response.body).toMatchObject({
      country: "BR",
      customerType: "individual",
      provider: expect.any(String),
      flow: expect.any(String),
      mode: "api",
      requirementsVersion: expect.any(String),
    });
    expect(Object.keys(response.body).sort()).toEqual([
      "country",
      "customerType",
      "documentationUrl",
      "documents",
      "flow",
      "mode",
      "openapiUrl",
      "provider",
      "requirementsVersion",
      "steps",
    ]);
    expect(new URL(response.body.documentationUrl).pathname).toBe("/docs");
    expect(new URL(response.body.openapiUrl).pathname).toBe("/v1/openapi.json");
    expect(response.body.documents.length).toBeGreaterThan(0);
    for (const document of response.body.documents) {
      expect(document).toEqual({
        type: expect.any(String),
        required: expect.any(Boolean),
        collection: expect.stringMatching(/^(direct-upload|hosted)$/),
        acceptedMediaTypes: expect.any(Array),
        description: expect.any(String),
      });
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
        const response = await t.request(
          "GET",
          `/v1/onboarding/requirements?country=${country}&customerType=${customerType}`,
        );
        if (country === "AR" && customerType === "business") {
          expectRestError(response, 404, "NOT_FOUND", "AR business");
          continue;
        }
        expectStatus(response, 200, `${country} ${customerType}`);
        expect({ country: response.body.country, customerType: response.body.customerType }).toEqual({
          country,
          customerType,
        });
        expect(response.headers["cache-control"]).toMatch(/max-age=\d+/);
      }
    }
  });

  it("a bad or missing country or customer type -> 400 VALIDATION_FAILED", async () => {
    for (const query of [
      "country=XX&customerType=individual",
      "country=EU&customerType=individual",
      "country=br&customerType=individual",
      "customerType=individual",
      "country=BR",
      "country=BR&customerType=person",
      "",
    ]) {
      expectRestError(await t.request("GET", `/v1/onboarding/requirements?${query}`), 400, "VALIDATION_FAILED", query);
    }
  });

  it("keys and sessions may ask too; a presented credential must be valid", async () => {
    const profile = await t.newProfile();
    for (const headers of [profile.publicKey, profile.secret, profile.session]) {
      expectStatus(
        await t.request("GET", "/v1/onboarding/requirements?country=MX&customerType=business", { headers }),
        200,
      );
    }
    expectRestError(
      await t.request("GET", "/v1/onboarding/requirements?country=MX&customerType=business", {
        headers: { "x-public-key": `pk_test_${"B".repeat(32)}` },
      }),
      401,
      "INVALID_PUBLIC_KEY",
    );
  });
});

describe("GraphQL: onboarding status, limits and requirements", () => {
  const STATUS =
    "{ onboardingStatus { activeEntityId selectionRequired roles entities { id customerType status accounts { id provider corridor customerType status } } } }";
  const LIMITS =
    "query ($corridors: [Corridor!]!) { limits(corridors: $corridors) { corridor currency direction max used period { type startsAt endsAt } } }";
  const REQUIREMENTS =
    "query ($country: Corridor!, $customerType: CustomerType!) { onboardingRequirements(country: $country, customerType: $customerType) { country customerType provider flow mode requirementsVersion documentationUrl openapiUrl documents { type required collection acceptedMediaTypes description } steps { order kind method path operationId description fixedQuery } } }";
  const screaming = (value: string) => value.replace(/-/g, "_").toUpperCase();

  /** REST's onboarding status as the GraphQL field names it (its always-null fields and the repeated state left out). */
  const statusAsGraphQL = (rest: any) => ({
    activeEntityId: rest.activeEntityId,
    selectionRequired: rest.selectionRequired,
    roles: rest.roles.map(screaming),
    entities: rest.entities.map((entity: any) => ({
      id: entity.id,
      customerType: screaming(entity.type),
      status: screaming(entity.status),
      accounts: entity.accounts.map((account: any) => ({
        id: account.id,
        provider: screaming(account.provider),
        corridor: account.country,
        customerType: screaming(account.customerType),
        status: screaming(account.status),
      })),
    })),
  });

  it("onboardingStatus tells what GET /v1/onboarding/status tells, directly and for a child through the selector", async () => {
    const profile = await t.newProfile();
    await t.completeKyc(profile.secret, ["BR"]);
    await kycRejected(profile.secret, "CO");
    await kycSubmittedNotSent(profile.secret, "MX");
    const rest = await t.request("GET", "/v1/onboarding/status", { headers: profile.secret });
    expectStatus(rest, 200);
    const direct = await t.graphql(STATUS, {}, profile.session);
    expect(direct.body.errors).toBeUndefined();
    expect(direct.body.data.onboardingStatus).toEqual(statusAsGraphQL(rest.body));
    expect(direct.body.data.onboardingStatus.entities[0].accounts.map((account: any) => account.status).sort()).toEqual(
      ["APPROVED", "PENDING", "REJECTED"],
    );

    const manager = await newManager({ allowedCorridors: ["BR"], isActive: true });
    const child = await newChild(manager, "business");
    await t.completeKyc(selecting(manager.secret, child.profileId), ["BR"], "business");
    const forChild = await t.graphql(STATUS, {}, selecting(manager.session, child.profileId));
    expect(forChild.body.errors).toBeUndefined();
    const childRest = await t.request("GET", "/v1/onboarding/status", { headers: child.own });
    expect(forChild.body.data.onboardingStatus).toEqual(statusAsGraphQL(childRest.body));
    expect(forChild.body.data.onboardingStatus).toMatchObject({
      roles: ["MANAGED_PROFILE"],
      entities: [{ customerType: "BUSINESS", accounts: [{ corridor: "BR", status: "APPROVED" }] }],
    });

    // Exact limits and onboarding are a secret key's or a session's: a public key is refused, and nothing is answered.
    const refused = await t.graphql(STATUS, {}, profile.publicKey);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect(refused.body.data ?? null).toBeNull();
  });

  it("limits covers every corridor with limits as POST /v1/limits does; EU and a corridor outside the policy are refused", async () => {
    const profile = await t.newProfile();
    const corridors: Corridor[] = ["AR", "BR", "CO", "MX", "US"];
    const rest = await limits(profile.secret, corridors);
    expectStatus(rest, 200);
    const answer = await t.graphql(LIMITS, { corridors }, profile.secret);
    expect(answer.body.errors).toBeUndefined();
    // The period's type is an enum in GraphQL (CALENDAR_MONTH), REST's calendar_month.
    expect(answer.body.data.limits).toEqual(
      rest.body.limits.map((limit: any) => ({ ...limit, period: { ...limit.period, type: "CALENDAR_MONTH" } })),
    );
    expect(answer.body.data.limits.map((limit: any) => `${limit.corridor} ${limit.direction}`)).toEqual(
      corridors.flatMap((corridor) => [`${corridor} BUY`, `${corridor} SELL`]),
    );
    const eu = await t.graphql(LIMITS, { corridors: ["BR", "EU"] }, profile.secret);
    expect(eu.body.errors[0].extensions).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });

    const manager = await newManager({ allowedCorridors: ["BR"], isActive: true });
    const child = await newChild(manager, "individual");
    const childLimits = await t.graphql(LIMITS, { corridors: ["BR"] }, selecting(manager.secret, child.profileId));
    expect(childLimits.body.data.limits.map((limit: any) => limit.corridor)).toEqual(["BR", "BR"]);
    const outside = await t.graphql(LIMITS, { corridors: ["BR", "MX"] }, selecting(manager.secret, child.profileId));
    expect(outside.body.errors[0].extensions).toMatchObject({ code: "MANAGED_PROFILE_ACCESS_DENIED", status: 403 });
  });

  it("onboardingRequirements answers anyone what GET /v1/onboarding/requirements answers; none offered is null with NOT_FOUND", async () => {
    for (const country of ["AR", "BR", "CO", "MX", "US"]) {
      for (const customerType of ["individual", "business"]) {
        const variables = { country, customerType: screaming(customerType) };
        const answer = await t.graphql(REQUIREMENTS, variables);
        const rest = await t.request(
          "GET",
          `/v1/onboarding/requirements?country=${country}&customerType=${customerType}`,
        );
        if (country === "AR" && customerType === "business") {
          expect(answer.body.data).toEqual({ onboardingRequirements: null });
          expect(answer.body.errors[0].extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });
          expectRestError(rest, 404, "NOT_FOUND");
          continue;
        }
        expect(answer.body.errors, `${country} ${customerType}`).toBeUndefined();
        expectStatus(rest, 200);
        expect(answer.body.data.onboardingRequirements).toEqual({
          ...rest.body,
          customerType: screaming(rest.body.customerType),
          provider: screaming(rest.body.provider),
          mode: screaming(rest.body.mode),
          documents: rest.body.documents.map((document: any) => ({
            ...document,
            type: screaming(document.type),
            collection: screaming(document.collection),
          })),
          steps: rest.body.steps.map((step: any) => ({
            ...step,
            kind: screaming(step.kind),
            fixedQuery: step.fixedQuery ?? null,
          })),
        });
      }
    }
    const eu = await t.graphql(REQUIREMENTS, { country: "EU", customerType: "INDIVIDUAL" });
    expect(eu.body.errors[0].extensions).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
  });
});
