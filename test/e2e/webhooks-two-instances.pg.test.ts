import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { deliveryLog, expectCall, httpSend, newSecretKey, type Headers } from "../support/e2e-http.js";
import { BUY_QUOTE, EVM_ADDRESS, waitFor } from "../support/kit.js";
import { completeKyc } from "../support/kyc.js";
import { sharedPartners, startServerProcess, type ServerProcess } from "../support/server-process.js";
import { startSmtpCapture, type SmtpCapture } from "../support/smtp.js";
import { startWebhookReceiver, testCertificates, type WebhookReceiver } from "../support/webhook-receiver.js";
import { execute, openSocket, subscribe, type Subscription, type WsSocket } from "../support/ws-client.js";

/**
 * Two BUILT server processes on one PostgreSQL database (PostgreSQL only: distributed mode), both running
 * their workers: webhooks registered and events produced through either process are delivered once per
 * subscription (the workers share the queue), and a GraphQL subscription on one process follows ramps
 * whose events the other one writes.
 */

const RAMP_EVENTS =
  "subscription ($quoteId: ID) { rampEvents(quoteId: $quoteId) { eventId eventType timestamp payload { quoteId transactionId sessionId transactionStatus transactionType } } }";
const env = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32",
  NODE_EXTRA_CA_CERTS: testCertificates().caFile,
  RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "1000",
  RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
  RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000",
  WEBHOOK_DELIVERY_POLL_MS: "20",
  SANDBOX_STEP_DELAY_MS: "20",
  RAMP_PROCESSOR_INTERVAL_MS: "10",
  // The caller completes BR KYC before registering ramps: decided as soon as it is finished.
  PARTNER_SIM_KYC_DECISION_MS: "0",
};

let database: TestDatabase;
let smtp: SmtpCapture;
let a: ServerProcess;
let b: ServerProcess;
let receiver: WebhookReceiver;
let caller: { secretKey: string; headers: Headers };
const sockets: WsSocket[] = [];

beforeAll(async () => {
  database = await freshDatabase();
  smtp = await startSmtpCapture();
  // One after the other: the first creates the shared signing key and development JWT secret, and simulates the
  // partners both talk to.
  a = await startServerProcess({ database, smtp, env });
  b = await startServerProcess({ database, smtp, env: { ...env, ...sharedPartners(a) } });
  const publicKey = (await expectCall(200, a, "GET", "/v1/public-key")).publicKey;
  expect((await expectCall(200, b, "GET", "/v1/public-key")).publicKey).toBe(publicKey);
  receiver = await startWebhookReceiver({ publicKey, respond: () => ({ status: 204, delayMs: 5 }) });
  caller = await newSecretKey(a, "e2e-two-instances");
  await completeKyc(httpSend(a), caller.headers, ["BR"]);
});
afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.dispose()));
  await receiver?.close();
  await b?.dispose();
  await a?.dispose();
  await smtp?.close();
  await database?.drop();
});

/** A ramp's webhook bodies (TRANSACTION_CREATED, STATUS_CHANGE) in the shared outbox, in order. */
async function webhookBodies(
  rampIds: string[],
): Promise<{ eventId: string; eventType: string; payload: { transactionId: string } }[]> {
  const { db, close } = await openDatabase(database.config);
  try {
    const rows = await db.rampEvent.findMany({
      where: { rampId: { in: rampIds }, eventType: { not: "PHASE_CHANGE" } },
      orderBy: { sequence: "asc" },
    });
    return rows.map((row) => JSON.parse(row.body));
  } finally {
    await close();
  }
}

async function runRamp(server: ServerProcess, quoteId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const ramp = await expectCall(201, server, "POST", "/v1/ramp/register", {
    headers: caller.headers,
    body: { quoteId, destinationAddress: EVM_ADDRESS, ...extra },
  });
  await expectCall(200, server, "POST", "/v1/ramp/start", { headers: caller.headers, body: { rampId: ramp.id } });
  return ramp.id;
}

