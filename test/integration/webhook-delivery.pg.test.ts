import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { startWebhookReceiver, testCertificates, type WebhookReceiver } from "../support/webhook-receiver.js";

/*
 * Webhook delivery with several instances on one PostgreSQL database: the workers share the queue
 * (claims with FOR UPDATE SKIP LOCKED) and each delivery is sent once.
 */

const BUY = { rampType: "BUY", from: "pix", to: "polygon", inputAmount: "250.00", inputCurrency: "BRL", outputCurrency: "USDC" };
const ADDRESS = `0x${"2".repeat(40)}`;
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
  second = await startTestApp(env, { database: first.database, workers: true, seams });
  target = await startWebhookReceiver({ publicKey: (await first.request("GET", "/v1/public-key")).body.publicKey, respond: () => ({ status: 204, delayMs: 5 }) });
});
afterAll(async () => {
  await target?.close();
  await second?.close();
  await first?.close();
});

function ok(response: HttpResponse, status: number) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  return response.body;
}

describe("two instances", () => {
  it("send each delivery once", async () => {
    const signedIn = await first.signIn();
    const secret = { "x-api-key": (await first.createCredential(signedIn.headers)).secretKey };
    const session = ok(
      await first.request("POST", "/v1/session/create", { headers: secret, body: { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "ext-two" } }),
      201,
    );
    ok(await first.request("POST", "/v1/webhook", { headers: secret, body: { url: target.url(), sessionId: session.sessionId, events: ["TRANSACTION_CREATED"] } }), 201);
    const count = 60;
    await Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const app = index % 2 === 0 ? first : second;
        const quoteId = ok(await app.request("POST", "/v1/quotes", { headers: secret, body: BUY }), 201).id;
        ok(await app.request("POST", "/v1/ramp/register", { headers: secret, body: { quoteId, destinationAddress: ADDRESS, sessionId: session.sessionId } }), 201);
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
