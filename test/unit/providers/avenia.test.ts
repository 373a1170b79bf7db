import { constants, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AveniaClient, AveniaPublicKeySource } from "../../../src/providers/avenia/client.js";
import { AveniaCallbackKey, verifyAveniaCallback } from "../../../src/providers/avenia/signing.js";
import { DEFAULT_MAX_ANSWER_BYTES } from "../../../src/providers/http/partner-http.js";
import { type RecordedRequest, capturedLogger, failure, json, startPartnerServer } from "./partner-server.js";

type PartnerServer = Awaited<ReturnType<typeof startPartnerServer>>;

function rsaKeyPair() {
  return generateKeyPairSync("rsa", { modulusLength: 2048 });
}

const client = rsaKeyPair();
const clientPrivatePem = client.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
const API_KEY = "avenia-api-key-1";
let server: PartnerServer;
let avenia: AveniaClient;

beforeAll(async () => {
  server = await startPartnerServer();
  avenia = new AveniaClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    privateKeyPem: clientPrivatePem,
    logger: capturedLogger().logger,
    retryBaseDelayMs: 5,
  });
});
afterEach(() => server.reset());
afterAll(async () => {
  await avenia.close();
  await server.close();
});

/** What the partner does with a signed request: check it with the client's public key. */
function signatureVerifies(request: RecordedRequest, publicKey: KeyObject = client.publicKey): boolean {
  const timestamp = String(request.headers["x-api-timestamp"]);
  const signed = Buffer.from(timestamp + request.method + request.url + request.body, "utf8");
  return verify("sha256", signed, publicKey, Buffer.from(String(request.headers["x-api-signature"]), "base64"));
}

describe("Avenia request signing", () => {
  it("signs a GET with its query, as the partner verifies it", async () => {
    server.handle((_, response) =>
      json(response, 200, { accountInfo: { identityStatus: "CONFIRMED" }, brCode: "000201", wallets: [] }),
    );
    const before = Date.now();
    await avenia.accountInfo("sub/1 ä");
    const [sent] = server.requests;
    expect(sent.url).toBe("/v2/account/account-info?subAccountId=sub%2F1+%C3%A4");
    expect(sent.headers["x-api-key"]).toBe(API_KEY);
    expect(Number(sent.headers["x-api-timestamp"])).toBeGreaterThanOrEqual(before);
    expect(signatureVerifies(sent)).toBe(true);
    expect(signatureVerifies(sent, rsaKeyPair().publicKey)).toBe(false);
  });

  it("signs a POST over its query and JSON body exactly as sent", async () => {
    server.handle((_, response) => json(response, 200, { id: "ticket-1", brCode: "000201", expiration: "later" }));
    const created = await avenia.createTicket("sub-1", {
      quoteToken: "qt",
      ticketBrlPixInput: { additionalData: "ramp-ref-1" },
      ticketBlockchainOutput: { beneficiaryWalletId: "00000000-0000-0000-0000-000000000000" },
    });
    expect(created.id).toBe("ticket-1");
    const [sent] = server.requests;
    expect(sent.url).toBe("/v2/account/tickets?subAccountId=sub-1");
    expect(JSON.parse(sent.body).ticketBrlPixInput).toEqual({ additionalData: "ramp-ref-1" });
    expect(signatureVerifies(sent)).toBe(true);
    expect(signatureVerifies({ ...sent, body: sent.body.replace("ramp-ref-1", "ramp-ref-2") })).toBe(false);
  });

  it("imports a KYC share token at the trailing-slash route, signed over it, and never logs the token", async () => {
    server.handle((_, response) => json(response, 200, { id: "attempt-1", message: "processing KYC" }));
    const { logger, lines } = capturedLogger();
    const client = new AveniaClient({ baseUrl: server.url, apiKey: API_KEY, privateKeyPem: clientPrivatePem, logger });
    try {
      expect(await client.importKycToken("sub/account", "share-token")).toEqual({
        id: "attempt-1",
        message: "processing KYC",
      });
    } finally {
      await client.close();
    }
    const [sent] = server.requests;
    expect(sent.method).toBe("POST");
    expect(sent.url).toBe("/v2/kyc/import-token/?subAccountId=sub%2Faccount");
    expect(sent.body).toBe('{"importToken":"share-token"}');
    expect(signatureVerifies(sent)).toBe(true);
    expect(lines.join("")).toContain("/v2/kyc/import-token/");
    expect(lines.join("")).not.toContain("share-token");
  });

  it("signs a templated path with its encoded parameter, and leaves out an absent cursor", async () => {
    server.handle((request, response) =>
      request.url.startsWith("/v2/kyc/attempts?")
        ? json(response, 200, { attempts: [], cursor: null })
        : json(response, 200, { ticket: { id: "t/1", status: "PAID" } }),
    );
    expect((await avenia.ticket("sub-1", "t/1")).status).toBe("PAID");
    await avenia.kycAttempts("sub-1");
    const [ticketRequest, attemptsRequest] = server.requests;
    expect(ticketRequest.url).toBe("/v2/account/tickets/t%2F1?subAccountId=sub-1");
    expect(signatureVerifies(ticketRequest)).toBe(true);
    expect(attemptsRequest.url).toBe("/v2/kyc/attempts?subAccountId=sub-1");
  });

  it("fetches the public key without credentials", async () => {
    server.handle((_, response) => json(response, 200, { publicKey: "PEM" }));
    expect(await avenia.publicKey()).toBe("PEM");
    expect(server.requests[0].headers["x-api-key"]).toBeUndefined();
    expect(server.requests[0].headers["x-api-signature"]).toBeUndefined();
  });

  it("fetches the public key with a base URL alone, for a callback receiver that holds no credentials", async () => {
    server.handle((_, response) => json(response, 200, { publicKey: "PEM" }));
    const source = new AveniaPublicKeySource({ baseUrl: server.url, logger: capturedLogger().logger });
    try {
      expect(await source.publicKey()).toBe("PEM");
    } finally {
      await source.close();
    }
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual(["GET /v2/public-key"]);
    expect(server.requests[0].headers["x-api-key"]).toBeUndefined();
    expect(server.requests[0].headers["x-api-signature"]).toBeUndefined();
  });

  it("sends the quote's booleans as the strings Avenia expects", async () => {
    server.handle((_, response) =>
      json(response, 200, { quoteToken: "qt", inputAmount: "100", outputAmount: "99.5", appliedFees: [] }),
    );
    await avenia.fixedRateQuote({
      inputAmount: "100",
      inputCurrency: "BRL",
      inputPaymentMethod: "PIX",
      inputThirdParty: false,
      outputCurrency: "BRLA",
      outputPaymentMethod: "INTERNAL",
      outputThirdParty: false,
      subAccountId: "sub-1",
    });
    expect(server.requests[0].url).toBe(
      "/v2/account/quote/fixed-rate?inputAmount=100&inputCurrency=BRL&inputPaymentMethod=PIX&outputCurrency=BRLA" +
        "&outputPaymentMethod=INTERNAL&subAccountId=sub-1&inputThirdParty=false&outputThirdParty=false",
    );
  });
});