describe("two server processes on one PostgreSQL database", () => {
  it(
    "deliver each event exactly once per subscription, whichever process registered the webhook and wrote the event",
    { timeout: 60_000 },
    async () => {
      const RAMPS = 20;
      const session = await expectCall(201, b, "POST", "/v1/session/create", {
        headers: caller.headers,
        body: { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "e2e-two-instances" },
      });
      const viaA = await expectCall(201, a, "POST", "/v1/webhook", {
        headers: caller.headers,
        body: { url: receiver.url("/a"), sessionId: session.sessionId },
      });
      const viaB = await expectCall(201, b, "POST", "/v1/webhook", {
        headers: caller.headers,
        body: { url: receiver.url("/b"), sessionId: session.sessionId },
      });

      const rampIds = await Promise.all(
        Array.from({ length: RAMPS }, async (_, index) => {
          const server = index % 2 === 0 ? a : b;
          const quote = await expectCall(201, server, "POST", "/v1/quotes", {
            headers: caller.headers,
            body: BUY_QUOTE,
          });
          return runRamp(server, quote.id, { sessionId: session.sessionId });
        }),
      );
      for (const [index, rampId] of rampIds.entries()) {
        const other = index % 2 === 0 ? b : a;
        const done = await waitFor(
          () => expectCall(200, other, "GET", `/v1/ramp/${rampId}`, { headers: caller.headers }),
          (ramp) => ramp.status !== "PENDING",
          `ramp ${index} to finish`,
        );
        expect(done.status).toBe("COMPLETE");
      }
      const expected = (await webhookBodies(rampIds)).map((body) => body.eventId).sort();
      expect(expected).toHaveLength(2 * RAMPS);

      for (const path of ["/a", "/b"])
        await receiver.waitFor(2 * RAMPS, { which: (delivery) => delivery.path === path });
      // Long enough for a second send of any event to arrive, were there one.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(
        receiver.received
          .filter((delivery) => delivery.verificationError !== undefined)
          .map((delivery) => delivery.verificationError),
      ).toEqual([]);
      for (const path of ["/a", "/b"]) {
        const eventIds = receiver.received
          .filter((delivery) => delivery.path === path)
          .map((delivery) => delivery.event!.eventId);
        expect(eventIds.sort(), path).toEqual(expected);
      }
      // Each subscription's log, read through the process that did not register it: one attempt per delivery.
      for (const [server, webhook] of [
        [b, viaA],
        [a, viaB],
      ] as const) {
        const log = await waitFor(
          () => deliveryLog(server, caller.headers, webhook.id),
          (entries) => entries.every((entry) => entry.status === "delivered"),
          "every delivery settled",
        );
        expect(log.map((entry) => entry.eventId).sort()).toEqual(expected);
        for (const entry of log)
          expect(
            entry.attempts.map((attempt) => attempt.statusCode),
            entry.id,
          ).toEqual([204]);
      }
    },
  );

  it(
    "a GraphQL subscription on one process receives rampEvents of a ramp whose events the other process writes, both ways",
    { timeout: 60_000 },
    async () => {
      for (const [listener, producer] of [
        [a, b],
        [b, a],
      ] as const) {
        const socket = openSocket(listener.wsUrl, { "X-API-Key": caller.secretKey });
        sockets.push(socket);
        const quote = await expectCall(201, producer, "POST", "/v1/quotes", {
          headers: caller.headers,
          body: BUY_QUOTE,
        });
        const events: Subscription = subscribe(socket.client, RAMP_EVENTS, { quoteId: quote.id });
        // A query needing the database on the same socket: once it answers, the subscription is listening.
        await execute(socket.client, "{ supportedFiatCurrencies { symbol } }");
        const rampId = await runRamp(producer, quote.id);

        const received = () =>
          events.results
            .filter((result) => result.data)
            .map((result) => (result.data as { rampEvents: unknown }).rampEvents);
        await events.until(
          () => received().length === 2 || events.failures.length > 0,
          `two rampEvents on ${listener.url}`,
        );
        expect(events.failures).toEqual([]);
        expect(received()).toEqual(await webhookBodies([rampId]));
        expect(received().map((event) => (event as { eventType: string }).eventType)).toEqual([
          "TRANSACTION_CREATED",
          "STATUS_CHANGE",
        ]);
      }
    },
  );
});
