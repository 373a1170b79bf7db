// npm run bench, second part: webhook delivery and subscription fan-out of the built server, each next to a
// baseline measured in the same run on the same machine (RSA-PSS signing on one core, a raw `ws` broadcast),
// so the ratios say what the gateway's own layers cost. Figures only: nothing here passes or fails.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import {
  ADDRESS,
  api,
  benchPostgres,
  completeBrKyc,
  cpuMicros,
  freePort,
  LOAD_CPU,
  median,
  pinSelf,
  QUOTE,
  SERVER_CPU,
  signIn,
  startPinned,
  startServer,
} from "./support.mjs";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const DELIVERY_ROUNDS = Number(process.env.BENCH_DELIVERY_ROUNDS ?? 3);
const PRODUCERS = Number(process.env.BENCH_PRODUCERS ?? 16);
const LATENCY_RAMPS = Number(process.env.BENCH_LATENCY_RAMPS ?? 50);
const DEAD_RECEIVER_EVENTS = 40;
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const FANOUT_ROUNDS = Number(process.env.BENCH_FANOUT_ROUNDS ?? 10);
/** Raw broadcast rounds (the fan-out's floor) before each rampEvents round. */
const BROADCASTS_PER_ROUND = 4;
const SIGNING_MS = 2500;
/** Between sandbox phases: long enough that one phase's fan-out is over before the next phase is written. */
const STEP_DELAY_MS = 2000;
const WAIT_LIMIT_MS = 60_000;

/** The bench's BR BUY quote, for a smaller amount. */
const BUY = { ...QUOTE, inputAmount: "250.00" };
const RAMP_EVENTS =
  "subscription ($sessionId: ID) { rampEvents(sessionId: $sessionId) { eventId eventType timestamp payload { quoteId transactionId sessionId transactionStatus transactionType } } }";
const RAMP_PROGRESS = "subscription ($rampId: ID!) { rampProgress(rampId: $rampId) { id currentPhase status type } }";

/** Wall-clock milliseconds with sub-millisecond precision, comparable with the server's ISO timestamps (same host). */
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Polls `done` (which may be async) until it holds; throws naming `what` after WAIT_LIMIT_MS. */
async function until(done, what, intervalMs = 2) {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/* ------------------------------------------------------------------ baselines (bench process) */

/** A body shaped and sized like a webhook delivery (about 300 bytes). */
const SAMPLE_BODY = JSON.stringify({
  eventId: "6f1c2b1e-8d0a-4f5e-9a43-2f7d3c9e1b20",
  eventType: "TRANSACTION_CREATED",
  timestamp: new Date().toISOString(),
  payload: {
    quoteId: "0b8e4c5d-4a3f-4f1e-8c2b-7d6e5f4a3b21",
    transactionId: "9a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c53",
    sessionId: "3c2b1a09-8f7e-4d6c-8b5a-493827160f1e",
    transactionStatus: "PENDING",
    transactionType: "BUY",
  },
});
/** What a signature covers: `<timestamp>.<raw body>`. */
const SIGNED = `${Math.floor(Date.now() / 1000)}.${SAMPLE_BODY}`;
const SIGNED_BYTES = Buffer.byteLength(SIGNED);

/**
 * RSA-PSS signatures per second on one thread of the gateway's core, as the delivery worker signs
 * "<ts>.<raw body>": the process runs pinned where the gateway will.
 */
function signingRate() {
  const output = execFileSync("taskset", [
    "-c",
    String(SERVER_CPU),
    process.execPath,
    "-e",
    `const { constants, generateKeyPairSync, sign } = require("node:crypto");
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const data = Buffer.from(${JSON.stringify(SIGNED)});
    const started = performance.now();
    let signatures = 0;
    while (performance.now() - started < ${SIGNING_MS}) {
      for (let i = 0; i < 50; i++) sign("sha256", data, { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
      signatures += 50;
    }
    console.log(signatures / ((performance.now() - started) / 1000));`,
  ]);
  return Number(output);
}

/**
 * A plain `ws` server (its own process, pinned where the gateway runs) with SUBSCRIBERS clients of this process:
 * each round sends one message to every client, timed from the send to the last receipt. Its rounds run between
 * the gateway's fan-out rounds, so both see the same machine.
 */
async function rawBroadcast() {
  const port = await freePort();
  // The same frame a graphql-ws subscriber gets for a rampEvents event.
  const message = JSON.stringify({ id: "1", type: "next", payload: { data: { rampEvents: JSON.parse(SAMPLE_BODY) } } });
  const server = await startPinned(
    [
      "--input-type=module",
      "-e",
      `const { WebSocketServer } = await import("ws");
      const server = new WebSocketServer({ port: ${port}, host: "127.0.0.1" });
      process.stdin.on("data", () => { for (const socket of server.clients) socket.send(${JSON.stringify(message)}); });`,
    ],
    {
      ready: () =>
        fetch(`http://127.0.0.1:${port}/`).then(
          () => true,
          () => false,
        ),
      stdin: "pipe",
    },
  );
  let received = 0;
  const clients = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const client = new WebSocket(`ws://127.0.0.1:${port}`);
    client.on("message", () => received++);
    clients.push(
      new Promise((resolve, reject) => (client.once("open", () => resolve(client)), client.once("error", reject))),
    );
  }
  const opened = await Promise.all(clients);
  const round = async () => {
    received = 0;
    const sent = now();
    server.child.stdin.write("x");
    await until(() => received === SUBSCRIBERS, "the raw broadcast");
    return now() - sent;
  };
  await round(); // warms up
  return {
    round,
    async close() {
      for (const client of opened) client.terminate();
      await server.stop();
    },
  };
}

