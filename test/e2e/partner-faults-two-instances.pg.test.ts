import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Db } from "../../src/db/client.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { expectCall, httpSend, newSecretKey } from "../support/e2e-http.js";
import { completeKyc } from "../support/kyc.js";
import {
  expectAllComplete,
  partnerCost,
  PENNY,
  plainAmount,
  printFaultTable,
  quoteMxBuy,
  registerMxBuy,
  simulatorOf,
} from "../support/partner-faults.js";
import { sharedPartners, startServerProcess, type ServerProcess } from "../support/server-process.js";
import { startSmtpCapture, type SmtpCapture } from "../support/smtp.js";

/**
 * Issue 41's two-instance fault: two BUILT gateway processes on one PostgreSQL database, both ramp processors
 * polling the same MX BUYs at Alfredpay (the second talks to the first's simulator, as instances of one deployment
 * share their partners). Each order is made once and each ramp moves through each phase once, whichever process
 * reads its order. Prints its row of the fault table.
 */

const RAMPS = 6;
const env = {
  PARTNER_SIM_PAYMENT_DELAY_MS: "50",
  PARTNER_SIM_STAGE_DELAY_MS: "50",
  PARTNER_SIM_CALLBACK_RETRY_BASE_MS: "50",
  PARTNER_SIM_KYC_DECISION_MS: "0",
  RAMP_CHECK_INTERVAL_MS: "300",
  RAMP_PROCESSOR_INTERVAL_MS: "10",
  RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "1000",
  RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
  RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000",
};

let database: TestDatabase;
let smtp: SmtpCapture;
let a: ServerProcess;
let b: ServerProcess;
let db: Db;
let closeDb: (() => Promise<void>) | undefined;

beforeAll(async () => {
  database = await freshDatabase();
  smtp = await startSmtpCapture();
  a = await startServerProcess({ database, smtp, env });
  b = await startServerProcess({ database, smtp, env: { ...env, ...sharedPartners(a) } });
  ({ db, close: closeDb } = await openDatabase(database.config));
});
afterAll(async () => {
  await closeDb?.();
  await b?.dispose();
  await a?.dispose();
  await smtp?.close();
  await database?.drop();
});

it("make each order once and move each ramp through each phase once, with two processes on the ramps", async () => {
  const simulator = simulatorOf(a);
  const caller = await newSecretKey(a, "e2e-partner-faults-two");
  await completeKyc(httpSend(b), caller.headers, ["MX"]);
  const before = await simulator.stats();
  const rampIds: string[] = [];
  for (let index = 0; index < RAMPS; index += 1) {
    const server = index % 2 === 0 ? a : b;
    rampIds.push(
      await registerMxBuy(server, caller.headers, await quoteMxBuy(server, caller.headers, plainAmount(index))),
    );
  }
  await Promise.all(
    rampIds.map((rampId, index) =>
      expectCall(200, index % 2 === 0 ? b : a, "POST", "/v1/ramp/start", { headers: caller.headers, body: { rampId } }),
    ),
  );
  await expectAllComplete(a, caller.headers, rampIds);

  const cost = partnerCost(before, await simulator.stats(), "alfredpay");
  expect(cost.duplicates, "money steps executed more than once").toBe(0);
  expect(cost.newMoneySteps).toBe(RAMPS);
  expect(cost.callsOf(`POST ${PENNY}/onramp`)).toBe(RAMPS);
  const events = await db.rampEvent.findMany({ where: { rampId: { in: rampIds } }, orderBy: { sequence: "asc" } });
  for (const rampId of rampIds)
    expect(
      events.filter((event) => event.rampId === rampId).map((event) => event.eventType),
      rampId,
    ).toEqual(["TRANSACTION_CREATED", ...Array(5).fill("PHASE_CHANGE"), "STATUS_CHANGE"]);
  const reads = cost.callsOf(`GET ${PENNY}/onramp/{transactionId}`);
  printFaultTable("partner faults (postgresql, two processes)", [
    {
      fault: "two gateway processes",
      ramps: RAMPS,
      partnerCalls: cost.partnerCalls,
      duplicates: cost.duplicates,
      note: `${RAMPS} orders made, ${reads} order reads`,
    },
  ]);
});
