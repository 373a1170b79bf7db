import { generateKeyPairSync, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPartnerSimulator, type PartnerSimulator } from "../../packages/partner-simulator/src/index.js";
import { alfredpayOfframp, alfredpayOnramp, aveniaPayIn, aveniaPayout } from "../../src/providers/money-commands.js";
import {
  observeAlfredpayOfframp,
  observeAlfredpayOnramp,
  observeAveniaPayIn,
  observeAveniaPayout,
  type OrderKind,
  type OrderObservation,
} from "../../src/providers/order-observations.js";
import { AlfredpayClient } from "../../src/providers/alfredpay/client.js";
import { AveniaClient } from "../../src/providers/avenia/client.js";
import { advanceTo, isTerminal, type RampPhase } from "../../src/reference-data/ramp-phases.js";
import { sleep } from "../support/kit.js";
import { mexicanOnrampOrder, PIX_PAYIN_QUOTE, verifiedAlfredpayCustomer } from "../support/partner-fixtures.js";
import { capturedLogger } from "../unit/providers/partner-server.js";

/*
 * Each kind of money command's order, made through its command at the partner simulator and then read over HTTP
 * until it settles, as the reconciler will: every status the simulator moves the order through reads as its phase,
 * the phases only move forward, and the `.66` trigger ends the order failed with the partner's reason.
 */

const log = capturedLogger();
const AVENIA_API_KEY = "observations-avenia-key";
const ALFREDPAY_CREDENTIALS = { apiKey: "observations-alfred-key", apiSecret: "observations-alfred-secret" };
const WALLET = "0x2222222222222222222222222222222222222222";
const HASH = /^0x[0-9a-f]{64}$/;
/** Each status lasts a stage: long beside POLL_MS, so a reading sees every one. */
const STAGE_MS = 300;
const POLL_MS = 10;
const signingKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });

let simulator: PartnerSimulator;
let avenia: AveniaClient;
let alfredpay: AlfredpayClient;
let subAccountId: string;
let customerId: string;
let fiatAccountId: string;
let permitNonce = 0;

beforeAll(async () => {
  simulator = await startPartnerSimulator({
    avenia: {
      apiKey: AVENIA_API_KEY,
      clientPublicKeyPem: signingKeys.publicKey.export({ type: "spki", format: "pem" }).toString(),
    },
    alfredpay: ALFREDPAY_CREDENTIALS,
    timing: {
      paymentDelayMs: STAGE_MS,
      depositDelayMs: STAGE_MS,
      stageDelayMs: STAGE_MS,
      kycDecisionMs: 20,
      callbackRetryBaseMs: 20,
      quoteTtlMs: 600_000,
    },
  });
  const transport = { timeoutMs: 2_000, retryBaseDelayMs: 5, breaker: { failureThreshold: 1000, cooldownMs: 1 } };
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
  subAccountId = (await avenia.createSubAccount({ accountType: "INDIVIDUAL", name: "Ana Observed" })).id;
  customerId = await verifiedAlfredpayCustomer(alfredpay, "Observed");
  fiatAccountId = (
    await alfredpay.createFiatAccount({
      customerId,
      type: "SPEI",
      fiatAccountFields: { accountNumber: "646180157000000004", accountType: "CLABE" },
      isExternal: false,
    })
  ).fiatAccountId;
});
afterAll(async () => {
  await Promise.all([avenia?.close(), alfredpay?.close()]);
  await simulator?.stop();
});

interface Case {
  kind: OrderKind;
  /** The order's amount: its `.66` twin fails at the exchange. */
  amount: string;
  /** Makes the order through its money command; answers how to read it. */
  order(amount: string): Promise<() => Promise<OrderObservation>>;
  /** The statuses the simulator moves a completing order through, with the phase each reads as. */
  completing: [string, RampPhase][];
  failing: [string, RampPhase][];
  /** Whether the completed order names a transaction on chain (a payout to the wallet). */
  hashed: boolean;
  /** Whether the partner says until when the order takes its payment or deposit. */
  expires: boolean;
}

const sent = () => AbortSignal.timeout(5_000);

