// npm run bench, third part: the ramp lifecycle (quote, register, update for SELL, start, then the processor's
// steps to COMPLETE) with a fixed number of ramps in flight, next to the floor that the partner's timings and
// the processor's poll schedule set. The scenario only talks to the gateway (REST and one graphql-ws
// subscription), so a gateway whose partner runs elsewhere (issue 41's simulator out of process) is one more
// entry of GATEWAYS. Figures only: nothing here passes or fails.
import { randomBytes, randomInt } from "node:crypto";
import { performance } from "node:perf_hooks";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import {
  ADDRESS,
  api,
  benchPostgres,
  completeBrKyc,
  completeDomesticKyc,
  cpuMicros,
  LOAD_CPU,
  percentile,
  pinSelf,
  QUOTE,
  SERVER_CPU,
  signIn,
  startServer,
} from "./support.mjs";

// The built gateway's own code (npm run bench builds first): how it parses its settings, and a ramp's phases.
const built = (path) => import(new URL(`../dist/${path}`, import.meta.url).href);
const { loadConfig } = await built("config.js");

/** Ramps in flight at once, one row each: the first leaves the gateway's core mostly idle, the second not. */
const IN_FLIGHT = (process.env.BENCH_LIFECYCLE_IN_FLIGHT ?? "16,64").split(",").map(Number);
const DURATION_S = Number(process.env.BENCH_LIFECYCLE_DURATION_S ?? 20);
/** Before each row's timed seconds: the first lifecycles are also when V8 compiles their paths. */
const WARM_UP_S = 5;
/** The simulator's payment, deposit and stage delays (PARTNER_SIM_*), the same for both rows' partners. */
const STEP_DELAY_MS = Number(process.env.BENCH_LIFECYCLE_STEP_DELAY_MS ?? 200);
/**
 * What an Avenia ticket waits for on the simulator's clock (its src/avenia.ts): a pay-in is paid a payment delay after
 * it is made and settles a stage delay later; a payout's pull arrives a deposit delay after it is made and settles a
 * stage delay later. Two delays either way.
 */
const TICKET_DELAYS = 2;
/**
 * The stages an Alfredpay onramp goes through after its payment, a stage delay apart (the simulator's
 * src/alfredpay.ts, payOnramp): TRADE_COMPLETED, ON_CHAIN_INITIATED, ON_CHAIN_COMPLETED.
 */
const ONRAMP_STAGES = 3;
const LIFECYCLE_LIMIT_MS = 60_000;

/** BR's ramps, each direction in turn. */
const BR_QUOTES = {
  BUY: { ...QUOTE, inputAmount: "250.00" },
  SELL: {
    rampType: "SELL",
    from: "polygon",
    to: "pix",
    inputAmount: "50.00",
    inputCurrency: "USDC",
    outputCurrency: "BRL",
  },
};
/** MX's BUY: a SELL would need a payout account at Alfredpay first. */
const MX_QUOTES = {
  BUY: {
    rampType: "BUY",
    from: "spei",
    to: "polygon",
    inputAmount: "500.00",
    inputCurrency: "MXN",
    outputCurrency: "USDC",
  },
};
const RAMP_EVENTS =
  "subscription ($sessionId: ID) { rampEvents(sessionId: $sessionId) { eventType payload { transactionId transactionStatus } } }";

/**
 * Each row's gateway, the KYC its caller needs, the ramps it takes in turn and the floor its partner's schedule
 * sets. KYC is decided at once, as the other benches have it. Both partners run at the simulator, a child process of
 * the gateway (startServer's PARTNER_SIMULATOR=embedded), on its own clock and callbacks: BR's ramps at Avenia, MX's at
 * Alfredpay.
 */
