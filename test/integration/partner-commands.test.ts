import { generateKeyPairSync, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startPartnerSimulator,
  type PartnerFaults,
  type PartnerName,
  type PartnerSimulator,
} from "../../packages/partner-simulator/src/index.js";
import { openDatabase, type Database, type Db } from "../../src/db/client.js";
import { alfredpayOfframp, alfredpayOnramp, aveniaPayIn, aveniaPayout } from "../../src/providers/money-commands.js";
import { MoneyCommandLedger, type LedgerOptions } from "../../src/partner-commands/ledger.js";
import type { OrderKind } from "../../src/providers/order-observations.js";
import type { CommandResult, MoneyCommand } from "../../src/providers/money-commands.js";
import { AlfredpayClient } from "../../src/providers/alfredpay/client.js";
import { AveniaClient } from "../../src/providers/avenia/client.js";
import { openDatabaseForTests, testEngine } from "../support/database.js";
import { mexicanOnrampOrder, PIX_PAYIN_QUOTE, verifiedAlfredpayCustomer } from "../support/partner-fixtures.js";
import { capturedLogger } from "../unit/providers/partner-server.js";

/*
 * The money-command ledger (issue 41: no money step done twice) against the partner simulator over HTTP, for every
 * kind of command, on the project's engine. The simulator counts each money step it executes by its identity
 * (spec decision 8), which is the command's reference: every test holds that count at 1. It also counts the second
 * attempts it refused: none for Avenia (found by listing tickets), one per lookup for Alfredpay (found by sending
 * the order again on its single-use quote).
 */

const database = openDatabaseForTests();
const log = capturedLogger();
/** The clients give up on a call after CLIENT_TIMEOUT_MS; the ledger's budget per call is longer. */
const CLIENT_TIMEOUT_MS = 1_000;
const LEDGER: LedgerOptions = { callTimeoutMs: 5_000 };
/** A moment after every claim LEDGER takes has lapsed: what a restarted instance sees. */
const AFTER_CLAIMS_LAPSED = 60_000;
const PENNY = "/api/v1/third-party-service/penny";
const WALLET = "0x2222222222222222222222222222222222222222";
const AVENIA_API_KEY = "ledger-avenia-key";
const ALFREDPAY_CREDENTIALS = { apiKey: "ledger-alfred-key", apiSecret: "ledger-alfred-secret" };
const signingKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });

let simulator: PartnerSimulator;
let avenia: AveniaClient;
let alfredpay: AlfredpayClient;
let subAccountId: string;
let customerId: string;
let fiatAccountId: string;
let ledger: MoneyCommandLedger;
let permitNonce = 0;

beforeAll(async () => {
  simulator = await startPartnerSimulator({
    avenia: {
      apiKey: AVENIA_API_KEY,
      clientPublicKeyPem: signingKeys.publicKey.export({ type: "spki", format: "pem" }).toString(),
    },
    alfredpay: ALFREDPAY_CREDENTIALS,
    // Orders stay as made: nothing moves on its own while a test counts.
    timing: {
      paymentDelayMs: 600_000,
      depositDelayMs: 600_000,
      stageDelayMs: 600_000,
      kycDecisionMs: 20,
      callbackRetryBaseMs: 20,
      quoteTtlMs: 600_000,
    },
  });
  // No breaker trips on the faults these tests set.
  const transport = {
    timeoutMs: CLIENT_TIMEOUT_MS,
    retryBaseDelayMs: 5,
    breaker: { failureThreshold: 1000, cooldownMs: 1 },
  };
  avenia = new AveniaClient({
    baseUrl: simulator.url,
    apiKey: AVENIA_API_KEY,
    privateKeyPem: signingKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    logger: log.logger,
    ...transport,
  });
  alfredpay = new AlfredpayClient({
    baseUrl: simulator.url,
    ...ALFREDPAY_CREDENTIALS,
    logger: log.logger,
    ...transport,
  });
  subAccountId = (await avenia.createSubAccount({ accountType: "INDIVIDUAL", name: "Ana Ledger" })).id;
  customerId = await verifiedAlfredpayCustomer(alfredpay, "Ledger");
  fiatAccountId = (
    await alfredpay.createFiatAccount({
      customerId,
      type: "SPEI",
      fiatAccountFields: { accountNumber: "646180157000000004", accountType: "CLABE" },
      isExternal: false,
    })
  ).fiatAccountId;
  ledger = new MoneyCommandLedger(database().db, log.logger, LEDGER);
});
afterAll(async () => {
  await Promise.all([avenia?.close(), alfredpay?.close()]);
  await simulator?.stop();
});

