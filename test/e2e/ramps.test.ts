import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { call, expectCall, httpSend, newSecretKey, signIn } from "../support/e2e-http.js";
import { BUY_QUOTE, EVM_ADDRESS, PIX_KEY, signedTxs, waitFor } from "../support/kit.js";
import { completeKyc } from "../support/kyc.js";
import { startTestPartners, type TestPartners } from "../support/partner-simulator.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { startSmtpCapture, type SmtpCapture } from "../support/smtp.js";

/**
 * Ramps on the BUILT server process (`npm run build` first) over real HTTP: a BUY and a SELL ramp run to
 * COMPLETE on the sandbox provider, a ramp in flight survives `kill -9` of its server (a new process on the
 * same database finishes it, each phase once), and a ramp never started fails as timed out.
 */

const PROCESSING = ["awaitingPayment", "paymentConfirmed", "exchanging", "payingOut", "complete"];
// Sign-ins from one address in a row; KYC decided as soon as it is finished (callers complete BR KYC first).
const CALLER_ENV = { RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "1000", PARTNER_SIM_KYC_DECISION_MS: "0" };

/* ---------------------------------------------------------------- HTTP */

/** A secret key of a freshly signed-in profile whose BR KYC is approved (ramps there need it). */
async function secretKeyHeaders(server: ServerProcess, label: string): Promise<Record<string, string>> {
  const { headers } = await newSecretKey(server, label);
  await completeKyc(httpSend(server), headers, ["BR"]);
  return headers;
}

const readRamp = (server: ServerProcess, headers: Record<string, string>, id: string) =>
  expectCall(200, server, "GET", `/v1/ramp/${id}`, { headers });

/* ------------------------------------------------------------- ramps */

const SELL_QUOTE = {
  rampType: "SELL",
  from: "polygon",
  to: "pix",
  inputAmount: "100.00",
  inputCurrency: "USDC",
  outputCurrency: "BRL",
};

async function registerBuy(server: ServerProcess, headers: Record<string, string>) {
  const quote = await expectCall(201, server, "POST", "/v1/quotes", { headers, body: BUY_QUOTE });
  const ramp = await expectCall(201, server, "POST", "/v1/ramp/register", {
    headers,
    body: { quoteId: quote.id, destinationAddress: EVM_ADDRESS },
  });
  expect(ramp).toMatchObject({
    quoteId: quote.id,
    type: "BUY",
    currentPhase: "initial",
    status: "PENDING",
    walletAddress: EVM_ADDRESS,
  });
  return ramp;
}

/** The ramp's outbox entries, in order, read from the server's database. */
async function outboxOf(database: TestDatabase, rampId: string) {
  const { db, close } = await openDatabase(database.config);
  try {
    const rows = await db.rampEvent.findMany({ where: { rampId }, orderBy: { sequence: "asc" } });
    return rows.map(
      (row) =>
        JSON.parse(row.body) as {
          eventId: string;
          eventType: string;
          timestamp: string;
          payload: Record<string, unknown>;
        },
    );
  } finally {
    await close();
  }
}

/** The events of a ramp that ran from registration to COMPLETE: created, every phase once, one status change. */
function expectCompletedOutbox(
  events: Awaited<ReturnType<typeof outboxOf>>,
  ramp: { id: string; quoteId: string; type: string },
) {
  expect(
    events.map((event) => [event.eventType, event.payload.currentPhase ?? null, event.payload.transactionStatus]),
  ).toEqual([
    ["TRANSACTION_CREATED", null, "PENDING"],
    ...PROCESSING.map((phase) => ["PHASE_CHANGE", phase, phase === "complete" ? "COMPLETE" : "PENDING"]),
    ["STATUS_CHANGE", null, "COMPLETE"],
  ]);
  for (const event of events) {
    expect(event.payload).toMatchObject({
      transactionId: ramp.id,
      quoteId: ramp.quoteId,
      transactionType: ramp.type,
      sessionId: null,
    });
    expect(new Date(event.timestamp).toISOString()).toBe(event.timestamp);
  }
  expect(new Set(events.map((event) => event.eventId)).size).toBe(events.length);
}

