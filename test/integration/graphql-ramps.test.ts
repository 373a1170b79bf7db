import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Corridor, CustomerType } from "../../src/reference-data/corridors.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { rememberSecret } from "../support/secrets.js";
import { expectGraphQLError, PIX_KEY, signedTxs, waitForDefined } from "../support/kit.js";

/**
 * The ramp domain over GraphQL only (issue 4, item 8; issue 3's GraphQL delegation rows): quotes, widget
 * sessions, the ramp lifecycle to COMPLETE on the sandbox provider, errors through one batched query,
 * history as a Relay connection, rampInfo and limits, directly and for managed children.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(
    { RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" },
    { workers: true },
  );
});
afterAll(() => t?.close());
afterEach(() => {
  vi.restoreAllMocks();
});

// ---------------------------------------------------------------------------------------------------------
// Helpers

type Headers = Record<string, string>;
type Policy = { allowedCorridors: Corridor[]; allowedCustomerTypes?: CustomerType[] | null; isActive: boolean };

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const WALLET = "0x1111111111111111111111111111111111111111";
const SELLER = "0x2222222222222222222222222222222222222222";
const ALL_CHILD_CORRIDORS: Corridor[] = ["BR", "MX", "US", "AR", "CO"];

const QUOTE_FIELDS = `id rampType from to network paymentMethod countryCode inputAmount inputCurrency outputAmount outputCurrency feeCurrency
  networkFeeFiat networkFeeUSD anchorFeeFiat anchorFeeUSD serviceFeeFiat serviceFeeUSD partnerFeeFiat partnerFeeUSD
  processingFeeFiat processingFeeUSD totalFeeFiat totalFeeUSD expiresAt createdAt`;
const RAMP_FIELDS = `id quoteId type currentPhase status from to network paymentMethod countryCode inputAmount inputCurrency
  outputAmount outputCurrency feeCurrency networkFeeFiat networkFeeUSD anchorFeeFiat anchorFeeUSD serviceFeeFiat serviceFeeUSD
  partnerFeeFiat partnerFeeUSD processingFeeFiat processingFeeUSD totalFeeFiat totalFeeUSD walletAddress sessionId fiatAccountId
  paymentInstructions { method amount currency reference beneficiary } depositQrCode unsignedTxs transactionHash
  transactionExplorerLink expiresAt startedAt createdAt updatedAt errors { timestamp phase error details recoverable }`;

const GQL = {
  createQuote: `mutation Q($input: CreateQuoteInput!) { createQuote(input: $input) { quote { ${QUOTE_FIELDS} } } }`,
  createBestQuote: `mutation B($input: CreateBestQuoteInput!) { createBestQuote(input: $input) { quote { ${QUOTE_FIELDS} } } }`,
  quote: `query Q($id: ID!) { quote(id: $id) { ${QUOTE_FIELDS} } }`,
  session:
    "mutation S($input: CreateWidgetSessionInput!) { createWidgetSession(input: $input) { widgetSession { sessionId url } } }",
  register: `mutation R($input: RegisterRampInput!) { registerRamp(input: $input) { ramp { ${RAMP_FIELDS} } } }`,
  update: `mutation U($input: UpdateRampInput!) { updateRamp(input: $input) { ramp { ${RAMP_FIELDS} } } }`,
  start: `mutation S($id: ID!) { startRamp(rampId: $id) { ramp { ${RAMP_FIELDS} } } }`,
  ramp: `query R($id: ID!) { ramp(id: $id) { ${RAMP_FIELDS} } }`,
  ramps: `query H($first: Int!, $after: String) {
    ramps(first: $first, after: $after) { count totalCount edges { cursor node { id status currentPhase errors { phase error recoverable } } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }
  }`,
  rampInfo: "query { rampInfo { corridors { corridor kycStatus canBuy canSell } } }",
  limits:
    "query L($corridors: [Corridor!]!) { limits(corridors: $corridors) { corridor currency direction max used period { type startsAt endsAt } } }",
};

const buyQuote = (inputAmount = "100", overrides: Record<string, unknown> = {}) => ({
  rampType: "BUY",
  from: "pix",
  to: "polygon",
  inputAmount,
  inputCurrency: "BRL",
  outputCurrency: "USDC",
  ...overrides,
});
const sellQuote = (inputAmount = "50", overrides: Record<string, unknown> = {}) => ({
  rampType: "SELL",
  from: "polygon",
  to: "pix",
  inputAmount,
  inputCurrency: "USDC",
  outputCurrency: "BRL",
  ...overrides,
});
/** Quotes in other corridors (BUY, the rail's home fiat). */
const QUOTE_IN: Record<"MX" | "AR" | "EU" | "US", Record<string, unknown>> = {
  MX: buyQuote("1000", { from: "spei", inputCurrency: "MXN" }),
  AR: buyQuote("20000", { from: "cbu", inputCurrency: "ARS" }),
  EU: buyQuote("100", { from: "sepa", inputCurrency: "EUR" }),
  US: buyQuote("100", { from: "ach", inputCurrency: "USD" }),
};

/** The operation's data, after checking it answered without errors. */
async function dataOf<T = any>(
  document: string,
  variables: Record<string, unknown>,
  headers: Headers = {},
): Promise<T> {
  const response = await t.graphql(document, variables, headers);
  expect(response.body.errors, JSON.stringify(response.body)).toBeUndefined();
  expect(response.status).toBe(200);
  return response.body.data as T;
}

interface Caller {
  profileId: string;
  session: Headers;
  secret: Headers;
  publicKey: Headers;
}

/** A signed-in profile with its keys, KYC approved in BR (the corridor of the ramps here) unless `kyc` says otherwise. */
async function newCaller(kyc: "approved" | "none" = "approved"): Promise<Caller> {
  const signedIn = await t.signIn();
  const credential = await t.createCredential(signedIn.headers);
  if (kyc === "approved") await t.completeKyc(signedIn.headers);
  return {
    profileId: signedIn.profileId,
    session: signedIn.headers,
    secret: { "x-api-key": credential.secretKey },
    publicKey: { "x-public-key": credential.publicKey },
  };
}