/** A registered ramp (and its quote) for commands to belong to. */
async function newRamp(db: Db = database().db): Promise<string> {
  const quoteId = randomUUID();
  const fee = "0.00";
  const expiresAt = new Date(Date.now() + 600_000);
  await db.quote.create({
    data: {
      id: quoteId,
      rampType: "BUY",
      from: "pix",
      to: "base",
      network: "base",
      paymentMethod: "pix",
      corridor: "BR",
      inputAmount: "100.00",
      inputCurrency: "BRL",
      outputAmount: "18.00",
      outputCurrency: "USDC",
      feeCurrency: "BRL",
      networkFeeFiat: fee,
      networkFeeUSD: fee,
      anchorFeeFiat: fee,
      anchorFeeUSD: fee,
      serviceFeeFiat: fee,
      serviceFeeUSD: fee,
      partnerFeeFiat: fee,
      partnerFeeUSD: fee,
      processingFeeFiat: fee,
      processingFeeUSD: fee,
      totalFeeFiat: fee,
      totalFeeUSD: fee,
      pricingProfile: "default",
      expiresAt,
      consumedAt: new Date(),
    },
  });
  const rampId = randomUUID();
  const profileId = randomUUID();
  await db.ramp.create({
    data: {
      id: rampId,
      quoteId,
      profileId,
      actorProfileId: profileId,
      type: "BUY",
      corridor: "BR",
      currentPhase: "initial",
      status: "PENDING",
      startDeadline: expiresAt,
    },
  });
  return rampId;
}

/** A pay-in of the ramp, its reference the ramp's id. */
function payInInput(rampId: string): Parameters<typeof aveniaPayIn>[1] {
  return {
    rampId,
    subAccountId,
    additionalData: rampId,
    quote: { ...PIX_PAYIN_QUOTE, inputAmount: "100.00", subAccountId },
    output: { walletChain: "BASE", walletAddress: WALLET },
  };
}

interface Case {
  kind: OrderKind;
  partner: PartnerName;
  /** The route of the call that moves money, which the faults aim at. */
  moneyRoute: string;
  /** Second attempts the simulator refuses when the ledger looks an order up. */
  refusedRepeatsPerLookup: number;
  command(rampId: string): Promise<MoneyCommand<unknown>>;
  /** The order as the partner has it, read by its id; the answer the ledger stored must agree with it. */
  expectOrder(partnerOrderId: string, answer: unknown): Promise<void>;
}