/* ------------------------------------------------------------------ webhook receiver */

/** A CA and a certificate it signed for 127.0.0.1, made with the openssl command line (as test/support/webhook-receiver.ts does). */
function certificates() {
  const dir = mkdtempSync(join(tmpdir(), "bench-webhook-tls-"));
  const file = (name) => join(dir, name);
  const openssl = (...args) => execFileSync("openssl", args, { stdio: "pipe" });
  openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "1",
    "-subj",
    "/CN=ramp gateway bench CA",
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
  );
  openssl(
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-subj",
    "/CN=127.0.0.1",
    "-keyout",
    file("leaf.key"),
    "-out",
    file("leaf.csr"),
  );
  writeFileSync(file("leaf.ext"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
  openssl(
    "x509",
    "-req",
    "-in",
    file("leaf.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca.key"),
    "-CAcreateserial",
    "-days",
    "1",
    "-extfile",
    file("leaf.ext"),
    "-out",
    file("leaf.pem"),
  );
  return { dir, caFile: file("ca.pem"), key: readFileSync(file("leaf.key")), cert: readFileSync(file("leaf.pem")) };
}

/**
 * Answers 204 at once, or holds every answer while `holding` (so the service's queue fills up before the
 * timed part). Keeps each delivery's receipt time, by ramp id.
 */
async function startReceiver(tls) {
  const receiver = { holding: false, held: [], count: 0, lastAt: 0, byRamp: new Map(), unsigned: 0 };
  const server = createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const receivedAt = now();
      receiver.count++;
      receiver.lastAt = receivedAt;
      if (!request.headers["x-service-signature"]) receiver.unsigned++;
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      receiver.byRamp.set(body.payload.transactionId, { receivedAt, eventAt: Date.parse(body.timestamp) });
      const answer = () => response.writeHead(204).end();
      if (receiver.holding) receiver.held.push(answer);
      else answer();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `https://127.0.0.1:${server.address().port}/deliveries`;
  receiver.release = () => {
    receiver.holding = false;
    receiver.held.splice(0).forEach((answer) => answer());
  };
  receiver.close = () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve)));
  return receiver;
}

/**
 * Webhook deliveries per second: EVENTS registrations queue their deliveries while the receiver holds its
 * answers, then it lets go; with the gateway's CPU time per delivery meanwhile.
 */