describe("BUY and SELL ramps over real HTTP", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({
      env: { ...CALLER_ENV, SANDBOX_STEP_DELAY_MS: "50", RAMP_PROCESSOR_INTERVAL_MS: "20" },
    });
  });
  afterAll(() => server?.dispose());

  it("a BUY ramp (secret key) runs from quote to COMPLETE, with the payout hash and the outbox's events in order", async () => {
    const headers = await secretKeyHeaders(server, "e2e-buyer");
    const registered = await registerBuy(server, headers);
    expect(registered.paymentInstructions).toMatchObject({ method: "pix", currency: "BRL", amount: "250.00" });

    const started = await expectCall(200, server, "POST", "/v1/ramp/start", {
      headers,
      body: { rampId: registered.id },
    });
    expect(started).toMatchObject({
      id: registered.id,
      currentPhase: "awaitingPayment",
      status: "PENDING",
      startedAt: expect.any(String),
    });

    const done = await waitFor(
      () => readRamp(server, headers, registered.id),
      (ramp) => ramp.status !== "PENDING",
      "the BUY ramp to finish",
    );
    expect(done).toMatchObject({
      status: "COMPLETE",
      currentPhase: "complete",
      transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(done.transactionExplorerLink).toContain(done.transactionHash);
    expect(await expectCall(200, server, "GET", `/v1/ramp/${registered.id}/errors`, { headers })).toEqual([]);

    const history = await expectCall(200, server, "GET", "/v1/ramp/history?limit=20&offset=0", { headers });
    expect(history.totalCount).toBe("1");
    expect(history.transactions).toEqual([
      expect.objectContaining({
        id: registered.id,
        type: "BUY",
        status: "COMPLETE",
        currentPhase: "complete",
        fromAmount: "250.00",
      }),
    ]);

    expectCompletedOutbox(await outboxOf(server.database, registered.id), registered);
    // A finished ramp cannot start again.
    const again = await call(server, "POST", "/v1/ramp/start", { headers, body: { rampId: registered.id } });
    expect({ status: again.status, code: again.body?.error?.code }).toEqual({
      status: 409,
      code: "RAMP_NOT_STARTABLE",
    });
  });

  it("a SELL ramp (session) needs its signed transactions, then runs to COMPLETE", async () => {
    const { headers } = await signIn(server, "e2e-seller");
    await completeKyc(httpSend(server), headers, ["BR"]);
    const quote = await expectCall(201, server, "POST", "/v1/quotes", { headers, body: SELL_QUOTE });
    const registered = await expectCall(201, server, "POST", "/v1/ramp/register", {
      headers,
      body: { quoteId: quote.id, additionalData: { walletAddress: EVM_ADDRESS, pixDestination: PIX_KEY } },
    });
    expect(registered).toMatchObject({
      type: "SELL",
      currentPhase: "initial",
      status: "PENDING",
      walletAddress: EVM_ADDRESS,
      paymentInstructions: null,
    });
    expect(registered.unsignedTxs.length).toBeGreaterThan(0);

    const early = await call(server, "POST", "/v1/ramp/start", { headers, body: { rampId: registered.id } });
    expect({ status: early.status, code: early.body?.error?.code }).toEqual({ status: 400, code: "VALIDATION_FAILED" });
    expect(early.body.error.details).toEqual([expect.objectContaining({ field: "presignedTxs" })]);

    const presignedTxs = signedTxs(registered.unsignedTxs);
    const updated = await expectCall(200, server, "POST", "/v1/ramp/update", {
      headers,
      body: { rampId: registered.id, presignedTxs },
    });
    expect(updated).toMatchObject({ id: registered.id, currentPhase: "initial" });
    await expectCall(200, server, "POST", "/v1/ramp/start", { headers, body: { rampId: registered.id } });

    const done = await waitFor(
      () => readRamp(server, headers, registered.id),
      (ramp) => ramp.status !== "PENDING",
      "the SELL ramp to finish",
    );
    expect(done).toMatchObject({
      status: "COMPLETE",
      currentPhase: "complete",
      inputAmount: "100.00",
      inputCurrency: "USDC",
      outputCurrency: "BRL",
    });
    expectCompletedOutbox(await outboxOf(server.database, registered.id), registered);
  });
});

