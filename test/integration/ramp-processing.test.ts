import { randomUUID } from "node:crypto";
import { rawSql } from "../support/raw-sql.js";
import { textOf, type Statement } from "../../src/db/query.js";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { readOutbox, type RampEventBody } from "../../src/events/outbox.js";
import type { MarketTerms, ProviderRamp, RampProvider, StepOutcome } from "../../src/providers/ramp-port.js";
import type { RampPhase } from "../../src/reference-data/ramp-phases.js";
import { SandboxRampProvider } from "../../src/providers/sandbox.js";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { RampRepository } from "../../src/ramps/repo.js";
import { historyInput } from "../../src/ramps/types.js";
import { freshDatabase, openDatabaseForTests } from "../support/database.js";
import { PIX_KEY, signedTxs, sleep, waitFor } from "../support/kit.js";
import { SIMULATOR_MARKET_TERMS } from "../support/market.js";
import { startTestPartners, type TestPartners } from "../support/partner-simulator.js";

/**
 * Ramp processing on the sandbox provider and the event outbox (CONTRACT.md, "Ramp domain" and
 * "Webhooks"): started ramps run through the phases to COMPLETE or FAILED, the failure triggers leave
 * their error log entries, unstarted ramps time out, and the outbox holds exactly the events the
 * contract names, once each, across a restart and with two processors on one database.
 */

const LIMITS = { RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" };

let t: TestApp;
/** A second instance on its own database whose start window is one second. */
let short: TestApp;
beforeAll(async () => {
  [t, short] = await Promise.all([
    startTestApp(LIMITS, { workers: true }),
    startTestApp({ ...LIMITS, RAMP_START_WINDOW_SECONDS: "1" }, { workers: true }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), short?.close()]);
});

// ---------------------------------------------------------------------------------------------------------
// Helpers

type Headers = Record<string, string>;
type Ramp = Record<string, any> & { id: string; quoteId: string; type: "BUY" | "SELL" };

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const WALLET = "0x1111111111111111111111111111111111111111";
const SELLER = "0x2222222222222222222222222222222222222222";

function expectRestError(response: HttpResponse, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.error?.code }, JSON.stringify(response.body)).toEqual({
    status,
    code,
  });
  expect(response.body.error.status).toBe(status);
}

/** A signed-in profile's secret key, KYC approved in BR (the corridor of every ramp here). */
async function newCaller(app: TestApp): Promise<Headers> {
  const signedIn = await app.signIn();
  const credential = await app.createCredential(signedIn.headers);
  const headers = { "x-api-key": credential.secretKey };
  await app.completeKyc(headers);
  return headers;
}

async function call(app: TestApp, method: string, url: string, headers: Headers, body?: unknown, expected = 200) {
  const response = await app.request(method, url, { headers, body });
  expect(response.status, `${method} ${url}: ${JSON.stringify(response.body)}`).toBe(expected);
  return response.body;
}

/** A registered ramp of the caller; SELL ramps get their presigned transactions, ready to start. */
async function registerRamp(
  app: TestApp,
  headers: Headers,
  type: "BUY" | "SELL",
  inputAmount: string,
  extra: Record<string, unknown> = {},
): Promise<Ramp> {
  const quoteBody =
    type === "BUY"
      ? { rampType: "BUY", from: "pix", to: "polygon", inputAmount, inputCurrency: "BRL", outputCurrency: "USDC" }
      : { rampType: "SELL", from: "polygon", to: "pix", inputAmount, inputCurrency: "USDC", outputCurrency: "BRL" };
  const quote = await call(app, "POST", "/v1/quotes", headers, quoteBody, 201);
  const addresses =
    type === "BUY"
      ? { destinationAddress: WALLET }
      : { additionalData: { walletAddress: SELLER, pixDestination: PIX_KEY } };
  const ramp = await call(
    app,
    "POST",
    "/v1/ramp/register",
    headers,
    { quoteId: quote.id, ...addresses, ...extra },
    201,
  );
  if (type === "SELL")
    await call(app, "POST", "/v1/ramp/update", headers, { rampId: ramp.id, presignedTxs: signedTxs(ramp.unsignedTxs) });
  return ramp;
}

async function startedRamp(
  app: TestApp,
  headers: Headers,
  type: "BUY" | "SELL",
  inputAmount: string,
  extra: Record<string, unknown> = {},
) {
  const ramp = await registerRamp(app, headers, type, inputAmount, extra);
  const started = await call(app, "POST", "/v1/ramp/start", headers, { rampId: ramp.id });
  return { ...ramp, ...started } as Ramp;
}

