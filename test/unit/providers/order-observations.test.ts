import { describe, expect, it } from "vitest";
import {
  followOrder,
  observeAveniaPayIn,
  observeCallback,
  phaseOfStatus,
  type OrderKind,
} from "../../../src/providers/order-observations.js";
import type { AveniaClient } from "../../../src/providers/avenia/client.js";
import { alfredpayCallback } from "../../../src/providers/alfredpay/callbacks.js";
import { aveniaCallback } from "../../../src/providers/avenia/callbacks.js";
import type { RampPhase } from "../../../src/reference-data/ramp-phases.js";

/** Each kind's statuses, in the order the partner moves an order through them, and the phase each means. */
const TABLES: Record<OrderKind, [string, RampPhase][]> = {
  "avenia-payin": [
    ["UNPAID", "awaitingPayment"],
    ["PENDING", "awaitingPayment"],
    ["ON-HOLD", "awaitingPayment"],
    ["PROCESSING", "exchanging"],
    ["PAID", "complete"],
    ["FAILED", "failed"],
    ["PARTIAL-FAILED", "failed"],
  ],
  "avenia-payout": [
    ["PENDING", "awaitingPayment"],
    ["UNPAID", "awaitingPayment"],
    ["PROCESSING", "payingOut"],
    ["PAID", "complete"],
    ["FAILED", "failed"],
  ],
  "alfredpay-onramp": [
    ["CREATED", "awaitingPayment"],
    ["FIAT_DEPOSIT_RECEIVED", "paymentConfirmed"],
    ["TRADE_COMPLETED", "exchanging"],
    ["ON_CHAIN_INITIATED", "payingOut"],
    ["ON_CHAIN_COMPLETED", "complete"],
    ["FAILED", "failed"],
  ],
  "alfredpay-offramp": [
    ["CREATED", "awaitingPayment"],
    ["ON_CHAIN_DEPOSIT_RECEIVED", "paymentConfirmed"],
    ["TRADE_COMPLETED", "exchanging"],
    ["FIAT_TRANSFER_INITIATED", "payingOut"],
    ["FIAT_TRANSFER_COMPLETED", "complete"],
    ["FAILED", "failed"],
  ],
};
const KINDS = Object.keys(TABLES) as OrderKind[];
const rows = KINDS.flatMap((kind) => TABLES[kind].map(([status, phase]) => [kind, status, phase] as const));

/** A callback's facts as the partner's callback reader makes them from a body about an order of `kind`. */
function callbackFacts(kind: OrderKind, status: string) {
  if (kind.startsWith("avenia-"))
    return aveniaCallback.parse({
      subscription: "TICKET",
      subAccountId: "sub-1",
      data: { ticket: { id: "ticket-1", status, updatedAt: "2026-12-07T10:00:00.000Z" } },
    });
  return alfredpayCallback.parse({
    type: kind === "alfredpay-onramp" ? "onramp" : "offramp",
    data: { transactionId: "tx-1", customerId: "customer-1", status },
  });
}

describe("an order's status read as its ramp's phase", () => {
  it.each(rows)("%s %s: %s", (kind, status, phase) => {
    expect(phaseOfStatus(kind, status)).toBe(phase);
  });

  it.each(rows)("%s %s in another case or with spaces around it: still %s", (kind, status, phase) => {
    expect(phaseOfStatus(kind, status.toLowerCase())).toBe(phase);
    expect(phaseOfStatus(kind, ` ${status}\n`)).toBe(phase);
  });

  it.each(KINDS)("%s: a status outside its table, another kind's included, is no phase", (kind) => {
    const othersOnly = rows
      .map(([, status]) => status)
      .filter((status) => !TABLES[kind].some(([own]) => own === status));
    for (const status of [...othersOnly, "REFUNDED", "", "toString", "__proto__"])
      expect(phaseOfStatus(kind, status), status).toBeNull();
  });

  it("tells a pay-in's PROCESSING (the exchange) from a payout's (the payout), by the command's kind", () => {
    expect(phaseOfStatus("avenia-payin", "PROCESSING")).toBe("exchanging");
    expect(phaseOfStatus("avenia-payout", "PROCESSING")).toBe("payingOut");
  });
});

describe("a callback's status about an order, through the same table", () => {
  it.each(rows)("%s %s: %s, as reading the order says", (kind, status, phase) => {
    expect(observeCallback(kind, callbackFacts(kind, status))).toEqual({ phase, partnerStatus: status });
  });

  it.each(KINDS)("%s: an unknown status in a callback is no change, its status kept for the log", (kind) => {
    expect(observeCallback(kind, callbackFacts(kind, "REFUNDED"))).toEqual({ phase: null, partnerStatus: "REFUNDED" });
  });

  it("a callback about another kind of object than the command's order is no change", () => {
    expect(observeCallback("alfredpay-offramp", callbackFacts("alfredpay-onramp", "CREATED")).phase).toBeNull();
    expect(observeCallback("alfredpay-onramp", callbackFacts("alfredpay-offramp", "CREATED")).phase).toBeNull();
    expect(observeCallback("avenia-payin", callbackFacts("alfredpay-onramp", "FAILED")).phase).toBeNull();
    const kycAttempt = aveniaCallback.parse({
      subscription: "KYC",
      subAccountId: "sub-1",
      data: { attempt: { id: "attempt-1", status: "PENDING", updatedAt: "2026-12-07T10:00:00.000Z" } },
    });
    expect(observeCallback("avenia-payout", kycAttempt).phase).toBeNull();
  });
});

describe("an order past its expiry", () => {
  const PAST = "2026-01-01T00:00:00.000Z";
  /** A client whose pay-in ticket is in `status`, past its expiry. */
  const aveniaWith = (status: string) =>
    ({ ticket: async () => ({ status, expiresAt: PAST, failureReason: null }) }) as unknown as AveniaClient;
  const follow = (status: string) =>
    followOrder("Avenia", "awaitingPayment", () => observeAveniaPayIn(aveniaWith(status), "sub-1", "ticket-1"));

  it("fails its ramp while the payment is still awaited", async () => {
    expect(await follow("UNPAID")).toEqual({
      kind: "fail",
      error: "Payment not received",
      details: `Avenia's order expired at ${PAST} before the payment arrived.`,
    });
  });

  it("does not fail it while the partner holds the payment (ON-HOLD): the payment arrived", async () => {
    expect(await follow("ON-HOLD")).toEqual({ kind: "advance", phase: "awaitingPayment", transactionHash: undefined });
    expect(await follow(" on-hold ")).toMatchObject({ kind: "advance" });
  });
});
