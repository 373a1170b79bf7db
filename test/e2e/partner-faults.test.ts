import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../src/db/client.js";
import { testEngine } from "../support/database.js";
import { call, expectCall, httpSend, newSecretKey, type Headers } from "../support/e2e-http.js";
import { expectError, sleep, waitFor } from "../support/kit.js";
import { completeKyc } from "../support/kyc.js";
import { newCallbackSecret, standardWebhookHeaders } from "../support/partner-callbacks.js";
import {
  expectAllComplete,
  partnerCost,
  PENNY,
  plainAmount,
  printFaultTable,
  quoteMxBuy,
  registerMxBuy,
  simulatorOf,
  startedBrSells,
  type FaultRow,
  type Simulator,
} from "../support/partner-faults.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

/**
 * Issue 41's faults, as far as the gateway talks to partners (MX ramps and KYC at Alfredpay, BR ramps and KYC at Avenia), on
 * the BUILT server and its embedded simulator: each fault is aimed through the simulator's control API while MX BUY
 * ramps run to their end, and the simulator's counts say what it cost at the partner. Prints a row per fault.
 */

const RAMPS_PER_FAULT = 6;
const READ_ORDER = `GET ${PENNY}/onramp/{transactionId}`;
const PAYOUT = "POST /v2/account/tickets";
const READ_TICKET = "GET /v2/account/tickets/{id}";
const CREATE_ORDER = `POST ${PENNY}/onramp`;
/** Every event of an MX BUY, once each, in order. */
const COMPLETE_RAMP_EVENTS = [
  "TRANSACTION_CREATED:PENDING",
  "PHASE_CHANGE:awaitingPayment",
  "PHASE_CHANGE:paymentConfirmed",
  "PHASE_CHANGE:exchanging",
  "PHASE_CHANGE:payingOut",
  "PHASE_CHANGE:complete",
  "STATUS_CHANGE:COMPLETE",
];
const MAX_CALLBACK_BYTES = 100 * 1024;

let server: ServerProcess;
let simulator: Simulator;
let db: Db;
let closeDb: (() => Promise<void>) | undefined;
let caller: { headers: Headers };
const rows: FaultRow[] = [];

beforeAll(async () => {
  server = await startServerProcess({
    env: {
      PARTNER_SIM_PAYMENT_DELAY_MS: "50",
      PARTNER_SIM_STAGE_DELAY_MS: "50",
      PARTNER_SIM_KYC_DECISION_MS: "50",
      PARTNER_SIM_CALLBACK_RETRY_BASE_MS: "50",
      // Polling finishes what a lost callback leaves: an order is read again 300 ms after its last read.
      RAMP_CHECK_INTERVAL_MS: "300",
      RAMP_PROCESSOR_INTERVAL_MS: "20",
      KYC_CHECK_INTERVAL_MS: "500",
      RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "1000",
      RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
      RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000",
    },
  });
  simulator = simulatorOf(server);
  ({ db, close: closeDb } = await openDatabase(server.database.config));
  caller = await newSecretKey(server, "e2e-partner-faults");
  await completeKyc(httpSend(server), caller.headers, ["MX", "BR"]);
});
afterEach(() => simulator?.clearFaults());
afterAll(async () => {
  printFaultTable(`partner faults (${testEngine()})`, rows);
  await closeDb?.();
  await server?.dispose();
});

/** Registers `count` MX BUYs and starts them. */
async function startedBuys(count: number): Promise<string[]> {
  const rampIds: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const quoteId = await quoteMxBuy(server, caller.headers, plainAmount(index));
    rampIds.push(await registerMxBuy(server, caller.headers, quoteId));
  }
  for (const rampId of rampIds)
    await expectCall(200, server, "POST", "/v1/ramp/start", { headers: caller.headers, body: { rampId } });
  return rampIds;
}

/** Runs `drive` under the fault and records its row; every money step at the partner must have run once. */
async function underFault(
  fault: string,
  drive: () => Promise<{ ramps: number; note: string }>,
  partner: "avenia" | "alfredpay" = "alfredpay",
) {
  const before = await simulator.stats();
  const { ramps, note } = await drive();
  const cost = partnerCost(before, await simulator.stats(), partner);
  rows.push({ fault, ramps, partnerCalls: cost.partnerCalls, duplicates: cost.duplicates, note });
  expect(cost.duplicates, "money steps executed more than once").toBe(0);
  return cost;
}

