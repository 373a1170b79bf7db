import { createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import type { AddressInfo } from "node:net";
import { Alfredpay, type AlfredpayOptions } from "./alfredpay.js";
import { Avenia } from "./avenia.js";
import { CallbackSender } from "./callbacks.js";
import { DEFAULT_FIAT_PER_USD, type PartnerContext, type Timing } from "./context.js";
import { PARTNERS, type PartnerFaults, type PartnerName } from "./faults.js";
import { Scheduler } from "./scheduler.js";
import { createSimulatorServer, type Control } from "./server.js";
import { StateFile } from "./state.js";
import { emptyStats } from "./stats.js";

export type { Timing } from "./context.js";
export type { CallbackFaults, FaultsInput, PartnerFaults, PartnerName } from "./faults.js";
export type { PartnerStats, SimulatorStats } from "./stats.js";
export { ALFREDPAY_PREFIX } from "./alfredpay.js";
export { DEFAULT_FIAT_PER_USD } from "./context.js";

export const DEFAULT_TIMING: Timing = {
  paymentDelayMs: 1000,
  depositDelayMs: 1000,
  stageDelayMs: 1000,
  kycDecisionMs: 2000,
  callbackRetryBaseMs: 1000,
  quoteTtlMs: 5 * 60_000,
  orderLifetimeMs: 30 * 60_000,
};

export interface PartnerSimulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  avenia: {
    apiKey: string;
    /** The PEM of the key the gateway signs its Avenia requests with (known to the partner out of band). */
    clientPublicKeyPem: string;
    /** The RSA key Avenia's webhooks are signed with (a new one by default), for a test that signs bodies of its own. */
    webhookKeys?: { privateKey: KeyObject; publicKey: KeyObject };
  };
  alfredpay: AlfredpayOptions;
  timing?: Partial<Timing>;
  /**
   * Where the partners' state is kept across restarts (src/state.ts): loaded at start, what was under way then moved
   * on from there; none by default.
   */
  stateFile?: string;
}

/** The `/_control` API, as methods. */
export interface PartnerSimulator extends Control {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts the simulator; it answers on `url` until stop(). */
export async function startPartnerSimulator(options: PartnerSimulatorOptions): Promise<PartnerSimulator> {
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  if (options.alfredpay.callbackUrl && !options.alfredpay.callbackSecret?.startsWith("whsec_"))
    throw new Error("alfredpay.callbackSecret (whsec_<base64>) is required with a callbackUrl");
  const clientPublicKey = createPublicKey(options.avenia.clientPublicKeyPem);
  const { privateKey, publicKey } = options.avenia.webhookKeys ?? generateKeyPairSync("rsa", { modulusLength: 2048 });

  let state: StateFile | undefined;
  const scheduler = new Scheduler(() => state?.changed());
  let stats = emptyStats();
  let faults = emptyFaults();
  let url = "";
  const fiatPerUsd = new Map(Object.entries(DEFAULT_FIAT_PER_USD));
  const contextFor = (partner: PartnerName): PartnerContext => ({
    scheduler,
    timing,
    fiatPerUsd,
    callbacks: new CallbackSender(
      scheduler,
      timing.callbackRetryBaseMs,
      () => faults[partner],
      () => stats[partner],
    ),
    stats: () => stats[partner],
    baseUrl: () => url,
  });
  const aveniaContext = contextFor("avenia");
  const alfredpayContext = contextFor("alfredpay");
  const avenia = new Avenia(aveniaContext, {
    apiKey: options.avenia.apiKey,
    clientPublicKey,
    simulatorPrivateKey: privateKey,
    // PKCS#1, as the live partner serves it.
    simulatorPublicKeyPem: publicKey.export({ type: "pkcs1", format: "pem" }).toString(),
  });
  const alfredpay = new Alfredpay(alfredpayContext, options.alfredpay);
  const senders: Record<PartnerName, CallbackSender> = {
    avenia: aveniaContext.callbacks,
    alfredpay: alfredpayContext.callbacks,
  };

  const control: Control = {
    setFaults: ({ partner, ...partnerFaults }) => {
      const wasReordering = faults[partner].callbacks?.reorder === true;
      faults[partner] = partnerFaults;
      if (wasReordering && !partnerFaults.callbacks?.reorder) senders[partner].releaseHeld();
    },
    clearFaults: () => {
      faults = emptyFaults();
      for (const sender of Object.values(senders)) sender.releaseHeld();
    },
    stats: () => stats,
    reset: () => {
      scheduler.clear();
      for (const sender of Object.values(senders)) sender.cancelAll();
      avenia.reset();
      alfredpay.reset();
      faults = emptyFaults();
      stats = emptyStats();
      fiatPerUsd.clear();
      for (const [fiat, rate] of Object.entries(DEFAULT_FIAT_PER_USD)) fiatPerUsd.set(fiat, rate);
      state?.changed();
    },
    // The partners read their timings when they schedule: a change applies to what is scheduled after it.
    setTiming: (patch) => {
      Object.assign(timing, patch);
    },
    setRates: (rates) => {
      for (const [fiat, rate] of Object.entries(rates)) fiatPerUsd.set(fiat, rate);
    },
    payAveniaTicket: (ticketId) => avenia.payTicket(ticketId),
    payAlfredpayOnramp: (transactionId) => alfredpay.payOnramp(transactionId),
  };

  if (options.stateFile) {
    state = new StateFile(options.stateFile, () => ({
      version: 1,
      avenia: avenia.snapshot(),
      alfredpay: alfredpay.snapshot(),
    }));
    const kept = state.load();
    if (kept) {
      avenia.restore(kept.avenia);
      alfredpay.restore(kept.alfredpay);
    }
  }
  const server = createSimulatorServer({
    partners: { avenia: avenia.partner, alfredpay: alfredpay.partner },
    faults: (partner) => faults[partner],
    control,
    scheduler,
    answered: () => state?.changed(),
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  url = `http://${host}:${address.port}`;

  return {
    url,
    ...control,
    stop: async () => {
      scheduler.close();
      state?.close();
      for (const sender of Object.values(senders)) sender.cancelAll();
      // Held sockets (timeoutNext) are never answered: close them with the rest.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function emptyFaults(): Record<PartnerName, PartnerFaults> {
  return Object.fromEntries(PARTNERS.map((partner) => [partner, {}])) as Record<PartnerName, PartnerFaults>;
}
