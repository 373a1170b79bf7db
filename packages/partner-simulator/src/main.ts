// The simulator as a process: options from the environment (README), one JSON line `{"url": …}` on stdout.
import { startPartnerSimulator, type Timing } from "./index.js";

const env = process.env;

function required(name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

function wholeNumber(name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === "") return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number`);
  return Number(value);
}

const timingVariables: Record<keyof Timing, string> = {
  paymentDelayMs: "PARTNER_SIM_PAYMENT_DELAY_MS",
  depositDelayMs: "PARTNER_SIM_DEPOSIT_DELAY_MS",
  stageDelayMs: "PARTNER_SIM_STAGE_DELAY_MS",
  kycDecisionMs: "PARTNER_SIM_KYC_DECISION_MS",
  callbackRetryBaseMs: "PARTNER_SIM_CALLBACK_RETRY_BASE_MS",
  quoteTtlMs: "PARTNER_SIM_QUOTE_TTL_MS",
  orderLifetimeMs: "PARTNER_SIM_ORDER_LIFETIME_MS",
};
const timing = Object.fromEntries(
  Object.entries(timingVariables).flatMap(([key, name]) => {
    const value = wholeNumber(name);
    return value === undefined ? [] : [[key, value]];
  }),
) as Partial<Timing>;

const simulator = await startPartnerSimulator({
  port: wholeNumber("PARTNER_SIM_PORT") ?? 0,
  host: env.PARTNER_SIM_HOST || "127.0.0.1",
  avenia: {
    apiKey: required("AVENIA_API_KEY"),
    // Environment files cannot hold newlines: `\n` stands for one.
    clientPublicKeyPem: required("AVENIA_CLIENT_PUBLIC_KEY_PEM").replace(/\\n/g, "\n"),
  },
  alfredpay: {
    apiKey: required("ALFREDPAY_API_KEY"),
    apiSecret: required("ALFREDPAY_API_SECRET"),
    callbackUrl: env.ALFREDPAY_CALLBACK_URL || undefined,
    callbackSecret: env.ALFREDPAY_CALLBACK_SECRET || undefined,
  },
  timing,
  stateFile: env.PARTNER_SIM_STATE_FILE || undefined,
});
process.stdout.write(`${JSON.stringify({ url: simulator.url })}\n`);

for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void simulator.stop());
// Started by a parent with an IPC channel (the gateway's embedded mode): the channel closes when the parent exits,
// even by SIGKILL, and the simulator must not outlive it. The channel itself does not keep the process alive.
if (process.channel) {
  process.once("disconnect", () => void simulator.stop());
  process.channel.unref();
}