/** Waits for the ramp's status to leave PENDING and returns it. */
function finished(app: TestApp, headers: Headers, rampId: string): Promise<Ramp> {
  return waitFor(
    () => call(app, "GET", `/v1/ramp/${rampId}`, headers),
    (ramp) => ramp.status !== "PENDING",
  );
}

async function outboxOf(app: TestApp, rampId: string): Promise<RampEventBody[]> {
  return (await readOutbox(app.app.reads, 0, 100_000)).entries
    .filter((entry) => entry.rampId === rampId)
    .map((entry) => entry.body);
}

/** [eventType, transactionStatus, currentPhase (PHASE_CHANGE only)] per event. */
const summary = (events: RampEventBody[]) =>
  events.map((event) =>
    event.eventType === "PHASE_CHANGE"
      ? [event.eventType, event.payload.transactionStatus, event.payload.currentPhase]
      : [event.eventType, event.payload.transactionStatus],
  );

const CREATED = ["TRANSACTION_CREATED", "PENDING"];
const phase = (name: string, status = "PENDING") => ["PHASE_CHANGE", status, name];
const COMPLETED = [
  CREATED,
  phase("awaitingPayment"),
  phase("paymentConfirmed"),
  phase("exchanging"),
  phase("payingOut"),
  phase("complete", "COMPLETE"),
  ["STATUS_CHANGE", "COMPLETE"],
];
/** A ramp the processor failed in `exchanging` (a scripted partner: the sandbox's). */
const FAILED_IN_EXCHANGE = [
  CREATED,
  phase("awaitingPayment"),
  phase("paymentConfirmed"),
  phase("exchanging"),
  phase("failed", "FAILED"),
  ["STATUS_CHANGE", "FAILED"],
];
const TIMED_OUT = [CREATED, phase("timedOut", "FAILED"), ["STATUS_CHANGE", "FAILED"]];

/** The exact body of every event of the ramp (CONTRACT.md, Webhooks), and time never running backwards. */
function expectEventBodies(events: RampEventBody[], ramp: Ramp) {
  const ids = new Set<string>();
  let previous = 0;
  for (const event of events) {
    expect(Object.keys(event).sort()).toEqual(["eventId", "eventType", "payload", "timestamp"]);
    expect(event.eventId).toMatch(UUID);
    ids.add(event.eventId);
    expect(event.timestamp).toMatch(ISO);
    expect(Date.parse(event.timestamp)).toBeGreaterThanOrEqual(previous);
    previous = Date.parse(event.timestamp);
    const { currentPhase, ...common } = event.payload;
    expect(common).toEqual({
      quoteId: ramp.quoteId,
      transactionId: ramp.id,
      sessionId: ramp.sessionId ?? null,
      transactionStatus: expect.stringMatching(/^(PENDING|COMPLETE|FAILED)$/),
      transactionType: ramp.type,
    });
    if (event.eventType === "PHASE_CHANGE") expect(currentPhase).toEqual(expect.any(String));
    else expect("currentPhase" in event.payload).toBe(false);
  }
  expect(ids.size).toBe(events.length);
}

async function errorsOf(app: TestApp, headers: Headers, rampId: string) {
  return call(app, "GET", `/v1/ramp/${rampId}/errors`, headers);
}

// ---------------------------------------------------------------------------------------------------------

