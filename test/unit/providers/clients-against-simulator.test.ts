import { generateKeyPairSync, randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startPartnerSimulator, type PartnerSimulator } from "../../../packages/partner-simulator/src/index.js";
import { AlfredpayClient, type QuoteRequest } from "../../../src/providers/alfredpay/client.js";
import { verifyAlfredpayCallback } from "../../../src/providers/alfredpay/signing.js";
import { AveniaClient } from "../../../src/providers/avenia/client.js";
import { AveniaCallbackKey, verifyAveniaCallback } from "../../../src/providers/avenia/signing.js";
import type { BreakerOptions } from "../../../src/providers/http/circuit-breaker.js";
import {
  brazilianKycLevel1,
  mexicanKycForm,
  mexicanOnrampOrder,
  PIX_PAYIN_QUOTE,
  pixPayInTicket,
  verifiedAlfredpayCustomer,
} from "../../support/partner-fixtures.js";
import { capturedLogger, failure } from "./partner-server.js";

/*
 * Our partner clients against the partner simulator: both sides of issue 41's wire contract at once. The payer of a
 * BUY never pays on their own here (a long payment delay), so a test decides when a pay-in is paid.
 */

const AVENIA_API_KEY = "contract-avenia-key";
const ALFREDPAY_CREDENTIALS = { apiKey: "contract-alfred-key", apiSecret: "contract-alfred-secret" };
const CALLBACK_SECRET = `whsec_${Buffer.from("contract test callback secret 32").toString("base64")}`;
const PENNY = "/api/v1/third-party-service/penny";
const WALLET = "0x1111111111111111111111111111111111111111";

const signingKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const clientPrivateKeyPem = signingKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();

interface ReceivedCallback {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

/** Our end of the callbacks: records every delivery and answers 200. */
async function startCallbackReceiver() {
  const received: ReceivedCallback[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, rawBody: Buffer.concat(chunks) });
      response.end();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>;
let simulator: PartnerSimulator;
let avenia: AveniaClient;
let alfredpay: AlfredpayClient;
const extraClients: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  receiver = await startCallbackReceiver();
  simulator = await startPartnerSimulator({
    avenia: {
      apiKey: AVENIA_API_KEY,
      clientPublicKeyPem: signingKeys.publicKey.export({ type: "spki", format: "pem" }).toString(),
    },
    alfredpay: { ...ALFREDPAY_CREDENTIALS, callbackUrl: `${receiver.url}/alfredpay`, callbackSecret: CALLBACK_SECRET },
    timing: {
      paymentDelayMs: 600_000,
      depositDelayMs: 20,
      stageDelayMs: 20,
      kycDecisionMs: 20,
      callbackRetryBaseMs: 20,
      quoteTtlMs: 60_000,
    },
  });
});
beforeEach(() => {
  avenia = aveniaClient();
  alfredpay = alfredpayClient();
});
afterEach(async () => {
  await Promise.all([avenia.close(), alfredpay.close(), ...extraClients.splice(0).map((client) => client.close())]);
  simulator.reset();
  receiver.received.length = 0;
});
afterAll(async () => {
  await simulator.stop();
  await receiver.close();
});

function aveniaClient(options: { breaker?: BreakerOptions } = {}) {
  return new AveniaClient({
    baseUrl: simulator.url,
    apiKey: AVENIA_API_KEY,
    privateKeyPem: clientPrivateKeyPem,
    logger: capturedLogger().logger,
    retryBaseDelayMs: 5,
    ...options,
  });
}

function alfredpayClient(options: { breaker?: BreakerOptions } = {}) {
  return new AlfredpayClient({
    baseUrl: simulator.url,
    ...ALFREDPAY_CREDENTIALS,
    logger: capturedLogger().logger,
    retryBaseDelayMs: 5,
    ...options,
  });
}

/** Polls `read` until `done` holds (at most 3 s), answering the last value read. */
async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in time; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// --- Avenia ---

const PAYOUT_QUOTE = {
  inputCurrency: "BRLA",
  inputPaymentMethod: "BASE",
  outputCurrency: "BRL",
  outputPaymentMethod: "PIX",
  inputThirdParty: false,
  outputThirdParty: false,
  blockchainSendMethod: "PERMIT",
} as const;

async function aveniaSubAccount(name = "Ana Contract"): Promise<string> {
  return (await avenia.createSubAccount({ accountType: "INDIVIDUAL", name })).id;
}