const simulatedPartners = (databaseUrl) =>
  startServer({
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    PARTNER_SIM_PAYMENT_DELAY_MS: String(STEP_DELAY_MS),
    PARTNER_SIM_DEPOSIT_DELAY_MS: String(STEP_DELAY_MS),
    PARTNER_SIM_STAGE_DELAY_MS: String(STEP_DELAY_MS),
    PARTNER_SIM_KYC_DECISION_MS: "0",
  });
const GATEWAYS = [
  {
    row: "ramp lifecycle, Avenia (simulator out of process)",
    start: simulatedPartners,
    completeKyc: completeBrKyc,
    quotes: BR_QUOTES,
    floor: aveniaFloor,
  },
  {
    row: "ramp lifecycle, Alfredpay (simulator out of process)",
    start: simulatedPartners,
    completeKyc: (call) => completeDomesticKyc(call, "MX"),
    quotes: MX_QUOTES,
    floor: alfredpayFloor,
  },
];

/** The settings the gateway runs with, parsed by its own code from the environment startServer gave it. */
function settingsOf(gateway) {
  return loadConfig({
    ...process.env,
    NODE_ENV: "production",
    SMTP_URL: gateway.mail.url,
    PUBLIC_BASE_URL: gateway.url,
    ...gateway.env,
  });
}

/**
 * What the simulator's timings and the processor's schedule alone allow from start to COMPLETE for Avenia's tickets, on
 * a gateway that took no time: a BUY's pay-in ticket, made at registration, is paid and settled two delays later; a
 * SELL's payout ticket is made at the processor's first pass after the start (at once at best, an interval later at
 * worst), and its pull and settlement take two delays more. Each change is a callback that brings the ticket's read
 * forward to the next pass: the last is read at once at best, an interval later at worst.
 */
function aveniaFloor(gateway) {
  const { ramps, partners } = settingsOf(gateway);
  const delayMs = Number(partners.simulator.timings.PARTNER_SIM_STAGE_DELAY_MS);
  const least = TICKET_DELAYS * delayMs;
  return {
    label: `tickets: ${TICKET_DELAYS} delays of ${delayMs} ms, passes ${ramps.processorIntervalMs} ms apart (1)`,
    least,
    most: least + 2 * ramps.processorIntervalMs,
  };
}

/**
 * What the simulator's timings and the processor's schedule alone allow from start to COMPLETE, on a gateway that
 * took no time (its registration, which makes the order, and the start at once): the order is paid a payment
 * delay after it was made and goes through its stages a stage delay apart on the simulator's clock, whatever the
 * gateway reads meanwhile. Each change is a callback, which brings the processor's read of the order forward to
 * its next pass (a read due after RAMP_CHECK_INTERVAL_MS, when a callback is lost, finds no stage sooner): the last
 * stage is read at the first pass after it, at once at best and a whole interval later at worst.
 */
function alfredpayFloor(gateway) {
  const { ramps, partners } = settingsOf(gateway);
  const paymentMs = Number(partners.simulator.timings.PARTNER_SIM_PAYMENT_DELAY_MS);
  const stageMs = Number(partners.simulator.timings.PARTNER_SIM_STAGE_DELAY_MS);
  const least = paymentMs + ONRAMP_STAGES * stageMs;
  return {
    label: `payment ${paymentMs} ms, ${ONRAMP_STAGES} stages of ${stageMs} ms, passes ${ramps.processorIntervalMs} ms apart (3)`,
    least,
    most: least + ramps.processorIntervalMs,
  };
}

/* ------------------------------------------------------------------ the integrator */

/**
 * A caller of the gateway with a secret key and the row's KYC approved, and a widget session per direction of
 * `quotes` that its ramps are registered in. One graphql-ws connection follows the sessions through rampEvents:
 * each ramp's COMPLETE arrives there, two messages per ramp in all (its TRANSACTION_CREATED and its STATUS_CHANGE).
 */