/** The gateway's own record of partner calls on `route` that failed with `partnerCode` or `status` (its log). */
const failedCalls = (route: string, failure: { status?: number; partnerCode?: string }) =>
  server
    .logLines()
    .filter(
      (line) =>
        line.msg === "partner call" &&
        line.route === route &&
        (failure.status === undefined || line.status === failure.status) &&
        (failure.partnerCode === undefined || line.partnerCode === failure.partnerCode),
    ).length;

/** Re-arms the fault every few milliseconds while `body` runs: the simulator's `duplicate` covers one event. */
async function rearmedWhile<T>(
  faults: Record<string, unknown>,
  body: () => Promise<T>,
  partner: "avenia" | "alfredpay" = "alfredpay",
): Promise<T> {
  let running = true;
  const arming = (async () => {
    while (running) {
      await simulator.setFaults({ partner, ...faults });
      await sleep(10);
    }
  })();
  try {
    return await body();
  } finally {
    running = false;
    await arming;
  }
}

const eventsOf = async (rampId: string) =>
  (await db.rampEvent.findMany({ where: { rampId }, orderBy: { sequence: "asc" } })).map((event) => {
    const { payload } = JSON.parse(event.body);
    return `${event.eventType}:${payload.currentPhase ?? payload.transactionStatus}`;
  });

describe(`order reads fail mid-ramp (${testEngine()})`, () => {
  const readFaults = [
    ["5xx", { failNext: { count: 2, status: 503, when: "before", route: READ_ORDER } }, { status: 503 }],
    ["timeout", { timeoutNext: { count: 1, when: "before", route: READ_ORDER } }, { partnerCode: "timeout" }],
    ["reset", { resetNext: { count: 2, when: "before", route: READ_ORDER } }, { partnerCode: "UND_ERR_SOCKET" }],
  ] as const;
  for (const [name, faults, failure] of readFaults)
    it(`every ramp completes, each order made once: ${name} on reads`, { timeout: 60_000 }, async () => {
      const failedBefore = failedCalls(READ_ORDER, failure);
      const cost = await underFault(`read order: ${name}`, async () => {
        // Armed before the ramps start (no start reads an order, so only the reads that follow meet it), with
        // callbacks held back a second, so the ramps move on the gateway's reads: armed after the starts, the fault
        // came too late on a busy machine, whose reads (or callbacks) had finished every ramp by then.
        await simulator.setFaults({ partner: "alfredpay", ...faults, callbacks: { delayMs: 1_000 } });
        const rampIds = await startedBuys(RAMPS_PER_FAULT);
        await expectAllComplete(server, caller.headers, rampIds);
        // The server writes its log asynchronously: the failed reads' lines may land a little after the ramps end.
        const failed = await waitFor(
          async () => failedCalls(READ_ORDER, failure) - failedBefore,
          (count) => count > 0,
          "the gateway's log of the failed reads",
          5_000,
        );
        return { ramps: rampIds.length, note: `${failed} reads failed at the gateway` };
      });
      // The fault reached the gateway's reads, and every order was made once.
      expect(failedCalls(READ_ORDER, failure) - failedBefore).toBeGreaterThan(0);
      expect(cost.callsOf(CREATE_ORDER)).toBe(RAMPS_PER_FAULT);
      expect(cost.newMoneySteps).toBe(RAMPS_PER_FAULT);
    });
});

