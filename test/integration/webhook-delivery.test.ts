import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawSql } from "../support/raw-sql.js";
import { textOf, type Statement } from "../../src/db/query.js";
import { claimDeliveries, enqueueTestDelivery, findDueDeliveries } from "../../src/webhooks/delivery-repo.js";
import type { StatementTx, Writes } from "../../src/db/statements.js";
import {
  CLAIM_LEASE_MS,
  FAILED_DELIVERIES_TO_DISABLE,
  RETRY_DELAYS_MS,
  UNSETTLED_PER_SEND_SLOT,
  WebhookDeliveryWorker,
} from "../../src/webhooks/delivery-worker.js";
import { MAX_RESPONSE_BYTES, type SendOutcome, type WebhookSender } from "../../src/webhooks/sender.js";
import type { HostResolver } from "../../src/webhooks/url-policy.js";
import { openDatabaseForTests, testEngine } from "../support/database.js";
import { startTestApp, type TestApp } from "../support/app.js";
import {
  startWebhookReceiver,
  testCertificates,
  type ReceivedDelivery,
  type Responder,
  type WebhookReceiver,
} from "../support/webhook-receiver.js";
import { BUY_QUOTE, EVM_ADDRESS, expectError, ok, sleep, waitFor } from "../support/kit.js";
import { verifyWebhook } from "@ramp-gateway/webhook-receiver";
import { readOutbox } from "../../src/events/outbox.js";
// The package's source: it is what a receiver built from this tree runs.
import { verifyWebhook as verifyReceived } from "../../packages/webhook-receiver/src/index.js";

/*
 * Durable webhook delivery (CONTRACT.md, Webhooks), on the project's engine: a delivery per event and
 * matching subscription, signed as the contract says, retried on the exact schedule, disabled after five
 * failed deliveries, never following redirects, connecting only to the address it vetted, and logged.
 *
 * Two apps: `live` runs its workers on the real clock; `manual` runs none, and the tests step its clock
 * and call the delivery worker by hand. Receivers are local HTTPS servers allowed through
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS=127.0.0.1/32 with a CA made for the test.
 */

const TIMEOUT_MS = 1_500;

type Headers = Record<string, string>;
interface Caller {
  session: Headers;
  secret: Headers;
}

/** What the stand-in resolver answers for a name, call by call (the last answer repeats). */
const dnsAnswers = new Map<string, string[][]>();
const dnsCalls: string[] = [];
const resolver: HostResolver = async (hostname) => {
  dnsCalls.push(hostname);
  const answers = dnsAnswers.get(hostname);
  if (!answers?.length) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
  return answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

let fakeNow = Date.now();
const manualClock = () => new Date(fakeNow);
const env = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32",
  WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
  WEBHOOK_DELIVERY_POLL_MS: "20",
  RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
  RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000",
};
let live: TestApp;
let manual: TestApp;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  const seams = { resolveHost: resolver, webhookCa: testCertificates().ca };
  [live, manual] = await Promise.all([
    startTestApp(env, { workers: true, seams }),
    startTestApp(env, { seams: { ...seams, clock: manualClock } }),
  ]);
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await Promise.all([live?.close(), manual?.close()]);
});

// ---------------------------------------------------------------------------------------------------------
// Helpers

async function receiver(t: TestApp, respond?: Responder): Promise<WebhookReceiver> {
  const key = await t.request("GET", "/v1/public-key");
  const started = await startWebhookReceiver({ publicKey: key.body.publicKey, respond });
  if (t === manual) started.clock = manualClock;
  receivers.push(started);
  return started;
}

/** A signed-in profile with a secret key, KYC approved in BR (the corridor of every ramp here). */
async function newCaller(t: TestApp): Promise<Caller> {
  const signedIn = await t.signIn();
  const credential = await t.createCredential(signedIn.headers);
  await t.completeKyc(signedIn.headers);
  return { session: signedIn.headers, secret: { "x-api-key": credential.secretKey } };
}

async function quote(t: TestApp, caller: Caller): Promise<string> {
  return ok(await t.request("POST", "/v1/quotes", { headers: caller.secret, body: BUY_QUOTE }), 201).id;
}

async function subscribe(t: TestApp, caller: Caller, body: Record<string, unknown>): Promise<string> {
  return ok(await t.request("POST", "/v1/webhook", { headers: caller.secret, body }), 201).id;
}

async function register(
  t: TestApp,
  caller: Caller,
  quoteId: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return ok(
    await t.request("POST", "/v1/ramp/register", {
      headers: caller.secret,
      body: { quoteId, destinationAddress: EVM_ADDRESS, ...extra },
    }),
    201,
  ).id;
}

/** A quote, a subscription to it at `url`, and a registered ramp: one TRANSACTION_CREATED delivery queued. */
async function followedRamp(t: TestApp, caller: Caller, url: string, events?: string[]) {
  const quoteId = await quote(t, caller);
  const webhookId = await subscribe(t, caller, { url, quoteId, ...(events && { events }) });
  const rampId = await register(t, caller, quoteId);
  return { quoteId, webhookId, rampId };
}

/** A widget session followed by a subscription at `url`, and `newRamp`, which registers one more ramp in it. */
async function followedSession(t: TestApp, caller: Caller, url: string) {
  const session = ok(
    await t.request("POST", "/v1/session/create", {
      headers: caller.secret,
      body: { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "ext-followed" },
    }),
    201,
  );
  const webhookId = await subscribe(t, caller, { url, sessionId: session.sessionId });
  const newRamp = async () => register(t, caller, await quote(t, caller), { sessionId: session.sessionId });
  return { webhookId, newRamp };
}

async function deliveries(t: TestApp, caller: Caller, webhookId: string, query = "") {
  return ok(await t.request("GET", `/v1/webhook/${webhookId}/deliveries${query}`, { headers: caller.secret }), 200);
}

/** The outbox's stored body of an event: what a receiver must get byte for byte. */
async function storedBody(t: TestApp, eventId: string): Promise<string> {
  return (await t.app.db.rampEvent.findUniqueOrThrow({ where: { eventId } })).body;
}

/** Steps the manual clock to `at` and runs one delivery pass. */
async function runAt(at: number): Promise<void> {
  fakeNow = at;
  await manual.app.webhookDelivery.runOnce();
}

/**
 * A delivery worker of `t`'s database that looks for due deliveries only when woken (or started), over `writes`
 * and `sender` (stand-ins that watch or hold what passes), with a stand-in signature.
 */
function wokenByHand(
  t: TestApp,
  writes: Writes,
  sender: WebhookSender,
  slots: { concurrency: number; concurrencyPerReceiver: number },
  clock?: () => Date,
): WebhookDeliveryWorker {
  const settings = { engine: t.app.config.database.engine, pollMs: 60_000, timeoutMs: TIMEOUT_MS, ...slots };
  return new WebhookDeliveryWorker(
    { db: t.app.db, writes },
    async () => "signature",
    sender,
    settings,
    t.app.log,
    () => undefined,
    clock,
  );
}

const startedAtOf = (log: { deliveries: { attempts: { startedAt: string }[] }[] }) =>
  log.deliveries[0]!.attempts.map((attempt) => Date.parse(attempt.startedAt));

// ---------------------------------------------------------------------------------------------------------

