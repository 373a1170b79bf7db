import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  alfredpay,
  alfredpayCustomer,
  avenia,
  aveniaPayin,
  aveniaPayinQuote,
  aveniaPayinTicket,
  aveniaPayout,
  aveniaSubAccount,
  simulator,
  waitFor,
} from "./helpers.js";

/*
 * The simulator's state file (packages/partner-simulator/src/state.ts): what the partners hold outlives a restart, and
 * what was under way then moves on on the new process's clock.
 */

const stateFileIn = () => join(mkdtempSync(join(tmpdir(), "partner-simulator-")), "partners.json");

describe("the state file", () => {
  it("keeps the partners' customers and orders across a restart, and moves on the orders under way", async () => {
    const stateFile = stateFileIn();
    // Nothing moves before the restart: the payer pays and the pull arrives only on the second process's clock.
    const first = await simulator({ stateFile, timing: { paymentDelayMs: 600_000, depositDelayMs: 600_000 } });
    const account = await aveniaSubAccount(first.url);
    const payin = await aveniaPayin(first.url, account.id, "100.00", "kept-across-a-restart");
    const payout = await aveniaPayout(first.url, account.id, account.walletAddress, "50.00", 1);
    const { customerId, submissionId } = await alfredpayCustomer(first.url);
    await first.stop();

    const second = await simulator({ stateFile });
    const ticketOf = async (id: string) =>
      (await avenia(second.url, "GET", `/v2/account/tickets/${id}?subAccountId=${account.id}`)).body.ticket;
    expect((await avenia(second.url, "GET", `/v2/account/account-info?subAccountId=${account.id}`)).status).toBe(200);
    for (const ticket of [payin, payout]) await waitFor(async () => (await ticketOf(ticket.body.id)).status === "PAID");
    const kyc = await alfredpay(second.url, "GET", `/customers/${customerId}/kyc/${submissionId}/status`);
    expect(kyc.body.status).toBe("COMPLETED");
    // A used permit stays used: the payout is not made again.
    expect((await aveniaPayout(second.url, account.id, account.walletAddress, "50.00", 1)).status).toBe(409);
  });

  it("starts empty where no state was written yet", async () => {
    const started = await simulator({ stateFile: stateFileIn() });
    expect((await avenia(started.url, "GET", "/v2/account/account-info?subAccountId=nope")).status).toBe(404);
  });
});

describe("quotes", () => {
  afterEach(() => vi.useRealTimers());
  const HOURS_2 = 2 * 3_600_000;

  it("an unused Avenia quote is forgotten an hour past its expiry, as the next quote is made", async () => {
    const started = await simulator({});
    const account = await aveniaSubAccount(started.url);
    const stale = await aveniaPayinQuote(started.url, account.id, "100.00");
    const expired = await aveniaPayinQuote(started.url, account.id, "100.00");
    // Only the clock is moved: the simulator's sockets and timers run as they do.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + HOURS_2 });
    expect((await aveniaPayinTicket(started.url, account.id, stale, "stale")).body).toEqual({
      error: "quoteToken has expired",
    });
    await aveniaPayinQuote(started.url, account.id, "100.00");
    expect((await aveniaPayinTicket(started.url, account.id, expired, "forgotten")).body).toEqual({
      error: "quoteToken is invalid",
    });
  });

  it("an unused Alfredpay quote is forgotten an hour past its expiry; a used one still names its order", async () => {
    const started = await simulator({});
    const { customerId } = await alfredpayCustomer(started.url);
    const quote = async () =>
      (
        await alfredpay(started.url, "POST", "/quotes", {
          fromCurrency: "MXN",
          toCurrency: "USDT",
          fromAmount: "500",
          chain: "MATIC",
          paymentMethodType: "BANK",
          metadata: { businessId: "gw", customerId },
        })
      ).body;
    const onramp = (made: { quoteId: string; fromAmount: string }) =>
      alfredpay(started.url, "POST", "/onramp", {
        customerId,
        quoteId: made.quoteId,
        fromCurrency: "MXN",
        toCurrency: "USDT",
        amount: made.fromAmount,
        chain: "MATIC",
        paymentMethodType: "BANK",
        depositAddress: "0x1111111111111111111111111111111111111111",
      });
    const [used, unused] = [await quote(), await quote()];
    const order = await onramp(used);
    expect(order.status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + HOURS_2 });
    await quote();
    expect((await onramp(unused)).status).toBe(404);
    const again = await onramp(used);
    expect(again.status).toBe(409);
    expect(again.body.errorMetadata).toEqual({ transactionId: order.body.transaction.transactionId });
  });
});