async function deliveryRate(gateway, call, receiver, sessionId) {
  receiver.count = 0;
  receiver.holding = true;
  const produceStarted = now();
  let next = 0;
  const producer = async () => {
    while (next++ < EVENTS) {
      const quote = await call("POST", "/v1/quotes", BUY, 201);
      await call("POST", "/v1/ramp/register", { quoteId: quote.id, destinationAddress: ADDRESS, sessionId }, 201);
    }
  };
  await Promise.all(Array.from({ length: PRODUCERS }, producer));
  const produceRate = EVENTS / ((now() - produceStarted) / 1000);
  // The floor of this round, on the gateway's core while the gateway waits for its receiver.
  const signing = signingRate();
  const heldAtRelease = receiver.count;
  const released = now();
  const cpuBefore = cpuMicros(gateway.pid);
  receiver.release();
  await until(() => receiver.count >= EVENTS, `${EVENTS} webhook deliveries`);
  const delivered = EVENTS - heldAtRelease;
  const rate = delivered / ((receiver.lastAt - released) / 1000);
  return {
    produceRate,
    heldAtRelease,
    rate,
    cpuUs: (cpuMicros(gateway.pid) - cpuBefore) / delivered,
    signing,
    ratio: rate / signing,
  };
}

/**
 * deliveryRate, median of DELIVERY_ROUNDS rounds after one that warms the delivery path up: its first thousands
 * of sends are also when V8 compiles it (measured, the first round cost the gateway 1.5 times the CPU per delivery
 * of the third).
 */
async function deliveryRates(gateway, call, receiver, sessionId) {
  await deliveryRate(gateway, call, receiver, sessionId);
  const rounds = [];
  for (let round = 0; round < DELIVERY_ROUNDS; round++)
    rounds.push(await deliveryRate(gateway, call, receiver, sessionId));
  const medianOf = (field) => median(rounds.map((round) => round[field]));
  return {
    produceRate: medianOf("produceRate"),
    rate: medianOf("rate"),
    cpuUs: medianOf("cpuUs"),
    signing: medianOf("signing"),
    ratio: medianOf("ratio"),
  };
}

/** The first webhook attempt after a registration, one ramp at a time. */
async function firstAttemptLatency(call, receiver, sessionId) {
  const fromResponse = [];
  const fromEvent = [];
  for (let i = 0; i < LATENCY_RAMPS; i++) {
    const quote = await call("POST", "/v1/quotes", BUY, 201);
    const ramp = await call(
      "POST",
      "/v1/ramp/register",
      { quoteId: quote.id, destinationAddress: ADDRESS, sessionId },
      201,
    );
    const responded = now();
    await until(() => receiver.byRamp.has(ramp.id), `the delivery for ramp ${i + 1}`);
    const { receivedAt, eventAt } = receiver.byRamp.get(ramp.id);
    fromResponse.push(receivedAt - responded);
    fromEvent.push(receivedAt - eventAt);
  }
  return { fromResponse, fromEvent };
}

