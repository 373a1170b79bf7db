import { constants, generateKeyPairSync, sign } from "node:crypto";
import {
  startPartnerSimulator,
  type PartnerSimulator,
  type Timing,
} from "../../packages/partner-simulator/src/index.js";

/*
 * The partners a test app talks to: the partner simulator in the test's process, over HTTP on loopback, as the
 * embedded simulator is to `npm start`. Its credentials are made once per test process.
 */

const aveniaKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
/** The key the simulated Avenia signs its webhooks with: tests sign bodies of their own with it too. */
const aveniaWebhookKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const AVENIA_API_KEY = "test-avenia-key";
const ALFREDPAY = { apiKey: "test-alfredpay-key", apiSecret: "test-alfredpay-secret" };

/** The simulator's timings a test names by the embedded simulator's settings (PARTNER_SIM_*). */
const TIMING_SETTINGS: Record<keyof Timing, string> = {
  paymentDelayMs: "PARTNER_SIM_PAYMENT_DELAY_MS",
  depositDelayMs: "PARTNER_SIM_DEPOSIT_DELAY_MS",
  stageDelayMs: "PARTNER_SIM_STAGE_DELAY_MS",
  kycDecisionMs: "PARTNER_SIM_KYC_DECISION_MS",
  callbackRetryBaseMs: "PARTNER_SIM_CALLBACK_RETRY_BASE_MS",
  quoteTtlMs: "PARTNER_SIM_QUOTE_TTL_MS",
  orderLifetimeMs: "PARTNER_SIM_ORDER_LIFETIME_MS",
};

/**
 * Quick by default: decisions follow at once, so a journey's KYC takes a few reconciliation passes, and an order's
 * payment, deposit and stages follow each other in tens of milliseconds.
 */
export const TEST_TIMING = {
  kycDecisionMs: 0,
  paymentDelayMs: 20,
  depositDelayMs: 20,
  stageDelayMs: 20,
  callbackRetryBaseMs: 20,
} satisfies Partial<Timing>;

export interface TestPartners {
  simulator: PartnerSimulator;
  /** The gateway's settings for both partners at the simulator. */
  env: Record<string, string>;
  /** The `signature` header Avenia would send with these bytes (RSA-PSS/SHA-256, maximum salt). */
  signAveniaCallback(rawBody: string | Buffer): string;
}

/** Starts a simulator with the timings `env` sets (PARTNER_SIM_*), and the gateway settings that reach it. */
export async function startTestPartners(env: Record<string, string>): Promise<TestPartners> {
  const timing: Partial<Timing> = { ...TEST_TIMING };
  for (const [field, setting] of Object.entries(TIMING_SETTINGS))
    if (env[setting] !== undefined) timing[field as keyof Timing] = Number(env[setting]);
  const simulator = await startPartnerSimulator({
    avenia: {
      apiKey: AVENIA_API_KEY,
      clientPublicKeyPem: aveniaKeys.publicKey.export({ type: "spki", format: "pem" }).toString(),
      webhookKeys: aveniaWebhookKeys,
    },
    alfredpay: ALFREDPAY,
    timing,
  });
  return {
    simulator,
    signAveniaCallback: (rawBody) =>
      sign("sha256", Buffer.from(rawBody), {
        key: aveniaWebhookKeys.privateKey,
        padding: constants.RSA_PKCS1_PSS_PADDING,
        saltLength: constants.RSA_PSS_SALTLEN_MAX_SIGN,
      }).toString("base64"),
    env: {
      AVENIA_BASE_URL: simulator.url,
      AVENIA_API_KEY,
      AVENIA_PRIVATE_KEY: aveniaKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      ALFREDPAY_BASE_URL: simulator.url,
      ALFREDPAY_API_KEY: ALFREDPAY.apiKey,
      ALFREDPAY_API_SECRET: ALFREDPAY.apiSecret,
    },
  };
}
