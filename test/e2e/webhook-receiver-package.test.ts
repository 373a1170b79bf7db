import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebhookReceiver, type Delivery } from "@ramp-gateway/webhook-receiver";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { expectCall, httpSend, newSecretKey, type Headers } from "../support/e2e-http.js";
import { BUY_QUOTE, EVM_ADDRESS } from "../support/kit.js";
import { completeKyc } from "../support/kyc.js";
import { startTestPartners, type TestPartners } from "../support/partner-simulator.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { startSmtpCapture, type SmtpCapture } from "../support/smtp.js";
import {
  startWebhookReceiver,
  testCertificates,
  type WebhookReceiver as Capture,
} from "../support/webhook-receiver.js";

/**
 * The receiver package (packages/webhook-receiver, built by `npm run build`) on deliveries a BUILT server process
 * really sent: it fetches the served key once and verifies them, reports a delivery sent again as a duplicate,
 * and, after the operator rotates the signing key, fetches the new key once and verifies what is signed with it.
 */

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32",
  NODE_EXTRA_CA_CERTS: testCertificates().caFile,
  WEBHOOK_DELIVERY_POLL_MS: "50",
  PARTNER_SIM_KYC_DECISION_MS: "0",
};
const CLI = fileURLToPath(new URL("../../dist/cli/admin.js", import.meta.url));

let database: TestDatabase;
let smtp: SmtpCapture;
/** The partners outlive the server's restart, as partners do: the simulator runs in this test's process. */
let partners: TestPartners;
let env: Record<string, string>;
let server: ServerProcess;
let capture: Capture;
let headers: Headers;
const keyFetches: string[] = [];
// The server's port changes with each start: the receiver asks whichever process is running.
const receiver = new WebhookReceiver({
  publicKeyUrl: "https://gateway.example/v1/public-key",
  fetch: (async (_url: string | URL, init?: RequestInit) => {
    keyFetches.push(server.url);
    return fetch(`${server.url}/v1/public-key`, init);
  }) as typeof fetch,
  minRefreshIntervalMs: 0,
});

beforeAll(async () => {
  database = await freshDatabase();
  smtp = await startSmtpCapture();
  partners = await startTestPartners(ENV);
  // No Avenia webhook is registered at this simulator: KYC decisions are polled for.
  env = { ...ENV, ...partners.env, KYC_CHECK_INTERVAL_MS: "100" };
  server = await startServerProcess({ database, smtp, env });
  capture = await startWebhookReceiver();
  headers = (await newSecretKey(server, "receiver-package")).headers;
  await completeKyc(httpSend(server), headers, ["BR"]);
});
afterAll(async () => {
  await capture?.close();
  await server?.dispose();
  await partners?.simulator.stop();
  await smtp?.close();
  await database?.drop();
});

/** Registers a ramp with a webhook on its quote; resolves with the delivery of its TRANSACTION_CREATED event. */
async function deliveryOfNewRamp(): Promise<{ rampId: string; delivery: Delivery }> {
  const quote = await expectCall(201, server, "POST", "/v1/quotes", { headers, body: BUY_QUOTE });
  await expectCall(201, server, "POST", "/v1/webhook", { headers, body: { url: capture.url(), quoteId: quote.id } });
  const ramp = await expectCall(201, server, "POST", "/v1/ramp/register", {
    headers,
    body: { quoteId: quote.id, destinationAddress: EVM_ADDRESS },
  });
  const [received] = await capture.waitFor(1, { which: (entry) => entry.rawBody.includes(ramp.id) });
  return {
    rampId: ramp.id,
    delivery: {
      timestamp: received!.headers["x-service-timestamp"],
      signature: received!.headers["x-service-signature"],
      rawBody: received!.rawBody,
    },
  };
}

describe("the webhook receiver package on a running server's deliveries", () => {
  it("verifies them with the served key, fetched once; a delivery sent again is a duplicate", async () => {
    for (let i = 0; i < 2; i++) {
      const { rampId, delivery } = await deliveryOfNewRamp();
      expect(await receiver.receive(delivery)).toEqual({
        duplicate: false,
        event: expect.objectContaining({
          eventType: "TRANSACTION_CREATED",
          payload: expect.objectContaining({ transactionId: rampId, transactionStatus: "PENDING" }),
        }),
      });
      expect((await receiver.receive(delivery)).duplicate).toBe(true);
    }
    expect(keyFetches).toHaveLength(1);
    const { delivery } = await deliveryOfNewRamp();
    const tampered = { ...delivery, rawBody: String(delivery.rawBody).replace("PENDING", "COMPLETE") };
    await expect(receiver.receive(tampered)).rejects.toMatchObject({ check: "signature" });
  });

  it("after `signing-key rotate`, fetches the new key once and verifies what it signs", async () => {
    await promisify(execFile)(process.execPath, [CLI, "signing-key", "rotate"], {
      env: { PATH: process.env.PATH, DATA_DIR: database.dataDir, ...(database.url && { DATABASE_URL: database.url }) },
    });
    // A new process signs with the active key at once on both engines (a running one may take up to a minute on SQLite).
    await server.stop();
    server = await startServerProcess({ database, smtp, env });
    const fetchesBefore = keyFetches.length;
    for (let i = 0; i < 2; i++) {
      const { rampId, delivery } = await deliveryOfNewRamp();
      expect((await receiver.receive(delivery)).event).toMatchObject({ payload: { transactionId: rampId } });
    }
    expect(keyFetches.slice(fetchesBefore)).toEqual([server.url]);
  });
});