describe("Avenia errors", () => {
  it("makes an unknown subaccount a rejection with a short code", async () => {
    server.handle((_, response) => json(response, 404, { error: "sub-account-id does not exist" }));
    const error = await failure(avenia.limits("sub-x"));
    expect(error).toMatchObject({ kind: "rejected", partnerStatus: 404, partnerCode: "unknown-subaccount" });
  });

  it("makes a used permit an unknown outcome, sent once", async () => {
    server.handle((_, response) => json(response, 409, { error: "permit already used" }));
    const error = await failure(
      avenia.createTicket("sub-1", {
        quoteToken: "qt",
        ticketBrlPixOutput: { pixKey: "joe@example.com" },
        ticketBlockchainInput: { walletAddress: "0xabc", permit: { r: "0x1", s: "0x2", v: 27, nonce: 4, deadline: 9 } },
      }),
    );
    expect(error).toMatchObject({ kind: "unknown", partnerStatus: 409, partnerCode: "permit-already-used" });
    expect(server.requests).toHaveLength(1);
  });
});

describe("Avenia ticket lookups", () => {
  const tickets = [
    { id: "in-1", status: "UNPAID", brlPixInputInfo: { additionalData: "ref-1" } },
    {
      id: "out-1",
      status: "PENDING",
      blockchainSenderInfo: { walletAddress: "0xABCDEF" },
      blockchainInputInfo: { nonce: 7 },
      brazilianFiatReceiverInfo: { endToEndId: null },
    },
    {
      id: "out-2",
      status: "PAID",
      blockchainSenderInfo: { walletAddress: "0xabcdef" },
      blockchainInputInfo: { nonce: 8 },
    },
  ];

  it("finds a pay-in by our reference and a payout by wallet and permit nonce", async () => {
    server.handle((_, response) => json(response, 200, { tickets }));
    expect((await avenia.findPayInTicket("sub-1", "ref-1"))?.id).toBe("in-1");
    expect(await avenia.findPayInTicket("sub-1", "ref-2")).toBeNull();
    expect((await avenia.findPayoutTicket("sub-1", "0xabcdef", 7))?.id).toBe("out-1");
    expect((await avenia.findPayoutTicket("sub-1", "0xABCDEF", 8))?.id).toBe("out-2");
    expect(await avenia.findPayoutTicket("sub-1", "0x999999", 7)).toBeNull();
    expect(server.requests.every((request) => request.url === "/v2/account/tickets?subAccountId=sub-1")).toBe(true);
  });

  it(`reads a subaccount's ticket list past the transport's default bound (${DEFAULT_MAX_ANSWER_BYTES} bytes): it has no pages`, async () => {
    // About 2 KB a ticket, as a paid pay-in's with its payer and PIX code is: 1,000 tickets of history.
    const history = Array.from({ length: 1_000 }, (_, index) => ({
      id: `in-${index}`,
      status: "PAID",
      brlPixInputInfo: { additionalData: `ref-${index}`, brCode: "0".repeat(1_900) },
    }));
    server.handle((_, response) => json(response, 200, { tickets: history }));
    expect(JSON.stringify({ tickets: history }).length).toBeGreaterThan(DEFAULT_MAX_ANSWER_BYTES);
    expect((await avenia.findPayInTicket("sub-1", "ref-999"))?.id).toBe("in-999");
  });
});

