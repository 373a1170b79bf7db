import { generateKeyPairSync } from "node:crypto";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startPartnerSimulator, type PartnerSimulator } from "../../../packages/partner-simulator/src/index.js";
import { AveniaClient } from "../../../src/providers/avenia/client.js";
import { AveniaWebhookRefused, registerAveniaWebhook } from "../../../src/providers/avenia/webhook-registration.js";

/** The gateway's Avenia webhook, registered against the simulator's `/v2/notifications/webhooks`. */

const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const GATEWAY = "http://127.0.0.1:8080/v1/webhooks/avenia";

let simulator: PartnerSimulator;
let avenia: AveniaClient;

beforeAll(async () => {
  simulator = await startPartnerSimulator({
    avenia: {
      apiKey: "avenia-key",
      clientPublicKeyPem: keys.publicKey.export({ type: "spki", format: "pem" }).toString(),
    },
    alfredpay: { apiKey: "alfredpay-key", apiSecret: "alfredpay-secret" },
  });
  avenia = new AveniaClient({
    baseUrl: simulator.url,
    apiKey: "avenia-key",
    privateKeyPem: keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    logger: pino({ level: "silent" }),
  });
});
afterEach(() => simulator.reset());
afterAll(async () => {
  await avenia.close();
  await simulator.stop();
});

describe("registerAveniaWebhook", () => {
  it("creates the webhook for ticket and KYC events once, then reuses it", async () => {
    const first = await registerAveniaWebhook(avenia, GATEWAY);
    expect(first.created).toBe(true);
    expect(await registerAveniaWebhook(avenia, GATEWAY)).toEqual({ webhookId: first.webhookId, created: false });
    expect(await avenia.webhooks()).toEqual([{ id: first.webhookId, url: GATEWAY, subscriptions: ["TICKET", "KYC"] }]);
  });

  it("widens an existing registration for the URL that lacks our subscriptions, keeping its own", async () => {
    const { webhookId } = await avenia.createWebhook({ webhookUrl: GATEWAY, subscriptions: ["LIMIT-UPDATE"] });
    expect(await registerAveniaWebhook(avenia, GATEWAY)).toEqual({ webhookId, created: false });
    expect(await avenia.webhooks()).toEqual([
      { id: webhookId, url: GATEWAY, subscriptions: ["LIMIT-UPDATE", "TICKET", "KYC"] },
    ]);
  });

  it("refuses, naming the limit, when the account already has Avenia's three webhooks for other URLs", async () => {
    for (const n of [1, 2, 3])
      await avenia.createWebhook({ webhookUrl: `https://elsewhere.example/${n}`, subscriptions: ["*"] });
    await expect(registerAveniaWebhook(avenia, GATEWAY)).rejects.toThrow(AveniaWebhookRefused);
    await expect(registerAveniaWebhook(avenia, GATEWAY)).rejects.toThrow(/3 webhooks for this account, its maximum/);
    expect(await avenia.webhooks()).toHaveLength(3);
  });
});
