import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.js";
import { expectError, ok, waitFor } from "../support/kit.js";
import { testEngine } from "../support/database.js";

/*
 * Ramps in Alfredpay's corridors (AR, CO, MX, US) go to Alfredpay (issue 41): registering makes the partner's order,
 * whose answer the caller is given (the account to pay into), and each step reads the order back, forward only. The
 * simulator moves its orders on its own (payment, stages) and counts each money step it executes.
 */

const WALLET = "0x1111111111111111111111111111111111111111";
const PENNY = "/api/v1/third-party-service/penny";
const MX_BUY = { rampType: "BUY", from: "spei", to: "polygon", inputCurrency: "MXN", outputCurrency: "USDC" };

let t: TestApp;
/** An instance whose processor reads an order only when a callback says it changed (or after ten minutes). */
let patient: TestApp;
let profile: Awaited<ReturnType<TestApp["newProfile"]>>;
beforeAll(async () => {
  t = await startTestApp({}, { workers: true });
  // Its payer pays 200 ms after the order is made: after the read that follows the start.
  patient = await startTestApp(
    { RAMP_CHECK_INTERVAL_MS: "600000", PARTNER_SIM_PAYMENT_DELAY_MS: "200" },
    { workers: true },
  );
  profile = await t.newProfile();
  await t.completeKyc(profile.secret, ["MX"]);
});
afterAll(async () => {
  await patient?.close();
  await t?.close();
});

type Headers = Record<string, string>;

async function registered(app: TestApp, headers: Headers, inputAmount: string) {
  const quote = ok(await app.request("POST", "/v1/quotes", { headers, body: { ...MX_BUY, inputAmount } }), 201);
  const body = { quoteId: quote.id, destinationAddress: WALLET };
  return ok(await app.request("POST", "/v1/ramp/register", { headers, body }), 201);
}

const rampOf = async (app: TestApp, headers: Headers, id: string) =>
  ok(await app.request("GET", `/v1/ramp/${id}`, { headers }));

async function finished(app: TestApp, headers: Headers, id: string) {
  return waitFor(
    () => rampOf(app, headers, id),
    (ramp) => ramp.status !== "PENDING",
    "the ramp to finish",
  );
}

const eventsOf = async (app: TestApp, rampId: string) =>
  (await app.app.db.rampEvent.findMany({ where: { rampId }, orderBy: { sequence: "asc" } })).map((event) => {
    const { payload } = JSON.parse(event.body);
    return `${event.eventType}:${payload.currentPhase ?? payload.transactionStatus}`;
  });