describe(`the order's creation fails at registration (${testEngine()})`, () => {
  const createFaults = [
    ["5xx before", { failNext: { count: 1, status: 503, when: "before", route: CREATE_ORDER } }, 0],
    ["5xx after", { failNext: { count: 1, status: 503, when: "after", route: CREATE_ORDER } }, 1],
    ["reset after", { resetNext: { count: 1, when: "after", route: CREATE_ORDER } }, 1],
  ] as const;
  for (const [name, faults, unpaidPerRamp] of createFaults)
    it(`answers 502, keeps nothing, and a retry registers: ${name}`, { timeout: 60_000 }, async () => {
      const cost = await underFault(`create order: ${name}`, async () => {
        const rampIds: string[] = [];
        for (let index = 0; index < RAMPS_PER_FAULT; index += 1) {
          const quoteId = await quoteMxBuy(server, caller.headers, plainAmount(index));
          await simulator.setFaults({ partner: "alfredpay", ...faults });
          const body = { quoteId, destinationAddress: `0x${"3".repeat(40)}` };
          expectError(
            await call(server, "POST", "/v1/ramp/register", { headers: caller.headers, body }),
            502,
            "PROVIDER_UNAVAILABLE",
          );
          expect(await db.ramp.count({ where: { quoteId } })).toBe(0);
          rampIds.push(await registerMxBuy(server, caller.headers, quoteId));
        }
        for (const rampId of rampIds)
          await expectCall(200, server, "POST", "/v1/ramp/start", { headers: caller.headers, body: { rampId } });
        await expectAllComplete(server, caller.headers, rampIds);
        const unpaid = unpaidPerRamp * RAMPS_PER_FAULT;
        return { ramps: rampIds.length, note: `${unpaid} orders left unpaid at the partner (answer lost)` };
      });
      // One order per registration that reached the partner: the lost answers' orders stay there, never paid.
      expect(cost.newMoneySteps).toBe(RAMPS_PER_FAULT * (1 + unpaidPerRamp));
    });
});

describe(`order callbacks duplicated, reordered or dropped (${testEngine()})`, () => {
  /** Each runs `driven` (MX BUYs started and followed to their end) under its fault. */
  const cases: [string, (driven: () => Promise<string[]>) => Promise<string[]>][] = [
    // Three deliveries of most events: the fault is re-armed every 10 ms, and an event between re-arms goes once.
    ["duplicated x3", (driven) => rearmedWhile({ callbacks: { duplicate: 2 } }, driven)],
    [
      "reordered",
      async (driven) => {
        await simulator.setFaults({ partner: "alfredpay", callbacks: { reorder: true } });
        const done = driven();
        // The orders move on at the partner; its held callbacks then go out newest first, mid-ramp.
        await sleep(400);
        await simulator.clearFaults();
        return done;
      },
    ],
    [
      "dropped",
      async (driven) => {
        await simulator.setFaults({ partner: "alfredpay", callbacks: { drop: 1_000 } });
        return driven();
      },
    ],
  ];
  for (const [name, withFault] of cases)
    it(`every ramp completes with each event once: callbacks ${name}`, { timeout: 60_000 }, async () => {
      const callbacksBefore = (await simulator.stats()).alfredpay.callbacks;
      await underFault(`order callbacks: ${name}`, async () => {
        const rampIds = await withFault(async () => {
          const started = await startedBuys(RAMPS_PER_FAULT);
          await expectAllComplete(server, caller.headers, started);
          return started;
        });
        // Late copies (retries, released reorders) arrive after the end: they must not add an event either.
        await sleep(600);
        for (const rampId of rampIds) expect(await eventsOf(rampId), rampId).toEqual(COMPLETE_RAMP_EVENTS);
        const { callbacks } = await simulator.stats().then((stats) => stats.alfredpay);
        const note = `callbacks sent ${callbacks.sent - callbacksBefore.sent}, duplicated ${callbacks.duplicated - callbacksBefore.duplicated}, dropped ${callbacks.dropped - callbacksBefore.dropped}`;
        return { ramps: rampIds.length, note };
      });
    });
});