describe("delivery", () => {
  it("posts every subscribed event once, signed over '<timestamp>.<raw body>', with the outbox's exact body", async () => {
    const caller = await newCaller(live);
    const target = await receiver(live);
    const { webhookId, rampId } = await followedRamp(live, caller, target.url());
    ok(await live.request("POST", "/v1/ramp/start", { headers: caller.secret, body: { rampId } }), 200);

    const got = await target.waitFor(2);
    expect(got.map((delivery) => delivery.verificationError)).toEqual([undefined, undefined]);
    expect(got.map((delivery) => [delivery.event!.eventType, delivery.event!.payload.transactionStatus])).toEqual([
      ["TRANSACTION_CREATED", "PENDING"],
      ["STATUS_CHANGE", "COMPLETE"],
    ]);
    for (const delivery of got) {
      expect(delivery.rawBody).toBe(await storedBody(live, delivery.event!.eventId));
      expect(delivery.path).toBe("/hook");
      expect(delivery.headers["content-type"]).toBe("application/json");
      expect(Math.abs(Number(delivery.headers["x-service-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
      expect(delivery.event!.payload.transactionId).toBe(rampId);
    }
    const log = await waitFor(
      () => deliveries(live, caller, webhookId),
      (page) => page.deliveries.every((d: any) => d.status === "delivered"),
      "delivered",
    );
    expect(log.totalCount).toBe(2);
    expect(
      log.deliveries.map((d: any) => [
        d.eventType,
        d.status,
        d.attempts.length,
        d.attempts[0].statusCode,
        d.attempts[0].error,
      ]),
    ).toEqual([
      ["STATUS_CHANGE", "delivered", 1, 204, null],
      ["TRANSACTION_CREATED", "delivered", 1, 204, null],
    ]);
    expect(log.deliveries.map((d: any) => d.eventId).sort()).toEqual(
      got.map((delivery) => delivery.event!.eventId).sort(),
    );
  });

  it("logs each attempt's request: a receiver's signature check reproduced from the log verifies, a tampered body does not", async () => {
    const caller = await newCaller(live);
    const target = await receiver(live);
    const { webhookId } = await followedRamp(live, caller, target.url(), ["TRANSACTION_CREATED"]);
    const [received] = await target.waitFor(1);
    const log = await waitFor(
      () => deliveries(live, caller, webhookId),
      (page) => page.deliveries[0]?.status === "delivered",
      "delivered",
    );
    const { request } = log.deliveries[0].attempts[0];
    const headers = Object.fromEntries(request.headers.map(({ name, value }: any) => [name, value]));
    // What the receiver got is what the log shows, header for header and byte for byte.
    expect(Object.keys(headers).sort()).toEqual([
      "content-type",
      "user-agent",
      "x-service-signature",
      "x-service-timestamp",
    ]);
    for (const [name, value] of Object.entries(headers)) expect(received!.headers[name], name).toBe(value);
    expect(request.body).toBe(received!.rawBody);

    const { publicKey } = ok(await live.request("GET", "/v1/public-key"), 200);
    const check = (rawBody: string) =>
      verifyWebhook({
        publicKey,
        timestamp: headers["x-service-timestamp"],
        signature: headers["x-service-signature"],
        rawBody,
        now: Date.parse(log.deliveries[0].attempts[0].startedAt),
      });
    expect(check(request.body).eventId).toBe(log.deliveries[0].eventId);
    expect(() => check(request.body.replace("TRANSACTION_CREATED", "STATUS_CHANGE"))).toThrow(
      expect.objectContaining({ check: "signature" }),
    );
  });

  it("shows each attempt's own headers with its event's body, which every attempt sent; more deliveries cost no more statements", async () => {
    const caller = await newCaller(manual);
    const target = await receiver(manual, () => ({ status: 500 }));
    const { webhookId, newRamp } = await followedSession(manual, caller, target.url());
    const subscription = await manual.app.db.webhookSubscription.findUniqueOrThrow({ where: { id: webhookId } });
    /** The statements the log's page costs, the fewest of three reads (a background write may land in one). */
    const statementsOfLog = async () => {
      const counts: number[] = [];
      for (let read = 0; read < 3; read++) {
        const before = manual.app.statements.count;
        await manual.app.webhooks.deliveries(subscription, { id: webhookId, limit: 20, offset: 0 });
        counts.push(manual.app.statements.count - before);
      }
      return Math.min(...counts);
    };
    const t0 = Date.now() + 60_000;

    await newRamp();
    await runAt(t0);
    await runAt(t0 + RETRY_DELAYS_MS[0]);
    const forOne = await statementsOfLog();
    await newRamp();
    await newRamp();
    await runAt(t0 + RETRY_DELAYS_MS[0] + RETRY_DELAYS_MS[1]);
    expect(await statementsOfLog()).toBe(forOne);

    const log = await deliveries(manual, caller, webhookId);
    expect(log.deliveries.map((delivery: any) => delivery.attempts.length).sort()).toEqual([1, 1, 3]);
    expect(target.received).toHaveLength(5);
    for (const delivery of log.deliveries) {
      const body = await storedBody(manual, delivery.eventId);
      for (const { request, startedAt } of delivery.attempts) {
        const timestamp = request.headers.find(({ name }: any) => name === "x-service-timestamp").value;
        const sent = target.received.find(
          (received) => received.rawBody === body && received.headers["x-service-timestamp"] === timestamp,
        );
        expect(sent, `the attempt of ${startedAt}`).toBeDefined();
        expect(request.body).toBe(body);
        for (const { name, value } of request.headers) expect(sent!.headers[name], name).toBe(value);
      }
    }
  });

  it("sends only the subscribed event types, and follows a widget session's ramps", async () => {
    const caller = await newCaller(live);
    const target = await receiver(live);
    const session = ok(
      await live.request("POST", "/v1/session/create", {
        headers: caller.secret,
        body: { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "ext-delivery" },
      }),
      201,
    );
    await subscribe(live, caller, {
      url: target.url("/session"),
      sessionId: session.sessionId,
      events: ["STATUS_CHANGE"],
    });
    const quoteId = await quote(live, caller);
    const rampId = await register(live, caller, quoteId, { sessionId: session.sessionId });
    ok(await live.request("POST", "/v1/ramp/start", { headers: caller.secret, body: { rampId } }), 200);

    const [delivery] = await target.waitFor(1);
    expect([delivery!.path, delivery!.event!.eventType, delivery!.event!.payload.sessionId]).toEqual([
      "/session",
      "STATUS_CHANGE",
      session.sessionId,
    ]);
    // TRANSACTION_CREATED was written before STATUS_CHANGE: had it been queued, it would have come first.
    const queued = await live.app.db.webhookDelivery.count({ where: { event: { rampId } } });
    expect(queued).toBe(1);
  });

  it("queues nothing for a deleted subscription, and its log is gone with it", async () => {
    const caller = await newCaller(live);
    const target = await receiver(live);
    const quoteId = await quote(live, caller);
    const webhookId = await subscribe(live, caller, { url: target.url(), quoteId });
    ok(await live.request("DELETE", `/v1/webhook/${webhookId}`, { headers: caller.secret }), 200);
    const rampId = await register(live, caller, quoteId);

    expect(await live.app.db.webhookDelivery.count({ where: { event: { rampId } } })).toBe(0);
    expectError(
      await live.request("GET", `/v1/webhook/${webhookId}/deliveries`, { headers: caller.secret }),
      404,
      "NOT_FOUND",
    );
  });
});

describe("retries", () => {
  it("retries a failing receiver after exactly 1, 2, 4 and 8 s, then gives the delivery up: 5 attempts", async () => {
    const caller = await newCaller(manual);
    const target = await receiver(manual, () => ({ status: 500 }));
    const { webhookId } = await followedRamp(manual, caller, target.url());
    const t0 = Date.now() + 60_000;

    await runAt(t0);
    let elapsed = 0;
    for (const delay of RETRY_DELAYS_MS) {
      await runAt(t0 + elapsed + delay - 1);
      expect(target.received.length, `nothing is due ${delay - 1} ms after a failure`).toBe(
        RETRY_DELAYS_MS.indexOf(delay) + 1,
      );
      elapsed += delay;
      await runAt(t0 + elapsed);
    }
    await runAt(t0 + elapsed + 60 * 60_000);

    expect(target.received).toHaveLength(5);
    expect(target.received.every((delivery) => delivery.verificationError === undefined)).toBe(true);
    expect(new Set(target.received.map((delivery) => delivery.event!.eventId)).size).toBe(1);
    expect(
      target.received.map((delivery) => Number(delivery.headers["x-service-timestamp"]) - Math.floor(t0 / 1000)),
    ).toEqual([0, 1, 3, 7, 15]);

    const log = await deliveries(manual, caller, webhookId);
    const attempts = startedAtOf(log);
    expect(attempts.slice(1).map((at, index) => at - attempts[index]!)).toEqual([...RETRY_DELAYS_MS]);
    expect(log.deliveries[0]).toMatchObject({ status: "failed", nextAttemptAt: null, deliveredAt: null });
    expect(log.deliveries[0].attempts.every((attempt: any) => attempt.statusCode === 500)).toBe(true);
    // One failed delivery is not five: the subscription stays active.
    const [subscription] = ok(await manual.request("GET", "/v1/webhook", { headers: caller.secret }), 200).webhooks;
    expect(subscription.isActive).toBe(true);
  });

  it("counts a success after failures as delivered and shows when the next attempt was due", async () => {
    const caller = await newCaller(manual);
    const target = await receiver(manual, ({ index }) => ({ status: index < 2 ? 503 : 200 }));
    const { webhookId } = await followedRamp(manual, caller, target.url());
    const t0 = Date.now() + 60_000;

    await runAt(t0);
    const pending = (await deliveries(manual, caller, webhookId)).deliveries[0];
    expect(pending).toMatchObject({ status: "pending", nextAttemptAt: new Date(t0 + 1_000).toISOString() });
    await runAt(t0 + 1_000);
    await runAt(t0 + 3_000);
    const log = await deliveries(manual, caller, webhookId);
    expect(log.deliveries[0]).toMatchObject({
      status: "delivered",
      nextAttemptAt: null,
      deliveredAt: new Date(t0 + 3_000).toISOString(),
    });
    expect(log.deliveries[0].attempts.map((attempt: any) => attempt.statusCode)).toEqual([503, 503, 200]);
  });

  it("disables the subscription after five failed deliveries in a row; a delivered one resets the count", async () => {
    const caller = await newCaller(manual);
    let failing = true;
    const target = await receiver(manual, () => ({ status: failing ? 500 : 204 }));
    const session = ok(
      await manual.request("POST", "/v1/session/create", {
        headers: caller.secret,
        body: { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "ext-disable" },
      }),
      201,
    );
    const webhookId = await subscribe(manual, caller, { url: target.url(), sessionId: session.sessionId });
    const subscription = () => manual.app.db.webhookSubscription.findUniqueOrThrow({ where: { id: webhookId } });
    let t = Date.now() + 60_000;
    /** Registers `count` ramps of the session, then runs their deliveries through a whole round. */
    const failRound = async (count: number) => {
      for (let index = 0; index < count; index++)
        await register(manual, caller, await quote(manual, caller), { sessionId: session.sessionId });
      await runAt(t);
      for (const delay of RETRY_DELAYS_MS) await runAt((t += delay));
      t += 60_000;
    };

    await failRound(FAILED_DELIVERIES_TO_DISABLE - 1);
    expect(await subscription()).toMatchObject({
      isActive: true,
      consecutiveFailures: FAILED_DELIVERIES_TO_DISABLE - 1,
    });
    failing = false;
    await register(manual, caller, await quote(manual, caller), { sessionId: session.sessionId });
    await runAt((t += 1_000));
    expect(await subscription()).toMatchObject({ isActive: true, consecutiveFailures: 0 });

    failing = true;
    await failRound(FAILED_DELIVERIES_TO_DISABLE);
    expect(await subscription()).toMatchObject({ isActive: false, consecutiveFailures: FAILED_DELIVERIES_TO_DISABLE });
    const listed = ok(await manual.request("GET", "/v1/webhook", { headers: caller.secret }), 200).webhooks;
    expect(listed.find((webhook: any) => webhook.id === webhookId).isActive).toBe(false);

    // Disabled: new events queue nothing, and redelivery points at registering again.
    const before = target.received.length;
    await register(manual, caller, await quote(manual, caller), { sessionId: session.sessionId });
    await runAt((t += 1_000));
    expect(target.received.length).toBe(before);
    const log = await deliveries(manual, caller, webhookId, "?limit=1");
    const refused = await manual.request(
      "POST",
      `/v1/webhook/${webhookId}/deliveries/${log.deliveries[0].id}/redeliver`,
      { headers: caller.secret },
    );
    expectError(refused, 400, "VALIDATION_FAILED");
    expect(refused.body.error.details).toEqual([
      { field: "id", message: "is a disabled webhook: register it again to resume deliveries" },
    ]);

    // Registering again resumes.
    failing = false;
    await subscribe(manual, caller, { url: target.url("/again"), sessionId: session.sessionId });
    await register(manual, caller, await quote(manual, caller), { sessionId: session.sessionId });
    await runAt((t += 1_000));
    expect(target.received.at(-1)!.path).toBe("/again");
  });

  it("sends again when a worker's claim lapses (the worker died mid-send): at least once", async () => {
    const caller = await newCaller(manual);
    const target = await receiver(manual);
    const { webhookId } = await followedRamp(manual, caller, target.url());
    const t0 = Date.now() + 60_000;
    const engine = testEngine() === "postgresql" ? "postgresql" : "sqlite";
    // A worker claims the delivery and is never heard of again.
    const now = new Date(t0);
    const claimed = await manual.app.writes.transaction(async (tx) =>
      claimDeliveries(tx, engine, {
        ids: (await findDueDeliveries(tx, { now, limit: 100, skip: [] })).map(({ id }) => id),
        now,
        leaseUntil: new Date(t0 + CLAIM_LEASE_MS),
        token: crypto.randomUUID(),
      }),
    );
    expect(claimed.map((delivery) => delivery.subscriptionId)).toContain(webhookId);

    await runAt(t0 + CLAIM_LEASE_MS - 1);
    expect(target.received).toHaveLength(0);
    await runAt(t0 + CLAIM_LEASE_MS);
    expect(target.received).toHaveLength(1);
    expect((await deliveries(manual, caller, webhookId)).deliveries[0].status).toBe("delivered");
  });
});

describe("claims", () => {
  // Sends may take 10 s here, twice the claim's lease: a slow send must keep its claim by renewing it.
  let leased: TestApp;
  beforeAll(async () => {
    leased = await startTestApp(
      { ...env, WEBHOOK_TIMEOUT_MS: "10000" },
      { workers: true, seams: { resolveHost: resolver, webhookCa: testCertificates().ca } },
    );
  });
  afterAll(() => leased?.close());

  const deliveryRow = async (webhookId: string) =>
    leased.app.db.webhookDelivery.findFirstOrThrow({
      where: { subscriptionId: webhookId },
      include: { attempts: true },
    });

  it("renews the lease of a send in flight, so no one takes it over, and sends it once", async () => {
    const caller = await newCaller(leased);
    const target = await receiver(leased, () => ({ status: 204, delayMs: CLAIM_LEASE_MS + 1_500 }));
    const { webhookId } = await followedRamp(leased, caller, target.url());
    const [first] = await target.waitFor(1);
    const claimedUntil = (await deliveryRow(webhookId)).nextAttemptAt!.getTime();
    expect(claimedUntil).toBeLessThanOrEqual(first!.receivedAt + CLAIM_LEASE_MS);

    // Past the first lease and still unanswered: renewed ahead of the clock all along.
    await new Promise((resolve) => setTimeout(resolve, CLAIM_LEASE_MS + 200 - (Date.now() - first!.receivedAt)));
    const row = await deliveryRow(webhookId);
    expect(row.status).toBe("pending");
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());

    await waitFor(
      () => deliveryRow(webhookId),
      (settled) => settled.status === "delivered",
      "the slow send to settle",
      10_000,
    );
    expect(target.received).toHaveLength(1);
  });

  it("stops at once with a send in flight, releasing it unsent for an immediate retry", async () => {
    const caller = await newCaller(leased);
    const target = await receiver(leased, () => ({ status: 204, delayMs: 60_000 }));
    const { webhookId } = await followedRamp(leased, caller, target.url());
    await target.waitFor(1);

    const stopping = Date.now();
    await leased.app.webhookDelivery.stop();
    expect(Date.now() - stopping).toBeLessThan(1_000);
    const row = await deliveryRow(webhookId);
    expect(row).toMatchObject({ status: "pending", claimToken: null, roundAttempts: 0, attempts: [] });
    expect(row.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });
});

describe("a claim's plan", () => {
  // SQLite without statistics preferred the (status, nextAttemptAt) index: each claim of a few deliveries read
  // the whole due backlog. The plan is the same whatever the project's engine, so it is checked on SQLite.
  const sqlite = openDatabaseForTests("sqlite");

  it("looks the deliveries it claims up by id on SQLite, not through every due delivery", async () => {
    const { reads } = sqlite();
    const statements: { sql: string; args: readonly unknown[] }[] = [];
    const recording = {
      all: async <Row>(statement: Statement<Row>): Promise<Row[]> => {
        const [sql, args] = textOf(statement);
        statements.push({ sql, args });
        return [];
      },
    };
    const now = new Date();
    const ids = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    await claimDeliveries(recording, "sqlite", { ids, now, leaseUntil: now, token: "token" });
    const [claim] = statements;
    const plan = await reads.all(rawSql<{ detail: string }>(`EXPLAIN QUERY PLAN ${claim!.sql}`, claim!.args));
    // What sending them needs, each by its key.
    expect(plan.map(({ detail }) => detail)).toEqual([
      "SEARCH WebhookDelivery USING INDEX sqlite_autoindex_WebhookDelivery_1 (id=?)",
      "CORRELATED SCALAR SUBQUERY 1",
      "SEARCH WebhookSubscription USING INDEX sqlite_autoindex_WebhookSubscription_1 (id=?)",
      "CORRELATED SCALAR SUBQUERY 2",
      "SEARCH WebhookSubscription USING INDEX sqlite_autoindex_WebhookSubscription_1 (id=?)",
      "CORRELATED SCALAR SUBQUERY 3",
      "SEARCH RampEvent USING INDEX RampEvent_eventId_key (eventId=?)",
      "CORRELATED SCALAR SUBQUERY 4",
      "SEARCH RampEvent USING INDEX RampEvent_eventId_key (eventId=?)",
    ]);
  });
});

describe("outbound requests", () => {
  it("does not follow a redirect: a 3xx is a failed attempt and the Location is never requested", async () => {
    const caller = await newCaller(live);
    const target = await receiver(live, ({ path }) =>
      path === "/moved" ? { status: 302, headers: { location: target.url("/elsewhere") } } : { status: 204 },
    );
    const { webhookId } = await followedRamp(live, caller, target.url("/moved"));

    const log = await waitFor(
      () => deliveries(live, caller, webhookId),
      (page) => page.deliveries[0]?.attempts.length >= 2,
      "two attempts",
    );
    expect(log.deliveries[0].attempts.slice(0, 2).map((attempt: any) => [attempt.statusCode, attempt.error])).toEqual([
      [302, "redirect not followed"],
      [302, "redirect not followed"],
    ]);
    expect(target.received.some((delivery) => delivery.path === "/elsewhere")).toBe(false);
    ok(await live.request("DELETE", `/v1/webhook/${webhookId}`, { headers: caller.secret }), 200);
  });

  it("connects to the address it vetted: a resolver that answers an allowed address, then a private one, cannot move the send", async () => {
    const caller = await newCaller(manual);
    const target = await receiver(manual, ({ index }) => ({ status: index === 0 ? 500 : 204 }));
    const host = `pinned-${Date.now()}.receiver.test`;
    // Registration and the first send see 127.0.0.1 (allowed); every later answer is a private address.
    dnsAnswers.set(host, [["127.0.0.1"], ["127.0.0.1"], ["10.20.30.40"]]);
    const { webhookId } = await followedRamp(manual, caller, `https://${host}:${target.port}/pinned`);
    const t0 = Date.now() + 60_000;
    dnsCalls.length = 0;

    // The first send resolves once and connects to 127.0.0.1. The name exists only in the stand-in resolver
    // and the certificate is for receiver.test: had the HTTP client resolved the name itself, it would fail.
    await runAt(t0);
    expect(dnsCalls).toEqual([host]);
    expect(target.received.map((delivery) => delivery.path)).toEqual(["/pinned"]);

    // The retry resolves to 10.20.30.40, which is refused before any connection.
    await runAt(t0 + 1_000);
    expect(dnsCalls).toEqual([host, host]);
    expect(target.received).toHaveLength(1);
    const log = await deliveries(manual, caller, webhookId);
    expect(log.deliveries[0].attempts.map((attempt: any) => [attempt.statusCode, attempt.error])).toEqual([
      [500, null],
      [null, `${host} resolves to 10.20.30.40, which is not publicly routable`],
    ]);
  });

  it("checks a name that did not resolve at registration again at each send", async () => {
    const caller = await newCaller(manual);
    const host = `later-${Date.now()}.receiver.test`;
    const { webhookId } = await followedRamp(manual, caller, `https://${host}/hook`);
    dnsAnswers.set(host, [["169.254.169.254"]]);
    await runAt(Date.now() + 60_000);
    const log = await deliveries(manual, caller, webhookId);
    expect(log.deliveries[0].attempts.map((attempt: any) => [attempt.statusCode, attempt.error])).toEqual([
      [null, `${host} resolves to 169.254.169.254, which is not publicly routable`],
    ]);
  });

  it("gives up on an answer after the timeout", async () => {
    const caller = await newCaller(manual);
    const target = await receiver(manual, () => ({ status: 204, delayMs: TIMEOUT_MS + 1_000 }));
    const { webhookId } = await followedRamp(manual, caller, target.url());
    await runAt(Date.now() + 60_000);
    const [attempt] = (await deliveries(manual, caller, webhookId)).deliveries[0].attempts;
    expect([attempt.statusCode, attempt.error]).toEqual([null, `no answer within ${TIMEOUT_MS} ms`]);
    expect(attempt.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(attempt.durationMs).toBeLessThan(TIMEOUT_MS + 1_000);
    ok(await manual.request("DELETE", `/v1/webhook/${webhookId}`, { headers: caller.secret }), 200);
  });

  it("reads at most the capped size of an answer", async () => {
    const caller = await newCaller(manual);
    const target = await receiver(manual, () => ({ status: 200, body: Buffer.alloc(20 * 1024 * 1024, 0x61) }));
    const { webhookId } = await followedRamp(manual, caller, target.url());
    await runAt(Date.now() + 60_000);
    const delivery = (await deliveries(manual, caller, webhookId)).deliveries[0];
    expect(delivery.status).toBe("delivered");
    expect(delivery.attempts.map((attempt: any) => [attempt.statusCode, attempt.error])).toEqual([
      [200, `answer body over ${MAX_RESPONSE_BYTES} bytes was cut off`],
    ]);
  });
});

describe("fair share of the send slots", () => {
  it("a receiver that never answers holds no more than its share; another subscription's first attempt starts at once", async () => {
    const { deliveryConcurrency, deliveryConcurrencyPerReceiver: share } = live.app.config.webhooks;
    const dead = await receiver(live, () => ({ status: 204, delayMs: 60_000 }));
    const { newRamp: registerForDead } = await followedSession(live, await newCaller(live), dead.url());
    // More than all the slots: without a share, the dead receiver would hold every one of them.
    for (let index = 0; index < deliveryConcurrency + share; index++) await registerForDead();
    await dead.waitFor(share);

    const caller = await newCaller(live);
    const healthy = await receiver(live);
    const registered = Date.now();
    await followedRamp(live, caller, healthy.url());
    const [first] = await healthy.waitFor(1, { timeoutMs: 5_000 });
    expect(first!.receivedAt - registered).toBeLessThan(1_000);

    // Sends to the dead receiver stay open until the timeout: none ever had more than `share` beside it.
    const overlapping = dead.received.map(
      (sent) =>
        dead.received.filter(
          (other) => other.receivedAt <= sent.receivedAt && other.receivedAt > sent.receivedAt - (TIMEOUT_MS - 100),
        ).length,
    );
    expect(Math.max(...overlapping)).toBe(share);
  });

  it("after a fruitless look past a busy receiver, new events are found without reading its backlog again", async () => {
    // Its own app, so that its queue holds only this test's deliveries.
    const isolated = await startTestApp(env, { seams: { resolveHost: resolver, webhookCa: testCertificates().ca } });
    // Every look for due deliveries, with what it bound and found.
    const looks: { args: readonly unknown[]; rows: { url: string }[] }[] = [];
    const { writes } = isolated.app;
    const recording: Writes = {
      run: (statement: Statement) => writes.run(statement),
      transaction: (work) =>
        writes.transaction((tx) =>
          work({
            ...tx,
            all: async <Row>(statement: Statement<Row>) => {
              const [sql, args] = textOf(statement);
              const rows = await tx.all(statement);
              if (sql.includes(`"WebhookDelivery"."nextAttemptAt" <= $1`))
                looks.push({ args, rows: rows as { url: string }[] });
              return rows;
            },
          }),
        ),
    };
    // Sends that are never answered until the worker stops.
    const sentTo: string[] = [];
    const unanswered = {
      send: (url: string, _headers: unknown, _body: string, cancel: AbortSignal) => {
        sentTo.push(url);
        return new Promise<SendOutcome>((resolve) =>
          cancel.addEventListener("abort", () =>
            resolve({ ok: false, statusCode: null, error: "stopped", durationMs: 0 }),
          ),
        );
      },
    } as unknown as WebhookSender;
    const share = 2;
    const worker = wokenByHand(isolated, recording, unanswered, { concurrency: 8, concurrencyPerReceiver: share });
    try {
      const dead = await receiver(isolated);
      const { newRamp: registerForDead } = await followedSession(isolated, await newCaller(isolated), dead.url());
      for (let index = 0; index < share + 2; index++) await registerForDead();

      const backlogDueBy = Date.now();

      worker.start();
      await waitFor(
        async () => sentTo.length,
        (sent) => sent === share,
        "the dead receiver's share to be taken",
      );
      // Later than the margin a look past a busy receiver reads back: the backlog is older than that.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // The look past the busy receiver finds nothing: its backlog is all there is.
      worker.wake();
      await waitFor(
        async () => looks.length,
        (count) => count === 2,
        "the look past the busy receiver",
      );
      expect(looks[1]).toEqual({ args: [expect.any(Date), dead.url()], rows: [] });
      const lookedAt = (looks[1]!.args[0] as Date).getTime();

      // Events written since: one for the busy receiver, one for another subscription, each waking the worker.
      await registerForDead();
      const healthy = await receiver(isolated);
      await followedRamp(isolated, await newCaller(isolated), healthy.url());
      worker.wake();
      await waitFor(
        async () => sentTo.length,
        (sent) => sent === share + 1,
        "the other subscription's first send",
      );
      expect(sentTo.at(-1)).toBe(healthy.url());
      // Read from shortly before the previous look, not from the backlog's due time on.
      const [, , dueAfter] = looks.at(-1)!.args as Date[];
      expect(dueAfter!.getTime()).toBeGreaterThan(backlogDueBy);
      expect(dueAfter!.getTime()).toBeLessThanOrEqual(lookedAt);
      expect(looks.at(-1)!.rows).toEqual([{ id: expect.any(String), url: healthy.url() }]);
    } finally {
      await worker.stop();
      await isolated.close();
    }
  });
});

describe("send slots and settlements", () => {
  it("a send frees its slot once answered, before it settles; sends ahead of their settlements stop at a bound", async () => {
    // Its own app, so that its queue holds only this test's deliveries.
    const isolated = await startTestApp(env, { seams: { resolveHost: resolver, webhookCa: testCertificates().ca } });
    const { db, writes } = isolated.app;
    // Settlements wait at this gate (a slow database); every other write goes through. A settlement's transaction
    // meets it at its first statement: it is given up there, before it holds anything, and run once the gate opens.
    let openGate!: () => void;
    let gateOpen = false;
    const gate = new Promise<void>((resolve) => (openGate = resolve)).then(() => (gateOpen = true));
    const atGate = new Error("at the gate");
    const gated: Writes = {
      run: (statement: Statement) => writes.run(statement),
      transaction: async (work) => {
        const run = () =>
          writes.transaction((tx) =>
            work({
              ...tx,
              run: async (statement: Statement) => {
                if (!gateOpen && textOf(statement)[0].includes(`set "status" = $1`)) throw atGate;
                return tx.run(statement);
              },
            }),
          );
        return run().catch(async (error: unknown) => {
          if (error !== atGate) throw error;
          await gate;
          return run();
        });
      },
    };
    const sentTo: string[] = [];
    const answering = {
      send: async (url: string): Promise<SendOutcome> => {
        sentTo.push(url);
        return { ok: true, statusCode: 204, error: null, durationMs: 1 };
      },
    } as unknown as WebhookSender;
    const concurrency = 1;
    const worker = wokenByHand(isolated, gated, answering, { concurrency, concurrencyPerReceiver: concurrency });
    try {
      const target = await receiver(isolated);
      const { newRamp: register } = await followedSession(isolated, await newCaller(isolated), target.url());
      const events = concurrency * UNSETTLED_PER_SEND_SLOT + 2;
      for (let index = 0; index < events; index++) await register();

      worker.start();
      // One slot, yet each send after the first starts while the ones before wait to settle, up to the bound.
      await waitFor(
        async () => sentTo.length,
        (sent) => sent === concurrency * UNSETTLED_PER_SEND_SLOT,
        "sends ahead of their settlements",
      );
      await sleep(300);
      expect(sentTo).toHaveLength(concurrency * UNSETTLED_PER_SEND_SLOT);
      expect(await db.webhookDelivery.count({ where: { status: "delivered" } })).toBe(0);

      openGate();
      await waitFor(
        () => db.webhookDelivery.count({ where: { status: "delivered" } }),
        (delivered) => delivered === events,
        "every delivery to settle",
      );
      expect(sentTo).toHaveLength(events);
    } finally {
      openGate();
      await worker.stop();
      await isolated.close();
    }
  });
});

describe("settlements", () => {
  it("settle a delivery and log its attempt together or not at all; a delivery deleted meanwhile leaves the others' to be stored", async () => {
    // Its own app, so that its queue holds only this test's deliveries.
    const isolated = await startTestApp(env, { seams: { resolveHost: resolver, webhookCa: testCertificates().ca } });
    const { db, writes } = isolated.app;
    let attemptLogFails = true;
    /** Runs statements on `on`, failing every insert into the attempt log while `attemptLogFails`. */
    const failingLog = (on: Pick<StatementTx, "run">) => async (statement: Statement) => {
      if (attemptLogFails && textOf(statement)[0].startsWith(`insert into "WebhookDeliveryAttempt"`))
        throw new Error("the attempt log is unavailable");
      return on.run(statement);
    };
    const failing: Writes = {
      run: failingLog(writes),
      transaction: (work) => writes.transaction((tx) => work({ ...tx, run: failingLog(tx) })),
    };
    // Sends wait for `answer`, so that a subscription can be deleted while its event is being sent.
    let answer!: () => void;
    let answered = Promise.resolve();
    const sentTo: string[] = [];
    const holding = {
      send: async (url: string): Promise<SendOutcome> => {
        sentTo.push(url);
        await answered;
        return { ok: true, statusCode: 204, error: null, durationMs: 1 };
      },
    } as unknown as WebhookSender;
    /** Sends what is due, answering once both sends are under way, after `meanwhile`. */
    const sendBoth = async (worker: WebhookDeliveryWorker, meanwhile = async () => {}) => {
      sentTo.length = 0;
      answered = new Promise<void>((resolve) => (answer = resolve));
      const pass = worker.runOnce();
      await waitFor(
        async () => sentTo.length,
        (sent) => sent === 2,
        "both sends under way",
      );
      await meanwhile();
      answer();
      await pass;
    };
    const slots = { concurrency: 2, concurrencyPerReceiver: 2 };
    const worker = wokenByHand(isolated, failing, holding, slots);
    // Once the first worker's claims have lapsed.
    const later = wokenByHand(isolated, failing, holding, slots, () => new Date(Date.now() + CLAIM_LEASE_MS));
    try {
      const target = await receiver(isolated);
      const keptBy = await newCaller(isolated);
      const removedBy = await newCaller(isolated);
      const kept = await followedSession(isolated, keptBy, target.url("/kept"));
      const removed = await followedSession(isolated, removedBy, target.url("/removed"));
      await kept.newRamp();
      await removed.newRamp();
      const stored = async () =>
        (await db.webhookDelivery.findMany({ include: { attempts: true } }))
          .map((delivery) => [
            delivery.subscriptionId,
            delivery.status,
            delivery.roundAttempts,
            delivery.attempts.length,
          ])
          .sort();

      await sendBoth(worker);
      // Neither settled nor logged: the claims stand until they lapse, and the events are sent again.
      expect(await stored()).toEqual(
        [
          [kept.webhookId, "pending", 0, 0],
          [removed.webhookId, "pending", 0, 0],
        ].sort(),
      );

      attemptLogFails = false;
      await sendBoth(later, async () => {
        ok(await isolated.request("DELETE", `/v1/webhook/${removed.webhookId}`, { headers: removedBy.secret }), 200);
      });
      expect(await stored()).toEqual([[kept.webhookId, "delivered", 1, 1]]);
    } finally {
      await Promise.all([worker.stop(), later.stop()]);
      await isolated.close();
    }
  });
});

describe("delivery log and redelivery", () => {
  /** A new subscription to a widget session of a new caller, and three ramps of it delivered at `at`. */
  async function threeDelivered(at: number) {
    const caller = await newCaller(manual);
    const target = await receiver(manual);
    const session = ok(
      await manual.request("POST", "/v1/session/create", {
        headers: caller.secret,
        body: { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "ext-log" },
      }),
      201,
    );
    const webhookId = await subscribe(manual, caller, { url: target.url(), sessionId: session.sessionId });
    for (let index = 0; index < 3; index++)
      await register(manual, caller, await quote(manual, caller), { sessionId: session.sessionId });
    await runAt(at);
    return { caller, target, webhookId };
  }

  it("pages the log newest first and redelivers an event with the same eventId in a new round", async () => {
    const t0 = Date.now() + 60_000;
    const { caller, target, webhookId } = await threeDelivered(t0);

    const all = await deliveries(manual, caller, webhookId);
    expect(all.totalCount).toBe(3);
    const page = await deliveries(manual, caller, webhookId, "?limit=2&offset=1");
    expect(page.deliveries.map((d: any) => d.id)).toEqual(all.deliveries.slice(1).map((d: any) => d.id));
    expectError(
      await manual.request("GET", `/v1/webhook/${webhookId}/deliveries?limit=0`, { headers: caller.secret }),
      400,
      "VALIDATION_FAILED",
    );
    expectError(
      await manual.request("GET", `/v1/webhook/${webhookId}/deliveries?limit=101`, { headers: caller.secret }),
      400,
      "VALIDATION_FAILED",
    );

    const chosen = all.deliveries[1];
    const redelivered = ok(
      await manual.request("POST", `/v1/webhook/${webhookId}/deliveries/${chosen.id}/redeliver`, {
        headers: caller.secret,
      }),
      202,
    );
    expect(redelivered).toMatchObject({ id: chosen.id, eventId: chosen.eventId, status: "pending", deliveredAt: null });
    // A pending delivery is already on its way: asking again changes nothing.
    expect(
      ok(
        await manual.request("POST", `/v1/webhook/${webhookId}/deliveries/${chosen.id}/redeliver`, {
          headers: caller.secret,
        }),
        202,
      ),
    ).toEqual(redelivered);
    await runAt(t0 + 5_000);
    const sent = target.received.filter((delivery: ReceivedDelivery) => delivery.event?.eventId === chosen.eventId);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.rawBody).toBe(sent[0]!.rawBody);
    expect(Number(sent[1]!.headers["x-service-timestamp"])).toBe(Math.floor((t0 + 5_000) / 1000));
    const after = (await deliveries(manual, caller, webhookId)).deliveries.find((d: any) => d.id === chosen.id);
    expect(after).toMatchObject({ status: "delivered", deliveredAt: new Date(t0 + 5_000).toISOString() });
    expect(after.attempts.map((attempt: any) => Date.parse(attempt.startedAt))).toEqual([t0, t0 + 5_000]);
  });

  it("gives deliveries and their attempts time-ordered ids (UUID version 7): in id order, in the order made", async () => {
    const { webhookId } = await threeDelivered(Date.now() + 60_000);

    const made = await manual.app.db.webhookDelivery.findMany({
      where: { subscriptionId: webhookId },
      include: { event: { select: { sequence: true } }, attempts: true },
    });
    expect(made).toHaveLength(3);
    const v7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const id of [...made.map((delivery) => delivery.id), ...made.flatMap((d) => d.attempts.map((a) => a.id))])
      expect(id).toMatch(v7);
    const byId = [...made].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(byId.map((delivery) => delivery.event.sequence)).toEqual(
      made.map((delivery) => delivery.event.sequence).sort((a, b) => a - b),
    );
  });

  it("answers 404 for another profile's subscription, an unknown delivery or one of another subscription; 400 for an id that is no UUID", async () => {
    const owner = await newCaller(manual);
    const other = await newCaller(manual);
    const target = await receiver(manual);
    const first = await followedRamp(manual, owner, target.url());
    const second = await followedRamp(manual, owner, target.url());
    const [delivery] = (await deliveries(manual, owner, first.webhookId)).deliveries;

    for (const [headers, webhookId, deliveryId] of [
      [other.secret, first.webhookId, delivery.id],
      [owner.secret, second.webhookId, delivery.id],
      [owner.secret, first.webhookId, crypto.randomUUID()],
    ] as const) {
      expectError(
        await manual.request("POST", `/v1/webhook/${webhookId}/deliveries/${deliveryId}/redeliver`, { headers }),
        404,
        "NOT_FOUND",
      );
    }
    expectError(
      await manual.request("GET", `/v1/webhook/${first.webhookId}/deliveries`, { headers: other.secret }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await manual.request("POST", `/v1/webhook/${first.webhookId}/deliveries/not-a-uuid/redeliver`, {
        headers: owner.secret,
      }),
      400,
      "VALIDATION_FAILED",
      "deliveryId",
    );
    expectError(
      await manual.request("GET", `/v1/webhook/not-a-uuid/deliveries`, { headers: owner.secret }),
      400,
      "VALIDATION_FAILED",
      "id",
    );
    // Nothing was touched by the refused calls.
    expect((await deliveries(manual, owner, first.webhookId)).deliveries[0]).toEqual(delivery);
  });
});

describe("test events", () => {
  const sendTest = (t: TestApp, caller: Caller, webhookId: string) =>
    t.request("POST", `/v1/webhook/${webhookId}/test`, { headers: caller.secret });

  it("sends a signed WEBHOOK_TEST through the delivery path, one per call, which the receiver package verifies", async () => {
    const caller = await newCaller(live);
    const target = await receiver(live);
    const quoteId = await quote(live, caller);
    const webhookId = await subscribe(live, caller, { url: target.url(), quoteId });

    const queued = ok(await sendTest(live, caller, webhookId), 202);
    expect(queued).toMatchObject({ eventType: "WEBHOOK_TEST", status: "pending", attempts: [], deliveredAt: null });
    const [received] = await target.waitFor(1);
    const { publicKey } = ok(await live.request("GET", "/v1/public-key"), 200);
    const check = (rawBody: string) =>
      verifyReceived({
        publicKey,
        timestamp: received!.headers["x-service-timestamp"],
        signature: received!.headers["x-service-signature"],
        rawBody,
      });
    expect(check(received!.rawBody)).toEqual({
      eventId: queued.eventId,
      eventType: "WEBHOOK_TEST",
      timestamp: expect.any(String),
      payload: { test: true, webhookId, quoteId, sessionId: null },
    });
    expect(() => check(received!.rawBody.replace(webhookId, crypto.randomUUID()))).toThrow(
      expect.objectContaining({ check: "signature" }),
    );

    const second = ok(await sendTest(live, caller, webhookId), 202);
    expect(second.eventId).not.toBe(queued.eventId);
    const log = await waitFor(
      () => deliveries(live, caller, webhookId),
      (page) => page.deliveries.every((delivery: any) => delivery.status === "delivered"),
      "both delivered",
    );
    expect(log.deliveries.map((delivery: any) => [delivery.id, delivery.eventType, delivery.attempts.length])).toEqual([
      [second.id, "WEBHOOK_TEST", 1],
      [queued.id, "WEBHOOK_TEST", 1],
    ]);
    expect(log.deliveries[1].attempts[0].request.body).toBe(received!.rawBody);
    await sleep(200);
    expect(target.received.map((delivery) => JSON.parse(delivery.rawBody).eventId)).toEqual([
      queued.eventId,
      second.eventId,
    ]);
    // The ramp feed reads past test events: no ramp's subscriber is sent them.
    const { entries, passedOver } = await readOutbox(live.app.reads, 0, 1_000_000);
    expect(entries.some((entry) => (entry.body.eventType as string) === "WEBHOOK_TEST")).toBe(false);
    expect(passedOver.length).toBeGreaterThanOrEqual(2);
  });

  it("never disables a subscription, however many fail, nor ends a run of failed ramp events when delivered", async () => {
    const caller = await newCaller(manual);
    let failing = true;
    const target = await receiver(manual, () => ({ status: failing ? 500 : 204 }));
    const { webhookId, newRamp } = await followedSession(manual, caller, target.url());
    const subscription = () => manual.app.db.webhookSubscription.findUniqueOrThrow({ where: { id: webhookId } });
    const latest = async () => (await deliveries(manual, caller, webhookId, "?limit=1")).deliveries[0];
    let t = Date.now() + 60_000;
    /** Runs what is due through a whole round of attempts. */
    const wholeRound = async () => {
      await runAt(t);
      for (const delay of RETRY_DELAYS_MS) await runAt((t += delay));
      t += 60_000;
    };

    for (let index = 0; index < FAILED_DELIVERIES_TO_DISABLE; index++)
      ok(await sendTest(manual, caller, webhookId), 202);
    await wholeRound();
    const tests = (await deliveries(manual, caller, webhookId)).deliveries;
    expect(tests.map((delivery: any) => [delivery.eventType, delivery.status, delivery.attempts.length])).toEqual(
      Array(FAILED_DELIVERIES_TO_DISABLE).fill(["WEBHOOK_TEST", "failed", RETRY_DELAYS_MS.length + 1]),
    );
    expect(await subscription()).toMatchObject({ isActive: true, consecutiveFailures: 0 });

    for (let index = 0; index < FAILED_DELIVERIES_TO_DISABLE - 1; index++) await newRamp();
    await wholeRound();
    const runOfFailures = { isActive: true, consecutiveFailures: FAILED_DELIVERIES_TO_DISABLE - 1 };
    expect(await subscription()).toMatchObject(runOfFailures);
    failing = false;
    ok(await sendTest(manual, caller, webhookId), 202);
    await runAt((t += 1_000));
    expect(await latest()).toMatchObject({ eventType: "WEBHOOK_TEST", status: "delivered" });
    expect(await subscription()).toMatchObject(runOfFailures);

    // Ramp events still disable it.
    failing = true;
    await newRamp();
    await wholeRound();
    expect(await latest()).toMatchObject({ eventType: "TRANSACTION_CREATED", status: "failed" });
    expect(await subscription()).toMatchObject({ isActive: false, consecutiveFailures: FAILED_DELIVERIES_TO_DISABLE });
  });

  it("answers 404 for another profile's webhook and refuses a disabled one, queueing nothing", async () => {
    const owner = await newCaller(manual);
    const other = await newCaller(manual);
    const webhookId = await subscribe(manual, owner, {
      url: "https://hooks.example/x",
      quoteId: await quote(manual, owner),
    });
    expectError(await sendTest(manual, other, webhookId), 404, "NOT_FOUND");
    expectError(await sendTest(manual, owner, crypto.randomUUID()), 404, "NOT_FOUND");

    await manual.app.db.webhookSubscription.update({ where: { id: webhookId }, data: { isActive: false } });
    const refused = await sendTest(manual, owner, webhookId);
    expectError(refused, 400, "VALIDATION_FAILED");
    expect(refused.body.error.details).toEqual([
      { field: "id", message: "is a disabled webhook: register it again to resume deliveries" },
    ]);
    expect((await deliveries(manual, owner, webhookId)).totalCount).toBe(0);
  });

  it("queues nothing for a subscription deleted after it was read, which the call then answers as unknown", async () => {
    const owner = await newCaller(manual);
    const webhookId = await subscribe(manual, owner, {
      url: "https://hooks.example/x",
      quoteId: await quote(manual, owner),
    });
    const read = await manual.app.db.webhookSubscription.findUniqueOrThrow({ where: { id: webhookId } });
    await manual.app.db.webhookSubscription.delete({ where: { id: webhookId } });
    // The service's read of the subscription came first; its deletion then raced the test event's queueing.
    expect(await enqueueTestDelivery(manual.app.db, read, new Date())).toBeNull();
    expect(await manual.app.db.webhookDelivery.count({ where: { subscriptionId: webhookId } })).toBe(0);
  });
});

describe("GraphQL", () => {
  const gql = async (caller: Caller, query: string, variables?: Record<string, unknown>) =>
    (await manual.graphql(query, variables, caller.secret)).body;
  const WEBHOOK_FIELDS = "id url quoteId sessionId events isActive createdAt";

  it("registers, lists page by page, shows deliveries with attempts, redelivers and deletes, as REST does", async () => {
    const caller = await newCaller(manual);
    const target = await receiver(manual);
    const quoteIds = [await quote(manual, caller), await quote(manual, caller)];
    const registered: { id: string }[] = [];
    for (const quoteId of quoteIds) {
      const body = await gql(
        caller,
        `mutation ($input: RegisterWebhookInput!) { registerWebhook(input: $input) { webhook { ${WEBHOOK_FIELDS} } } }`,
        {
          input: { url: target.url("/graphql-hook"), quoteId, events: ["TRANSACTION_CREATED"] },
        },
      );
      expect(body.errors).toBeUndefined();
      registered.push(body.data.registerWebhook.webhook);
    }
    expect(registered[0]).toMatchObject({
      url: target.url("/graphql-hook"),
      quoteId: quoteIds[0],
      sessionId: null,
      events: ["TRANSACTION_CREATED"],
      isActive: true,
    });
    const rest = ok(await manual.request("GET", "/v1/webhook", { headers: caller.secret }), 200).webhooks;
    expect(rest.map((webhook: any) => webhook.id)).toEqual([registered[1].id, registered[0].id]);

    const firstPage = (
      await gql(caller, "{ webhooks(first: 1) { count pageInfo { hasNextPage endCursor } edges { node { id } } } }")
    ).data.webhooks;
    expect([firstPage.count, firstPage.pageInfo.hasNextPage, firstPage.edges[0].node.id]).toEqual([
      1,
      true,
      registered[1].id,
    ]);
    const secondPage = (
      await gql(
        caller,
        "query ($after: String) { webhooks(first: 1, after: $after) { pageInfo { hasNextPage hasPreviousPage } edges { node { id } } } }",
        { after: firstPage.pageInfo.endCursor },
      )
    ).data.webhooks;
    expect([secondPage.pageInfo, secondPage.edges[0].node.id]).toEqual([
      { hasNextPage: false, hasPreviousPage: true },
      registered[0].id,
    ]);
    const badCursor = await gql(caller, '{ webhooks(first: 1, after: "bm90LWEtY3Vyc29y") { count } }');
    expect(badCursor.errors[0].extensions.code).toBe("VALIDATION_FAILED");

    await register(manual, caller, quoteIds[0]!);
    const t0 = Date.now() + 60_000;
    await runAt(t0);
    const DELIVERIES =
      "{ webhooks(first: 5) { edges { node { id deliveries(first: 5) { count edges { node { id eventId eventType status deliveredAt attempts { startedAt durationMs statusCode error request { headers { name value } body } } } } } } } } }";
    const withLog = (await gql(caller, DELIVERIES)).data.webhooks.edges.find(
      (edge: any) => edge.node.id === registered[0].id,
    ).node;
    expect(withLog.deliveries.count).toBe(1);
    const delivery = withLog.deliveries.edges[0].node;
    expect(delivery).toMatchObject({
      eventType: "TRANSACTION_CREATED",
      status: "DELIVERED",
      deliveredAt: new Date(t0).toISOString(),
    });
    expect(delivery.attempts.map((attempt: any) => [attempt.startedAt, attempt.statusCode, attempt.error])).toEqual([
      [new Date(t0).toISOString(), 204, null],
    ]);
    expect(delivery.eventId).toBe(target.received.at(-1)!.event!.eventId);
    const restLog = await deliveries(manual, caller, registered[0].id);
    expect(delivery.attempts[0].request).toEqual(restLog.deliveries[0].attempts[0].request);
    expect(delivery.attempts[0].request.body).toBe(target.received.at(-1)!.rawBody);

    const REDELIVER =
      "mutation ($webhookId: ID!, $deliveryId: ID!) { redeliverWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) { delivery { id status nextAttemptAt } } }";
    const redelivered = await gql(caller, REDELIVER, { webhookId: registered[0].id, deliveryId: delivery.id });
    expect(redelivered.data.redeliverWebhookDelivery.delivery).toMatchObject({ id: delivery.id, status: "PENDING" });
    const unknown = await gql(caller, REDELIVER, { webhookId: registered[0].id, deliveryId: crypto.randomUUID() });
    expect(unknown.errors[0].extensions.code).toBe("NOT_FOUND");
    const tested = await gql(
      caller,
      "mutation ($webhookId: ID!) { sendWebhookTestEvent(webhookId: $webhookId) { delivery { id eventType status } } }",
      { webhookId: registered[0].id },
    );
    expect(tested.data.sendWebhookTestEvent.delivery).toMatchObject({ eventType: "WEBHOOK_TEST", status: "PENDING" });

    const DELETE = "mutation ($id: ID!) { deleteWebhook(id: $id) { deletedWebhookId } }";
    expect((await gql(caller, DELETE, { id: registered[0].id })).data).toEqual({
      deleteWebhook: { deletedWebhookId: registered[0].id },
    });
    const again = await gql(caller, DELETE, { id: registered[0].id });
    expect(again.errors[0].extensions.code).toBe("NOT_FOUND");
    expect(
      ok(await manual.request("GET", "/v1/webhook", { headers: caller.secret }), 200).webhooks.map(
        (webhook: any) => webhook.id,
      ),
    ).toEqual([registered[1].id]);
  });

  it("refuses what REST refuses, with the same codes", async () => {
    const caller = await newCaller(manual);
    const quoteId = await quote(manual, caller);
    const REGISTER = "mutation ($input: RegisterWebhookInput!) { registerWebhook(input: $input) { webhook { id } } }";
    const code = async (variables: Record<string, unknown>) =>
      (await gql(caller, REGISTER, variables)).errors?.[0]?.extensions?.code;
    expect(await code({ input: { url: "http://93.184.215.14/hook", quoteId } })).toBe("INVALID_WEBHOOK_URL");
    expect(await code({ input: { url: "https://10.1.2.3/hook", quoteId } })).toBe("INVALID_WEBHOOK_URL");
    expect(await code({ input: { url: "https://93.184.215.14/hook" } })).toBe("VALIDATION_FAILED");
    expect(await code({ input: { url: "https://93.184.215.14/hook", quoteId: crypto.randomUUID() } })).toBe(
      "NOT_FOUND",
    );
    expect(await manual.app.db.webhookSubscription.count({ where: { quoteId } })).toBe(0);
  });
});