describe("processing at the corridor's partner (BR: Avenia, through the simulator)", () => {
  it("completes a BUY with a transaction hash and explorer link; the outbox holds exactly its seven events", async () => {
    const headers = await newCaller(t);
    const ramp = await startedRamp(t, headers, "BUY", "100");
    expect(ramp).toMatchObject({ currentPhase: "awaitingPayment", status: "PENDING" });
    const done = await finished(t, headers, ramp.id);
    expect(done).toMatchObject({ currentPhase: "complete", status: "COMPLETE", startedAt: ramp.startedAt });
    expect(done.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(done.transactionExplorerLink).toBe(`https://polygonscan.com/tx/${done.transactionHash}`);
    expect(await errorsOf(t, headers, ramp.id)).toEqual([]);

    const events = await outboxOf(t, ramp.id);
    expect(summary(events)).toEqual(COMPLETED);
    expectEventBodies(events, ramp);
    // Each event carries the moment of its change: registration, then the start.
    expect(events[0].timestamp).toBe(ramp.createdAt);
    expect(events[1].timestamp).toBe(ramp.startedAt);
    // The history shows the payout transaction of a BUY.
    const history = await call(t, "GET", "/v1/ramp/history", headers);
    expect(history.transactions).toEqual([
      expect.objectContaining({
        id: ramp.id,
        status: "COMPLETE",
        currentPhase: "complete",
        externalTxHash: done.transactionHash,
        externalTxExplorerLink: done.transactionExplorerLink,
      }),
    ]);
  });

  it("completes a SELL (no payout hash); the outbox holds exactly its seven events", async () => {
    const headers = await newCaller(t);
    const ramp = await startedRamp(t, headers, "SELL", "50");
    const done = await finished(t, headers, ramp.id);
    expect(done).toMatchObject({
      type: "SELL",
      currentPhase: "complete",
      status: "COMPLETE",
    });
    // No payout hash: left out, as the reference leaves out an optional string without a value.
    expect(done).not.toHaveProperty("transactionHash");
    expect(done).not.toHaveProperty("transactionExplorerLink");
    expect(await errorsOf(t, headers, ramp.id)).toEqual([]);
    const events = await outboxOf(t, ramp.id);
    expect(summary(events)).toEqual(COMPLETED);
    expectEventBodies(events, ramp);
  });

  it.each([
    ["BUY", "100.66"],
    ["SELL", "50.66"],
  ] as const)(
    "fails a %s with amount %s when the partner fails its ticket: one unrecoverable error entry in our words, STATUS_CHANGE FAILED",
    async (type, amount) => {
      const headers = await newCaller(t);
      const ramp = await startedRamp(t, headers, type, amount);
      const done = await finished(t, headers, ramp.id);
      expect(done).toMatchObject({ currentPhase: "failed", status: "FAILED" });
      expect(done).not.toHaveProperty("transactionHash");
      const events = await outboxOf(t, ramp.id);
      const summed = summary(events);
      // The phases the processor saw before the ticket failed depend on when it read it; each is recorded once.
      const reached = summed.slice(1, -2).map((event) => event[2]);
      expect(reached.length).toBeGreaterThan(0);
      expect(["awaitingPayment", "paymentConfirmed", "exchanging", "payingOut"].slice(0, reached.length)).toEqual(
        reached,
      );
      expect([summed[0], ...summed.slice(-2)]).toEqual([
        CREATED,
        phase("failed", "FAILED"),
        ["STATUS_CHANGE", "FAILED"],
      ]);
      expectEventBodies(events, ramp);
      const errors = await errorsOf(t, headers, ramp.id);
      expect(errors).toEqual([
        {
          timestamp: expect.stringMatching(ISO),
          phase: reached.at(-1),
          error: "The partner failed the order",
          details: "The partner's liquidity provider refused the exchange.",
          recoverable: false,
        },
      ]);
      // The failure is the moment of the last two events.
      expect(events.at(-1)!.timestamp).toBe(errors[0].timestamp);
      // A failed ramp can be neither updated nor started again.
      expectRestError(
        await t.request("POST", "/v1/ramp/start", { headers, body: { rampId: ramp.id } }),
        409,
        "RAMP_NOT_STARTABLE",
      );
    },
  );

  it("completes a `.77` SELL after one recoverable error (the payout's 503), which adds no event; the payout is made once", async () => {
    const headers = await newCaller(t);
    const ramp = await startedRamp(t, headers, "SELL", "50.77");
    const done = await finished(t, headers, ramp.id);
    expect(done).toMatchObject({ currentPhase: "complete", status: "COMPLETE" });
    expect(await errorsOf(t, headers, ramp.id)).toEqual([
      {
        timestamp: expect.stringMatching(ISO),
        phase: "awaitingPayment",
        error: "The partner is unavailable",
        details: "Avenia gave no certain answer for the payout; it is looked up there before it is sent again.",
        recoverable: true,
      },
    ]);
    const events = await outboxOf(t, ramp.id);
    expect(summary(events)).toEqual(COMPLETED);
    expectEventBodies(events, ramp);
    const payouts = Object.entries(t.partners.simulator.stats().avenia.moneySteps).filter(([identity]) =>
      identity.startsWith(`payout:${SELLER.toLowerCase()}:`),
    );
    expect(payouts.every(([, count]) => count === 1)).toBe(true);
  });

  it("fails a SELL whose permit another ramp spent, without sending its payout: one payout per permit", async () => {
    const headers = await newCaller(t);
    const [first, second] = [
      await registerRamp(t, headers, "SELL", "50"),
      await registerRamp(t, headers, "SELL", "51"),
    ];
    // The second ramp's wallet signs the same permit nonce again.
    const { presignedTxs } = await t.app.db.ramp.findUniqueOrThrow({ where: { id: first.id } });
    await call(t, "POST", "/v1/ramp/update", headers, { rampId: second.id, presignedTxs: JSON.parse(presignedTxs) });
    for (const ramp of [first, second]) await call(t, "POST", "/v1/ramp/start", headers, { rampId: ramp.id });
    const outcomes = await Promise.all([first, second].map((ramp) => finished(t, headers, ramp.id)));
    expect(outcomes.map((ramp) => ramp.status).sort()).toEqual(["COMPLETE", "FAILED"]);
    const failed = outcomes.find((ramp) => ramp.status === "FAILED")!;
    expect(await errorsOf(t, headers, failed.id)).toEqual([
      expect.objectContaining({
        phase: "awaitingPayment",
        error: "The partner refused the payout",
        recoverable: false,
      }),
    ]);
    const nonce = (JSON.parse(presignedTxs) as { nonce: number }[])[0].nonce;
    expect(t.partners.simulator.stats().avenia.moneySteps[`payout:${SELLER.toLowerCase()}:${nonce}`]).toBe(1);
  });

  it("carries the widget session id in every event of a ramp registered with one", async () => {
    const headers = await newCaller(t);
    const session = await call(
      t,
      "POST",
      "/v1/session/create",
      headers,
      { rampType: "BUY", network: "polygon", inputAmount: "100", externalSessionId: `ext-${randomUUID()}` },
      201,
    );
    const ramp = await startedRamp(t, headers, "BUY", "100", { sessionId: session.sessionId });
    expect(ramp.sessionId).toBe(session.sessionId);
    await finished(t, headers, ramp.id);
    const events = await outboxOf(t, ramp.id);
    expect(summary(events)).toEqual(COMPLETED);
    expectEventBodies(events, ramp);
    expect(events.map((event) => event.payload.sessionId)).toEqual(Array(7).fill(session.sessionId));
  });
});

describe("a provider whose answers jump phases", () => {
  it("records each phase a jump skips once, in order, in the change's one moment; an answer of no progress records nothing", async () => {
    const partner = new ObservingPartner({
      BUY: ["complete"],
      SELL: ["awaitingPayment", "exchanging", "exchanging", "complete"],
    });
    const app = await startTestApp(LIMITS, { workers: true, seams: { rampProvider: partner } });
    try {
      const headers = await newCaller(app);
      const buy = await startedRamp(app, headers, "BUY", "100");
      const sell = await startedRamp(app, headers, "SELL", "50");
      const doneBuy = await finished(app, headers, buy.id);
      expect(doneBuy).toMatchObject({ currentPhase: "complete", status: "COMPLETE", transactionHash: PAYOUT_HASH });
      expect(await finished(app, headers, sell.id)).toMatchObject({ currentPhase: "complete", status: "COMPLETE" });
      expect(partner.askedFor(buy.id)).toEqual([`${buy.id}:awaitingPayment:0`]);
      expect(partner.askedFor(sell.id)).toEqual([
        `${sell.id}:awaitingPayment:0`,
        `${sell.id}:awaitingPayment:0`,
        `${sell.id}:exchanging:0`,
        `${sell.id}:exchanging:0`,
      ]);

      for (const ramp of [buy, sell]) {
        const events = await outboxOf(app, ramp.id);
        expect(summary(events)).toEqual(COMPLETED);
        expectEventBodies(events, ramp);
        expect(await errorsOf(app, headers, ramp.id)).toEqual([]);
      }
      // The BUY's one answer moved it from awaitingPayment to complete: its last five events are that one change.
      const buyEvents = await outboxOf(app, buy.id);
      expect(new Set(buyEvents.slice(2).map((event) => event.timestamp)).size).toBe(1);
      expect(await stepCallsCounted(app)).toMatchObject({ advance: 5, retry: 0, fail: 0, no_answer: 0 });
    } finally {
      await app.close();
    }
  });
});

describe("an order that expires unpaid", () => {
  it("fails its ramp once the partner's order is past its expiry, and nothing reads the order after", async () => {
    // The payer never pays; the pay-in ticket takes a payment for 400 ms.
    const app = await startTestApp(
      { ...LIMITS, PARTNER_SIM_PAYMENT_DELAY_MS: "600000", PARTNER_SIM_ORDER_LIFETIME_MS: "400" },
      { workers: true },
    );
    try {
      const headers = await newCaller(app);
      const ramp = await startedRamp(app, headers, "BUY", "100");
      const done = await finished(app, headers, ramp.id);
      expect(done).toMatchObject({ currentPhase: "failed", status: "FAILED" });
      expect(await errorsOf(app, headers, ramp.id)).toEqual([
        {
          timestamp: expect.stringMatching(ISO),
          phase: "awaitingPayment",
          error: "Payment not received",
          details: expect.stringMatching(/^Avenia's order expired at \S+ before the payment arrived\.$/),
          recoverable: false,
        },
      ]);
      expect(summary(await outboxOf(app, ramp.id))).toEqual([
        CREATED,
        phase("awaitingPayment"),
        phase("failed", "FAILED"),
        ["STATUS_CHANGE", "FAILED"],
      ]);
      const reads = () => app.partners.simulator.stats().avenia.calls["GET /v2/account/tickets/{id}"];
      const readsAtTheEnd = reads();
      await sleep(200);
      expect(reads()).toBe(readsAtTheEnd);
      // The expired BR Code takes no payment at the partner either.
      const { partnerOrderId } = await app.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.id } });
      expect(app.partners.simulator.payAveniaTicket(partnerOrderId!)).toBe(false);
    } finally {
      await app.close();
    }
  });
});