describe(`an MX BUY at Alfredpay (${testEngine()})`, () => {
  it("pays in to the account the partner's order names, and follows the order to complete, each phase once", async () => {
    const ramp = await registered(t, profile.secret, "500");
    const stored = await t.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.id } });
    expect(stored.partnerOrderId).toEqual(expect.any(String));
    // The simulator's SPEI instructions: its CLABE, and a reference made from its order's id.
    expect(ramp.paymentInstructions).toEqual({
      method: "spei",
      amount: "500.00",
      currency: "MXN",
      reference: stored.partnerOrderId!.replace(/-/g, "").slice(0, 10).toUpperCase(),
      beneficiary: "Alfredpay",
      account: "646180157000000004",
    });
    ok(await t.request("POST", "/v1/ramp/start", { headers: profile.secret, body: { rampId: ramp.id } }));
    const done = await finished(t, profile.secret, ramp.id);
    expect(done).toMatchObject({ status: "COMPLETE", currentPhase: "complete", transactionHash: expect.any(String) });
    expect(await eventsOf(t, ramp.id)).toEqual([
      "TRANSACTION_CREATED:PENDING",
      "PHASE_CHANGE:awaitingPayment",
      "PHASE_CHANGE:paymentConfirmed",
      "PHASE_CHANGE:exchanging",
      "PHASE_CHANGE:payingOut",
      "PHASE_CHANGE:complete",
      "STATUS_CHANGE:COMPLETE",
    ]);
    // One order made at the partner, on the quote it took for this ramp.
    const steps = t.partners.simulator.stats().alfredpay.moneySteps;
    expect(Object.entries(steps).filter(([, count]) => count !== 1)).toEqual([]);
  });

  it("fails the ramp, with the reason in our words and no recovery, when the partner fails the order (.66)", async () => {
    const ramp = await registered(t, profile.secret, "500.66");
    ok(await t.request("POST", "/v1/ramp/start", { headers: profile.secret, body: { rampId: ramp.id } }));
    expect(await finished(t, profile.secret, ramp.id)).toMatchObject({ status: "FAILED", currentPhase: "failed" });
    const errors = ok(await t.request("GET", `/v1/ramp/${ramp.id}/errors`, { headers: profile.secret }));
    expect(errors).toEqual([
      expect.objectContaining({
        error: "The partner failed the order",
        details: "The partner's liquidity provider refused the exchange.",
        recoverable: false,
      }),
    ]);
  });

  it("reads the order again after the partner's outage and goes on (.77: one 503 at the payout stage)", async () => {
    const ramp = await registered(t, profile.secret, "500.77");
    const readsOfOrders = () =>
      t.partners.simulator.stats().alfredpay.calls[`GET ${PENNY}/onramp/{transactionId}`] ?? 0;
    ok(await t.request("POST", "/v1/ramp/start", { headers: profile.secret, body: { rampId: ramp.id } }));
    expect(await finished(t, profile.secret, ramp.id)).toMatchObject({ status: "COMPLETE" });
    // A read is safe to repeat: the client asks again at once, so the outage costs the ramp nothing to report.
    expect(ok(await t.request("GET", `/v1/ramp/${ramp.id}/errors`, { headers: profile.secret }))).toEqual([]);
    expect(readsOfOrders()).toBeGreaterThan(0);
  });

  it("reads the order at once when a stored callback says it changed, not only when the check is due", async () => {
    const caller = await patient.newProfile();
    await patient.completeKyc(caller.secret, ["MX"]);
    const ramp = await registered(patient, caller.secret, "500");
    ok(await patient.request("POST", "/v1/ramp/start", { headers: caller.secret, body: { rampId: ramp.id } }));
    // The order is read once, at the start, before it is paid; it then completes, and nothing reads it for ten minutes.
    const { partnerOrderId } = await patient.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.id } });
    await waitFor(
      async () =>
        (await patient.partners.simulator.stats()).alfredpay.calls[`GET ${PENNY}/onramp/{transactionId}`] ?? 0,
      (reads) => reads > 0,
      "the read that follows the start",
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await rampOf(patient, caller.secret, ramp.id)).currentPhase).toBe("awaitingPayment");
    // The partner's callback, as the callback route stores it: the ramp's step is brought forward and it finishes.
    await patient.app.db.partnerCallback.create({
      data: {
        id: randomUUID(),
        partner: "Alfredpay",
        dedupeKey: randomUUID(),
        subjectKind: "onramp",
        subjectId: partnerOrderId!,
        partnerStatus: "ON_CHAIN_COMPLETED",
        partnerCustomerId: randomUUID(),
        rawBody: "{}",
      },
    });
    expect(await finished(patient, caller.secret, ramp.id)).toMatchObject({ status: "COMPLETE" });
    const callbacks = await patient.app.db.partnerCallback.findMany({ where: { subjectId: partnerOrderId! } });
    expect(callbacks.map((callback) => callback.appliedAt)).toEqual([expect.any(Date)]);
  });
});

describe(`an MX BUY never paid (${testEngine()})`, () => {
  it("fails once its payment instructions expire, reads the order no more, and the partner takes no payment after", async () => {
    // The payer never pays; the order's instructions take a payment for 400 ms.
    const app = await startTestApp(
      { PARTNER_SIM_PAYMENT_DELAY_MS: "600000", PARTNER_SIM_ORDER_LIFETIME_MS: "400" },
      { workers: true },
    );
    try {
      const caller = await app.newProfile();
      await app.completeKyc(caller.secret, ["MX"]);
      const ramp = await registered(app, caller.secret, "500");
      ok(await app.request("POST", "/v1/ramp/start", { headers: caller.secret, body: { rampId: ramp.id } }));
      expect(await finished(app, caller.secret, ramp.id)).toMatchObject({ status: "FAILED", currentPhase: "failed" });
      expect(ok(await app.request("GET", `/v1/ramp/${ramp.id}/errors`, { headers: caller.secret }))).toEqual([
        expect.objectContaining({
          phase: "awaitingPayment",
          error: "Payment not received",
          details: expect.stringMatching(/^Alfredpay's order expired at \S+ before the payment arrived\.$/),
          recoverable: false,
        }),
      ]);
      const reads = () => app.partners.simulator.stats().alfredpay.calls[`GET ${PENNY}/onramp/{transactionId}`];
      const readsAtTheEnd = reads();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(reads()).toBe(readsAtTheEnd);
      const { partnerOrderId } = await app.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.id } });
      expect(app.partners.simulator.payAlfredpayOnramp(partnerOrderId!)).toBe(false);
    } finally {
      await app.close();
    }
  });
});