/** An HTTPS receiver that takes every request and never answers (a dead partner endpoint). */
async function startSilentReceiver(tls) {
  const server = createServer({ key: tls.key, cert: tls.cert }, (request) => request.resume());
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://127.0.0.1:${server.address().port}/deliveries`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

/**
 * The first attempt of another profile's webhooks while DEAD_RECEIVER_EVENTS deliveries wait for a receiver
 * that never answers (each send holds its slot until WEBHOOK_TIMEOUT_MS): one ramp at a time, each followed
 * by a webhook of its own quote.
 */
async function firstAttemptBesideDeadReceiver(deadCall, dead, otherCall, receiver) {
  const widget = await deadCall(
    "POST",
    "/v1/session/create",
    { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "bench dead" },
    201,
  );
  await deadCall("POST", "/v1/webhook", { url: dead.url, sessionId: widget.sessionId }, 201);
  for (let i = 0; i < DEAD_RECEIVER_EVENTS; i++) {
    const quote = await deadCall("POST", "/v1/quotes", BUY, 201);
    await deadCall(
      "POST",
      "/v1/ramp/register",
      { quoteId: quote.id, destinationAddress: ADDRESS, sessionId: widget.sessionId },
      201,
    );
  }
  const latencies = [];
  for (let i = 0; i < LATENCY_RAMPS; i++) {
    const quote = await otherCall("POST", "/v1/quotes", BUY, 201);
    await otherCall("POST", "/v1/webhook", { url: receiver.url, quoteId: quote.id }, 201);
    const ramp = await otherCall("POST", "/v1/ramp/register", { quoteId: quote.id, destinationAddress: ADDRESS }, 201);
    const responded = now();
    await until(() => receiver.byRamp.has(ramp.id), `the delivery for ramp ${i + 1} beside the dead receiver`);
    latencies.push(receiver.byRamp.get(ramp.id).receivedAt - responded);
  }
  return latencies;
}

/* ------------------------------------------------------------------ subscribers */

/**
 * A graphql-transport-ws client that keeps each message's text and arrival time and reads it only when
 * asked: like the raw broadcast's clients, the bench's 1,000 subscribers cost their process as little as
 * possible while the times are taken (a full client library parses and dispatches every message on arrival,
 * which on this machine, not the server, set the pace of the last arrival).
 */
class Subscriber {
  static open(url, connectionParams) {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, "graphql-transport-ws");
      const subscriber = new Subscriber(socket);
      socket.once("error", reject);
      socket.once("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: connectionParams })));
      socket.once("message", (text) =>
        JSON.parse(text).type === "connection_ack" ? resolve(subscriber) : reject(new Error(String(text))),
      );
    });
  }

  constructor(socket) {
    this.socket = socket;
    this.operations = new Map();
    this.nextId = 0;
    socket.on("message", (text) => {
      const at = now();
      // The id is the message's first field (as graphql-ws writes it): found without parsing the whole message.
      const id = /^\{"id":"([^"]+)"/.exec(text)?.[1];
      this.operations.get(id)?.(at, text);
    });
  }

  /** Starts an operation; `onMessage(at, text)` gets every message of it. Answers a function that stops it. */
  subscribe(query, variables, onMessage) {
    const id = String(++this.nextId);
    this.operations.set(id, onMessage);
    this.socket.send(JSON.stringify({ id, type: "subscribe", payload: { query, variables } }));
    return () => {
      if (!this.operations.delete(id)) return;
      this.socket.send(JSON.stringify({ id, type: "complete" }));
    };
  }

  dispose() {
    this.socket.terminate();
  }
}

/** SUBSCRIBERS connections with the secret key in connection_init, opened 100 at a time. */
async function openSubscribers(wsUrl, secretKey) {
  const clients = [];
  for (let batch = 0; batch < SUBSCRIBERS; batch += 100) {
    const opening = [];
    for (let i = batch; i < Math.min(SUBSCRIBERS, batch + 100); i++)
      opening.push(Subscriber.open(wsUrl, { "X-API-Key": secretKey }));
    clients.push(...(await Promise.all(opening)));
  }
  return clients;
}

/** Runs one operation on a connection and waits for its result. */
function execute(client, query) {
  return new Promise((resolve, reject) => {
    client.subscribe(query, undefined, (_at, text) => {
      const message = JSON.parse(text);
      if (message.type === "complete") resolve();
      else if (message.type === "error" || message.payload?.errors) reject(new Error(String(text)));
    });
  });
}

/** Subscribes every connection; keeps each one's messages with their arrival times, read once asked for. */
function subscribeAll(clients, query, variables) {
  const subscribers = clients.map((client) => {
    const subscriber = { messages: [] };
    subscriber.stop = client.subscribe(query, variables, (at, text) => subscriber.messages.push({ at, text }));
    return subscriber;
  });
  return {
    /** Waits until every subscriber has `count` messages; the time and data of each one's `count`-th result. */
    async arrivals(count, what) {
      await until(() => subscribers.every((subscriber) => subscriber.messages.length >= count), what);
      return subscribers.map(({ messages }) => {
        const message = JSON.parse(messages[count - 1].text);
        if (message.type !== "next" || message.payload.errors) throw new Error(`${what}: ${messages[count - 1].text}`);
        return { at: messages[count - 1].at, data: message.payload.data };
      });
    },
    stop: () => subscribers.forEach((subscriber) => subscriber.stop()),
  };
}