describe("the start window", () => {
  it("times out unstarted ramps: phase timedOut, status FAILED, an error entry, events, and update/start answer 400", async () => {
    const headers = await newCaller(short);
    const [buy, sell] = [
      await registerRamp(short, headers, "BUY", "100"),
      await registerRamp(short, headers, "SELL", "50"),
    ];
    expect(Date.parse(buy.expiresAt) - Date.parse(buy.createdAt)).toBe(1000);
    // Initial ramps are not in the history; the empty page read now is cached until they time out.
    expect((await call(short, "GET", "/v1/ramp/history", headers)).totalCount).toBe("0");
    for (const ramp of [buy, sell]) {
      const done = await finished(short, headers, ramp.id);
      expect(done).toMatchObject({ currentPhase: "timedOut", status: "FAILED", startedAt: null });
      expect(await errorsOf(short, headers, ramp.id)).toEqual([
        {
          timestamp: expect.stringMatching(ISO),
          phase: "initial",
          error: "Start window elapsed",
          details: expect.stringContaining(ramp.expiresAt),
          recoverable: false,
        },
      ]);
      const events = await outboxOf(short, ramp.id);
      expect(summary(events)).toEqual(TIMED_OUT);
      expectEventBodies(events, ramp);
      expect(Date.parse(events[1].timestamp)).toBeGreaterThanOrEqual(Date.parse(ramp.expiresAt));
      expectRestError(
        await short.request("POST", "/v1/ramp/update", {
          headers,
          body: { rampId: ramp.id, presignedTxs: signedTxs(ramp.unsignedTxs) },
        }),
        400,
        "RAMP_START_WINDOW_ELAPSED",
      );
      expectRestError(
        await short.request("POST", "/v1/ramp/start", { headers, body: { rampId: ramp.id } }),
        400,
        "RAMP_START_WINDOW_ELAPSED",
      );
    }
    // Timed-out ramps left their initial phase: the history lists them, as FAILED.
    const history = await call(short, "GET", "/v1/ramp/history", headers);
    expect(history.totalCount).toBe("2");
    expect(
      history.transactions.map((entry: { status: string; currentPhase: string }) => [entry.status, entry.currentPhase]),
    ).toEqual([
      ["FAILED", "timedOut"],
      ["FAILED", "timedOut"],
    ]);
  });

  it("never times out a ramp started within its window", async () => {
    const headers = await newCaller(short);
    const ramp = await startedRamp(short, headers, "BUY", "100");
    const done = await finished(short, headers, ramp.id);
    expect(done).toMatchObject({ currentPhase: "complete", status: "COMPLETE" });
    expect(Date.parse(ramp.startedAt)).toBeLessThan(Date.parse(ramp.expiresAt));
    // Well past the deadline, it is still complete with the same events.
    await waitFor(
      async () => Date.now(),
      (now) => now > Date.parse(ramp.expiresAt) + 100,
    );
    await short.app.rampProcessor.tick();
    expect((await call(short, "GET", `/v1/ramp/${ramp.id}`, headers)).currentPhase).toBe("complete");
    expect(summary(await outboxOf(short, ramp.id))).toEqual(COMPLETED);
  });
});

