import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenForScrapes } from "../../src/rest/metrics.js";
import { RETRY_DELAYS_MS } from "../../src/webhooks/delivery-worker.js";
import type { HostResolver } from "../../src/webhooks/url-policy.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { BUY_QUOTE, callersOtherThanTheOperator, EVM_ADDRESS, expectError, ok, waitFor } from "../support/kit.js";
import { startWebhookReceiver, testCertificates, type Responder } from "../support/webhook-receiver.js";
import { execute, openSocket, subscribe, type WsSocket } from "../support/ws-client.js";

/*
 * GET /metrics (issue 13): Prometheus text for the operator only, with requests by route pattern, webhook
 * outcomes and backlog, the subscription feed's lag and the open GraphQL WebSocket subscribers.
 *
 * The app runs no background workers: its clock is stepped by hand and the tests run the delivery worker and
 * the feed themselves, so every number read is one the test caused. Receivers are local HTTPS servers.
 */

const EVENTS = "subscription ($quoteId: ID) { rampEvents(quoteId: $quoteId) { eventId } }";

let fakeNow = Date.now();
const clock = () => new Date(fakeNow);
const resolver: HostResolver = async () => [{ address: "127.0.0.1", family: 4 }];
let t: TestApp;
let wsUrl: string;
const closing: { close(): Promise<unknown> }[] = [];

beforeAll(async () => {
  t = await startTestApp(
    {
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32",
      WEBHOOK_TIMEOUT_MS: "5000",
      // The feed reads when a test says so (RampEventFeed.poll), not on its own.
      RAMP_EVENT_POLL_MS: "60000",
    },
    { seams: { resolveHost: resolver, webhookCa: testCertificates().ca, clock } },
  );
  const address = await t.server.listen({ port: 0, host: "127.0.0.1" });
  wsUrl = `${address.replace(/^http/, "ws")}/graphql`;
  await t.app.rampEvents.start();
});
afterAll(async () => {
  await Promise.all(closing.map((each) => each.close()));
  await t?.close();
});

// ---------------------------------------------------------------------------------------------------------
// Helpers

interface Scrape {
  status: number;
  contentType: string | undefined;
  text: string;
}

async function scrape(headers: Record<string, string> = t.operatorHeaders): Promise<Scrape> {
  const response = await t.server.inject({ method: "GET", url: "/metrics", headers });
  return { status: response.statusCode, contentType: response.headers["content-type"] as string, text: response.body };
}