async function integrator(gateway, { completeKyc, quotes }) {
  const session = await signIn(gateway);
  const { secretKey } = await api(gateway, session)("POST", "/v1/api-credentials", { name: "bench lifecycle" }, 201);
  const call = api(gateway, { "x-api-key": secretKey });
  await completeKyc(call);
  const sessions = {};
  for (const [rampType, { inputAmount }] of Object.entries(quotes))
    ({ sessionId: sessions[rampType] } = await call(
      "POST",
      "/v1/session/create",
      { rampType, network: "polygon", inputAmount, externalSessionId: `bench lifecycle ${rampType}` },
      201,
    ));

  /** Ramp id: what its COMPLETE event settles. */
  const waiting = new Map();
  const client = createClient({
    url: `${gateway.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { "X-API-Key": secretKey },
    lazy: false,
    retryAttempts: 0,
  });
  const failed = (error) => {
    for (const { reject } of waiting.values())
      reject(error instanceof Error ? error : new Error(JSON.stringify(error)));
  };
  /** Per session, once an event of it arrived (the probe below): a function that ends the subscription. */
  const subscribed = Object.values(sessions).map(
    (sessionId) =>
      new Promise((resolve, reject) => {
        const stop = client.subscribe(
          { query: RAMP_EVENTS, variables: { sessionId } },
          {
            next({ data, errors }) {
              const arrivedAt = performance.now();
              if (errors) return failed(new Error(`rampEvents: ${JSON.stringify(errors)}`));
              resolve(stop);
              const { eventType, payload } = data.rampEvents;
              if (eventType !== "STATUS_CHANGE") return;
              const settle = waiting.get(payload.transactionId);
              if (!settle) return;
              waiting.delete(payload.transactionId);
              if (payload.transactionStatus === "COMPLETE") settle.resolve(arrivedAt);
              else settle.reject(new Error(`ramp ${payload.transactionId} ended ${payload.transactionStatus}`));
            },
            error(error) {
              reject(error instanceof Error ? error : new Error(JSON.stringify(error)));
              failed(error);
            },
            complete: () => undefined,
          },
        );
      }),
  );

  /** Registers a ramp of `rampType` in its direction's session (answers its registration). */
  const register = async (rampType) => {
    const quote = await call("POST", "/v1/quotes", quotes[rampType], 201);
    const wallet =
      rampType === "BUY"
        ? { destinationAddress: ADDRESS }
        : { additionalData: { walletAddress: ADDRESS, pixDestination: "bench@example.com" } };
    return call("POST", "/v1/ramp/register", { quoteId: quote.id, sessionId: sessions[rampType], ...wallet }, 201);
  };

  // A subscription listens once the server has authorized it, which the client is not told: a ramp registered
  // in each session until its TRANSACTION_CREATED arrives shows that it does.
  let probing = true;
  const probes = Object.keys(sessions).map(async (rampType) => {
    while (probing) {
      await register(rampType);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  const stops = await Promise.all(subscribed).finally(() => (probing = false));
  await Promise.all(probes);

  return {
    /** The directions its ramps take in turn. */
    rampTypes: Object.keys(quotes),
    /** One ramp from its quote to COMPLETE; answers the ms from sending its start to its COMPLETE event. */
    async lifecycle(rampType) {
      const ramp = await register(rampType);
      if (rampType === "SELL")
        // What the wallet signed, as in the journey of docs/guide.md: a made-up signature (the simulator checks none) with a
        // nonce of its own (Avenia spends a permit once).
        await call("POST", "/v1/ramp/update", { rampId: ramp.id, presignedTxs: signed(ramp.unsignedTxs) }, 200);
      const completed = new Promise((resolve, reject) => waiting.set(ramp.id, { resolve, reject }));
      const timer = setTimeout(
        () => waiting.get(ramp.id)?.reject(new Error(`ramp ${ramp.id} not COMPLETE after ${LIFECYCLE_LIMIT_MS} ms`)),
        LIFECYCLE_LIMIT_MS,
      );
      try {
        const started = performance.now();
        await call("POST", "/v1/ramp/start", { rampId: ramp.id }, 200);
        const completedAt = await completed;
        return { startToComplete: completedAt - started, completedAt };
      } finally {
        clearTimeout(timer);
        waiting.delete(ramp.id);
      }
    },
    async close() {
      for (const stop of stops) stop();
      await client.dispose();
    },
  };
}

/* ------------------------------------------------------------------ a row */

/**
 * `inFlight` callers each take ramps through their lifecycle one after the other, the directions in turn, for
 * WARM_UP_S and then DURATION_S: the COMPLETE events arriving in the timed seconds, their start-to-COMPLETE
 * times and the gateway's CPU time meanwhile. Then no caller starts another, and the ramps in flight finish.
 */
async function lifecycles(gateway, integrator, inFlight) {
  const opened = performance.now();
  const timedFrom = opened + WARM_UP_S * 1000;
  const timedTo = timedFrom + DURATION_S * 1000;
  const cpu = {};
  const cpuAt = (key, at) =>
    new Promise((resolve) => setTimeout(() => resolve((cpu[key] = cpuMicros(gateway.pid))), at - performance.now()));
  const latencies = [];
  const caller = async (index) => {
    for (let turn = index; performance.now() < timedTo; turn++) {
      const rampType = integrator.rampTypes[turn % integrator.rampTypes.length];
      const { startToComplete, completedAt } = await integrator.lifecycle(rampType);
      if (completedAt >= timedFrom && completedAt < timedTo) latencies.push(startToComplete);
    }
  };
  await Promise.all([
    ...Array.from({ length: inFlight }, (_, index) => caller(index)),
    cpuAt("from", timedFrom),
    cpuAt("to", timedTo),
  ]);
  return {
    inFlight,
    rate: latencies.length / DURATION_S,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuUs: (cpu.to - cpu.from) / latencies.length,
  };
}

/**
 * Every row of one engine: per gateway of GATEWAYS, its floor and a row per IN_FLIGHT. Each gateway gets a database
 * of its own (`freshDatabaseUrl`; none: SQLite in its data directory): it starts with secrets of its own, which
 * could not read what another gateway stored.
 */
async function measureEngine(engine, freshDatabaseUrl) {
  const results = [];
  for (const { row, start, floor, ...ramps } of GATEWAYS) {
    const gateway = await start(await freshDatabaseUrl());
    try {
      const caller = await integrator(gateway, ramps);
      try {
        const rows = [];
        for (const inFlight of IN_FLIGHT) rows.push(await lifecycles(gateway, caller, inFlight));
        results.push({ row, floor: floor(gateway), rows });
      } finally {
        await caller.close();
      }
    } finally {
      await gateway.stop();
    }
  }
  return { engine, results };
}

/* ------------------------------------------------------------------ run */

function print({ engine, results }) {
  console.log(
    `\nRamp lifecycle: ${engine}, NODE_ENV=production, the default LOG_LEVEL (info), gateway on CPU ${SERVER_CPU}, the bench's callers on CPU ${LOAD_CPU}, server defaults unless stated\n`,
  );
  const label = (text) => text.padEnd(70);
  const cells = (...values) => values.map((value, index) => String(value).padStart(index === 0 ? 9 : 8)).join(" ");
  console.log(`${label("")} ${cells("in flight", "ramps/s", "vs ceil.", "p50 ms", "p99 ms", "vs floor", "CPU µs")}`);
  for (const { row, floor, rows } of results) {
    console.log(`${label(`floor: ${floor.label}`)} ${cells("-", "-", "-", floor.least, floor.most, "1.00", "-")}`);
    for (const { inFlight, rate, p50, p99, cpuUs } of rows) {
      const ceiling = inFlight / (floor.least / 1000);
      console.log(
        `${label(`${row} (2)`)} ${cells(
          inFlight,
          rate.toFixed(1),
          (rate / ceiling).toFixed(2),
          p50.toFixed(0),
          p99.toFixed(0),
          (p99 / floor.most).toFixed(2),
          cpuUs.toFixed(0),
        )}`,
      );
    }
  }
}

pinSelf();
const postgresql = benchPostgres();
try {
  const results = [await measureEngine("embedded SQLite", async () => undefined)];
  if (postgresql) results.push(await measureEngine("PostgreSQL", () => postgresql.database("ramp_bench_lifecycle")));
  for (const result of results) print(result);
  console.log(`
(1) What the simulator's delays (PARTNER_SIM_PAYMENT_DELAY_MS, _DEPOSIT_DELAY_MS and _STAGE_DELAY_MS set to ${STEP_DELAY_MS}) and the
    processor's schedule (RAMP_PROCESSOR_INTERVAL_MS, default: it sleeps that long after each pass) allow from start to
    COMPLETE on a gateway that took no time (p50 and p99 columns: least and most): a BUY's pay-in ticket, made at
    registration, is paid a payment delay later and settles a stage delay after that; a SELL's payout ticket is made at the
    first pass after the start (at once at best, an interval later at worst), its pull arrives a deposit delay later and it
    settles a stage delay after that; each change is a signed callback whose next pass reads the ticket. Ceiling: the ramps
    in flight over the least time, the most ramps per second they could complete; "vs ceil." is the rate over it, "vs
    floor" the p99 over the most.
(2) That many callers of the bench, one secret key with the row's KYC approved (BR's at Avenia; MX's, an individual's
    through the API, at Alfredpay), each take ramps one after the other through POST /v1/quotes, /v1/ramp/register, for
    SELL /v1/ramp/update (the signed permit) and /v1/ramp/start, each until its STATUS_CHANGE to COMPLETE arrives:
    at Avenia BUY (250 BRL by PIX to USDC on Polygon) and SELL (50 USDC to BRL by PIX) in turn, at Alfredpay BUY only
    (500 MXN by SPEI to USDC on Polygon). Latency: from sending the start to that event's arrival. The callers move in step:
    the ramps one pass completes are started again together, and those the gateway answers last miss the next pass.
    ramps/s: the COMPLETE events arriving in ${DURATION_S} s after a warm-up of ${WARM_UP_S} s; CPU µs: the gateway's CPU time over
    those seconds per ramp completed (its quote, registration and start included; not the simulator's, a process of its
    own on the same core). Completion is followed by one graphql-ws connection subscribed to rampEvents of the widget
    session (one per direction) the ramps are registered in: two messages per ramp. Polling GET /v1/ramp/{id} would add
    requests per ramp and poll, a webhook an RSA-PSS signature per delivery on the gateway's core, rampProgress a
    subscription per ramp and a ramp read per phase.
(3) Alfredpay's orders move on the simulator's clock (PARTNER_SIM_PAYMENT_DELAY_MS, _STAGE_DELAY_MS and _DEPOSIT_DELAY_MS
    set to ${STEP_DELAY_MS}): an onramp is paid a payment delay after registration made it, then takes its ${ONRAMP_STAGES} stages a stage
    delay apart, each change a signed callback to the gateway whose next processor pass reads the order (without one,
    RAMP_CHECK_INTERVAL_MS after the last read). On a gateway that took no time the ramp completes at the first pass after
    the last stage: at once at best, an interval later at worst. The order's clock starts at registration, a little before
    the start the latency is timed from.`);
} finally {
  postgresql?.stop();
}

/** The unsigned transactions as the wallet sends them back signed: a made-up signature, a permit's nonce its own. */
function signed(unsignedTxs) {
  return unsignedTxs.map((tx) => ({
    ...tx,
    ...(tx.phase === "permit" && { nonce: randomInt(2 ** 31) }),
    signature: `0x${randomBytes(65).toString("hex")}`,
  }));
}
