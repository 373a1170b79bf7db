import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.js";
import { startWebhookReceiver, testCertificates, type WebhookReceiver } from "../support/webhook-receiver.js";
import { execute, openSocket, subscribe, type WsSocket } from "../support/ws-client.js";
import { BUY_QUOTE, EVM_ADDRESS, ok } from "../support/kit.js";

/*
 * Webhook delivery with several instances on one PostgreSQL database: the workers share the queue
 * (claims with FOR UPDATE SKIP LOCKED) and each delivery is sent once; a commit on one instance wakes the
 * subscription feed and the delivery workers of the others at once (NOTIFY), whatever their poll interval.
 */

const env = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32",
  WEBHOOK_DELIVERY_POLL_MS: "10",
  WEBHOOK_DELIVERY_CONCURRENCY: "4",
  RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
  RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000",
};
const seams = { webhookCa: testCertificates().ca };
let first: TestApp;
let second: TestApp;
let target: WebhookReceiver;

beforeAll(async () => {
  first = await startTestApp(env, { workers: true, seams });
  second = await startTestApp(env, { database: first.database, partners: first.partners, workers: true, seams });
  target = await startWebhookReceiver({
    publicKey: (await first.request("GET", "/v1/public-key")).body.publicKey,
    respond: () => ({ status: 204, delayMs: 5 }),
  });
});
afterAll(async () => {
  await target?.close();
  await second?.close();
  await first?.close();
});

describe("two instances", () => {
  it("send each delivery once", async () => {
    const signedIn = await first.signIn();
    const secret = { "x-api-key": (await first.createCredential(signedIn.headers)).secretKey };
    await first.completeKyc(secret);
    const session = ok(
      await first.request("POST", "/v1/session/create", {
        headers: secret,
        body: { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "ext-two" },
      }),
      201,
    );
    ok(
      await first.request("POST", "/v1/webhook", {
        headers: secret,
        body: { url: target.url(), sessionId: session.sessionId, events: ["TRANSACTION_CREATED"] },
      }),
      201,
    );
    const count = 60;
    await Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const app = index % 2 === 0 ? first : second;
        const quoteId = ok(await app.request("POST", "/v1/quotes", { headers: secret, body: BUY_QUOTE }), 201).id;
        ok(
          await app.request("POST", "/v1/ramp/register", {
            headers: secret,
            body: { quoteId, destinationAddress: EVM_ADDRESS, sessionId: session.sessionId },
          }),
          201,
        );
      }),
    );
    await target.waitFor(count);
    // Long enough for a duplicate send to arrive, were there one.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const eventIds = target.received.map((delivery) => delivery.event!.eventId);
    expect(eventIds).toHaveLength(count);
    expect(new Set(eventIds).size).toBe(count);
    expect(target.received.every((delivery) => delivery.verificationError === undefined)).toBe(true);
  });
});

describe("wake-ups between instances", () => {
  // Both poll only once a minute: within the test, only the other instance's NOTIFY can make them look.
  const slow = { ...env, RAMP_EVENT_POLL_MS: "60000", WEBHOOK_DELIVERY_POLL_MS: "60000" };
  let writer: TestApp;
  let reader: TestApp;
  let socket: WsSocket | undefined;
  let woken: WebhookReceiver;
  beforeAll(async () => {
    // The writer runs no workers: whatever reaches a subscriber or a receiver went through the reader.
    writer = await startTestApp(slow, { seams });
    reader = await startTestApp(slow, { database: writer.database, workers: true, seams });
    woken = await startWebhookReceiver({ publicKey: (await writer.request("GET", "/v1/public-key")).body.publicKey });
  });
  afterAll(async () => {
    await socket?.dispose();
    await woken?.close();
    await reader?.close();
    await writer?.close();
  });

  it("an event written through one instance reaches the other's subscribers and webhook receivers at once", async () => {
    const signedIn = await writer.signIn();
    const credential = await writer.createCredential(signedIn.headers);
    const secret = { "x-api-key": credential.secretKey };
    await writer.completeKyc(secret);
    const quoteId = ok(await writer.request("POST", "/v1/quotes", { headers: secret, body: BUY_QUOTE }), 201).id;
    ok(await writer.request("POST", "/v1/webhook", { headers: secret, body: { url: woken.url(), quoteId } }), 201);

    const address = await reader.server.listen({ port: 0, host: "127.0.0.1" });
    socket = openSocket(`${address.replace(/^http/, "ws")}/graphql`, { "X-API-Key": credential.secretKey });
    const events = subscribe(
      socket.client,
      "subscription ($quoteId: ID) { rampEvents(quoteId: $quoteId) { eventId eventType } }",
      { quoteId },
    );
    // A round trip on the same socket: once it answers, the subscription is listening.
    await execute(socket.client, "{ supportedFiatCurrencies { symbol } }");

    ok(
      await writer.request("POST", "/v1/ramp/register", {
        headers: secret,
        body: { quoteId, destinationAddress: EVM_ADDRESS },
      }),
      201,
    );
    // The waits' deadlines (15 and 20 s) come well before either instance's next poll (60 s).
    await events.until(() => events.results.length === 1, "the event on the reader's subscription");
    const [delivery] = await woken.waitFor(1);
    expect(delivery!.verificationError).toBeUndefined();
    expect(events.results[0]!.data).toEqual({
      rampEvents: { eventId: delivery!.event!.eventId, eventType: "TRANSACTION_CREATED" },
    });
  });
});