async function putManager(profileId: string, policy: Policy): Promise<void> {
  const response = await t.request("PUT", `/v1/admin/managers/${profileId}`, {
    headers: t.operatorHeaders,
    body: policy,
  });
  expect([200, 201], JSON.stringify(response.body)).toContain(response.status);
}

async function newManager(policy: Policy = { allowedCorridors: ALL_CHILD_CORRIDORS, isActive: true }): Promise<Caller> {
  // Managers act for their children here, never for themselves: no KYC of their own.
  const manager = await newCaller("none");
  await putManager(manager.profileId, policy);
  return manager;
}

interface Child {
  profileId: string;
  /** The child's own secret key. */
  own: Headers;
  ownPublic: Headers;
}

async function newChild(manager: Caller, customerType: CustomerType = "individual"): Promise<Child> {
  const created = await t.request("POST", "/v1/managed-profiles", {
    headers: manager.secret,
    body: {
      externalSubjectId: `subject-${randomUUID()}`,
      contactEmail: `child-${randomUUID()}@example.com`,
      customerType,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const profileId = created.body.managedProfile.profileId as string;
  const credential = await t.request("POST", `/v1/managed-profiles/${profileId}/api-credentials`, {
    headers: manager.secret,
    body: {},
  });
  expect(credential.status, JSON.stringify(credential.body)).toBe(201);
  rememberSecret(credential.body.secretKey);
  return {
    profileId,
    own: { "x-api-key": credential.body.secretKey },
    ownPublic: { "x-public-key": credential.body.publicKey },
  };
}

const selecting = (headers: Headers, childId: string) => ({ ...headers, "x-managed-profile-id": childId });

async function createQuote(headers: Headers, input: Record<string, unknown> = buyQuote()) {
  return (await dataOf(GQL.createQuote, { input }, headers)).createQuote.quote;
}

async function registerBuy(headers: Headers, quoteId: string) {
  return (await dataOf(GQL.register, { input: { quoteId, destinationAddress: WALLET } }, headers)).registerRamp.ramp;
}

/** Polls ramp(id) until the ramp leaves PENDING. */
async function settled(headers: Headers, rampId: string) {
  return waitForDefined(async () => {
    const { ramp } = await dataOf(GQL.ramp, { id: rampId }, headers);
    return ramp.status === "PENDING" ? undefined : ramp;
  });
}

/** BUY through the whole lifecycle: quote, register, start, COMPLETE. */
async function completeBuy(headers: Headers, inputAmount = "100") {
  const quote = await createQuote(headers, buyQuote(inputAmount));
  const ramp = await registerBuy(headers, quote.id);
  await dataOf(GQL.start, { id: ramp.id }, headers);
  return settled(headers, ramp.id);
}

/** SELL through the whole lifecycle: quote, register, update with the signed transactions, start, COMPLETE. */
async function completeSell(headers: Headers, inputAmount = "50") {
  const quote = await createQuote(headers, sellQuote(inputAmount));
  const {
    registerRamp: { ramp },
  } = await dataOf(
    GQL.register,
    { input: { quoteId: quote.id, additionalData: { walletAddress: SELLER, pixDestination: PIX_KEY } } },
    headers,
  );
  await dataOf(GQL.update, { input: { rampId: ramp.id, presignedTxs: signedTxs(ramp.unsignedTxs) } }, headers);
  await dataOf(GQL.start, { id: ramp.id }, headers);
  return settled(headers, ramp.id);
}

// ---------------------------------------------------------------------------------------------------------

describe("quotes and widget sessions over GraphQL", () => {
  it("createQuote answers the same quote REST reads back, with the fee breakdown as decimal strings", async () => {
    const caller = await newCaller();
    const quote = await createQuote(caller.secret, buyQuote("1234.56", { countryCode: "BR" }));
    const rest = await t.request("GET", `/v1/quotes/${quote.id}`, { headers: caller.secret });
    expect(rest.status).toBe(200);
    // The service fee carries the reference's name on REST alone.
    const { serviceFeeFiat, serviceFeeUSD, ...terms } = quote;
    expect({
      ...terms,
      vortexFeeFiat: serviceFeeFiat,
      vortexFeeUSD: serviceFeeUSD,
      rampType: "BUY",
      network: "polygon",
      paymentMethod: "pix",
    }).toEqual(rest.body);
    expect(quote).toMatchObject({
      rampType: "BUY",
      network: "POLYGON",
      paymentMethod: "PIX",
      feeCurrency: "BRL",
      countryCode: "BR",
      inputAmount: "1234.56",
    });
    expect(quote.expiresAt).toMatch(ISO);
    expect(new Date(quote.expiresAt).getTime() - new Date(quote.createdAt).getTime()).toBe(600_000);
    for (const field of [
      "outputAmount",
      "networkFeeFiat",
      "networkFeeUSD",
      "serviceFeeFiat",
      "totalFeeFiat",
      "totalFeeUSD",
    ]) {
      expect(quote[field]).toMatch(/^\d+(\.\d+)?$/);
    }

    // The owner reads it back over GraphQL; a null optional field is as if left out.
    expect((await dataOf(GQL.quote, { id: quote.id }, caller.session)).quote).toEqual(quote);
    const withNulls = await createQuote(
      caller.secret,
      buyQuote("100", { network: null, paymentMethod: null, countryCode: null }),
    );
    expect(withNulls.countryCode).toBeNull();

    // An amount not in plain decimal notation fails the variables' validation; the service validates the rest.
    const signed = await t.graphql(GQL.createQuote, { input: buyQuote("-1") }, caller.secret);
    expectGraphQLError(signed, 400, "VALIDATION_FAILED");
    expect(signed.body.errors[0].message).toMatch(/Decimal must be a string in plain decimal notation/);
    const numeric = await t.graphql(GQL.createQuote, { input: buyQuote(100 as unknown as string) }, caller.secret);
    expectGraphQLError(numeric, 400, "VALIDATION_FAILED");
    const invalid = await t.graphql(GQL.createQuote, { input: buyQuote("100", { from: "paypal" }) }, caller.secret);
    expectGraphQLError(invalid, 400, "VALIDATION_FAILED");
  });

  it("createBestQuote picks the network paying out the most; anonymous quotes are readable by anyone", async () => {
    const best = (
      await dataOf(GQL.createBestQuote, {
        input: {
          rampType: "BUY",
          inputAmount: "500",
          inputCurrency: "BRL",
          outputCurrency: "USDC",
          networks: ["ETHEREUM", "POLYGON", "BASE"],
        },
      })
    ).createBestQuote.quote;
    expect(best.network).toBe("BASE");
    expect(best.from).toBe("pix");
    const stranger = await newCaller();
    expect((await dataOf(GQL.quote, { id: best.id }, stranger.secret)).quote.id).toBe(best.id);
    expect((await dataOf(GQL.quote, { id: best.id })).quote.id).toBe(best.id);
  });

  it("createWidgetSession: a locked quote or the widget's own parameters; mixing the two forms is refused", async () => {
    const caller = await newCaller();
    const quote = await createQuote(caller.secret);
    const locked = (
      await dataOf(
        GQL.session,
        { input: { quoteId: quote.id, callbackUrl: "https://example.com/done" } },
        caller.secret,
      )
    ).createWidgetSession.widgetSession;
    expect(new URL(locked.url).searchParams.get("sessionId")).toBe(locked.sessionId);
    const open = (
      await dataOf(
        GQL.session,
        { input: { rampType: "SELL", network: "BASE", inputAmount: "25", externalSessionId: "ext-1", fiat: "BRL" } },
        caller.publicKey,
      )
    ).createWidgetSession.widgetSession;
    expect(open.sessionId).not.toBe(locked.sessionId);
    const stored = await t.app.db.widgetSession.findUniqueOrThrow({ where: { id: open.sessionId } });
    expect(JSON.parse(stored.parameters)).toMatchObject({ rampType: "SELL", network: "base", inputAmount: "25" });
    expect(stored.ownerProfileId).toBeNull();

    expectGraphQLError(
      await t.graphql(GQL.session, { input: { quoteId: quote.id, rampType: "BUY" } }, caller.secret),
      400,
      "VALIDATION_FAILED",
    );
    expectGraphQLError(await t.graphql(GQL.session, { input: {} }, caller.secret), 400, "VALIDATION_FAILED");
    // Another profile's quote is not found.
    expectGraphQLError(
      await t.graphql(GQL.session, { input: { quoteId: quote.id } }, (await newCaller()).secret),
      404,
      "NOT_FOUND",
    );
  });
});

describe("ramps end to end over GraphQL", () => {
  it("a BUY ramp completes: register, start, poll ramp(id) to COMPLETE", async () => {
    const caller = await newCaller();
    const quote = await createQuote(caller.session, buyQuote("250.45"));
    const ramp = await registerBuy(caller.session, quote.id);
    expect(ramp).toMatchObject({
      quoteId: quote.id,
      type: "BUY",
      currentPhase: "INITIAL",
      status: "PENDING",
      inputAmount: "250.45",
      outputAmount: quote.outputAmount,
      totalFeeFiat: quote.totalFeeFiat,
      walletAddress: WALLET,
      sessionId: null,
      fiatAccountId: null,
      unsignedTxs: [],
      transactionHash: null,
      startedAt: null,
      errors: [],
    });
    expect(ramp.paymentInstructions).toMatchObject({ method: "PIX", amount: "250.45", currency: "BRL" });
    expect(ramp.depositQrCode).toEqual(expect.any(String));
    expect(ramp.expiresAt).toMatch(ISO);

    // The quote is consumed once.
    expectGraphQLError(
      await t.graphql(GQL.register, { input: { quoteId: quote.id, destinationAddress: WALLET } }, caller.session),
      409,
      "QUOTE_CONSUMED",
    );

    const started = (await dataOf(GQL.start, { id: ramp.id }, caller.secret)).startRamp.ramp;
    expect(started).toMatchObject({ currentPhase: "AWAITING_PAYMENT", status: "PENDING" });
    expect(started.startedAt).toMatch(ISO);
    expectGraphQLError(await t.graphql(GQL.start, { id: ramp.id }, caller.secret), 409, "RAMP_NOT_STARTABLE");

    const done = await settled(caller.session, ramp.id);
    expect(done).toMatchObject({ status: "COMPLETE", currentPhase: "COMPLETE" });
    expect(done.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(done.transactionExplorerLink).toBe(`https://polygonscan.com/tx/${done.transactionHash}`);
    expect(done.errors).toEqual([]);

    // The same ramp as REST shows it.
    const rest = await t.request("GET", `/v1/ramp/${ramp.id}`, { headers: caller.secret });
    const { errors: _errors, serviceFeeFiat, serviceFeeUSD, ...fields } = done;
    // Where GraphQL answers null for an optional string, REST leaves the field out (the reference's shape); the
    // service fee carries the reference's name there.
    const optionalStrings = ["countryCode", "walletAddress", "sessionId", "transactionHash", "transactionExplorerLink"];
    const asRest = Object.fromEntries(
      Object.entries(fields).filter(([field, value]) => value !== null || !optionalStrings.includes(field)),
    );
    expect({
      ...asRest,
      vortexFeeFiat: serviceFeeFiat,
      vortexFeeUSD: serviceFeeUSD,
      type: "BUY",
      currentPhase: "complete",
      network: "polygon",
      paymentMethod: "pix",
      paymentInstructions: { ...done.paymentInstructions, method: "pix" },
    }).toEqual(rest.body);
  });

  it("a SELL ramp completes: register with the source wallet, updateRamp with presignedTxs, start, COMPLETE; a recoverable error shows in errors", async () => {
    const caller = await newCaller();
    // .77: the partner answers the payout 503 once; the payout is looked up, sent again, and the ramp completes.
    const quote = await createQuote(caller.secret, sellQuote("80.77"));
    const {
      registerRamp: { ramp },
    } = await dataOf(
      GQL.register,
      { input: { quoteId: quote.id, additionalData: { walletAddress: SELLER, pixDestination: PIX_KEY } } },
      caller.secret,
    );
    expect(ramp).toMatchObject({
      type: "SELL",
      currentPhase: "INITIAL",
      walletAddress: SELLER,
      paymentInstructions: null,
      depositQrCode: null,
    });
    expect(ramp.unsignedTxs).toHaveLength(1);
    expect(ramp.unsignedTxs[0]).toMatchObject({ phase: "permit", network: "polygon", signer: SELLER, nonce: 0 });

    // Without the signed transactions a SELL cannot start.
    const early = await t.graphql(GQL.start, { id: ramp.id }, caller.secret);
    expectGraphQLError(early, 400, "VALIDATION_FAILED");
    expect(early.body.errors[0].extensions.details).toEqual([expect.objectContaining({ field: "presignedTxs" })]);

    const presignedTxs = signedTxs(ramp.unsignedTxs);
    const updated = (
      await dataOf(
        GQL.update,
        { input: { rampId: ramp.id, presignedTxs, additionalData: { squidRouterSwapHash: "0xabc" } } },
        caller.session,
      )
    ).updateRamp.ramp;
    expect(updated.currentPhase).toBe("INITIAL");
    const row = await t.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.id } });
    expect(JSON.parse(row.presignedTxs)).toEqual(presignedTxs);
    expect(JSON.parse(row.additionalData)).toMatchObject({ walletAddress: SELLER, squidRouterSwapHash: "0xabc" });
    // An unknown hash field is refused, as in REST (the input type itself has no such field).
    expectGraphQLError(
      await t.graphql(
        GQL.update,
        { input: { rampId: ramp.id, presignedTxs, additionalData: { otherHash: "0x1" } } },
        caller.session,
      ),
      400,
      "VALIDATION_FAILED",
    );

    await dataOf(GQL.start, { id: ramp.id }, caller.secret);
    const done = await settled(caller.secret, ramp.id);
    expect(done).toMatchObject({ status: "COMPLETE", currentPhase: "COMPLETE" });
    expect(done.errors).toEqual([
      {
        timestamp: expect.stringMatching(ISO),
        phase: "AWAITING_PAYMENT",
        error: "The partner is unavailable",
        details: expect.any(String),
        recoverable: true,
      },
    ]);
    expectGraphQLError(
      await t.graphql(GQL.update, { input: { rampId: ramp.id, presignedTxs } }, caller.secret),
      409,
      "RAMP_NOT_STARTABLE",
    );
  });

  it("a failing ramp reports FAILED with its unrecoverable error", async () => {
    const caller = await newCaller();
    const failed = await completeBuy(caller.secret, "100.66");
    expect(failed).toMatchObject({ status: "FAILED", currentPhase: "FAILED", transactionHash: null });
    expect(failed.errors).toEqual([
      expect.objectContaining({
        error: "The partner failed the order",
        details: "The partner's liquidity provider refused the exchange.",
        recoverable: false,
      }),
    ]);
  });
});

describe("history, errors, rampInfo and limits", () => {
  it("ramps filters by status, type, corridor and registration time and sorts either way; REST takes the same", async () => {
    const caller = await newCaller();
    const buy = await completeBuy(caller.secret, "60");
    const failed = await completeBuy(caller.secret, "70.66");
    const sell = await completeSell(caller.secret);
    const ids = async (filters: Record<string, unknown>) => {
      const { ramps } = await dataOf(
        `query F($status: RampStatus, $type: RampDirection, $corridor: Corridor, $from: DateTime, $before: DateTime, $order: RampOrder! = NEWEST_FIRST) {
          ramps(first: 10, status: $status, type: $type, corridor: $corridor, createdFrom: $from, createdBefore: $before, orderBy: $order) {
            totalCount edges { node { id } }
          }
        }`,
        filters,
        caller.session,
      );
      expect(ramps.totalCount).toBe(ramps.edges.length);
      return ramps.edges.map((edge: { node: { id: string } }) => edge.node.id);
    };
    expect(await ids({})).toEqual([sell.id, failed.id, buy.id]);
    expect(await ids({ order: "OLDEST_FIRST" })).toEqual([buy.id, failed.id, sell.id]);
    expect(await ids({ status: "COMPLETE" })).toEqual([sell.id, buy.id]);
    expect(await ids({ status: "FAILED" })).toEqual([failed.id]);
    expect(await ids({ status: "PENDING" })).toEqual([]);
    expect(await ids({ type: "SELL" })).toEqual([sell.id]);
    expect(await ids({ type: "BUY", order: "OLDEST_FIRST" })).toEqual([buy.id, failed.id]);
    expect(await ids({ corridor: "BR" })).toEqual([sell.id, failed.id, buy.id]);
    expect(await ids({ corridor: "MX" })).toEqual([]);
    expect(await ids({ from: failed.createdAt })).toEqual([sell.id, failed.id]);
    expect(await ids({ before: failed.createdAt })).toEqual([buy.id]);
    expect(await ids({ from: failed.createdAt, before: sell.createdAt })).toEqual([failed.id]);

    // A status filter reads through the cache: a ramp that settles joins its status at once.
    const pending = await registerBuy(caller.secret, (await createQuote(caller.secret, buyQuote("80"))).id);
    expect(await ids({ status: "COMPLETE" })).toEqual([sell.id, buy.id]);
    await dataOf(GQL.start, { id: pending.id }, caller.secret);
    await settled(caller.secret, pending.id);
    expect(await ids({ status: "COMPLETE" })).toEqual([pending.id, sell.id, buy.id]);

    const rest = await t.request(
      "GET",
      `/v1/ramp/history?type=BUY&status=COMPLETE&order=OLDEST_FIRST&createdBefore=${encodeURIComponent(sell.createdAt)}`,
      { headers: caller.secret },
    );
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.transactions.map((entry: { id: string }) => entry.id)).toEqual([buy.id]);
    expect(rest.body.totalCount).toBe("1");

    // A time that is not RFC 3339 with a zone, or a value outside an enum, is refused by name.
    const badTime = await t.graphql('query { ramps(createdFrom: "yesterday") { totalCount } }', {}, caller.session);
    expect(badTime.body.errors[0].extensions.code, JSON.stringify(badTime.body)).toBe("VALIDATION_FAILED");
    for (const query of ["createdFrom=2026-11-25T10:00:00", "status=DONE", "order=RANDOM", "corridor=XX"]) {
      const refused = await t.request("GET", `/v1/ramp/history?${query}`, { headers: caller.secret });
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.code).toBe("VALIDATION_FAILED");
      expect(refused.body.error.details.map((detail: { field: string }) => detail.field)).toContain(
        query.split("=")[0],
      );
    }
  });

  it("ramps pages the history newest first with offset cursors; errors of a whole page cost one query", async () => {
    const caller = await newCaller();
    const completed = await completeSell(caller.secret, "60.77");
    const failed = await completeBuy(caller.secret, "70.66");
    const clean = [];
    for (const amount of ["80", "90", "110"]) clean.push(await completeBuy(caller.secret, amount));
    // History lists ramps that were started; one still initial is not in it.
    const unstarted = await registerBuy(caller.secret, (await createQuote(caller.secret, buyQuote("120"))).id);
    const newestFirst = [...clean.map((ramp) => ramp.id).reverse(), failed.id, completed.id];

    const batch = vi.spyOn(t.app.ramps, "errorsOfRamps");
    const all = (await dataOf(GQL.ramps, { first: 10 }, caller.session)).ramps;
    expect(batch).toHaveBeenCalledTimes(1);
    expect([...batch.mock.calls[0]![0]].sort()).toEqual([...newestFirst].sort());
    expect(all.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual(newestFirst);
    expect(all.count).toBe(5);
    expect(all.totalCount).toBe(5);
    expect(all.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    const errorsById = Object.fromEntries(
      all.edges.map((edge: { node: { id: string; errors: unknown[] } }) => [edge.node.id, edge.node.errors]),
    );
    expect(errorsById[completed.id]).toEqual([
      { phase: "AWAITING_PAYMENT", error: "The partner is unavailable", recoverable: true },
    ]);
    expect(errorsById[failed.id]).toEqual([
      { phase: expect.any(String), error: "The partner failed the order", recoverable: false },
    ]);
    expect(errorsById[clean[0].id]).toEqual([]);
    expect(errorsById[unstarted.id]).toBeUndefined();

    // Pages of two: cursors continue where the last page ended.
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const page: any = (await dataOf(GQL.ramps, { first: 2, after }, caller.secret)).ramps;
      pages += 1;
      seen.push(...page.edges.map((edge: { node: { id: string } }) => edge.node.id));
      expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
      // count is this page's size; totalCount the whole history's, on every page.
      expect(page.count).toBe(page.edges.length);
      expect(page.count).toBe(pages < 3 ? 2 : 1);
      expect(page.totalCount).toBe(5);
      expect(page.pageInfo.endCursor).toBe(page.edges.at(-1).cursor);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(newestFirst);
    expect(batch).toHaveBeenCalledTimes(4);

    expectGraphQLError(
      await t.graphql(GQL.ramps, { first: 2, after: "not-a-cursor" }, caller.secret),
      400,
      "VALIDATION_FAILED",
    );
    // first: 0 shows no ramp but still says how many there are.
    expect((await dataOf(GQL.ramps, { first: 0 }, caller.secret)).ramps).toMatchObject({
      count: 0,
      totalCount: 5,
      edges: [],
      pageInfo: { hasNextPage: true },
    });
    // Another profile's history is its own (empty).
    expect((await dataOf(GQL.ramps, { first: 10 }, (await newCaller()).secret)).ramps).toMatchObject({
      count: 0,
      totalCount: 0,
      edges: [],
    });
  });

  it("rampInfo: one entry per corridor from the sandbox KYC; public and secret keys only", async () => {
    const approved = await newCaller();
    const info = (await dataOf(GQL.rampInfo, {}, approved.publicKey)).rampInfo;
    expect(info.corridors.map((entry: { corridor: string }) => entry.corridor).sort()).toEqual([
      "AR",
      "BR",
      "CO",
      "EU",
      "MX",
      "US",
    ]);
    expect(info.corridors.find((entry: { corridor: string }) => entry.corridor === "BR")).toEqual({
      corridor: "BR",
      kycStatus: "APPROVED",
      canBuy: true,
      canSell: true,
    });
    expect((await dataOf(GQL.rampInfo, {}, approved.secret)).rampInfo).toEqual(info);

    // KYC information given in MX but not sent: MX is pending, the corridors without a case have not started; neither can buy or sell.
    const pending = await newCaller("none");
    expect(
      (
        await t.request("POST", "/v1/domestic/createIndividualCustomer", {
          headers: pending.secret,
          body: { country: "MX" },
        })
      ).status,
    ).toBe(200);
    const submitted = await t.request("POST", "/v1/domestic/submitKycInformation", {
      headers: pending.secret,
      body: {
        country: "MX",
        firstName: "Ana",
        lastName: "Souza",
        dateOfBirth: "1990-04-12",
        documentType: "NATIONAL_ID",
        documentNumber: "12345678",
      },
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const pendingInfo = (await dataOf(GQL.rampInfo, {}, pending.secret)).rampInfo;
    const byCorridor = Object.fromEntries(
      pendingInfo.corridors.map(({ corridor, ...entry }: { corridor: string }) => [corridor, entry]),
    );
    const closed = (kycStatus: string) => ({ kycStatus, canBuy: false, canSell: false });
    expect(byCorridor).toMatchObject({
      MX: closed("PENDING"),
      BR: closed("NOT_STARTED"),
      AR: closed("NOT_STARTED"),
      CO: closed("NOT_STARTED"),
      US: closed("NOT_STARTED"),
    });
    // EU needs no case: the verified login email of a direct profile is its verification.
    expect(byCorridor.EU.kycStatus).toBe("APPROVED");

    expectGraphQLError(await t.graphql(GQL.rampInfo, {}, approved.session), 403, "FORBIDDEN");
    expectGraphQLError(await t.graphql(GQL.rampInfo, {}), 401, "CREDENTIAL_REQUIRED");
    // An unauthenticated caller gets the authentication error first, whatever selector it sends.
    for (const selector of [approved.profileId, "not-a-uuid"]) {
      expectGraphQLError(
        await t.graphql(GQL.rampInfo, {}, { "x-managed-profile-id": selector }),
        401,
        "CREDENTIAL_REQUIRED",
      );
    }
  });

  it("limits: the monthly maximum and what completed ramps used, per corridor and direction", async () => {
    const caller = await newCaller();
    await completeBuy(caller.secret, "120.50");
    await completeSell(caller.secret, "30");
    const { limits } = await dataOf(GQL.limits, { corridors: ["BR", "MX"] }, caller.session);
    expect(limits).toHaveLength(4);
    const br = limits.filter((limit: { corridor: string }) => limit.corridor === "BR");
    expect(br.find((limit: { direction: string }) => limit.direction === "BUY")).toMatchObject({
      currency: "BRL",
      max: "50000.00",
      used: "120.50",
    });
    const sold = await t.app.db.ramp.findFirstOrThrow({
      where: { profileId: caller.profileId, type: "SELL" },
      include: { quote: true },
    });
    expect(br.find((limit: { direction: string }) => limit.direction === "SELL")).toMatchObject({
      used: sold.quote.outputAmount,
    });
    expect(
      limits.find(
        (limit: { corridor: string; direction: string }) => limit.corridor === "MX" && limit.direction === "BUY",
      ),
    ).toMatchObject({ currency: "MXN", used: "0.00" });
    expect(limits[0].period.type).toBe("CALENDAR_MONTH");
    expect(limits[0].period.startsAt).toMatch(ISO);
    // EU has no exact limits (the service refuses it); public keys get none at all.
    expectGraphQLError(await t.graphql(GQL.limits, { corridors: ["EU"] }, caller.secret), 400, "VALIDATION_FAILED");
    expectGraphQLError(await t.graphql(GQL.limits, { corridors: ["BR"] }, caller.publicKey), 403, "FORBIDDEN");
  });
});

describe("managed children over GraphQL", () => {
  it("a manager's secret key with X-Managed-Profile-Id runs a BUY and a SELL to COMPLETE for its child", async () => {
    const manager = await newManager();
    const child = await newChild(manager);
    const asChild = selecting(manager.secret, child.profileId);
    await t.completeKyc(asChild);

    const buy = await completeBuy(asChild, "150");
    expect(buy.status).toBe("COMPLETE");
    const sell = await completeSell(asChild, "40");
    expect(sell.status).toBe("COMPLETE");
    // Both ramps belong to the child, acted by the manager.
    const rows = await t.app.db.ramp.findMany({ where: { id: { in: [buy.id, sell.id] } } });
    expect(rows.map((row) => ({ profileId: row.profileId, actorProfileId: row.actorProfileId }))).toEqual([
      { profileId: child.profileId, actorProfileId: manager.profileId },
      { profileId: child.profileId, actorProfileId: manager.profileId },
    ]);

    // The child's history is the child's, through the selector and through its own key; the manager's own is empty.
    const history = (await dataOf(GQL.ramps, { first: 10 }, asChild)).ramps;
    expect(history.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([sell.id, buy.id]);
    expect((await dataOf(GQL.ramps, { first: 10 }, child.own)).ramps.edges).toEqual(history.edges);
    expect((await dataOf(GQL.ramps, { first: 10 }, manager.secret)).ramps.count).toBe(0);
    // The manager's own reads do not see the child's ramp.
    expectGraphQLError(await t.graphql(GQL.ramp, { id: buy.id }, manager.secret), 404, "NOT_FOUND");

    // Session + selector acts for the child too; limits and rampInfo answer for the child.
    const limits = (await dataOf(GQL.limits, { corridors: ["BR"] }, selecting(manager.session, child.profileId)))
      .limits;
    expect(limits.find((limit: { direction: string }) => limit.direction === "BUY").used).toBe("150.00");
    const info = (await dataOf(GQL.rampInfo, {}, asChild)).rampInfo;
    expect(info.corridors.find((entry: { corridor: string }) => entry.corridor === "EU")).toMatchObject({
      canBuy: false,
      canSell: false,
    });
    expect(info.corridors.find((entry: { corridor: string }) => entry.corridor === "BR")).toMatchObject({
      canBuy: true,
      canSell: true,
    });
  });

  it("a child's own credential runs a BUY and a SELL to COMPLETE as the child", async () => {
    const manager = await newManager();
    const child = await newChild(manager);
    await t.completeKyc(child.own);
    const buy = await completeBuy(child.own, "75");
    const sell = await completeSell(child.own, "35");
    expect([buy.status, sell.status]).toEqual(["COMPLETE", "COMPLETE"]);
    const rows = await t.app.db.ramp.findMany({ where: { id: { in: [buy.id, sell.id] } } });
    expect(rows.every((row) => row.profileId === child.profileId && row.actorProfileId === child.profileId)).toBe(true);
    // The manager sees them through the selector; the child's own public key reads rampInfo.
    expect((await dataOf(GQL.ramp, { id: buy.id }, selecting(manager.secret, child.profileId))).ramp.status).toBe(
      "COMPLETE",
    );
    expect((await dataOf(GQL.rampInfo, {}, child.ownPublic)).rampInfo.corridors).toHaveLength(6);
  });

  describe("the contract's delegation rows, with exact codes", () => {
    it("a selector with a child's credential -> 403 MANAGED_PROFILE_ACCESS_DENIED", async () => {
      const manager = await newManager();
      const child = await newChild(manager);
      const sibling = await newChild(manager);
      for (const headers of [
        selecting(child.own, sibling.profileId),
        selecting(child.own, child.profileId),
        selecting(child.ownPublic, sibling.profileId),
      ]) {
        expectGraphQLError(await t.graphql(GQL.ramps, { first: 5 }, headers), 403, "MANAGED_PROFILE_ACCESS_DENIED");
        expectGraphQLError(
          await t.graphql(GQL.createQuote, { input: buyQuote() }, headers),
          403,
          "MANAGED_PROFILE_ACCESS_DENIED",
        );
      }
      expectGraphQLError(
        await t.graphql(GQL.rampInfo, {}, selecting(child.ownPublic, child.profileId)),
        403,
        "MANAGED_PROFILE_ACCESS_DENIED",
      );
      expectGraphQLError(
        await t.graphql(GQL.register, { input: { quoteId: randomUUID() } }, selecting(child.own, sibling.profileId)),
        403,
        "MANAGED_PROFILE_ACCESS_DENIED",
      );
    });

    it("a selector that is not a UUID -> 400 INVALID_MANAGED_PROFILE_ID", async () => {
      const manager = await newManager();
      for (const [document, variables] of [
        [GQL.ramps, { first: 5 }],
        [GQL.createQuote, { input: buyQuote() }],
        [GQL.register, { input: { quoteId: randomUUID() } }],
        [GQL.limits, { corridors: ["BR"] }],
        [GQL.rampInfo, {}],
      ] as const) {
        expectGraphQLError(
          await t.graphql(document, variables, selecting(manager.secret, "not-a-uuid")),
          400,
          "INVALID_MANAGED_PROFILE_ID",
        );
      }
    });

    it("a public key (or nobody) with a selector -> 401 AUTHENTICATION_REQUIRED", async () => {
      const manager = await newManager();
      const child = await newChild(manager);
      const quotesBefore = await t.app.db.quote.count();
      expectGraphQLError(
        await t.graphql(GQL.createQuote, { input: buyQuote() }, selecting(manager.publicKey, child.profileId)),
        401,
        "AUTHENTICATION_REQUIRED",
      );
      expectGraphQLError(
        await t.graphql(GQL.rampInfo, {}, selecting(manager.publicKey, child.profileId)),
        401,
        "AUTHENTICATION_REQUIRED",
      );
      expectGraphQLError(
        await t.graphql(GQL.createQuote, { input: buyQuote() }, selecting({}, child.profileId)),
        401,
        "AUTHENTICATION_REQUIRED",
      );
      expect(await t.app.db.quote.count()).toBe(quotesBefore);
    });

    it("an inactive manager, another manager's child or a deleted child -> 403 MANAGED_PROFILE_ACCESS_DENIED", async () => {
      const manager = await newManager();
      const child = await newChild(manager);
      await t.completeKyc(selecting(manager.secret, child.profileId));
      const ramp = await registerBuy(
        selecting(manager.secret, child.profileId),
        (await createQuote(selecting(manager.secret, child.profileId))).id,
      );
      const operations = (childId: string): [string, Record<string, unknown>][] => [
        [GQL.ramps, { first: 5 }],
        [GQL.ramp, { id: ramp.id }],
        [GQL.createQuote, { input: buyQuote() }],
        [GQL.start, { id: ramp.id }],
        [GQL.limits, { corridors: ["BR"] }],
        [GQL.rampInfo, {}],
        [GQL.quote, { id: childId }],
      ];

      // Another manager selecting this child.
      const other = await newManager();
      for (const [document, variables] of operations(child.profileId)) {
        expectGraphQLError(
          await t.graphql(document, variables, selecting(other.secret, child.profileId)),
          403,
          "MANAGED_PROFILE_ACCESS_DENIED",
        );
      }

      // The manager made inactive: the selector and the child's own key both stop working.
      await putManager(manager.profileId, { allowedCorridors: ALL_CHILD_CORRIDORS, isActive: false });
      for (const [document, variables] of operations(child.profileId)) {
        expectGraphQLError(
          await t.graphql(document, variables, selecting(manager.secret, child.profileId)),
          403,
          "MANAGED_PROFILE_ACCESS_DENIED",
        );
        expectGraphQLError(await t.graphql(document, variables, child.own), 403, "MANAGED_PROFILE_ACCESS_DENIED");
      }
      await putManager(manager.profileId, { allowedCorridors: ALL_CHILD_CORRIDORS, isActive: true });
      expect(
        (await dataOf(GQL.ramp, { id: ramp.id }, selecting(manager.session, child.profileId))).ramp.currentPhase,
      ).toBe("INITIAL");

      // The child deleted: its history is kept, but the selector is refused.
      const deleted = await t.request("DELETE", `/v1/managed-profiles/${child.profileId}`, { headers: manager.secret });
      expect(deleted.status).toBe(204);
      for (const [document, variables] of operations(child.profileId)) {
        expectGraphQLError(
          await t.graphql(document, variables, selecting(manager.secret, child.profileId)),
          403,
          "MANAGED_PROFILE_ACCESS_DENIED",
        );
      }
      expect(await t.app.db.ramp.count({ where: { profileId: child.profileId } })).toBe(1);
      expect((await t.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.id } })).currentPhase).toBe("initial");
    });

    it("registerRamp outside the manager's current policy -> 403, while reads of existing ramps still work", async () => {
      const manager = await newManager({ allowedCorridors: ["BR"], isActive: true });
      const child = await newChild(manager);
      const business = await newChild(manager, "business");
      const asChild = selecting(manager.secret, child.profileId);
      // The individual child is approved where it registers (BR); the business child is refused before KYC matters.
      await t.completeKyc(asChild);
      const deny = async (headers: Headers, input: Record<string, unknown>) => {
        // Quote discovery is a read: the quote is made; registering it is corridor-bound.
        const quote = await createQuote(headers, input);
        const before = await t.app.db.ramp.count();
        expectGraphQLError(
          await t.graphql(GQL.register, { input: { quoteId: quote.id, destinationAddress: WALLET } }, headers),
          403,
          "MANAGED_PROFILE_ACCESS_DENIED",
        );
        expect(await t.app.db.ramp.count()).toBe(before);
        expect((await t.app.db.quote.findUniqueOrThrow({ where: { id: quote.id } })).consumedAt).toBeNull();
      };

      // Policy ["BR"]: MXN is outside it, for the selector and for the child's own key.
      await deny(asChild, QUOTE_IN.MX);
      await deny(child.own, QUOTE_IN.MX);
      expectGraphQLError(
        await t.graphql(GQL.limits, { corridors: ["BR", "MX"] }, asChild),
        403,
        "MANAGED_PROFILE_ACCESS_DENIED",
      );

      // Every child corridor allowed: AR still only for individuals, EU for no child.
      await putManager(manager.profileId, { allowedCorridors: ALL_CHILD_CORRIDORS, isActive: true });
      await t.completeKyc(child.own, ["AR"]);
      await deny(selecting(manager.secret, business.profileId), QUOTE_IN.AR);
      await deny(business.own, QUOTE_IN.AR);
      await deny(asChild, QUOTE_IN.EU);
      await deny(selecting(manager.session, business.profileId), QUOTE_IN.EU);
      expect((await registerBuy(asChild, (await createQuote(asChild, QUOTE_IN.AR)).id)).status).toBe("PENDING");
      // A customer-type narrowing counts too.
      await putManager(manager.profileId, {
        allowedCorridors: ALL_CHILD_CORRIDORS,
        allowedCustomerTypes: ["individual"],
        isActive: true,
      });
      await deny(selecting(manager.secret, business.profileId), QUOTE_IN.US);

      // A BR ramp registered and another completed under a BR policy ...
      await putManager(manager.profileId, { allowedCorridors: ["BR"], isActive: true });
      const waiting = await registerBuy(asChild, (await createQuote(asChild)).id);
      const unstartedFromQuote = await createQuote(asChild);
      const completed = await completeBuy(asChild, "55");
      expect(completed.status).toBe("COMPLETE");

      // ... then the policy is tightened to MX: corridor-bound mutations stop, reads go on.
      await putManager(manager.profileId, { allowedCorridors: ["MX"], isActive: true });
      expectGraphQLError(await t.graphql(GQL.start, { id: waiting.id }, asChild), 403, "MANAGED_PROFILE_ACCESS_DENIED");
      expectGraphQLError(
        await t.graphql(GQL.start, { id: waiting.id }, child.own),
        403,
        "MANAGED_PROFILE_ACCESS_DENIED",
      );
      expectGraphQLError(
        await t.graphql(GQL.update, { input: { rampId: waiting.id, presignedTxs: [] } }, asChild),
        403,
        "MANAGED_PROFILE_ACCESS_DENIED",
      );
      expectGraphQLError(
        await t.graphql(
          GQL.register,
          { input: { quoteId: unstartedFromQuote.id, destinationAddress: WALLET } },
          asChild,
        ),
        403,
        "MANAGED_PROFILE_ACCESS_DENIED",
      );
      expectGraphQLError(
        await t.graphql(GQL.limits, { corridors: ["BR"] }, asChild),
        403,
        "MANAGED_PROFILE_ACCESS_DENIED",
      );
      expect((await dataOf(GQL.ramp, { id: waiting.id }, asChild)).ramp).toMatchObject({
        id: waiting.id,
        currentPhase: "INITIAL",
      });
      expect((await dataOf(GQL.ramp, { id: completed.id }, child.own)).ramp).toMatchObject({ status: "COMPLETE" });
      const history = (await dataOf(GQL.ramps, { first: 10 }, asChild)).ramps;
      expect(history.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([completed.id]);
      expect((await dataOf(GQL.quote, { id: unstartedFromQuote.id }, asChild)).quote.id).toBe(unstartedFromQuote.id);
      const info = (await dataOf(GQL.rampInfo, {}, asChild)).rampInfo;
      expect(info.corridors.find((entry: { corridor: string }) => entry.corridor === "BR")).toMatchObject({
        canBuy: false,
        canSell: false,
      });
    });

    it("a missing ramp or quote is null beside the rest of the page, with its NOT_FOUND error", async () => {
      const owner = await newCaller();
      const response = await t.graphql(
        "query P($id: ID!) { me { id } ramp(id: $id) { id } quote(id: $id) { id } }",
        { id: randomUUID() },
        owner.secret,
      );
      expect(response.body.data).toEqual({ me: { id: owner.profileId }, ramp: null, quote: null });
      const failed = response.body.errors.map((error: any) => `${error.path.join(".")} ${error.extensions.code}`);
      expect(failed.sort()).toEqual(["quote NOT_FOUND", "ramp NOT_FOUND"]);
    });

    it("cross-owner ramp(id), quote(id) and registerRamp -> 404 NOT_FOUND", async () => {
      const owner = await newCaller();
      const other = await newCaller();
      const quote = await createQuote(owner.secret);
      const ramp = await registerBuy(owner.secret, (await createQuote(owner.secret)).id);
      for (const headers of [other.secret, other.session]) {
        expectGraphQLError(await t.graphql(GQL.ramp, { id: ramp.id }, headers), 404, "NOT_FOUND");
        expectGraphQLError(await t.graphql(GQL.quote, { id: quote.id }, headers), 404, "NOT_FOUND");
        expectGraphQLError(
          await t.graphql(GQL.register, { input: { quoteId: quote.id, destinationAddress: WALLET } }, headers),
          404,
          "NOT_FOUND",
        );
        expectGraphQLError(await t.graphql(GQL.start, { id: ramp.id }, headers), 404, "NOT_FOUND");
      }
      // An owned quote is not readable anonymously or by a public key either; unknown ids are the same 404.
      expectGraphQLError(await t.graphql(GQL.quote, { id: quote.id }), 404, "NOT_FOUND");
      expectGraphQLError(await t.graphql(GQL.quote, { id: quote.id }, owner.publicKey), 404, "NOT_FOUND");
      expectGraphQLError(await t.graphql(GQL.ramp, { id: randomUUID() }, owner.secret), 404, "NOT_FOUND");

      // A manager's own quote and ramp are not its child's, and a child's are not another child's.
      const manager = await newManager();
      const child = await newChild(manager);
      const sibling = await newChild(manager);
      await t.completeKyc(child.own);
      const managersQuote = await createQuote(manager.secret);
      expectGraphQLError(
        await t.graphql(GQL.quote, { id: managersQuote.id }, selecting(manager.secret, child.profileId)),
        404,
        "NOT_FOUND",
      );
      expectGraphQLError(
        await t.graphql(GQL.register, { input: { quoteId: managersQuote.id, destinationAddress: WALLET } }, child.own),
        404,
        "NOT_FOUND",
      );
      const childsRamp = await registerBuy(child.own, (await createQuote(child.own)).id);
      expectGraphQLError(
        await t.graphql(GQL.ramp, { id: childsRamp.id }, selecting(manager.secret, sibling.profileId)),
        404,
        "NOT_FOUND",
      );
      expectGraphQLError(await t.graphql(GQL.ramp, { id: childsRamp.id }, sibling.own), 404, "NOT_FOUND");
      expect((await t.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.id } })).currentPhase).toBe("initial");
    });
  });
});