/**
 * Waits until the server answers /healthz within 5 ms five times in a row (20 ms apart): the work a
 * previous step left behind (authorizing new subscriptions, their database reads) is over.
 */
async function serverIdle(gateway) {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (let quiet = 0; quiet < 5;) {
    if (Date.now() > deadline) throw new Error("the server did not become idle");
    await sleep(20);
    const sent = now();
    await fetch(`${gateway.url}/healthz`).then((response) => response.arrayBuffer());
    quiet = now() - sent < 5 ? quiet + 1 : 0;
  }
}

/**
 * rampEvents: every connection follows one widget session for all rounds (round 0, a warm-up, shows that
 * every subscription listens); each round registers a ramp in it. rampProgress: each round, every
 * connection subscribes to a new ramp, which is then started; the subscriptions are stopped once its first
 * phase arrived, and the round ends when the ramp has entered its next phase.
 */
async function fanOut(gateway, call, clients, sessionId, rounds, broadcast) {
  const results = {
    broadcast: [],
    eventsFromResponse: [],
    eventsFromTimestamp: [],
    eventsFirst: [],
    progressFromResponse: [],
    progressFirst: [],
  };
  const events = subscribeAll(clients, RAMP_EVENTS, { sessionId });
  for (let round = 0; round <= rounds; round++) {
    if (round > 0) for (let i = 0; i < BROADCASTS_PER_ROUND; i++) results.broadcast.push(await broadcast.round());
    await serverIdle(gateway);
    const quote = await call("POST", "/v1/quotes", BUY, 201);
    await call("POST", "/v1/ramp/register", { quoteId: quote.id, destinationAddress: ADDRESS, sessionId }, 201);
    const registered = now();
    const arrivals = await events.arrivals(round + 1, "rampEvents at every subscriber");
    if (round === 0) continue;
    const times = arrivals.map(({ at }) => at);
    results.eventsFromResponse.push(Math.max(...times) - registered);
    results.eventsFromTimestamp.push(Math.max(...times) - Date.parse(arrivals[0].data.rampEvents.timestamp));
    results.eventsFirst.push(Math.min(...times) - registered);
  }
  events.stop();
  for (let round = 0; round <= rounds; round++) {
    const quote = await call("POST", "/v1/quotes", BUY, 201);
    const ramp = await call("POST", "/v1/ramp/register", { quoteId: quote.id, destinationAddress: ADDRESS }, 201);
    const progress = subscribeAll(clients, RAMP_PROGRESS, { rampId: ramp.id });
    await Promise.all(clients.map((client) => execute(client, "{ supportedFiatCurrencies { symbol } }")));
    await serverIdle(gateway);
    await call("POST", "/v1/ramp/start", { rampId: ramp.id }, 200);
    const started = now();
    const arrivals = await progress.arrivals(1, "rampProgress at every subscriber");
    progress.stop();
    const phases = new Set(arrivals.map(({ data }) => data.rampProgress.currentPhase));
    if (phases.size !== 1 || !phases.has("AWAITING_PAYMENT"))
      throw new Error(`rampProgress: first phases ${[...phases]}`);
    await until(
      async () => (await call("GET", `/v1/ramp/${ramp.id}`, undefined, 200)).currentPhase !== "awaitingPayment",
      "the next phase",
      50,
    );
    if (round === 0) continue;
    const times = arrivals.map(({ at }) => at);
    results.progressFromResponse.push(Math.max(...times) - started);
    results.progressFirst.push(Math.min(...times) - started);
  }
  return results;
}

/* ------------------------------------------------------------------ run */