const cases: Case[] = [
  {
    kind: "avenia-payin",
    partner: "avenia",
    moneyRoute: "POST /v2/account/tickets",
    refusedRepeatsPerLookup: 0,
    async command(rampId) {
      return aveniaPayIn(avenia, payInInput(rampId));
    },
    async expectOrder(partnerOrderId, answer) {
      const ticket = await avenia.ticket(subAccountId, partnerOrderId);
      expect(ticket.status).toBe("UNPAID");
      expect(answer).toEqual({ brCode: ticket.brlPixInputInfo?.brCode });
    },
  },
  {
    kind: "avenia-payout",
    partner: "avenia",
    moneyRoute: "POST /v2/account/tickets",
    refusedRepeatsPerLookup: 0,
    async command(rampId) {
      permitNonce += 1;
      return aveniaPayout(avenia, {
        rampId,
        subAccountId,
        walletAddress: WALLET,
        permit: { r: `0x${"a".repeat(64)}`, s: `0x${"b".repeat(64)}`, v: 27, nonce: permitNonce, deadline: 2e9 },
        pixKey: "ana@example.com",
        quote: {
          inputCurrency: "BRLA",
          inputPaymentMethod: "BASE",
          outputCurrency: "BRL",
          outputPaymentMethod: "PIX",
          inputThirdParty: false,
          outputThirdParty: false,
          blockchainSendMethod: "PERMIT",
          inputAmount: "50.00",
          subAccountId,
        },
      });
    },
    async expectOrder(partnerOrderId, answer) {
      expect((await avenia.ticket(subAccountId, partnerOrderId)).status).toBe("PENDING");
      expect(answer).toEqual({});
    },
  },
  {
    kind: "alfredpay-onramp",
    partner: "alfredpay",
    moneyRoute: `POST ${PENNY}/onramp`,
    refusedRepeatsPerLookup: 1,
    async command(rampId) {
      const quote = await alfredpay.createQuote({
        fromCurrency: "MXN",
        toCurrency: "USDC",
        chain: "MATIC",
        paymentMethodType: "BANK",
        metadata: {},
        fromAmount: "1000.00",
      });
      return alfredpayOnramp(alfredpay, rampId, mexicanOnrampOrder(customerId, quote, WALLET));
    },
    async expectOrder(partnerOrderId, answer) {
      const order = await alfredpay.onramp(partnerOrderId);
      expect(order.status).toBe("CREATED");
      expect(answer).toEqual({ fiatPaymentInstructions: order.fiatPaymentInstructions });
      expect(order.fiatPaymentInstructions?.paymentType).toBe("SPEI");
    },
  },
  {
    kind: "alfredpay-offramp",
    partner: "alfredpay",
    moneyRoute: `POST ${PENNY}/offramp`,
    refusedRepeatsPerLookup: 1,
    async command(rampId) {
      const quote = await alfredpay.createQuote({
        fromCurrency: "USDC",
        toCurrency: "MXN",
        chain: "MATIC",
        paymentMethodType: "BANK",
        metadata: {},
        fromAmount: "50.00",
      });
      return alfredpayOfframp(alfredpay, rampId, {
        customerId,
        quoteId: quote.quoteId,
        fromCurrency: "USDC",
        toCurrency: "MXN",
        amount: quote.fromAmount,
        chain: "MATIC",
        fiatAccountId,
        originAddress: WALLET,
      });
    },
    async expectOrder(partnerOrderId, answer) {
      const order = await alfredpay.offramp(partnerOrderId);
      expect(order.status).toBe("CREATED");
      expect(answer).toEqual({ depositAddress: order.depositAddress, expiration: order.expiration });
    },
  },
];

function row(command: MoneyCommand<unknown>) {
  return database().db.partnerCommand.findUniqueOrThrow({
    where: { rampId_kind: { rampId: command.rampId, kind: command.kind } },
  });
}

function accepted(result: CommandResult<unknown>) {
  expect(result.outcome).toBe("accepted");
  return result as Extract<CommandResult<unknown>, { outcome: "accepted" }>;
}

/** The simulator's counts for the command's identity. */
function counts(testCase: Case, command: MoneyCommand<unknown>) {
  const stats = simulator.stats()[testCase.partner];
  return {
    executed: stats.moneySteps[command.reference] ?? 0,
    refusedRepeats: stats.duplicateMoneySteps[command.reference] ?? 0,
  };
}

const moneyCalls = (testCase: Case) => simulator.stats()[testCase.partner].calls[testCase.moneyRoute] ?? 0;

/** The database as seen by an instance killed right after the partner answered: no outcome is ever written. */
function killedBeforeRecording(db: Db): Db {
  const commands = new Proxy(db.partnerCommand, {
    get: (target, key) =>
      key === "updateMany"
        ? () => Promise.reject(new Error("killed before recording the outcome"))
        : Reflect.get(target, key),
  });
  return new Proxy(db, { get: (target, key) => (key === "partnerCommand" ? commands : Reflect.get(target, key)) });
}