describe("durability and concurrency of processing", () => {
  it("resumes a ramp in flight after the process stops and another starts on the same database", async () => {
    const database = await freshDatabase();
    let partners: TestPartners | undefined;
    let first: TestApp | undefined;
    let second: TestApp | undefined;
    try {
      // One partner for both instances, whose payer pays a second after the ticket is made: after the first stopped.
      partners = await startTestPartners({ PARTNER_SIM_PAYMENT_DELAY_MS: "1000" });
      // No workers: the steps happen only when this test ticks.
      first = await startTestApp(LIMITS, { database, partners });
      const headers = await newCaller(first);
      const ramp = await startedRamp(first, headers, "BUY", "100");
      const unstarted = await registerRamp(first, headers, "SELL", "50");
      await first.app.rampProcessor.tick(new Date(Date.now() + 60_000));
      const read = await call(first, "GET", `/v1/ramp/${ramp.id}`, headers);
      expect(read.currentPhase).toBe("awaitingPayment");
      expect(partners.simulator.stats().avenia.calls["GET /v2/account/tickets/{id}"]).toBe(1);
      await first.close();
      first = undefined;

      second = await startTestApp(LIMITS, { database, partners, workers: true });
      const done = await finished(second, headers, ramp.id);
      expect(done).toMatchObject({ currentPhase: "complete", status: "COMPLETE" });
      expect(done.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
      const events = await outboxOf(second, ramp.id);
      expect(summary(events)).toEqual(COMPLETED);
      expectEventBodies(events, ramp);
      // A ramp registered before the restart can still be started after it, and completes.
      expect((await call(second, "POST", "/v1/ramp/start", headers, { rampId: unstarted.id })).currentPhase).toBe(
        "awaitingPayment",
      );
      expect(await finished(second, headers, unstarted.id)).toMatchObject({ status: "COMPLETE" });
      expect(summary(await outboxOf(second, unstarted.id))).toEqual(COMPLETED);
    } finally {
      await first?.close();
      await second?.close();
      await partners?.simulator.stop();
      await database.drop();
    }
  });

  it("never asks for nor applies a step twice with two processors on one database, though each answer takes a while", async () => {
    const database = await freshDatabase();
    // Slow answers and eager polling: without a claim, both processors would find every step due while it is asked.
    const partner = new RecordedPartner(async () => sleep(40));
    const settings = { ...LIMITS, RAMP_PROCESSOR_INTERVAL_MS: "5" };
    const seams = { rampProvider: partner };
    const [first, second] = await Promise.all([
      startTestApp(settings, { database, workers: true, seams }),
      startTestApp(settings, { database, workers: true, seams }),
    ]);
    try {
      const headers = await newCaller(first);
      const amounts = [
        ["BUY", "100", 4],
        ["BUY", "100.77", 5],
        ["BUY", "100.66", 3],
        ["SELL", "50", 4],
        ["SELL", "50.77", 5],
        ["BUY", "150", 4],
      ] as const;
      const ramps: Ramp[] = [];
      for (const [type, amount] of amounts) ramps.push(await registerRamp(first, headers, type, amount));
      await Promise.all(
        ramps.map((ramp, index) =>
          call(index % 2 ? second : first, "POST", "/v1/ramp/start", headers, { rampId: ramp.id }),
        ),
      );
      for (const [index, ramp] of ramps.entries()) {
        const [, amount] = amounts[index];
        const done = await finished(index % 2 ? first : second, headers, ramp.id);
        const events = await outboxOf(first, ramp.id);
        expectEventBodies(events, ramp);
        const errors = await errorsOf(first, headers, ramp.id);
        if (amount.endsWith(".66")) {
          expect(done.status).toBe("FAILED");
          expect(summary(events)).toEqual(FAILED_IN_EXCHANGE);
          expect(errors).toHaveLength(1);
        } else {
          expect(done.status).toBe("COMPLETE");
          expect(summary(events)).toEqual(COMPLETED);
          expect(errors).toHaveLength(amount.endsWith(".77") ? 1 : 0);
        }
      }

      expect(partner.asked).toHaveLength(amounts.reduce((sum, [, , steps]) => sum + steps, 0));
      expect(new Set(partner.asked).size).toBe(partner.asked.length);
      for (const [index, ramp] of ramps.entries())
        expect(partner.asked.filter((key) => key.startsWith(ramp.id))).toHaveLength(amounts[index][2]);
      // Each instance counts the calls it made, by answer.
      const [counted, countedThere] = await Promise.all([stepCallsCounted(first), stepCallsCounted(second)]);
      expect(counted.advance + countedThere.advance).toBe(partner.asked.length - 3);
      expect(counted.retry + countedThere.retry).toBe(2);
      expect(counted.fail + countedThere.fail).toBe(1);
      // The history's totals, kept as the two instances moved the ramps concurrently, match what it lists.
      for (const [status, total] of [
        ["", 6],
        ["?status=PENDING", 0],
        ["?status=COMPLETE", 5],
        ["?status=FAILED", 1],
      ] as const) {
        const history = await call(second, "GET", `/v1/ramp/history${status}`, headers);
        expect([status, history.totalCount, history.transactions.length]).toEqual([status, String(total), total]);
      }
    } finally {
      await Promise.all([first.close(), second.close()]);
      await database.drop();
    }
  });

  it("asks again, with the same key, for a step the partner gave no answer to; the caller sees no error", async () => {
    let unanswered = 0;
    const partner = new RecordedPartner(async (ramp) => {
      if (ramp.currentPhase === "exchanging" && unanswered++ === 0) throw new Error("connection reset by the partner");
    });
    const app = await startTestApp(LIMITS, { workers: true, seams: { rampProvider: partner } });
    try {
      const headers = await newCaller(app);
      const ramp = await startedRamp(app, headers, "BUY", "100");
      expect(await finished(app, headers, ramp.id)).toMatchObject({ status: "COMPLETE" });
      const exchange = `${ramp.id}:exchanging:0`;
      expect(partner.asked.filter((key) => key === exchange)).toHaveLength(2);
      expect(partner.asked).toHaveLength(5);
      expect(await errorsOf(app, headers, ramp.id)).toEqual([]);
      expect(summary(await outboxOf(app, ramp.id))).toEqual(COMPLETED);
      expect(await stepCallsCounted(app)).toMatchObject({ advance: 4, no_answer: 1 });
    } finally {
      await app.close();
    }
  });

  it("keeps nothing of a partner call once it is answered: its abort signal is garbage", async () => {
    const partner = new RecordedPartner(async () => undefined);
    const app = await startTestApp(LIMITS, { workers: true, seams: { rampProvider: partner } });
    try {
      const headers = await newCaller(app);
      const ramp = await startedRamp(app, headers, "BUY", "100");
      expect(await finished(app, headers, ramp.id)).toMatchObject({ status: "COMPLETE" });
      expect(partner.signals).toHaveLength(4);
      await collectGarbage();
      expect(partner.signals.filter((signal) => signal.deref() !== undefined)).toHaveLength(0);
    } finally {
      await app.close();
    }
  });

  it("gives a step back at once when its processor stops during the call: another instance completes the ramp", async () => {
    const database = await freshDatabase();
    let stopping: TestApp | undefined;
    let successor: TestApp | undefined;
    try {
      // A partner that never answers, and ignores the signal that gives up on it.
      const partner = new RecordedPartner(() => new Promise<void>(() => {}));
      stopping = await startTestApp(LIMITS, { database, workers: true, seams: { rampProvider: partner } });
      const headers = await newCaller(stopping);
      const ramp = await startedRamp(stopping, headers, "SELL", "50");
      await waitFor(
        async () => partner.asked.length,
        (asked) => asked > 0,
      );
      const stoppedAt = performance.now();
      await stopping.close();
      stopping = undefined;
      expect(performance.now() - stoppedAt).toBeLessThan(5_000);

      // The same partner, answering now (the sandbox: the ramp was registered there).
      const answering = new RecordedPartner(async () => undefined);
      successor = await startTestApp(LIMITS, { database, workers: true, seams: { rampProvider: answering } });
      expect(await finished(successor, headers, ramp.id)).toMatchObject({ status: "COMPLETE" });
      expect(summary(await outboxOf(successor, ramp.id))).toEqual(COMPLETED);
    } finally {
      await stopping?.close();
      await successor?.close();
      await database.drop();
    }
  });
});

/** The sandbox, priced as the gateway prices BR at the simulator's market. */
class SandboxWithPrices extends SandboxRampProvider implements RampProvider {
  async marketTerms(): Promise<MarketTerms> {
    return SIMULATOR_MARKET_TERMS;
  }
}

/**
 * The sandbox partner, recording the key of every step asked of it (and, weakly, the signal that gives up on
 * it) and running `before` first (latency, failures).
 */
class RecordedPartner extends SandboxWithPrices {
  readonly asked: string[] = [];
  readonly signals: WeakRef<AbortSignal>[] = [];

  constructor(private readonly before: (ramp: ProviderRamp) => Promise<void>) {
    super(0);
  }

  // Optional as in the sandbox's own signature; the processor always gives one (WeakRef throws without).
  override async step(ramp: ProviderRamp, signal?: AbortSignal): Promise<StepOutcome> {
    this.asked.push(ramp.stepKey);
    this.signals.push(new WeakRef(signal!));
    await this.before(ramp);
    return super.step(ramp);
  }
}

const PAYOUT_HASH = `0x${"cd".repeat(32)}`;

/**
 * A partner that answers what it observes of its order, as a reading of the partner's status does: the phases of
 * `observedByType`, one per call, each as an advance (a BUY's complete with its payout hash).
 */
class ObservingPartner extends SandboxWithPrices {
  private readonly asked: string[] = [];

  constructor(private readonly observedByType: Record<"BUY" | "SELL", RampPhase[]>) {
    super(0);
  }

  askedFor(rampId: string): string[] {
    return this.asked.filter((key) => key.startsWith(`${rampId}:`));
  }

  override async step(ramp: ProviderRamp): Promise<StepOutcome> {
    const phase = this.observedByType[ramp.type][this.askedFor(ramp.id).length];
    this.asked.push(ramp.stepKey);
    if (!phase) throw new Error(`asked once more than scripted for ramp ${ramp.id}`);
    return phase === "complete" && ramp.type === "BUY"
      ? { kind: "advance", phase, transactionHash: PAYOUT_HASH }
      : { kind: "advance", phase };
  }
}

/** A full garbage collection, after the current turn (a WeakRef keeps what it was made or read with until then). */
async function collectGarbage(): Promise<void> {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

/** The instance's count of partner calls for ramp steps, by answer (its /metrics). */
async function stepCallsCounted(app: TestApp): Promise<Record<string, number>> {
  const counts: Record<string, number> = { advance: 0, retry: 0, fail: 0, no_answer: 0 };
  for (const match of (await app.app.metrics.text()).matchAll(
    /^ramp_provider_step_duration_seconds_count\{outcome="(\w+)"\} (\d+)$/gm,
  ))
    counts[match[1]] = Number(match[2]);
  return counts;
}

describe("a history page's total", () => {
  const sqlite = openDatabaseForTests("sqlite");

  it("is read from the counts kept per status, not by counting the subject's ramps, unless other filters apply", async () => {
    const database = sqlite();
    const { reads } = database;
    const planOf = async (page: Partial<z.input<typeof historyInput>>) => {
      const asked: { sql: string; args: readonly unknown[] }[] = [];
      const recording = {
        ...reads,
        all: async (statement: Statement) => {
          const [sql, args] = textOf(statement);
          asked.push({ sql, args });
          return [];
        },
      };
      await new RampRepository({ ...database, reads: recording }).listHistory(randomUUID(), historyInput.parse(page));
      const plan = await reads.all(rawSql<{ detail: string }>(`EXPLAIN QUERY PLAN ${asked[0]!.sql}`, asked[0]!.args));
      return plan.map(({ detail }) => detail);
    };
    const byOwner = /^SEARCH Ramp USING INDEX Ramp_profileId_createdAt_idx/;
    for (const page of [{}, { status: "FAILED" as const }]) {
      const plan = await planOf(page);
      expect(plan.filter((line) => byOwner.test(line))).toHaveLength(1);
      expect(plan).toContainEqual(expect.stringMatching(/^SEARCH RampHistoryCount USING /));
    }
    // Filtered by type, the matching ramps are counted.
    expect((await planOf({ type: "BUY" })).filter((line) => byOwner.test(line))).toHaveLength(2);
  });
});

describe("the processor's work lists", () => {
  // A full scan of the ramps at every pass (four a second) grows with the history. The plan is the same whatever
  // the project's engine, so it is checked on a SQLite database of its own.
  const sqlite = openDatabaseForTests("sqlite");

  it("are read through indexes on SQLite, never by reading every ramp", async () => {
    const database = sqlite();
    const { reads } = database;
    for (const find of ["findDueRamps", "findUnstartedPastDeadline"] as const) {
      const asked: { sql: string; args: readonly unknown[] }[] = [];
      const recording = {
        ...reads,
        all: async (statement: Statement) => {
          const [sql, args] = textOf(statement);
          asked.push({ sql, args });
          return [];
        },
      };
      await new RampRepository({ ...database, reads: recording })[find](new Date(), 100);
      const plan = await reads.all(rawSql<{ detail: string }>(`EXPLAIN QUERY PLAN ${asked[0]!.sql}`, asked[0]!.args));
      expect(plan.map(({ detail }) => detail)).toEqual([
        expect.stringMatching(/^SEARCH Ramp USING INDEX Ramp_(nextStepAt|currentPhase_startDeadline)_idx \(/),
        expect.stringMatching(/^SEARCH Quote USING INDEX sqlite_autoindex_Quote_1 \(id=\?\)$/),
      ]);
    }
  });
});