const cases: Case[] = [
  {
    kind: "avenia-payin",
    amount: "100.00",
    async order(inputAmount) {
      const command = aveniaPayIn(avenia, {
        rampId: randomUUID(),
        subAccountId,
        additionalData: randomUUID(),
        quote: { ...PIX_PAYIN_QUOTE, inputAmount, subAccountId },
        output: { walletChain: "BASE", walletAddress: WALLET },
      });
      const { partnerOrderId } = await command.send(sent());
      return () => observeAveniaPayIn(avenia, subAccountId, partnerOrderId);
    },
    completing: [
      ["UNPAID", "awaitingPayment"],
      ["PROCESSING", "exchanging"],
      ["PAID", "complete"],
    ],
    failing: [
      ["UNPAID", "awaitingPayment"],
      ["PROCESSING", "exchanging"],
      ["FAILED", "failed"],
    ],
    hashed: true,
    expires: true,
  },
  {
    kind: "avenia-payout",
    amount: "50.00",
    async order(inputAmount) {
      permitNonce += 1;
      const command = aveniaPayout(avenia, {
        rampId: randomUUID(),
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
          inputAmount,
          subAccountId,
        },
      });
      const { partnerOrderId } = await command.send(sent());
      return () => observeAveniaPayout(avenia, subAccountId, partnerOrderId);
    },
    completing: [
      ["PENDING", "awaitingPayment"],
      ["PROCESSING", "payingOut"],
      ["PAID", "complete"],
    ],
    failing: [
      ["PENDING", "awaitingPayment"],
      ["PROCESSING", "payingOut"],
      ["FAILED", "failed"],
    ],
    hashed: false,
    expires: false,
  },
  {
    kind: "alfredpay-onramp",
    amount: "1000.00",
    async order(fromAmount) {
      const quote = await alfredpay.createQuote({
        fromCurrency: "MXN",
        toCurrency: "USDC",
        chain: "MATIC",
        paymentMethodType: "BANK",
        metadata: {},
        fromAmount,
      });
      const command = alfredpayOnramp(alfredpay, randomUUID(), mexicanOnrampOrder(customerId, quote, WALLET));
      const { partnerOrderId } = await command.send(sent());
      return () => observeAlfredpayOnramp(alfredpay, partnerOrderId);
    },
    completing: [
      ["CREATED", "awaitingPayment"],
      ["FIAT_DEPOSIT_RECEIVED", "paymentConfirmed"],
      ["TRADE_COMPLETED", "exchanging"],
      ["ON_CHAIN_INITIATED", "payingOut"],
      ["ON_CHAIN_COMPLETED", "complete"],
    ],
    failing: [
      ["CREATED", "awaitingPayment"],
      ["FIAT_DEPOSIT_RECEIVED", "paymentConfirmed"],
      ["FAILED", "failed"],
    ],
    hashed: true,
    expires: true,
  },
  {
    kind: "alfredpay-offramp",
    amount: "50.00",
    async order(fromAmount) {
      const quote = await alfredpay.createQuote({
        fromCurrency: "USDC",
        toCurrency: "MXN",
        chain: "MATIC",
        paymentMethodType: "BANK",
        metadata: {},
        fromAmount,
      });
      const command = alfredpayOfframp(alfredpay, randomUUID(), {
        customerId,
        quoteId: quote.quoteId,
        fromCurrency: "USDC",
        toCurrency: "MXN",
        amount: quote.fromAmount,
        chain: "MATIC",
        fiatAccountId,
        originAddress: WALLET,
      });
      const { partnerOrderId } = await command.send(sent());
      return () => observeAlfredpayOfframp(alfredpay, partnerOrderId);
    },
    completing: [
      ["CREATED", "awaitingPayment"],
      ["ON_CHAIN_DEPOSIT_RECEIVED", "paymentConfirmed"],
      ["TRADE_COMPLETED", "exchanging"],
      ["FIAT_TRANSFER_INITIATED", "payingOut"],
      ["FIAT_TRANSFER_COMPLETED", "complete"],
    ],
    failing: [
      ["CREATED", "awaitingPayment"],
      ["ON_CHAIN_DEPOSIT_RECEIVED", "paymentConfirmed"],
      ["FAILED", "failed"],
    ],
    hashed: false,
    expires: true,
  },
];

/** Reads the order every POLL_MS until its phase is terminal; answers each change of status, in order. */
async function observeUntilSettled(observe: () => Promise<OrderObservation>): Promise<OrderObservation[]> {
  const changes: OrderObservation[] = [];
  const giveUpAt = Date.now() + 20 * STAGE_MS;
  for (;;) {
    const observation = await observe();
    if (changes.at(-1)?.partnerStatus !== observation.partnerStatus) changes.push(observation);
    if (observation.phase && isTerminal(observation.phase)) return changes;
    if (Date.now() > giveUpAt) throw new Error(`the order did not settle: ${JSON.stringify(changes)}`);
    await sleep(POLL_MS);
  }
}

/** Each observed phase is reached from the one before it by moving forward. */
function expectForwardOnly(changes: OrderObservation[]): void {
  for (const [index, { phase }] of changes.entries())
    if (index > 0) expect(advanceTo(changes[index - 1].phase!, phase!).at(-1), `change ${index}`).toBe(phase);
}

describe.concurrent.each(cases)("observing an order of $kind at the partner", (testCase) => {
  it("reads every status it moves through as its phase, forward only, to complete", async () => {
    const changes = await observeUntilSettled(await testCase.order(testCase.amount));
    expect(changes.map(({ partnerStatus, phase }) => [partnerStatus, phase])).toEqual(testCase.completing);
    expectForwardOnly(changes);
    const completed = changes.at(-1)!;
    if (testCase.hashed) expect(completed.transactionHash).toMatch(HASH);
    else expect(completed).not.toHaveProperty("transactionHash");
    expect(changes.every((observation) => !("failureReason" in observation))).toBe(true);
    // Until when it takes its payment, while it awaits it, where the partner says.
    for (const change of changes)
      expect("expiresAt" in change, change.partnerStatus).toBe(testCase.expires && change.phase === "awaitingPayment");
  });

  it("reads a `.66` order as failed at the exchange, with the partner's reason", async () => {
    const changes = await observeUntilSettled(await testCase.order(testCase.amount.replace(".00", ".66")));
    expect(changes.map(({ partnerStatus, phase }) => [partnerStatus, phase])).toEqual(testCase.failing);
    expectForwardOnly(changes);
    expect(changes.at(-1)).toEqual({ phase: "failed", partnerStatus: "FAILED", failureReason: "Exchange refused" });
  });
});