describe.each(cases)(`money command $kind (${testEngine()})`, (testCase) => {
  const lostAnswers: [string, PartnerFaults][] = [
    ["the client times out", { timeoutNext: { count: 1, when: "after", route: testCase.moneyRoute } }],
    ["the connection is reset", { resetNext: { count: 1, when: "after", route: testCase.moneyRoute } }],
  ];

  it.each(lostAnswers)(
    "made by the partner, its answer lost (%s): unknown, then found at the partner and not made again",
    async (_, faults) => {
      const command = await testCase.command(await newRamp());
      simulator.setFaults({ partner: testCase.partner, ...faults });
      const first = await ledger.execute(command);
      simulator.clearFaults();
      expect(first).toMatchObject({ outcome: "pending", reason: "unsettled" });
      expect(first.outcome === "pending" && first.reason === "unsettled" && first.error).toMatch(
        /was sent to (Avenia|Alfredpay) without a certain answer \((timeout|UND_ERR_SOCKET|ECONNRESET)\)/,
      );
      expect(await row(command)).toMatchObject({ state: "unknown", attempts: 1, partnerOrderId: null });
      expect(counts(testCase, command)).toEqual({ executed: 1, refusedRepeats: 0 });

      const found = accepted(await ledger.execute(command));
      await testCase.expectOrder(found.partnerOrderId, found.answer);
      expect(counts(testCase, command)).toEqual({ executed: 1, refusedRepeats: testCase.refusedRepeatsPerLookup });
      expect(await row(command)).toMatchObject({
        state: "accepted",
        partnerOrderId: found.partnerOrderId,
        lastError: null,
        settledAt: expect.any(Date),
      });
      // Settled: asked again, the ledger answers from the database and calls nobody.
      const callsBefore = moneyCalls(testCase);
      expect(await ledger.execute(command)).toEqual(found);
      expect(moneyCalls(testCase)).toBe(callsBefore);
      expect(log.lines.join("")).not.toContain(command.reference);
    },
  );

  it("made by the partner, the instance killed before recording it: in progress until its claim lapses, then found", async () => {
    const command = await testCase.command(await newRamp());
    const killed = new MoneyCommandLedger(killedBeforeRecording(database().db), log.logger, LEDGER);
    await expect(killed.execute(command)).rejects.toThrow("killed before recording the outcome");
    expect(counts(testCase, command)).toEqual({ executed: 1, refusedRepeats: 0 });
    const left = await row(command);
    expect(left).toMatchObject({ state: "intended", attempts: 1, partnerOrderId: null });
    expect(left.claimedUntil.getTime()).toBeGreaterThan(Date.now());

    const callsBefore = moneyCalls(testCase);
    expect(await ledger.execute(command)).toEqual({ outcome: "pending", reason: "in-progress" });
    expect(moneyCalls(testCase)).toBe(callsBefore);

    const restarted = new MoneyCommandLedger(database().db, log.logger, {
      ...LEDGER,
      now: () => new Date(Date.now() + AFTER_CLAIMS_LAPSED),
    });
    const found = accepted(await restarted.execute(command));
    await testCase.expectOrder(found.partnerOrderId, found.answer);
    expect(counts(testCase, command)).toEqual({ executed: 1, refusedRepeats: testCase.refusedRepeatsPerLookup });
    expect(await ledger.execute(command)).toEqual(found);
  });

  it("refused 5xx before the partner did anything: unknown, found nowhere, sent once more, made once", async () => {
    const command = await testCase.command(await newRamp());
    simulator.setFaults({
      partner: testCase.partner,
      failNext: { count: 1, status: 503, when: "before", route: testCase.moneyRoute },
    });
    const callsBefore = moneyCalls(testCase);
    expect(await ledger.execute(command)).toMatchObject({ outcome: "pending", reason: "unsettled" });
    expect(await row(command)).toMatchObject({ state: "unknown", attempts: 1 });
    expect(counts(testCase, command)).toEqual({ executed: 0, refusedRepeats: 0 });

    const made = accepted(await ledger.execute(command));
    await testCase.expectOrder(made.partnerOrderId, made.answer);
    expect(counts(testCase, command)).toEqual({ executed: 1, refusedRepeats: 0 });
    expect(await row(command)).toMatchObject({ state: "accepted", attempts: 2 });
    expect(moneyCalls(testCase)).toBe(callsBefore + 2);
  });

  it("refused deterministically: refused with our words, and never sent again", async () => {
    const command = await testCase.command(await newRamp());
    simulator.setFaults({
      partner: testCase.partner,
      failNext: { count: 1, status: 422, when: "before", route: testCase.moneyRoute },
    });
    const callsBefore = moneyCalls(testCase);
    const refused = await ledger.execute(command);
    expect(refused).toEqual({ outcome: "refused", error: expect.stringMatching(/refused the .+ \(HTTP 422/) });
    expect(refused.outcome === "refused" && refused.error).not.toContain("simulated fault");
    expect(await row(command)).toMatchObject({ state: "refused", settledAt: expect.any(Date), partnerOrderId: null });

    expect(await ledger.execute(command)).toEqual(refused);
    expect(moneyCalls(testCase)).toBe(callsBefore + 1);
    expect(counts(testCase, command)).toEqual({ executed: 0, refusedRepeats: 0 });
  });

  describe("two instances racing on each command, 20 times", () => {
    let second: Database;
    beforeAll(async () => {
      // PostgreSQL: another client and pool, as another instance has; SQLite: another connection to the same file.
      second = await openDatabase(database().config);
    });
    afterAll(() => second?.close());

    it("one sends, the other is told it is in progress; each identity is executed once", async () => {
      const instances = [ledger, new MoneyCommandLedger(second.db, log.logger, LEDGER)];
      for (let round = 0; round < 20; round++) {
        const command = await testCase.command(await newRamp());
        let sends = 0;
        const counted = { ...command, send: (signal: AbortSignal) => ((sends += 1), command.send(signal)) };
        // Either instance may start first.
        const racing = round % 2 === 0 ? instances : [...instances].reverse();
        const results = await Promise.all(racing.map((instance) => instance.execute(counted)));
        expect(sends).toBe(1);
        const made = accepted(results.find((result) => result.outcome === "accepted")!);
        for (const result of results)
          expect([made, { outcome: "pending", reason: "in-progress" }]).toContainEqual(result);
        for (const instance of instances) expect(await instance.execute(counted)).toEqual(made);
        expect(sends).toBe(1);
        expect(counts(testCase, command)).toEqual({ executed: 1, refusedRepeats: 0 });
      }
    });
  });
});

describe(`the ledger's other paths, on an Avenia pay-in (${testEngine()})`, () => {
  const [payIn] = cases;

  it("a lookup that fails leaves the command as it was, for the next caller to look up", async () => {
    const command = await payIn.command(await newRamp());
    simulator.setFaults({ partner: "avenia", resetNext: { count: 1, when: "after", route: payIn.moneyRoute } });
    expect(await ledger.execute(command)).toMatchObject({ outcome: "pending", reason: "unsettled" });
    // The lookup's GET is retried twice by the transport: three failures make it fail.
    simulator.setFaults({
      partner: "avenia",
      failNext: { count: 3, status: 503, when: "before", route: "GET /v2/account/tickets" },
    });
    expect(await ledger.execute(command)).toEqual({
      outcome: "pending",
      reason: "unsettled",
      error: "Looking the PIX pay-in ticket up at Avenia failed (HTTP 503).",
    });
    const left = await row(command);
    expect(left).toMatchObject({ state: "unknown", attempts: 1 });
    expect(left.claimedUntil.getTime()).toBeLessThanOrEqual(Date.now());
    simulator.clearFaults();

    accepted(await ledger.execute(command));
    expect(counts(payIn, command)).toEqual({ executed: 1, refusedRepeats: 0 });
  });

  it("a partner not reached leaves the command intended; the next caller looks it up, then sends it", async () => {
    const rampId = await newRamp();
    const unreachable = new AveniaClient({
      baseUrl: "http://127.0.0.1:1",
      apiKey: AVENIA_API_KEY,
      privateKeyPem: signingKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      logger: log.logger,
      retryBaseDelayMs: 5,
    });
    const notReached = await ledger
      .execute(aveniaPayIn(unreachable, payInInput(rampId)))
      .finally(() => unreachable.close());
    expect(notReached).toEqual({
      outcome: "pending",
      reason: "unsettled",
      error: "Avenia was not reached for the PIX pay-in ticket (ECONNREFUSED).",
    });
    const command = await payIn.command(rampId);
    expect(await row(command)).toMatchObject({ state: "intended", attempts: 1 });

    const ticketLists = () => simulator.stats().avenia.calls["GET /v2/account/tickets"] ?? 0;
    const listsBefore = ticketLists();
    const made = accepted(await ledger.execute(command));
    await payIn.expectOrder(made.partnerOrderId, made.answer);
    expect(ticketLists()).toBe(listsBefore + 1);
    expect(await row(command)).toMatchObject({ state: "accepted", attempts: 2 });
    expect(counts(payIn, command)).toEqual({ executed: 1, refusedRepeats: 0 });
  });

  it("an error of the gateway's own in a send is recorded unknown and thrown; the next caller looks the command up", async () => {
    const command = await payIn.command(await newRamp());
    const broken = {
      ...command,
      send: () => Promise.reject(new TypeError("a bug in building the request")),
    };
    await expect(ledger.execute(broken)).rejects.toThrow("a bug in building the request");
    expect(await row(command)).toMatchObject({
      state: "unknown",
      lastError:
        "The PIX pay-in ticket was sent to Avenia without a certain answer (an error in the gateway: TypeError).",
    });
    accepted(await ledger.execute(command));
    expect(counts(payIn, command)).toEqual({ executed: 1, refusedRepeats: 0 });
  });
});