describe(`BR payouts at Avenia meet faults (${testEngine()})`, () => {
  // The payout ticket is the money step the gateway sends itself, at the first step after a SELL's start.
  const payoutFaults = [
    ["5xx before", { failNext: { count: 1, status: 503, when: "before", route: PAYOUT } }, 1],
    ["5xx after", { failNext: { count: 1, status: 503, when: "after", route: PAYOUT } }, 0],
    ["reset after", { resetNext: { count: 1, when: "after", route: PAYOUT } }, 0],
    ["timeout after", { timeoutNext: { count: 1, when: "after", route: PAYOUT } }, 0],
  ] as const;
  for (const [name, faults, resent] of payoutFaults)
    it(`every SELL completes, each payout made once: ${name} on the payout`, { timeout: 60_000 }, async () => {
      const cost = await underFault(
        `payout: ${name}`,
        async () => {
          await simulator.setFaults({ partner: "avenia", ...faults });
          const rampIds = await startedBrSells(server, caller.headers, RAMPS_PER_FAULT);
          await expectAllComplete(server, caller.headers, rampIds);
          // The faulted payout's ramp logged one recoverable error; the payout was looked up before anything else.
          const recovered = await db.rampErrorLog.count({ where: { rampId: { in: rampIds }, recoverable: true } });
          expect(recovered).toBe(1);
          return { ramps: rampIds.length, note: `${recovered} recoverable error, ${resent} payout sent again` };
        },
        "avenia",
      );
      // A payout that surely never left is sent again; one that may have is found at Avenia, never sent again.
      expect(cost.newMoneySteps).toBe(RAMPS_PER_FAULT);
      expect(cost.callsOf(PAYOUT)).toBe(RAMPS_PER_FAULT + resent);
    });

  const readFaults = [
    ["5xx", { failNext: { count: 2, status: 503, when: "before", route: READ_TICKET } }],
    ["reset", { resetNext: { count: 2, when: "before", route: READ_TICKET } }],
  ] as const;
  for (const [name, faults] of readFaults)
    it(`every SELL completes, each payout made once: ${name} on ticket reads`, { timeout: 60_000 }, async () => {
      const cost = await underFault(
        `read ticket: ${name}`,
        async () => {
          const rampIds = await startedBrSells(server, caller.headers, RAMPS_PER_FAULT);
          await simulator.setFaults({ partner: "avenia", ...faults });
          await expectAllComplete(server, caller.headers, rampIds);
          return { ramps: rampIds.length, note: "reads retried by the client" };
        },
        "avenia",
      );
      expect(cost.newMoneySteps).toBe(RAMPS_PER_FAULT);
    });

  const callbackCases: [string, (driven: () => Promise<string[]>) => Promise<string[]>][] = [
    ["duplicated x3", (driven) => rearmedWhile({ callbacks: { duplicate: 2 } }, driven, "avenia")],
    [
      "dropped",
      async (driven) => {
        await simulator.setFaults({ partner: "avenia", callbacks: { drop: 1_000 } });
        return driven();
      },
    ],
  ];
  for (const [name, withFault] of callbackCases)
    it(`every SELL completes with each event once: ticket callbacks ${name}`, { timeout: 60_000 }, async () => {
      await underFault(
        `ticket callbacks: ${name}`,
        async () => {
          const rampIds = await withFault(async () => {
            const started = await startedBrSells(server, caller.headers, RAMPS_PER_FAULT);
            await expectAllComplete(server, caller.headers, started);
            return started;
          });
          await sleep(600);
          for (const rampId of rampIds) expect(await eventsOf(rampId), rampId).toEqual(COMPLETE_RAMP_EVENTS);
          return { ramps: rampIds.length, note: "each event once" };
        },
        "avenia",
      );
    });
});

describe(`KYC callbacks dropped or duplicated (${testEngine()})`, () => {
  const cases = [
    ["dropped", { callbacks: { drop: 1 } }],
    ["duplicated x3", { callbacks: { duplicate: 2 } }],
  ] as const;
  for (const [name, faults] of cases)
    it(`approves the case once, its decision applied once: ${name}`, { timeout: 60_000 }, async () => {
      const subject = await newSecretKey(server, `e2e-kyc-${name.split(" ")[0]}`);
      const callbacksBefore = (await simulator.stats()).alfredpay.callbacks;
      await underFault(`KYC callbacks: ${name}`, async () => {
        // Re-armed while the submission is made and decided, so the fault meets each of its events.
        await rearmedWhile(faults, () => completeKyc(httpSend(server), subject.headers, ["MX"]));
        const kycCase = await db.kycCase.findFirstOrThrow({ where: { profileId: subject.profileId, corridor: "MX" } });
        expect(kycCase).toMatchObject({ status: "approved", decidedAt: expect.any(Date) });
        // Whatever copies or polls come later change nothing.
        await sleep(1_200);
        const later = await db.kycCase.findFirstOrThrow({ where: { id: kycCase.id } });
        expect({ status: later.status, decidedAt: later.decidedAt }).toEqual({
          status: "approved",
          decidedAt: kycCase.decidedAt,
        });
        const stored = await db.partnerCallback.findMany({ where: { subjectId: kycCase.partnerAttemptId! } });
        expect(stored.every((row) => row.appliedAt !== null)).toBe(true);
        const reads = await expectCall(200, server, "GET", "/v1/domestic/getKycStatus?country=MX&type=INDIVIDUAL", {
          headers: subject.headers,
        });
        expect(reads.status).toBe("SUCCESS");
        const { callbacks } = (await simulator.stats()).alfredpay;
        const note =
          `1 case approved once; callbacks duplicated ${callbacks.duplicated - callbacksBefore.duplicated}, ` +
          `dropped ${callbacks.dropped - callbacksBefore.dropped}; ${stored.length} distinct stored, all applied`;
        return { ramps: 0, note };
      });
    });
});