const payInTicket = (subAccountId: string, reference: string) =>
  pixPayInTicket(avenia, subAccountId, reference, WALLET);

function permit(nonce: number) {
  return { r: `0x${"a".repeat(64)}`, s: `0x${"b".repeat(64)}`, v: 27, nonce, deadline: 2_000_000_000 };
}

async function payoutTicket(subAccountId: string, nonce: number, inputAmount = "50.00") {
  const quote = await avenia.fixedRateQuote({ ...PAYOUT_QUOTE, inputAmount, subAccountId });
  return avenia.createTicket(subAccountId, {
    quoteToken: quote.quoteToken,
    ticketBrlPixOutput: { pixKey: "ana@example.com" },
    ticketBlockchainInput: { walletAddress: WALLET, permit: permit(nonce) },
  });
}

describe("Avenia client against the simulator", () => {
  it("creates a subaccount, reads its info and gets a fixed-rate quote with the markup fee", async () => {
    const subAccountId = await aveniaSubAccount();
    const info = await avenia.accountInfo(subAccountId);
    expect(info.accountInfo.identityStatus).toBe("NOT-IDENTIFIED");
    expect(info.wallets).toHaveLength(1);
    const quote = await avenia.fixedRateQuote({ ...PIX_PAYIN_QUOTE, inputAmount: "100.00", subAccountId });
    expect(Number(quote.inputAmount)).toBe(100);
    expect(Number(quote.outputAmount)).toBe(99.5);
    expect(quote.appliedFees).toEqual([expect.objectContaining({ type: "Markup Fee", currency: "BRL" })]);
    const unknown = await failure(avenia.accountInfo(randomUUID()));
    expect([unknown.kind, unknown.partnerStatus, unknown.partnerCode]).toEqual(["rejected", 404, "unknown-subaccount"]);
  });

  it("creates a PIX pay-in with our reference, finds it by that reference and sees it PAID once the payer pays", async () => {
    const subAccountId = await aveniaSubAccount();
    const reference = `ramp-${randomUUID()}`;
    const ticketId = await payInTicket(subAccountId, reference);

    const unpaid = await avenia.ticket(subAccountId, ticketId);
    expect(unpaid.status).toBe("UNPAID");
    expect(unpaid.brlPixInputInfo?.additionalData).toBe(reference);
    expect((await avenia.findPayInTicket(subAccountId, reference))?.id).toBe(ticketId);
    expect(await avenia.findPayInTicket(subAccountId, `${reference}-other`)).toBeNull();

    expect(simulator.payAveniaTicket(ticketId)).toBe(true);
    const paid = await eventually(
      () => avenia.ticket(subAccountId, ticketId),
      (ticket) => ticket.status === "PAID",
    );
    expect(paid.blockchainReceiverInfo?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(simulator.stats().avenia.moneySteps).toEqual({ [`payin:${reference}`]: 1 });
  });

  it("creates a payout with a permit, finds it by the permit, and a second one on the same permit is refused 409", async () => {
    const subAccountId = await aveniaSubAccount();
    const created = await payoutTicket(subAccountId, 7);

    const found = await avenia.findPayoutTicket(subAccountId, WALLET.toUpperCase().replace("0X", "0x"), 7);
    expect(found?.id).toBe(created.id);
    expect(await avenia.findPayoutTicket(subAccountId, WALLET, 8)).toBeNull();
    const paid = await eventually(
      () => avenia.ticket(subAccountId, created.id),
      (ticket) => ticket.status === "PAID",
    );
    expect(paid.brazilianFiatReceiverInfo?.endToEndId).toMatch(/^E\w{31}$/);

    const duplicate = await failure(payoutTicket(subAccountId, 7));
    expect([duplicate.kind, duplicate.partnerStatus, duplicate.partnerCode]).toEqual([
      "unknown",
      409,
      "permit-already-used",
    ]);
    const identity = `payout:${WALLET}:7`;
    expect(simulator.stats().avenia.moneySteps).toEqual({ [identity]: 1 });
    expect(simulator.stats().avenia.duplicateMoneySteps).toEqual({ [identity]: 1 });
    expect(await avenia.tickets(subAccountId)).toHaveLength(1);
  });

  it("submits KYC level 1 by API: approved for an ordinary name, rejected for a name with 'reject'", async () => {
    const submit = async (fullName: string) => {
      const subAccountId = await aveniaSubAccount(fullName);
      const selfie = await avenia.createDocument(subAccountId, { documentType: "SELFIE-FROM-LIVENESS" });
      const document = await avenia.createDocument(subAccountId, { documentType: "ID", isDoubleSided: false });
      const { id } = await avenia.submitKycLevel1(
        subAccountId,
        brazilianKycLevel1(subAccountId, fullName, { selfieId: selfie.id, documentId: document.id }),
      );
      const attempt = await eventually(
        () => avenia.kycAttempt(subAccountId, id),
        (read) => read.status === "COMPLETED",
      );
      const { attempts } = await avenia.kycAttempts(subAccountId);
      expect(attempts.map((listed) => listed.id)).toEqual([id]);
      const { identityStatus } = (await avenia.accountInfo(subAccountId)).accountInfo;
      return { result: attempt.result, identityStatus };
    };
    expect(await submit("Ana Contract")).toEqual({ result: "APPROVED", identityStatus: "CONFIRMED" });
    expect(await submit("Please Reject Me")).toEqual({ result: "REJECTED", identityStatus: "NOT-IDENTIFIED" });
  });

  it("imports a Sumsub share token: approved as a sumsub-token- attempt, rejected for a token with 'reject'", async () => {
    const importToken = async (token: string) => {
      const subAccountId = await aveniaSubAccount("Ana Token");
      const { id, message } = await avenia.importKycToken(subAccountId, token);
      expect(message).toBe("processing KYC");
      const attempt = await eventually(
        () => avenia.kycAttempt(subAccountId, id),
        (read) => read.status === "COMPLETED",
      );
      return [attempt.levelName?.startsWith("sumsub-token-"), attempt.result];
    };
    expect(await importToken("_act-sbx-share-token")).toEqual([true, "APPROVED"]);
    expect(await importToken("_act-sbx-reject-token")).toEqual([true, "REJECTED"]);
  });

  it("delivers TICKET webhooks to the URL we registered, signed with the key the public-key call serves", async () => {
    const { webhookId } = await avenia.createWebhook({
      webhookUrl: `${receiver.url}/avenia`,
      subscriptions: ["TICKET"],
    });
    expect(await avenia.webhooks()).toEqual([
      expect.objectContaining({ id: webhookId, url: `${receiver.url}/avenia` }),
    ]);
    const subAccountId = await aveniaSubAccount();
    const reference = `ramp-${randomUUID()}`;
    const ticketId = await payInTicket(subAccountId, reference);
    simulator.payAveniaTicket(ticketId);

    const callbacks = await eventually(
      () => receiver.received.filter((callback) => callback.path === "/avenia"),
      (received) =>
        received.length >= 2 &&
        received.some((callback) => JSON.parse(callback.rawBody.toString()).data.ticket.status === "PAID"),
    );
    const keys = new AveniaCallbackKey(() => avenia.publicKey());
    for (const callback of callbacks) {
      const body = JSON.parse(callback.rawBody.toString());
      expect(body).toMatchObject({ subscription: "TICKET", subAccountId, data: { ticket: { id: ticketId } } });
      expect(await verifyAveniaCallback(callback.rawBody, callback.headers.signature as string, keys)).toBe(true);
    }
    const [first] = callbacks;
    const forged = Buffer.from(first.rawBody.toString().replace(ticketId, randomUUID()));
    expect(await verifyAveniaCallback(forged, first.headers.signature as string, keys)).toBe(false);
    // Two deliveries may overtake each other on the wire: the set of statuses is the contract, not their order.
    const statuses = callbacks.map((callback) => JSON.parse(callback.rawBody.toString()).data.ticket.status);
    expect(statuses.sort()).toEqual(["PAID", "PROCESSING"]);

    await avenia.updateWebhook({ webhookId, subscriptions: ["*"] });
    expect((await avenia.webhooks())[0].subscriptions).toEqual(["*"]);
    await avenia.deleteWebhook(webhookId);
    expect(await avenia.webhooks()).toEqual([]);
  });

  it("a payout creation meeting the .77 transient fault did nothing: not found by its permit, and sent again it succeeds", async () => {
    const subAccountId = await aveniaSubAccount();
    const transient = await failure(payoutTicket(subAccountId, 21, "50.77"));
    expect([transient.kind, transient.partnerStatus]).toEqual(["unknown", 503]);
    expect(await avenia.findPayoutTicket(subAccountId, WALLET, 21)).toBeNull();
    const created = await payoutTicket(subAccountId, 21, "50.77");
    expect((await avenia.findPayoutTicket(subAccountId, WALLET, 21))?.id).toBe(created.id);
    expect(simulator.stats().avenia.duplicateMoneySteps).toEqual({});
  });

  it("a payout whose amount ends in .66 fails at the exchange, and the client reads the failure's reason", async () => {
    const subAccountId = await aveniaSubAccount();
    const created = await payoutTicket(subAccountId, 31, "50.66");
    const failed = await eventually(
      () => avenia.ticket(subAccountId, created.id),
      (ticket) => ticket.status === "FAILED",
    );
    expect(failed.failureReason).toBe("Exchange refused");
  });

  it("signs with a timestamp the partner takes within 5 minutes of its clock, and is refused 401 beyond", async () => {
    const skewed = (skewMs: number) =>
      new AveniaClient({
        baseUrl: simulator.url,
        apiKey: AVENIA_API_KEY,
        privateKeyPem: clientPrivateKeyPem,
        logger: capturedLogger().logger,
        now: () => Date.now() - skewMs,
      });
    const slightly = skewed(4 * 60_000);
    const far = skewed(6 * 60_000);
    extraClients.push(slightly, far);
    const { id } = await slightly.createSubAccount({ accountType: "INDIVIDUAL", name: "Ana Contract" });
    const refused = await failure(far.accountInfo(id));
    expect([refused.kind, refused.partnerStatus]).toEqual(["rejected", 401]);
  });

  it("submits a company's KYB level 1 by API with its UBOs: rejected when an owner's name says so", async () => {
    const submit = async (ownerName: string) => {
      const { id: subAccountId } = await avenia.createSubAccount({ accountType: "COMPANY", name: "Contract Ltda" });
      const identification = await avenia.createDocument(subAccountId, { documentType: "PASSPORT" });
      const owner = await avenia.createUbo(subAccountId, {
        fullName: ownerName,
        dateOfBirth: "1980-05-01",
        countryOfTaxId: "BRA",
        taxIdNumber: "12345678909",
        percentageOfOwnership: "60",
        uploadedIdentificationId: identification.id,
        documentCountry: "BRA",
        streetLine1: "Rua Um, 1",
        city: "Sao Paulo",
        state: "SP",
        zipCode: "01000-000",
        country: "BRA",
      });
      const certificate = await avenia.createDocument(subAccountId, { documentType: "CERTIFICATE-OF-INCORPORATION" });
      const taxDocument = await avenia.createDocument(subAccountId, {
        documentType: "COMPANY-TAX-IDENTIFICATION-DOCUMENT",
      });
      const { id } = await avenia.submitKycLevel1(subAccountId, {
        uboIds: [owner.id],
        companyLegalName: "Contract Ltda",
        companyRegistrationNumber: "12345678000199",
        taxIdentificationNumberTin: "12345678000199",
        businessActivityDescription: "software",
        reasonForAccountOpening: "treasury_management",
        sourceOfFundsAndIncome: "sales_of_goods_and_services",
        numberOfEmployees: "1-10",
        estimatedAnnualRevenueUsd: "less_than_100k",
        estimatedMonthlyVolumeUsd: "10000",
        countryTaxResidence: "BRA",
        companyStreetLine1: "Rua Um, 1",
        companyCity: "Sao Paulo",
        companyState: "SP",
        companyZipCode: "01000-000",
        companyCountry: "BRA",
        certificateOfIncorporationDocumentId: certificate.id,
        taxIdentificationDocumentId: taxDocument.id,
      });
      const attempt = await eventually(
        () => avenia.kycAttempt(subAccountId, id),
        (read) => read.status === "COMPLETED",
      );
      return [attempt.levelName, attempt.result];
    };
    expect(await submit("Bruno Owner")).toEqual(["kyb-level-1-v2", "APPROVED"]);
    expect(await submit("Bruno Reject")).toEqual(["kyb-level-1-v2", "REJECTED"]);
  });

  it("starts a company's hosted KYB, whose attempt is approved; a subaccount's limits gain a BRL row only then", async () => {
    const { id: subAccountId } = await avenia.createSubAccount({ accountType: "COMPANY", name: "Contract Ltda" });
    const currencies = async () => (await avenia.limits(subAccountId)).limitInfo.limits.map((row) => row.currency);
    expect(await currencies()).toEqual(["*"]);
    const { attemptId } = await avenia.startKybWebSdk(subAccountId);
    const attempt = await eventually(
      () => avenia.kycAttempt(subAccountId, attemptId),
      (read) => read.status === "COMPLETED",
    );
    expect([attempt.levelName, attempt.result]).toEqual(["kyb-level-1-v2", "APPROVED"]);
    expect(await currencies()).toEqual(["BRL", "*"]);
  });

  it("is refused 401, as a deterministic refusal, when its key is not the one the partner holds", async () => {
    const stranger = new AveniaClient({
      baseUrl: simulator.url,
      apiKey: AVENIA_API_KEY,
      privateKeyPem: generateKeyPairSync("rsa", { modulusLength: 2048 })
        .privateKey.export({ type: "pkcs8", format: "pem" })
        .toString(),
      logger: capturedLogger().logger,
    });
    extraClients.push(stranger);
    const refused = await failure(stranger.createSubAccount({ accountType: "INDIVIDUAL", name: "Ana Contract" }));
    expect([refused.kind, refused.partnerStatus]).toEqual(["rejected", 401]);
  });
});

// --- Alfredpay ---

const ONRAMP_QUOTE: QuoteRequest = {
  fromCurrency: "MXN",
  toCurrency: "USDC",
  chain: "MATIC",
  paymentMethodType: "BANK",
  metadata: {},
  fromAmount: "1000.00",
};

function onrampOrder(customerId: string, quote: { quoteId: string; fromAmount: string }) {
  return alfredpay.createOnramp(mexicanOnrampOrder(customerId, quote, WALLET));
}

/** A small document scan as a file upload carries it. */
const SCAN = { fileName: "scan.jpg", contentType: "image/jpeg", bytes: new Uint8Array(2048).fill(7) };

describe("Alfredpay client against the simulator", () => {
  it("creates a customer, and creating it again finds the same one", async () => {
    const email = `ana+${randomUUID()}@example.com`;
    const first = await alfredpay.createCustomer({ country: "MX", email, type: "INDIVIDUAL" });
    const again = await alfredpay.createCustomer({ country: "MX", email, type: "INDIVIDUAL" });
    expect(again.customerId).toBe(first.customerId);
    expect(simulator.stats().alfredpay.calls[`GET ${PENNY}/customers/find/{email}/{country}`]).toBe(1);
  });

  it("verifies a customer's KYC, then an onramp on a quote runs to ON_CHAIN_COMPLETED; the quote makes one order", async () => {
    const customerId = await verifiedAlfredpayCustomer(alfredpay, "Contract");
    const quote = await alfredpay.createQuote(ONRAMP_QUOTE);
    expect(quote).toMatchObject({ fromCurrency: "MXN", toCurrency: "USDC", fromAmount: "1000.00" });
    expect((await alfredpay.quote(quote.quoteId)).quoteId).toBe(quote.quoteId);

    const created = await onrampOrder(customerId, quote);
    expect(created.transaction.status).toBe("CREATED");
    expect(created.fiatPaymentInstructions.paymentType).toBe("SPEI");
    expect(simulator.payAlfredpayOnramp(created.transaction.transactionId)).toBe(true);
    const completed = await eventually(
      () => alfredpay.onramp(created.transaction.transactionId),
      (order) => order.status === "ON_CHAIN_COMPLETED",
    );
    expect(completed.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(completed.metadata?.txHash).toBe(completed.txHash);

    // Sent again, the order is refused by the quote and answered as the one it made.
    const again = await onrampOrder(customerId, quote);
    expect(again.transaction.transactionId).toBe(created.transaction.transactionId);
    expect(again.fiatPaymentInstructions).toEqual(created.fiatPaymentInstructions);
    expect(simulator.stats().alfredpay.moneySteps).toEqual({ [`onramp:${quote.quoteId}`]: 1 });
    expect(simulator.stats().alfredpay.duplicateMoneySteps).toEqual({ [`onramp:${quote.quoteId}`]: 1 });
  });

  it("keeps fiat accounts, and an offramp to one runs to FIAT_TRANSFER_COMPLETED", async () => {
    const customerId = await verifiedAlfredpayCustomer(alfredpay, "Contract");
    const { fiatAccountId } = await alfredpay.createFiatAccount({
      customerId,
      type: "SPEI",
      fiatAccountFields: { accountNumber: "646180157000000004", accountType: "CLABE" },
      isExternal: false,
    });
    expect(await alfredpay.fiatAccounts(customerId)).toEqual([
      expect.objectContaining({ fiatAccountId, customerId, type: "SPEI", accountNumber: "646180157000000004" }),
    ]);

    const quote = await alfredpay.createQuote({ ...ONRAMP_QUOTE, fromCurrency: "USDC", toCurrency: "MXN" });
    const created = await alfredpay.createOfframp({
      customerId,
      quoteId: quote.quoteId,
      fromCurrency: "USDC",
      toCurrency: "MXN",
      amount: quote.fromAmount,
      chain: "MATIC",
      fiatAccountId,
      originAddress: WALLET,
    });
    expect(created.status).toBe("CREATED");
    expect(created.fiatAccountId).toBe(fiatAccountId);
    await eventually(
      () => alfredpay.offramp(created.transactionId),
      (order) => order.status === "FIAT_TRANSFER_COMPLETED",
    );

    await alfredpay.deleteFiatAccount(customerId, fiatAccountId);
    expect(await alfredpay.fiatAccounts(customerId)).toEqual([]);
  });

  it("uploads a KYC form's ID and selfie as multipart before its submit; a file after the submit is refused 422", async () => {
    const email = `ana+${randomUUID()}@example.com`;
    const { customerId } = await alfredpay.createCustomer({ country: "MX", email, type: "INDIVIDUAL" });
    const { submissionId } = await alfredpay.submitKycForm(customerId, mexicanKycForm("Files", email));
    for (const fileType of ["National ID Front", "National ID Back", "Selfie"] as const)
      await alfredpay.uploadKycFile(customerId, submissionId, { ...SCAN, fileName: "Identificación.jpg", fileType });
    expect(simulator.stats().alfredpay.calls[`POST ${PENNY}/customers/{customerId}/kyc/{submissionId}/files`]).toBe(3);
    await alfredpay.finishKycSubmission(customerId, submissionId);
    const late = await failure(alfredpay.uploadKycFile(customerId, submissionId, { ...SCAN, fileType: "Selfie" }));
    expect([late.kind, late.partnerStatus]).toEqual(["rejected", 422]);
    await eventually(
      () => alfredpay.kycStatus(customerId, submissionId),
      (read) => read.status === "COMPLETED",
    );
  });

  it("submits a KYB form with its files and a related person's document, with a PUT, to COMPLETED; hosted KYC and KYB links carry their submission", async () => {
    const { customerId } = await alfredpay.createCustomer({
      country: "MX",
      email: `company+${randomUUID()}@example.com`,
      type: "BUSINESS",
    });
    const { submissionId } = await alfredpay.submitKybForm(customerId, {
      businessName: "Contract SA de CV",
      taxId: "CSA900131AB1",
      country: "MX",
      address: "Calle Uno 1",
      state: "CDMX",
      city: "CDMX",
      zipCode: "01000",
      website: "https://example.com",
      relatedPersons: [
        {
          firstName: "Ana",
          lastName: "Contract",
          email: "ana@example.com",
          dateOfBirth: "1990-01-31",
          nationalities: ["MX"],
        },
      ],
      walletAddresses: "N/A",
      sourceOfFunds: "sales",
      transmitsCustomerFunds: false,
      operatesInSanctionedCountries: false,
      isRegulatedBusiness: false,
      businessActivities: "software",
      accountPurpose: "treasury",
      expectedMonthlyVolumeUsd: 10_000,
      expectedMonthlyTransactions: 10,
    });
    const articles = { ...SCAN, fileType: "articlesIncorporation" };
    await alfredpay.uploadKybFile(customerId, submissionId, articles);
    const [details] = await alfredpay.kybDetails(customerId);
    expect(details.submissionId).toBe(submissionId);
    const [person] = details.relatedPersons;
    expect(person.firstName).toBe("Ana");
    await alfredpay.uploadRelatedPersonFile(customerId, person.idRelatedPerson, { ...SCAN, fileType: "docFront" });
    await alfredpay.finishKybSubmission(customerId, submissionId);
    const status = await eventually(
      () => alfredpay.kybStatus(customerId, submissionId),
      (read) => read.status === "COMPLETED",
    );
    expect(status.metadata ?? null).toBeNull();
    const late = await failure(alfredpay.uploadKybFile(customerId, submissionId, articles));
    expect([late.kind, late.partnerStatus]).toEqual(["rejected", 422]);
    expect(simulator.stats().alfredpay.calls[`PUT ${PENNY}/customers/{customerId}/kyb/{submissionId}/submit`]).toBe(1);

    const kybLink = await alfredpay.kybUrl(customerId);
    const kycLink = await alfredpay.kycUrl(customerId, "MX");
    expect(kybLink.submissionId).not.toBe(kycLink.submissionId);
    expect((await alfredpay.kycStatus(customerId, kycLink.submissionId)).status).toMatch(/^(IN_REVIEW|COMPLETED)$/);
  });

  it("a customer whose email carries +kyc-rejected fails KYC with a reason, and cannot open an order", async () => {
    const email = `ana+kyc-rejected-${randomUUID()}@example.com`;
    const { customerId } = await alfredpay.createCustomer({ country: "MX", email, type: "INDIVIDUAL" });
    const { submissionId } = await alfredpay.submitKycForm(customerId, mexicanKycForm("Contract"));
    await alfredpay.finishKycSubmission(customerId, submissionId);
    const status = await eventually(
      () => alfredpay.kycStatus(customerId, submissionId),
      (read) => read.status === "FAILED",
    );
    expect(status.metadata?.failureReason).toBeTruthy();
    const quote = await alfredpay.createQuote(ONRAMP_QUOTE);
    const refused = await failure(onrampOrder(customerId, quote));
    expect([refused.kind, refused.partnerStatus]).toEqual(["rejected", 403]);
    expect(simulator.stats().alfredpay.moneySteps).toEqual({});
  });

  it("is refused 401, as a deterministic refusal, with credentials the partner does not know", async () => {
    const stranger = new AlfredpayClient({
      baseUrl: simulator.url,
      apiKey: ALFREDPAY_CREDENTIALS.apiKey,
      apiSecret: "not-the-secret",
      logger: capturedLogger().logger,
    });
    extraClients.push(stranger);
    const refused = await failure(stranger.createQuote(ONRAMP_QUOTE));
    expect([refused.kind, refused.partnerStatus, refused.partnerCode]).toEqual(["rejected", 401, "401"]);
  });

  it("receives Standard-Webhooks callbacks that verify with the shared secret", async () => {
    const customerId = await verifiedAlfredpayCustomer(alfredpay, "Contract");
    const quote = await alfredpay.createQuote(ONRAMP_QUOTE);
    const { transaction } = await onrampOrder(customerId, quote);
    simulator.payAlfredpayOnramp(transaction.transactionId);

    const ours = () =>
      receiver.received
        .filter((callback) => callback.path === "/alfredpay")
        .map((callback) => ({ callback, body: JSON.parse(callback.rawBody.toString()) }))
        .filter(
          ({ body }) => body.data.transactionId === transaction.transactionId || body.data.customerId === customerId,
        );
    const received = await eventually(
      ours,
      (events) => events.filter(({ body }) => body.type === "onramp").length >= 4,
    );
    // Deliveries may overtake each other: the set of stages is the contract, not their order.
    const onrampStatuses = received.filter(({ body }) => body.type === "onramp").map(({ body }) => body.data.status);
    expect(onrampStatuses.sort()).toEqual(
      ["FIAT_DEPOSIT_RECEIVED", "TRADE_COMPLETED", "ON_CHAIN_INITIATED", "ON_CHAIN_COMPLETED"].sort(),
    );
    expect(received.filter(({ body }) => body.type === "kyc").map(({ body }) => body.data.status)).toContain(
      "COMPLETED",
    );
    for (const { callback } of received)
      expect(verifyAlfredpayCallback(callback.rawBody, callback.headers, CALLBACK_SECRET, Date.now())).toBe(true);
    const first = received.find(({ body }) => body.type === "onramp")!.callback;
    const forged = Buffer.from(first.rawBody.toString().replace(transaction.transactionId, randomUUID()));
    expect(verifyAlfredpayCallback(forged, first.headers, CALLBACK_SECRET, Date.now())).toBe(false);
    const otherSecret = `whsec_${Buffer.from("another secret, 32 bytes long!!!").toString("base64")}`;
    expect(verifyAlfredpayCallback(first.rawBody, first.headers, otherSecret, Date.now())).toBe(false);
  });
});

// --- Faults, as the clients meet them ---

describe("Partner faults through the clients", () => {
  it("a pay-in creation whose answer is lost (503 after executing) is sent once, unknown, and found by reference", async () => {
    const subAccountId = await aveniaSubAccount();
    const quote = await avenia.fixedRateQuote({ ...PIX_PAYIN_QUOTE, inputAmount: "100.00", subAccountId });
    const reference = `ramp-${randomUUID()}`;
    simulator.setFaults({ partner: "avenia", failNext: { count: 1, status: 503, when: "after" } });
    const lost = await failure(
      avenia.createTicket(subAccountId, {
        quoteToken: quote.quoteToken,
        ticketBrlPixInput: { additionalData: reference },
        ticketBlockchainOutput: { walletChain: "BASE", walletAddress: WALLET },
      }),
    );
    expect([lost.kind, lost.partnerStatus]).toEqual(["unknown", 503]);
    expect(simulator.stats().avenia.calls["POST /v2/account/tickets"]).toBe(1);
    expect((await avenia.findPayInTicket(subAccountId, reference))?.status).toBe("UNPAID");
  });

  it("a payout creation that never answers times out as unknown, is sent once, and is found by its permit", async () => {
    const subAccountId = await aveniaSubAccount();
    const quote = await avenia.fixedRateQuote({ ...PAYOUT_QUOTE, inputAmount: "50.00", subAccountId });
    simulator.setFaults({ partner: "avenia", timeoutNext: { count: 1, when: "after" } });
    const started = Date.now();
    const lost = await failure(
      avenia.createTicket(
        subAccountId,
        {
          quoteToken: quote.quoteToken,
          ticketBrlPixOutput: { pixKey: "ana@example.com" },
          ticketBlockchainInput: { walletAddress: WALLET, permit: permit(11) },
        },
        { timeoutMs: 200 },
      ),
    );
    expect([lost.kind, lost.partnerCode]).toEqual(["unknown", "timeout"]);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(simulator.stats().avenia.calls["POST /v2/account/tickets"]).toBe(1);
    expect(await avenia.findPayoutTicket(subAccountId, WALLET, 11)).not.toBeNull();
  });

  it("an order's .77 transient fault in its payout stage is absorbed by the client's retry of the GET", async () => {
    const customerId = await verifiedAlfredpayCustomer(alfredpay, "Contract");
    const quote = await alfredpay.createQuote({ ...ONRAMP_QUOTE, fromAmount: "1000.77" });
    const { transaction } = await onrampOrder(customerId, quote);
    simulator.payAlfredpayOnramp(transaction.transactionId);
    let reads = 0;
    await eventually(
      () => {
        reads += 1;
        return alfredpay.onramp(transaction.transactionId);
      },
      (order) => order.status === "ON_CHAIN_COMPLETED",
    );
    expect(simulator.stats().alfredpay.calls[`GET ${PENNY}/onramp/{transactionId}`]).toBe(reads + 1);
  });

  it("an order's .66 fails at the exchange, and the client reads the failure's reason", async () => {
    const customerId = await verifiedAlfredpayCustomer(alfredpay, "Contract");
    const quote = await alfredpay.createQuote({ ...ONRAMP_QUOTE, fromAmount: "1000.66" });
    const { transaction } = await onrampOrder(customerId, quote);
    simulator.payAlfredpayOnramp(transaction.transactionId);
    const failed = await eventually(
      () => alfredpay.onramp(transaction.transactionId),
      (order) => order.status === "FAILED",
    );
    expect(failed.metadata?.failureReason).toBe("Exchange refused");
  });

  it("an idempotent GET that meets one 503 is retried and succeeds", async () => {
    const quote = await alfredpay.createQuote(ONRAMP_QUOTE);
    simulator.setFaults({ partner: "alfredpay", failNext: { count: 1, status: 503, when: "before" } });
    expect((await alfredpay.quote(quote.quoteId)).quoteId).toBe(quote.quoteId);
    expect(simulator.stats().alfredpay.calls[`GET ${PENNY}/quotes/{quoteId}`]).toBe(2);
  });

  it("after the threshold of failures a partner's client fails fast, and the other partner's still works", async () => {
    const failing = aveniaClient({ breaker: { failureThreshold: 3, cooldownMs: 60_000 } });
    const healthy = alfredpayClient({ breaker: { failureThreshold: 3, cooldownMs: 60_000 } });
    extraClients.push(failing, healthy);
    simulator.setFaults({ partner: "avenia", failNext: { count: 3, status: 503, when: "before" } });

    const exhausted = await failure(failing.accountInfo(randomUUID()));
    expect([exhausted.kind, exhausted.partnerStatus]).toEqual(["unknown", 503]);
    expect(simulator.stats().avenia.calls["GET /v2/account/account-info"]).toBe(3);

    const fast = await failure(failing.accountInfo(randomUUID()));
    expect([fast.kind, fast.partnerCode]).toEqual(["unavailable", "breaker-open"]);
    expect(simulator.stats().avenia.calls["GET /v2/account/account-info"]).toBe(3);
    expect((await healthy.createQuote(ONRAMP_QUOTE)).quoteId).not.toBe("");
  });
});
