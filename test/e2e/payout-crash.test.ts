import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";
import { freshDatabase, testEngine, type TestDatabase } from "../support/database.js";
import { expectCall, httpSend, newSecretKey } from "../support/e2e-http.js";
import { PIX_KEY, SELL_QUOTE, signedTxs, waitFor } from "../support/kit.js";
import { completeKyc } from "../support/kyc.js";
import { startTestPartners, type TestPartners } from "../support/partner-simulator.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { startSmtpCapture, type SmtpCapture } from "../support/smtp.js";

/**
 * Issue 41: `kill -9` of the gateway between the partner's acceptance of a money step and our record of it. A BR
 * SELL's payout ticket is the money step the gateway sends itself (through the ledger, src/partner-commands): Avenia
 * makes the ticket, its answer never comes back, and the gateway is killed while it waits. A new process on the same
 * database finds the ticket at Avenia by its permit, sends nothing again, and completes the ramp. The partner runs in
 * this test's process, so it outlives the gateway's, as a partner does.
 */

const SELLER = `0x${"3".repeat(40)}`;
const PROCESSING = ["awaitingPayment", "paymentConfirmed", "exchanging", "payingOut", "complete"];

let database: TestDatabase;
let smtp: SmtpCapture;
let partners: TestPartners;
let env: Record<string, string>;
const servers: ServerProcess[] = [];
beforeAll(async () => {
  database = await freshDatabase();
  smtp = await startSmtpCapture();
  partners = await startTestPartners({});
  env = {
    ...partners.env,
    RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "1000",
    // No Avenia webhook is registered at this simulator: KYC decisions and tickets are polled for.
    KYC_CHECK_INTERVAL_MS: "100",
    RAMP_CHECK_INTERVAL_MS: "100",
    RAMP_PROCESSOR_INTERVAL_MS: "50",
    // A step's partner calls are abandoned after a second: the killed process's claims lapse two seconds after it
    // took them, and the new one takes the step over then.
    RAMP_STEP_TIMEOUT_MS: "1000",
  };
});
afterAll(async () => {
  for (const server of servers) await server.dispose();
  await partners?.simulator.stop();
  await smtp?.close();
  await database?.drop();
});

describe(`kill -9 between Avenia's acceptance of a payout and our record of it (${testEngine()})`, () => {
  it("a new process finds the payout Avenia made for the killed one, sends none again, and completes the ramp", async () => {
    const first = await startServerProcess({ database, smtp, env });
    servers.push(first);
    const { headers } = await newSecretKey(first, "e2e-payout-crash");
    await completeKyc(httpSend(first), headers, ["BR"]);
    const quote = await expectCall(201, first, "POST", "/v1/quotes", { headers, body: SELL_QUOTE });
    const ramp = await expectCall(201, first, "POST", "/v1/ramp/register", {
      headers,
      body: { quoteId: quote.id, additionalData: { walletAddress: SELLER, pixDestination: PIX_KEY } },
    });
    const presignedTxs = signedTxs(ramp.unsignedTxs);
    await expectCall(200, first, "POST", "/v1/ramp/update", { headers, body: { rampId: ramp.id, presignedTxs } });
    // Avenia makes the payout ticket, and its answer never leaves: the gateway waits for it.
    partners.simulator.setFaults({
      partner: "avenia",
      timeoutNext: { count: 1, when: "after", route: "POST /v2/account/tickets" },
    });
    await expectCall(200, first, "POST", "/v1/ramp/start", { headers, body: { rampId: ramp.id } });
    const payout = `payout:${SELLER}:${presignedTxs[0]!.nonce}`;
    await waitFor(
      async () => partners.simulator.stats().avenia.moneySteps[payout] ?? 0,
      (made) => made === 1,
      "Avenia to make the payout ticket",
    );
    expect(await first.stop("SIGKILL")).toBeNull();

    const { db, close } = await openDatabase(database.config);
    try {
      // What the killed process left: the intent, no outcome, and the ramp without its ticket.
      const commands = () =>
        db.partnerCommand.findMany({ where: { rampId: ramp.id }, select: { kind: true, state: true, attempts: true } });
      expect(await commands()).toEqual([{ kind: "avenia-payout", state: "intended", attempts: 1 }]);
      expect((await db.ramp.findUniqueOrThrow({ where: { id: ramp.id } })).partnerOrderId).toBeNull();

      const second = await startServerProcess({ database, smtp, env });
      servers.push(second);
      const done = await waitFor(
        () => expectCall(200, second, "GET", `/v1/ramp/${ramp.id}`, { headers }),
        (read) => read.status !== "PENDING",
        "the ramp to finish after the restart",
        30_000,
      );
      expect(done).toMatchObject({ status: "COMPLETE", currentPhase: "complete" });
      // Found, not sent again: one payout at Avenia, no refused second attempt, the command accepted on one send.
      const avenia = partners.simulator.stats().avenia;
      expect(avenia.moneySteps[payout]).toBe(1);
      expect(avenia.duplicateMoneySteps).toEqual({});
      expect(await commands()).toEqual([{ kind: "avenia-payout", state: "accepted", attempts: 1 }]);
      const events = await db.rampEvent.findMany({ where: { rampId: ramp.id }, orderBy: { sequence: "asc" } });
      expect(
        events
          .filter((event) => event.eventType === "PHASE_CHANGE")
          .map((event) => JSON.parse(event.body).payload.currentPhase),
      ).toEqual(PROCESSING);
    } finally {
      await close();
    }
  });
});