/** The scrape's text, refused unless it answered 200. */
async function metrics(): Promise<string> {
  const answer = await scrape();
  expect(answer.status, answer.text).toBe(200);
  return answer.text;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The value of the sample `name` whose labels include `labels` (undefined: no such sample). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const match = SAMPLE.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(LABEL)].map(([, key, value]) => [key, value]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

const read = async (name: string, labels?: Record<string, string>) => sample(await metrics(), name, labels) ?? 0;
const outcome = (name: string) => read("webhook_delivery_outcomes_total", { outcome: name });

interface Caller {
  session: Record<string, string>;
  secret: Record<string, string>;
  ws: Record<string, string>;
}

/** A signed-in profile with a secret key, KYC approved in BR (the corridor of every ramp here). */
async function newCaller(): Promise<Caller> {
  const signedIn = await t.signIn();
  const { secretKey } = await t.createCredential(signedIn.headers);
  await t.completeKyc(signedIn.headers);
  return { session: signedIn.headers, secret: { "x-api-key": secretKey }, ws: { "X-API-Key": secretKey } };
}

const quote = async (caller: Caller): Promise<string> =>
  ok(await t.request("POST", "/v1/quotes", { headers: caller.secret, body: BUY_QUOTE }), 201).id;

/** A ramp on a new quote followed by a webhook at a receiver answering `respond`: one delivery queued. */
async function followedRamp(caller: Caller, respond: Responder) {
  const key = await t.request("GET", "/v1/public-key");
  const receiver = await startWebhookReceiver({ publicKey: key.body.publicKey, respond });
  receiver.clock = clock;
  closing.push(receiver);
  const quoteId = await quote(caller);
  ok(await t.request("POST", "/v1/webhook", { headers: caller.secret, body: { url: receiver.url(), quoteId } }), 201);
  const ramp = await t.request("POST", "/v1/ramp/register", {
    headers: caller.secret,
    body: { quoteId, destinationAddress: EVM_ADDRESS },
  });
  return { receiver, rampId: ok(ramp, 201).id as string };
}

/** Steps the clock to `at` and runs one delivery pass. */
async function runAt(at: number): Promise<void> {
  fakeNow = at;
  await t.app.webhookDelivery.runOnce();
}

// ---------------------------------------------------------------------------------------------------------

describe("access", () => {
  it("refuses /metrics without the operator token, as the operator surface does, in the error envelope", async () => {
    const session = await t.signIn();
    const key = await t.createCredential(session.headers);
    const operatorToken = t.operatorHeaders.authorization!.slice("Bearer ".length);
    const callers = callersOtherThanTheOperator(session.headers, key, operatorToken);
    for (const [label, headers, code] of callers) {
      const refused = await scrape(headers);
      expect(refused.contentType, label).toMatch(/^application\/json/);
      expectError({ status: refused.status, body: JSON.parse(refused.text) }, 401, code);
    }
  });

  it("answers Prometheus text with the token, Node's process metrics included, and stays out of the integrators' document", async () => {
    const answer = await scrape();
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(answer.text).toContain("# TYPE http_request_duration_seconds histogram");
    expect(answer.text).toContain("# TYPE webhook_delivery_outcomes_total counter");
    expect(sample(answer.text, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    const document = ok(await t.request("GET", "/v1/openapi.json"));
    expect(Object.keys(document.paths)).not.toContain("/metrics");
  });

  it("a scrape reads the database twice (the webhook backlog, the outbox's newest event), whatever it holds", async () => {
    await metrics();
    const before = t.app.statements.count;
    await metrics();
    expect(t.app.statements.count - before).toBe(2);
  });
});

describe("requests", () => {
  it("times every request by method, route pattern and status: never the raw path, its ids or its query", async () => {
    const caller = await newCaller();
    const quoteId = await quote(caller);
    const unknownQuote = randomUUID();
    const strayId = randomUUID();
    const before = await metrics();
    const count = (text: string, labels: Record<string, string>) =>
      sample(text, "http_request_duration_seconds_count", labels) ?? 0;

    ok(await t.request("GET", `/v1/quotes/${quoteId}`, { headers: caller.secret }));
    ok(await t.request("GET", `/v1/quotes/${quoteId}?email=someone%40example.com`, { headers: caller.secret }));
    expectError(await t.request("GET", `/v1/quotes/${unknownQuote}`, { headers: caller.secret }), 404, "NOT_FOUND");
    expectError(await t.request("GET", `/v1/nothing-here/${strayId}`), 404, "NOT_FOUND");
    ok(await t.graphql("{ supportedFiatCurrencies { symbol } }"));

    const after = await metrics();
    const quoteRead = { method: "GET", route: "/v1/quotes/:id" };
    expect(
      count(after, { ...quoteRead, status_code: "200" }) - count(before, { ...quoteRead, status_code: "200" }),
    ).toBe(2);
    expect(
      count(after, { ...quoteRead, status_code: "404" }) - count(before, { ...quoteRead, status_code: "404" }),
    ).toBe(1);
    const unmatched = { method: "GET", route: "unmatched", status_code: "404" };
    expect(count(after, unmatched) - count(before, unmatched)).toBe(1);
    const graphql = { method: "POST", route: "/graphql", status_code: "200" };
    expect(count(after, graphql) - count(before, graphql)).toBe(1);
    expect(
      sample(after, "http_request_duration_seconds_bucket", { ...quoteRead, status_code: "200", le: "+Inf" }),
    ).toBe(count(after, { ...quoteRead, status_code: "200" }));
    for (const raw of [quoteId, unknownQuote, strayId, "nothing-here", "someone", caller.secret["x-api-key"]!])
      expect(after, raw).not.toContain(raw);
    const routes = new Set([...after.matchAll(/route="([^"]*)"/g)].map(([, route]) => route));
    for (const route of routes) expect(route, "a pattern, not a path").toMatch(/^(unmatched|\*|\/[\w/:.-]*)$/);
  });
});

describe("webhooks", () => {
  it("counts a delivered send, each retry scheduled and the failure that gives a delivery up", async () => {
    const caller = await newCaller();
    const [delivered, retried, failed] = [
      await outcome("delivered"),
      await outcome("retry_scheduled"),
      await outcome("failed"),
    ];

    const good = await followedRamp(caller, () => ({ status: 204 }));
    await runAt(Date.now() + 1_000);
    expect(good.receiver.received).toHaveLength(1);
    expect(await outcome("delivered")).toBe(delivered + 1);

    const bad = await followedRamp(caller, () => ({ status: 500 }));
    const t0 = Date.now() + 60_000;
    await runAt(t0);
    expect(await outcome("retry_scheduled")).toBe(retried + 1);
    let elapsed = 0;
    for (const delay of RETRY_DELAYS_MS) await runAt(t0 + (elapsed += delay));
    expect(bad.receiver.received).toHaveLength(RETRY_DELAYS_MS.length + 1);
    expect(await outcome("retry_scheduled")).toBe(retried + RETRY_DELAYS_MS.length);
    expect(await outcome("failed")).toBe(failed + 1);
    expect(await outcome("delivered")).toBe(delivered + 1);
  });

  it("shows the pending deliveries, those due now and how long the longest-waiting one has been due", async () => {
    await runAt(Date.now() + 1_000);
    const [pending, due] = [await read("webhook_deliveries_pending"), await read("webhook_deliveries_due")];
    expect(due).toBe(0);
    expect(await read("webhook_delivery_backlog_age_seconds")).toBe(0);

    const caller = await newCaller();
    await followedRamp(caller, () => ({ status: 204 }));
    await followedRamp(caller, () => ({ status: 204 }));
    // Not due yet by the worker's clock: pending, not due.
    fakeNow = Date.now() - 60_000;
    expect(await read("webhook_deliveries_pending")).toBe(pending + 2);
    expect(await read("webhook_deliveries_due")).toBe(0);
    // A minute later than their creation, both are due and have waited about that long.
    fakeNow = Date.now() + 60_000;
    expect(await read("webhook_deliveries_due")).toBe(2);
    expect(await read("webhook_delivery_backlog_age_seconds")).toBeGreaterThanOrEqual(59);

    await runAt(fakeNow);
    expect(await read("webhook_deliveries_pending")).toBe(pending);
    expect(await read("webhook_deliveries_due")).toBe(0);
    expect(await read("webhook_delivery_backlog_age_seconds")).toBe(0);
  });

  // Last of the tests that run the delivery worker: once stopped, it sends nothing more.
  it("counts a send cut short by shutdown as released", async () => {
    const caller = await newCaller();
    const released = await outcome("released");
    const { receiver } = await followedRamp(caller, () => ({ status: 204, delayMs: 60_000 }));
    fakeNow = Date.now() + 1_000;
    t.app.webhookDelivery.start();
    await receiver.waitFor(1);
    await t.app.webhookDelivery.stop();
    expect(await outcome("released")).toBe(released + 1);
  });
});

describe("the event feed and its subscribers", () => {
  it("shows how many outbox events the subscription feed has not read yet", async () => {
    await t.app.rampEvents.poll();
    expect(await read("ramp_event_feed_lag_events")).toBe(0);
    const caller = await newCaller();
    const quoteId = await quote(caller);
    ok(
      await t.request("POST", "/v1/ramp/register", {
        headers: caller.secret,
        body: { quoteId, destinationAddress: EVM_ADDRESS },
      }),
      201,
    );
    expect(await read("ramp_event_feed_lag_events")).toBe(1);
    await t.app.rampEvents.poll();
    expect(await read("ramp_event_feed_lag_events")).toBe(0);
  });

  it("shows each named cache's entries: a quote read is kept, and the quotes cache holds one more", async () => {
    const caller = await newCaller();
    const quoteId = await quote(caller);
    const before = await read("cache_entries", { cache: "quotes" });
    ok(await t.request("GET", `/v1/quotes/${quoteId}`, { headers: caller.secret }), 200);
    expect(await read("cache_entries", { cache: "quotes" })).toBe(before + 1);
    ok(await t.request("GET", `/v1/quotes/${quoteId}`, { headers: caller.secret }), 200);
    expect(await read("cache_entries", { cache: "quotes" })).toBe(before + 1);
  });

  it("counts open GraphQL WebSocket connections and their subscriptions as they open and close", async () => {
    const caller = await newCaller();
    const quoteId = await quote(caller);
    const listeners = await read("ramp_event_feed_listeners");
    expect(await read("graphql_ws_connections")).toBe(0);
    expect(await read("graphql_ws_subscriptions")).toBe(0);

    const socket: WsSocket = openSocket(wsUrl, caller.ws);
    closing.push({ close: () => socket.dispose() });
    const subscription = subscribe(socket.client, EVENTS, { quoteId });
    // An operation answered on the same socket: the subscription before it is listening.
    await execute(socket.client, "{ supportedFiatCurrencies { symbol } }");
    expect(await read("graphql_ws_connections")).toBe(1);
    expect(await read("graphql_ws_subscriptions")).toBe(1);
    expect(await read("ramp_event_feed_listeners")).toBe(listeners + 1);

    subscription.stop();
    await waitFor(
      () => read("graphql_ws_subscriptions"),
      (count) => count === 0,
      "the subscription to end",
    );
    expect(await read("graphql_ws_connections")).toBe(1);
    await waitFor(
      () => read("ramp_event_feed_listeners"),
      (count) => count === listeners,
      "the feed listener to go",
    );

    await socket.dispose();
    await waitFor(
      () => read("graphql_ws_connections"),
      (count) => count === 0,
      "the socket to close",
    );
  });
});

describe("METRICS_LISTEN", () => {
  it("serves the same text without a token on its own address, and nothing else there", async () => {
    const scrapes = await listenForScrapes(t.app.metrics, { host: "127.0.0.1", port: 0 }, t.app.log);
    closing.push({ close: () => new Promise((resolve) => scrapes.close(resolve)) });
    const base = `http://127.0.0.1:${(scrapes.address() as AddressInfo).port}`;

    const answer = await fetch(`${base}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(sample(await answer.text(), "webhook_deliveries_pending")).toBeGreaterThanOrEqual(0);

    for (const [method, path] of [
      ["GET", "/"],
      ["GET", "/v1/supported-countries"],
      ["POST", "/metrics"],
    ]) {
      const refused = await fetch(`${base}${path}`, { method });
      expectError({ status: refused.status, body: await refused.json() }, 404, "NOT_FOUND");
    }
  });
});
