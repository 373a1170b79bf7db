import type { RampPhase } from "../reference-data/ramp-phases.js";
import type { AlfredpayClient } from "./alfredpay/client.js";
import type { AveniaClient } from "./avenia/client.js";
import { PartnerError } from "./http/partner-http.js";
import type { Partner } from "./partners.js";
import type { PartnerCallbackFacts } from "./callback-port.js";
import type { StepOutcome } from "./ramp-port.js";

/** The partners' orders that move a ramp's money: Avenia's tickets, Alfredpay's orders. */
export type OrderKind = "avenia-payin" | "avenia-payout" | "alfredpay-onramp" | "alfredpay-offramp";

/*
 * What a money command's order says of its ramp once the partner made it (docs/issue41-design.md, "Money commands
 * and observations"): the partner's status read as our phase, one table per kind of order, whether the status came
 * from reading the order or from a callback, so both move a ramp alike (forward only: advanceTo). A read that fails
 * throws the client's PartnerError, for the caller to read again later.
 */

/** An order's status as the ramp's phase, with what the partner gave beside it. */
export interface OrderObservation {
  /** null: a status this kind of order is not known to take, so no change; the caller logs `partnerStatus`. */
  phase: RampPhase | null;
  /** The status as the partner wrote it. */
  partnerStatus: string;
  /** The order's transaction on chain (a BUY's payout to the wallet), once the partner gives it. */
  transactionHash?: string;
  /** Why a failed order failed, in the partner's words: for the ramp's error entry, never for a log. */
  failureReason?: string;
  /** Until when an order awaiting its payment or deposit takes it, where the partner says (ISO 8601). */
  expiresAt?: string;
}

/** Avenia ticket statuses (spec decision 4), Alfredpay order statuses (spec, endpoint subset). */
const PHASE_OF_STATUS: Record<OrderKind, ReadonlyMap<string, RampPhase>> = {
  "avenia-payin": new Map<string, RampPhase>([
    ["UNPAID", "awaitingPayment"],
    ["PENDING", "awaitingPayment"],
    ["ON-HOLD", "awaitingPayment"],
    ["PROCESSING", "exchanging"],
    ["PAID", "complete"],
    ["FAILED", "failed"],
    ["PARTIAL-FAILED", "failed"],
  ]),
  "avenia-payout": new Map<string, RampPhase>([
    ["PENDING", "awaitingPayment"],
    ["UNPAID", "awaitingPayment"],
    ["PROCESSING", "payingOut"],
    ["PAID", "complete"],
    ["FAILED", "failed"],
  ]),
  "alfredpay-onramp": new Map<string, RampPhase>([
    ["CREATED", "awaitingPayment"],
    ["FIAT_DEPOSIT_RECEIVED", "paymentConfirmed"],
    ["TRADE_COMPLETED", "exchanging"],
    ["ON_CHAIN_INITIATED", "payingOut"],
    ["ON_CHAIN_COMPLETED", "complete"],
    ["FAILED", "failed"],
  ]),
  "alfredpay-offramp": new Map<string, RampPhase>([
    ["CREATED", "awaitingPayment"],
    ["ON_CHAIN_DEPOSIT_RECEIVED", "paymentConfirmed"],
    ["TRADE_COMPLETED", "exchanging"],
    ["FIAT_TRANSFER_INITIATED", "payingOut"],
    ["FIAT_TRANSFER_COMPLETED", "complete"],
    ["FAILED", "failed"],
  ]),
};

/** What a callback about each kind of order names its subject (PartnerCallbackFacts.subjectKind). */
const CALLBACK_SUBJECT: Record<OrderKind, string> = {
  "avenia-payin": "ticket",
  "avenia-payout": "ticket",
  "alfredpay-onramp": "onramp",
  "alfredpay-offramp": "offramp",
};

/**
 * The phase an order of `kind` in `partnerStatus` puts its ramp in, or null for a status not in the table. Case and
 * surrounding spaces are the partner's to vary (Vortex compares Avenia's statuses so: partners-wire-facts §1.3).
 */
export function phaseOfStatus(kind: OrderKind, partnerStatus: string): RampPhase | null {
  return PHASE_OF_STATUS[kind].get(partnerStatus.trim().toUpperCase()) ?? null;
}

/**
 * A callback's status about the order of a command of `kind` (a ticket callback does not say pay-in or payout: the
 * stored command does). A callback about another kind of object says nothing of the order: no change.
 */
export function observeCallback(kind: OrderKind, facts: PartnerCallbackFacts): OrderObservation {
  const { subjectKind, partnerStatus } = facts;
  return { phase: subjectKind === CALLBACK_SUBJECT[kind] ? phaseOfStatus(kind, partnerStatus) : null, partnerStatus };
}