describe(`forged, replayed and oversized partner callbacks (${testEngine()})`, () => {
  const alfredpayBody = (transactionId: string) =>
    JSON.stringify({
      type: "onramp",
      data: { transactionId, status: "ON_CHAIN_COMPLETED", customerId: randomUUID(), updatedAt: new Date() },
    });
  /** The bytes as given, signed as given: a partner's callback as it arrives. */
  const post = (partner: "alfredpay" | "avenia", rawBody: string, headers: Headers) =>
    call(server, "POST", `/v1/webhooks/${partner}`, {
      headers: { "content-type": "application/json", ...headers },
      body: Buffer.from(rawBody),
    });

  it("changes nothing and answers a clear 4xx", async () => {
    const quoteId = await quoteMxBuy(server, caller.headers, plainAmount(0));
    const rampId = await registerMxBuy(server, caller.headers, quoteId);
    const { partnerOrderId } = await db.ramp.findUniqueOrThrow({ where: { id: rampId } });
    const body = alfredpayBody(partnerOrderId!);
    const secret = simulator.alfredpayCallbackSecret;
    const padded = JSON.stringify({ ...JSON.parse(body), padding: "x".repeat(MAX_CALLBACK_BYTES) });
    const aveniaBody = JSON.stringify({
      subscription: "TICKET",
      subAccountId: randomUUID(),
      data: { ticket: { id: randomUUID() } },
    });
    const answers = {
      "alfredpay forged": await post(
        "alfredpay",
        body,
        standardWebhookHeaders(newCallbackSecret(), `msg_${randomUUID()}`, body, Date.now()),
      ),
      "alfredpay replayed": await post(
        "alfredpay",
        body,
        standardWebhookHeaders(secret, `msg_${randomUUID()}`, body, Date.now() - 6 * 60_000),
      ),
      "alfredpay oversized": await post(
        "alfredpay",
        padded,
        standardWebhookHeaders(secret, `msg_${randomUUID()}`, padded, Date.now()),
      ),
      "avenia forged": await post("avenia", aveniaBody, {
        signature: Buffer.from("not Avenia's signature").toString("base64"),
      }),
      "avenia oversized": await post("avenia", padded, { signature: "AAAA" }),
    };
    const outcome = Object.fromEntries(
      Object.entries(answers).map(([name, answer]) => [name, `${answer.status} ${answer.body?.error?.code}`]),
    );
    expect(outcome).toEqual({
      "alfredpay forged": "401 AUTHENTICATION_REQUIRED",
      "alfredpay replayed": "401 AUTHENTICATION_REQUIRED",
      "alfredpay oversized": "413 PAYLOAD_TOO_LARGE",
      "avenia forged": "401 AUTHENTICATION_REQUIRED",
      "avenia oversized": "413 PAYLOAD_TOO_LARGE",
    });
    expect(answers["alfredpay replayed"].body.error.message).toMatch(/replay/);
    // None of these bodies stored (the simulator's own callbacks about the order may arrive meanwhile), and the
    // ramp the forged callbacks named has not moved.
    expect(await db.partnerCallback.count({ where: { rawBody: { in: [body, padded, aveniaBody] } } })).toBe(0);
    expect(await eventsOf(rampId)).toEqual(["TRANSACTION_CREATED:PENDING"]);
    rows.push({
      fault: "forged/replayed/oversized callbacks",
      ramps: 1,
      partnerCalls: 0,
      duplicates: 0,
      note: Object.entries(outcome)
        .map(([name, answer]) => `${name} ${answer.split(" ")[0]}`)
        .join(", "),
    });
  });
});