describe("a ramp in flight survives kill -9 of its server", () => {
  let database: TestDatabase;
  let smtp: SmtpCapture;
  /** The partner outlives the gateway's processes, as a partner does: it runs in this test's process. */
  let partners: TestPartners;
  const servers: ServerProcess[] = [];
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await freshDatabase();
    smtp = await startSmtpCapture();
    // The payer pays a second after the ticket is made, and the exchange takes a second more.
    partners = await startTestPartners({ PARTNER_SIM_PAYMENT_DELAY_MS: "1000", PARTNER_SIM_STAGE_DELAY_MS: "1000" });
    // No Avenia webhook is registered at this simulator: KYC decisions and tickets are polled for.
    env = {
      ...CALLER_ENV,
      ...partners.env,
      KYC_CHECK_INTERVAL_MS: "100",
      RAMP_CHECK_INTERVAL_MS: "100",
      RAMP_PROCESSOR_INTERVAL_MS: "50",
    };
  });
  afterAll(async () => {
    for (const server of servers) await server.dispose();
    await partners?.simulator.stop();
    await smtp?.close();
    await database?.drop();
  });

  it("a new process on the same database completes it, each phase once", async () => {
    const first = await startServerProcess({ database, smtp, env });
    servers.push(first);
    const headers = await secretKeyHeaders(first, "e2e-crash");
    const registered = await registerBuy(first, headers);
    await expectCall(200, first, "POST", "/v1/ramp/start", { headers, body: { rampId: registered.id } });

    // Mid-way: paid, the exchange under way at the partner, not finished.
    const midway = await waitFor(
      () => readRamp(first, headers, registered.id),
      (ramp) => ramp.currentPhase !== "awaitingPayment",
      "the first processing step",
      15_000,
    );
    expect(midway.currentPhase).toBe("exchanging");
    expect(await first.stop("SIGKILL")).toBeNull();

    const second = await startServerProcess({ database, smtp, env });
    servers.push(second);
    const done = await waitFor(
      () => readRamp(second, headers, registered.id),
      (ramp) => ramp.status !== "PENDING",
      "the ramp to finish after the restart",
      30_000,
    );
    expect(done).toMatchObject({ status: "COMPLETE", currentPhase: "complete" });
    expect(await expectCall(200, second, "GET", `/v1/ramp/${registered.id}/errors`, { headers })).toEqual([]);

    const events = await outboxOf(database, registered.id);
    const phases = events
      .filter((event) => event.eventType === "PHASE_CHANGE")
      .map((event) => event.payload.currentPhase);
    expect(phases).toEqual(PROCESSING);
    expectCompletedOutbox(events, registered);
  });
});

describe("start window", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({
      env: {
        ...CALLER_ENV,
        RAMP_START_WINDOW_SECONDS: "1",
        SANDBOX_STEP_DELAY_MS: "50",
        RAMP_PROCESSOR_INTERVAL_MS: "20",
      },
    });
  });
  afterAll(() => server?.dispose());

  it("a ramp not started within RAMP_START_WINDOW_SECONDS becomes FAILED (timedOut) and can no longer start", async () => {
    const headers = await secretKeyHeaders(server, "e2e-late");
    const registered = await registerBuy(server, headers);
    const expiresAt = Date.parse(registered.expiresAt);
    expect(expiresAt - Date.parse(registered.createdAt)).toBe(1000);

    const failed = await waitFor(
      () => readRamp(server, headers, registered.id),
      (ramp) => ramp.status !== "PENDING",
      "the start window to elapse",
    );
    expect(failed).toMatchObject({ status: "FAILED", currentPhase: "timedOut", startedAt: null });
    expect(await expectCall(200, server, "GET", `/v1/ramp/${registered.id}/errors`, { headers })).toEqual([
      {
        timestamp: expect.any(String),
        phase: "initial",
        error: "Start window elapsed",
        details: expect.any(String),
        recoverable: false,
      },
    ]);

    const late = await call(server, "POST", "/v1/ramp/start", { headers, body: { rampId: registered.id } });
    expect({ status: late.status, code: late.body?.error?.code }).toEqual({
      status: 400,
      code: "RAMP_START_WINDOW_ELAPSED",
    });

    const events = await outboxOf(server.database, registered.id);
    expect(
      events.map((event) => [event.eventType, event.payload.currentPhase ?? null, event.payload.transactionStatus]),
    ).toEqual([
      ["TRANSACTION_CREATED", null, "PENDING"],
      ["PHASE_CHANGE", "timedOut", "FAILED"],
      ["STATUS_CHANGE", null, "FAILED"],
    ]);
  });
});