describe("Avenia callback verification", () => {
  const webhookKey = rsaKeyPair();
  const rotatedKey = rsaKeyPair();
  const body = Buffer.from('{"subscription":"TICKET","subAccountId":"sub-1","data":{"ticket":{"id":"t1"}}}');

  function pssSign(payload: Buffer, privateKey: KeyObject): string {
    return sign("sha256", payload, {
      key: privateKey,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: constants.RSA_PSS_SALTLEN_MAX_SIGN,
    }).toString("base64");
  }

  function servePublicKey(publicKey: KeyObject) {
    // PKCS#1, as the live partner serves it.
    const pem = publicKey.export({ format: "pem", type: "pkcs1" }).toString();
    server.handle((_, response) => json(response, 200, { publicKey: pem }));
  }

  function keysAt(clock: { now: number }) {
    return new AveniaCallbackKey(
      () => avenia.publicKey(),
      () => clock.now,
    );
  }

  const keyFetches = () => server.requests.filter((request) => request.url === "/v2/public-key").length;

  it("accepts a genuine callback and refuses a forged signature, a tampered body or no signature", async () => {
    servePublicKey(webhookKey.publicKey);
    const keys = keysAt({ now: 0 });
    const signature = pssSign(body, webhookKey.privateKey);
    expect(await verifyAveniaCallback(body, signature, keys)).toBe(true);
    expect(await verifyAveniaCallback(body, pssSign(body, rotatedKey.privateKey), keys)).toBe(false);
    expect(await verifyAveniaCallback(Buffer.from(body.toString().replace("t1", "t2")), signature, keys)).toBe(false);
    expect(await verifyAveniaCallback(body, undefined, keys)).toBe(false);
    expect(await verifyAveniaCallback(body, "bm90IGEgc2lnbmF0dXJl", keys)).toBe(false);
    expect(keyFetches()).toBe(1);
  });

  it("fetches a rotated key once, and at most once per 30 s however many signatures fail", async () => {
    servePublicKey(webhookKey.publicKey);
    const clock = { now: 0 };
    const keys = keysAt(clock);
    expect(await verifyAveniaCallback(body, pssSign(body, webhookKey.privateKey), keys)).toBe(true);

    servePublicKey(rotatedKey.publicKey);
    clock.now = 31_000;
    const signedWithRotated = pssSign(body, rotatedKey.privateKey);
    const verdicts = await Promise.all([
      verifyAveniaCallback(body, signedWithRotated, keys),
      verifyAveniaCallback(body, signedWithRotated, keys),
    ]);
    expect(verdicts).toEqual([true, true]);
    expect(keyFetches()).toBe(2);

    const forged = pssSign(body, rsaKeyPair().privateKey);
    clock.now = 40_000;
    expect(await verifyAveniaCallback(body, forged, keys)).toBe(false);
    expect(await verifyAveniaCallback(body, forged, keys)).toBe(false);
    expect(keyFetches()).toBe(2);

    clock.now = 62_000;
    expect(await verifyAveniaCallback(body, forged, keys)).toBe(false);
    expect(keyFetches()).toBe(3);
  });

  it("keeps the key an hour, then fetches it again", async () => {
    servePublicKey(webhookKey.publicKey);
    const clock = { now: 0 };
    const keys = keysAt(clock);
    const signature = pssSign(body, webhookKey.privateKey);
    await verifyAveniaCallback(body, signature, keys);
    clock.now = 59 * 60_000;
    await verifyAveniaCallback(body, signature, keys);
    expect(keyFetches()).toBe(1);
    clock.now = 61 * 60_000;
    await verifyAveniaCallback(body, signature, keys);
    expect(keyFetches()).toBe(2);
  });
});