describe(`an MX SELL at Alfredpay (${testEngine()})`, () => {
  it("pays out to the account registered at the partner, after the tokens go to the order's deposit address", async () => {
    const account = ok(
      await t.request("POST", "/v1/mx/fiatAccounts", {
        headers: profile.secret,
        body: { type: "SPEI", accountNumber: "032180000118359719", accountName: "Ana Souza" },
      }),
    );
    const body = { rampType: "SELL", from: "polygon", to: "spei", inputCurrency: "USDC", outputCurrency: "MXN" };
    const quote = ok(
      await t.request("POST", "/v1/quotes", { headers: profile.secret, body: { ...body, inputAmount: "50" } }),
      201,
    );
    const ramp = ok(
      await t.request("POST", "/v1/ramp/register", {
        headers: profile.secret,
        body: { quoteId: quote.id, fiatAccountId: account.fiatAccountId, additionalData: { walletAddress: WALLET } },
      }),
      201,
    );
    // What the user signs: the tokens to the deposit address of the partner's order.
    expect(ramp.unsignedTxs).toEqual([
      expect.objectContaining({
        phase: "transfer",
        network: "polygon",
        signer: WALLET,
        meta: expect.objectContaining({ to: expect.stringMatching(/^0x[0-9a-f]{40}$/), token: "USDC" }),
      }),
    ]);
    const presignedTxs = ramp.unsignedTxs.map((tx: object) => ({ ...tx, signature: `0x${"cd".repeat(65)}` }));
    ok(
      await t.request("POST", "/v1/ramp/update", { headers: profile.secret, body: { rampId: ramp.id, presignedTxs } }),
    );
    ok(await t.request("POST", "/v1/ramp/start", { headers: profile.secret, body: { rampId: ramp.id } }));
    expect(await finished(t, profile.secret, ramp.id)).toMatchObject({ status: "COMPLETE", currentPhase: "complete" });
    // One order made at the partner per quote it took, offramps included.
    const steps = Object.entries(t.partners.simulator.stats().alfredpay.moneySteps);
    expect(steps.filter(([identity]) => identity.startsWith("offramp:"))).toEqual([[expect.any(String), 1]]);
    expect(steps.filter(([, count]) => count !== 1)).toEqual([]);
  });
});

describe(`registering at Alfredpay (${testEngine()})`, () => {
  it("answers a partner outage 502 and keeps nothing: the quote stays usable, and a second try registers", async () => {
    const quote = ok(
      await t.request("POST", "/v1/quotes", { headers: profile.secret, body: { ...MX_BUY, inputAmount: "600" } }),
      201,
    );
    const route = `POST ${PENNY}/onramp`;
    t.partners.simulator.setFaults({
      partner: "alfredpay",
      failNext: { count: 1, status: 503, when: "before", route },
    });
    const body = { quoteId: quote.id, destinationAddress: WALLET };
    expectError(
      await t.request("POST", "/v1/ramp/register", { headers: profile.secret, body }),
      502,
      "PROVIDER_UNAVAILABLE",
    );
    expect(await t.app.db.ramp.count({ where: { quoteId: quote.id } })).toBe(0);
    ok(await t.request("POST", "/v1/ramp/register", { headers: profile.secret, body }), 201);
  });

  it("refuses a network Alfredpay does not serve, naming it, before any order is made", async () => {
    const quote = ok(
      await t.request("POST", "/v1/quotes", {
        headers: profile.secret,
        body: { ...MX_BUY, to: "assethub", inputAmount: "600" },
      }),
      201,
    );
    const before = t.partners.simulator.stats().alfredpay.calls[`POST ${PENNY}/quotes`] ?? 0;
    const body = { quoteId: quote.id, destinationAddress: "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5" };
    expectError(
      await t.request("POST", "/v1/ramp/register", { headers: profile.secret, body }),
      400,
      "VALIDATION_FAILED",
      "network",
    );
    expect(t.partners.simulator.stats().alfredpay.calls[`POST ${PENNY}/quotes`] ?? 0).toBe(before);
  });
});
