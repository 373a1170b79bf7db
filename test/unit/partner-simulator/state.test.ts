import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  alfredpay,
  alfredpayCustomer,
  avenia,
  aveniaPayin,
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