/** Every figure of one gateway on one engine (the floors are shared by the engines). */
async function measureEngine(engine, databaseUrl, { tls, receiver, broadcast }) {
  const gateway = await startServer({
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    NODE_EXTRA_CA_CERTS: tls.caFile,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32",
    // Only bounds the sends held while the queue fills up; every timed send is answered at once.
    WEBHOOK_TIMEOUT_MS: "120000",
    SANDBOX_STEP_DELAY_MS: String(STEP_DELAY_MS),
    // The bench's callers complete BR KYC first: decided as soon as it is finished.
    PARTNER_SIM_KYC_DECISION_MS: "0",
  });
  let clients = [];
  const dead = await startSilentReceiver(tls);
  try {
    const session = await signIn(gateway);
    const credential = await api(gateway, session)("POST", "/v1/api-credentials", { name: "bench events" }, 201);
    const call = api(gateway, { "x-api-key": credential.secretKey });
    await completeBrKyc(call);
    const widget = await call(
      "POST",
      "/v1/session/create",
      { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "bench" },
      201,
    );
    await call("POST", "/v1/webhook", { url: receiver.url, sessionId: widget.sessionId }, 201);

    const deliveries = await deliveryRates(gateway, call, receiver, widget.sessionId);
    const firstAttempt = await firstAttemptLatency(call, receiver, widget.sessionId);
    if (receiver.unsigned) throw new Error(`${receiver.unsigned} deliveries came without a signature`);
    const other = await signIn(gateway, "bench-other@example.com");
    const otherCall = api(gateway, {
      "x-api-key": (await api(gateway, other)("POST", "/v1/api-credentials", { name: "bench other" }, 201)).secretKey,
    });
    await completeBrKyc(otherCall);
    const besideDead = await firstAttemptBesideDeadReceiver(call, dead, otherCall, receiver);

    clients = await openSubscribers(`${gateway.url.replace(/^http/, "ws")}/graphql`, credential.secretKey);
    const followed = await call(
      "POST",
      "/v1/session/create",
      { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "bench subscribers" },
      201,
    );
    const fan = await fanOut(gateway, call, clients, followed.sessionId, FANOUT_ROUNDS, broadcast);
    return { engine, deliveries, firstAttempt, besideDead, fan };
  } finally {
    await Promise.all(clients.map((client) => client.dispose()));
    await gateway.stop();
    await dead.close();
  }
}

const verdict = (met) => (met ? "met" : "MISSED");

function print({ engine, deliveries, firstAttempt, besideDead, fan }) {
  console.log(
    `\nWebhooks and subscriptions: ${engine}, NODE_ENV=production, the default LOG_LEVEL (info), gateway on CPU ${SERVER_CPU}, server defaults unless stated\n`,
  );
  const rateRow = (name, rate, ratio, goal = "") =>
    console.log(`${name.padEnd(66)} ${rate.toFixed(0).padStart(8)} ${ratio.padStart(10)}  ${goal}`);
  console.log(`${"throughput".padEnd(66)} ${"per s".padStart(8)} ${"vs signing".padStart(10)}`);
  rateRow(
    `RSA-PSS 2048 signing, one thread on the gateway's core, ${SIGNED_BYTES} B (1)`,
    deliveries.signing,
    "1.00",
    "(floor)",
  );
  rateRow(
    `webhook deliveries to a local HTTPS receiver answering 204 (1)`,
    deliveries.rate,
    deliveries.ratio.toFixed(2),
    `goal >= 0.5 x ${verdict(deliveries.ratio >= 0.5)}`,
  );
  rateRow(`  events queued before letting go: quote + register, ${PRODUCERS} in parallel`, deliveries.produceRate, "-");
  console.log(
    `  the gateway's CPU time per delivery meanwhile: ${deliveries.cpuUs.toFixed(0)} µs, of which one signature takes ${(1e6 / deliveries.signing).toFixed(0)} µs`,
  );

  const latencyRow = (name, values, goal = "") =>
    console.log(
      `${name.padEnd(66)} ${String(values.length).padStart(5)} ${percentile(values, 50).toFixed(1).padStart(8)} ${percentile(values, 95).toFixed(1).padStart(8)} ${percentile(values, 99).toFixed(1).padStart(8)}  ${goal}`,
    );
  console.log(
    `\n${"latency, ms".padEnd(66)} ${"n".padStart(5)} ${"median".padStart(8)} ${"p95".padStart(8)} ${"p99".padStart(8)}`,
  );
  latencyRow("first webhook attempt, from the register response (2)", firstAttempt.fromResponse);
  latencyRow("first webhook attempt, from the event's timestamp (2)", firstAttempt.fromEvent);
  latencyRow(
    `another profile's first attempt beside a dead receiver (5)`,
    besideDead,
    `goal p99 <= 1000 ${verdict(percentile(besideDead, 99) <= 1000)}`,
  );
  latencyRow(`raw ws broadcast to ${SUBSCRIBERS} clients: send to last receipt (6)`, fan.broadcast, "(floor)");
  const fanRatio = percentile(fan.eventsFromTimestamp, 50) / percentile(fan.broadcast, 50);
  latencyRow(`rampEvents, last of ${SUBSCRIBERS}: from the register response (3)`, fan.eventsFromResponse);
  latencyRow(
    `rampEvents, last of ${SUBSCRIBERS}: from the event's timestamp (3)`,
    fan.eventsFromTimestamp,
    `${fanRatio.toFixed(2)} x floor, goal <= 1.5 x ${verdict(fanRatio <= 1.5)}`,
  );
  latencyRow(`rampEvents, first of ${SUBSCRIBERS}: from the register response`, fan.eventsFirst);
  latencyRow(`rampProgress, last of ${SUBSCRIBERS}: from the start response (4)`, fan.progressFromResponse);
  latencyRow(`rampProgress, first of ${SUBSCRIBERS}: from the start response`, fan.progressFirst);
}

