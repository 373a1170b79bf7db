import type { CallbackSender } from "./callbacks.js";
import type { Scheduler } from "./scheduler.js";
import type { PartnerStats } from "./stats.js";

/** Delays of the time-driven progression, in milliseconds. */
export interface Timing {
  /** The payer of a BUY pays this long after the order is created. */
  paymentDelayMs: number;
  /** A SELL's deposit arrives this long after the order (Avenia: the payout ticket) is created. */
  depositDelayMs: number;
  /** Each later stage follows the previous one after this long. */
  stageDelayMs: number;
  /** A KYC/KYB decision follows the review's start after this long. */
  kycDecisionMs: number;
  /** The first retry of a failed callback waits this long; each next one twice as long. */
  callbackRetryBaseMs: number;
  /** How long a quote can be used. */
  quoteTtlMs: number;
  /** How long an order waits for its payment or deposit (an Avenia pay-in ticket, an Alfredpay order). */
  orderLifetimeMs: number;
}

export const TIMING_FIELDS: readonly (keyof Timing)[] = [
  "paymentDelayMs",
  "depositDelayMs",
  "stageDelayMs",
  "kycDecisionMs",
  "callbackRetryBaseMs",
  "quoteTtlMs",
  "orderLifetimeMs",
];

/**
 * How long after its expiry an unused quote is still known (asked about, it is "expired" rather than unknown); then it is
 * forgotten, so that what the simulator holds, and its state file, do not grow with every quote ever asked for.
 */
export const EXPIRED_QUOTE_MEMORY_MS = 3_600_000;

/**
 * Units of each fiat one US dollar (one USD stablecoin) buys, the market both partners quote from. The defaults are the
 * rates the gateway's tests were priced at before prices came from the partners, so their amounts stay as they were.
 */
export const DEFAULT_FIAT_PER_USD: Readonly<Record<string, number>> = {
  USD: 1,
  BRL: 5.4,
  MXN: 17.2,
  COP: 4100,
  ARS: 1050,
};

/** What a partner's handlers share with the rest of the simulator. */
export interface PartnerContext {
  scheduler: Scheduler;
  timing: Timing;
  /** The market's rates now (DEFAULT_FIAT_PER_USD, as `/_control/rates` changed them). */
  fiatPerUsd: ReadonlyMap<string, number>;
  callbacks: CallbackSender;
  stats: () => PartnerStats;
  /** The simulator's own URL, for the upload and hosted-flow URLs it hands out. */
  baseUrl: () => string;
}