/** Reads the PIX pay-in ticket: PAID carries the payout to the wallet's hash, FAILED its reason. */
export async function observeAveniaPayIn(
  client: AveniaClient,
  subAccountId: string,
  ticketId: string,
  signal?: AbortSignal,
): Promise<OrderObservation> {
  const ticket = await client.ticket(subAccountId, ticketId, { signal });
  return observation("avenia-payin", ticket.status, {
    transactionHash: ticket.blockchainReceiverInfo?.txHash,
    failureReason: ticket.failureReason,
    expiresAt: ticket.expiresAt,
  });
}

/** Reads the PIX payout ticket; its payout is in fiat, so no hash. */
export async function observeAveniaPayout(
  client: AveniaClient,
  subAccountId: string,
  ticketId: string,
  signal?: AbortSignal,
): Promise<OrderObservation> {
  const ticket = await client.ticket(subAccountId, ticketId, { signal });
  return observation("avenia-payout", ticket.status, { failureReason: ticket.failureReason });
}

/**
 * Reads the onramp order: ON_CHAIN_COMPLETED carries the payout to the wallet's hash in `metadata`, as Vortex reads it;
 * the order's payment instructions say until when they take the payment.
 */
export async function observeAlfredpayOnramp(
  client: AlfredpayClient,
  transactionId: string,
  signal?: AbortSignal,
): Promise<OrderObservation> {
  const order = await client.onramp(transactionId, { signal });
  return observation("alfredpay-onramp", order.status, {
    transactionHash: order.metadata?.txHash,
    failureReason: order.metadata?.failureReason,
    expiresAt: order.fiatPaymentInstructions?.expirationDate,
  });
}

/** Reads the offramp order; its payout is in fiat, so no hash. */
export async function observeAlfredpayOfframp(
  client: AlfredpayClient,
  transactionId: string,
  signal?: AbortSignal,
): Promise<OrderObservation> {
  const order = await client.offramp(transactionId, { signal });
  return observation("alfredpay-offramp", order.status, {
    failureReason: order.metadata?.failureReason,
    expiresAt: order.expiration,
  });
}

/**
 * Statuses of an order whose payment arrived and that the partner holds (for review): still awaiting its release, but
 * paid, so its expiry no longer applies.
 */
const HELD_STATUSES: ReadonlySet<string> = new Set(["ON-HOLD"]);

/** The partners write an absent hash or reason as null or "" alike: both are left out. */
function observation(
  kind: OrderKind,
  partnerStatus: string,
  given: { transactionHash?: string | null; failureReason?: string | null; expiresAt?: string | null },
): OrderObservation {
  const phase = phaseOfStatus(kind, partnerStatus);
  const { transactionHash, failureReason, expiresAt } = given;
  return {
    phase,
    partnerStatus,
    ...(transactionHash && { transactionHash }),
    ...(phase === "failed" && failureReason && { failureReason }),
    ...(phase === "awaitingPayment" &&
      expiresAt &&
      !HELD_STATUSES.has(partnerStatus.trim().toUpperCase()) && { expiresAt }),
  };
}

/**
 * A ramp's step that reads its order: where the order stands is the answer, forward only (the processor's advanceTo).
 * A status not known moves nothing, and a partner that did not answer leaves a recoverable error: the order is read
 * again later.
 */
export async function followOrder(
  partner: Partner,
  currentPhase: RampPhase,
  read: () => Promise<OrderObservation>,
): Promise<StepOutcome> {
  try {
    const observed = await read();
    if (observed.phase === "failed")
      return {
        kind: "fail",
        error: "The partner failed the order",
        details: failureDetails(partner, observed.failureReason),
      };
    const phase = observed.phase ?? currentPhase;
    // Still unpaid past its expiry, the order takes no payment any more: the ramp ends, and nothing reads it again.
    if (phase === "awaitingPayment" && observed.expiresAt && Date.parse(observed.expiresAt) <= Date.now())
      return {
        kind: "fail",
        error: "Payment not received",
        details: `${partner}'s order expired at ${new Date(observed.expiresAt).toISOString()} before the payment arrived.`,
      };
    return { kind: "advance", phase, transactionHash: observed.transactionHash };
  } catch (error) {
    if (!(error instanceof PartnerError) || error.kind !== "unavailable") throw error;
    return {
      kind: "retry",
      error: "The partner is unavailable",
      details: `${partner} did not answer for the order; it is read again shortly.`,
    };
  }
}

/**
 * Why the order failed, in our words: the partner's reason is its free text (it may quote the customer), so callers
 * get a reason known here or none.
 */
const FAILURES: Readonly<Record<string, string>> = {
  "Exchange refused": "The partner's liquidity provider refused the exchange.",
};

function failureDetails(partner: Partner, partnerReason: string | undefined): string {
  return (partnerReason && FAILURES[partnerReason]) ?? `${partner} ended the order as failed.`;
}

/** What the ramp's registration recorded for its partner (its customer, its wallet), which a step cannot do without. */
export function recorded<T>(value: T | null, what: string): T {
  if (value === null) throw new Error(`${what} is missing`);
  return value;
}