pinSelf();
const broadcast = await rawBroadcast();
const tls = certificates();
const receiver = await startReceiver(tls);
const postgresql = benchPostgres();
try {
  const results = [await measureEngine("embedded SQLite", undefined, { tls, receiver, broadcast })];
  if (postgresql)
    results.push(
      await measureEngine("PostgreSQL", await postgresql.database("ramp_bench_events"), { tls, receiver, broadcast }),
    );
  for (const result of results) print(result);
  console.log(`
(1) ${EVENTS} TRANSACTION_CREATED events on ramps of one widget session followed by one webhook, queued while the
    receiver held its answers; timed from letting go to the last delivery received. Medians of ${DELIVERY_ROUNDS} such rounds
    after one more that warms the delivery path up. The signing floor is measured in each round, just before letting
    go, and the ratio taken per round: the machine's speed drifts more between minutes than the figures differ.
    WEBHOOK_TIMEOUT_MS=120000 only so the held sends outlast the queueing.
(2) ${LATENCY_RAMPS} ramps one at a time, WEBHOOK_DELIVERY_POLL_MS default. The event's timestamp is taken by the server
    before the register transaction (same host clock, whole ms); the delivery can start before the response arrives.
(3) ${SUBSCRIBERS} graphql-transport-ws connections (secret key, opened by the bench process on CPU ${LOAD_CPU}), each subscribed
    once to rampEvents(sessionId) of one widget session; ${FANOUT_ROUNDS} rounds after a warm-up that every subscriber received. The
    event is TRANSACTION_CREATED, written in the register call's transaction; RAMP_EVENT_POLL_MS default. The floor is a plain
    ws server in its own process on the gateway's core sending one prepared message to ${SUBSCRIBERS} clients of this process.
    Both kinds of client note each message's arrival and nothing more; the subscribers' messages are parsed and checked after.
(4) Per round, the same connections subscribe to rampProgress(rampId) of a new ramp; once each answered a query sent after
    its subscribe and the server is idle (/healthz under 5 ms five times in a row), POST /v1/ramp/start writes the first
    PHASE_CHANGE (AWAITING_PAYMENT) in its transaction; each subscriber's result reads the ramp. SANDBOX_STEP_DELAY_MS=${STEP_DELAY_MS}.
(5) ${DEAD_RECEIVER_EVENTS} deliveries queued for a receiver that never answers (its sends hold their slots for WEBHOOK_TIMEOUT_MS), then
    ${LATENCY_RAMPS} ramps of another profile one at a time, each followed by its own webhook: from the register response.
(6) ${BROADCASTS_PER_ROUND} rounds before each rampEvents round of the same engine, so the floor and the figure it divides see the same
    moments of this machine.`);
} finally {
  await broadcast.close();
  await receiver.close();
  postgresql?.stop();
  rmSync(tls.dir, { recursive: true });
}
