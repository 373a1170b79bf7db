import { createHmac, randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AlfredpayClient } from "../../../src/providers/alfredpay/client.js";
import { verifyAlfredpayCallback } from "../../../src/providers/alfredpay/signing.js";
import { capturedLogger, failure, json, startPartnerServer } from "./partner-server.js";

type PartnerServer = Awaited<ReturnType<typeof startPartnerServer>>;

const PREFIX = "/api/v1/third-party-service/penny";
let server: PartnerServer;
let alfredpay: AlfredpayClient;
const log = capturedLogger();

beforeAll(async () => {
  server = await startPartnerServer();
  alfredpay = new AlfredpayClient({
    baseUrl: server.url,
    apiKey: "alfred-key-1",
    apiSecret: "alfred-secret-1",
    logger: log.logger,
    retryBaseDelayMs: 5,
  });
});
afterEach(() => {
  server.reset();
  log.lines.length = 0;
});
afterAll(async () => {
  await alfredpay.close();
  await server.close();
});

const quote = {
  quoteId: "q-1",
  fromCurrency: "MXN",
  toCurrency: "USDT",
  fromAmount: "1000",
  toAmount: "55.1",
  expiration: "2026-12-07T01:00:00Z",
  fees: [{ type: "processingFee", amount: "3", currency: "MXN" }],
  rate: "18.1",
  metadata: { businessId: "gateway" },
};
const quoteRequest = {
  fromCurrency: "MXN",
  toCurrency: "USDT",
  fromAmount: "1000",
  chain: "MATIC",
  paymentMethodType: "BANK",
  metadata: { businessId: "gateway", customerId: "c-1" },
} as const;

describe("Alfredpay calls", () => {
  it("send the API key and secret under the API prefix, and parse the answer", async () => {
    server.handle((_, response) => json(response, 200, quote));
    expect((await alfredpay.createQuote(quoteRequest)).quoteId).toBe("q-1");
    const [sent] = server.requests;
    expect(sent.method).toBe("POST");
    expect(sent.url).toBe(`${PREFIX}/quotes`);
    expect(sent.headers["api-key"]).toBe("alfred-key-1");
    expect(sent.headers["api-secret"]).toBe("alfred-secret-1");
    expect(JSON.parse(sent.body)).toEqual(quoteRequest);
  });

  it("keep the rail's payment instructions whole", async () => {
    const transaction = {
      transactionId: "tx-1",
      quoteId: "q-1",
      status: "CREATED",
      fromAmount: "1000",
      toAmount: "55.1",
      depositAddress: "0xabc",
      txHash: null,
    };
    server.handle((_, response) =>
      json(response, 200, {
        transaction,
        fiatPaymentInstructions: { paymentType: "SPEI", clabe: "0123", reference: "R1" },
      }),
    );
    const created = await alfredpay.createOnramp({
      customerId: "c-1",
      quoteId: "q-1",
      fromCurrency: "MXN",
      toCurrency: "USDT",
      amount: "1000",
      chain: "MATIC",
      paymentMethodType: "BANK",
      depositAddress: "0xabc",
    });
    expect(created.fiatPaymentInstructions).toEqual({ paymentType: "SPEI", clabe: "0123", reference: "R1" });
  });

  it("encode path values and keep them out of the log", async () => {
    server.handle((_, response) => json(response, 200, { customerId: "c-1", country: "MX", type: "INDIVIDUAL" }));
    await alfredpay.findCustomer("joe+x@example.com", "MX");
    expect(server.requests[0].url).toBe(`${PREFIX}/customers/find/joe%2Bx%40example.com/MX`);
    const logged = log.lines.join("");
    expect(logged).toContain(`GET ${PREFIX}/customers/find/{email}/{country}`);
    expect(logged).not.toContain("example.com");
    expect(logged).not.toContain("alfred-secret-1");
  });
});

describe("Alfredpay file uploads", () => {
  /** The multipart body as the partner parses it. */
  function formOf(request: { headers: Record<string, unknown>; body: string }) {
    return new Response(request.body, {
      headers: { "content-type": String(request.headers["content-type"]) },
    }).formData();
  }
  const photo = { fileName: "Fotografía «1».jpg", contentType: "image/jpeg", bytes: new Uint8Array([1, 2, 3]) };

  it("send a KYC file as multipart fileBody + fileType with an ASCII file name, once, and log no file name", async () => {
    server.handle((_, response) => json(response, 200, {}));
    await alfredpay.uploadKycFile("c-1", "s-1", { ...photo, fileType: "National ID Front" });
    const [sent] = server.requests;
    expect(sent.method).toBe("POST");
    expect(sent.url).toBe(`${PREFIX}/customers/c-1/kyc/s-1/files`);
    expect(sent.headers["api-key"]).toBe("alfred-key-1");
    const form = await formOf(sent);
    expect(form.get("fileType")).toBe("National ID Front");
    const file = form.get("fileBody") as File;
    expect(file.name).toBe("Fotografia _1_.jpg");
    expect(file.type).toBe("image/jpeg");
    expect(file.size).toBe(3);
    expect(log.lines.join("")).not.toContain("Fotograf");

    server.reset();
    server.handle((_, response) => json(response, 503, { errorCode: 503, errorMessage: "busy" }));
    const error = await failure(alfredpay.uploadKycFile("c-1", "s-1", { ...photo, fileType: "Selfie" }));
    expect(error.kind).toBe("unknown");
    expect(server.requests).toHaveLength(1);
  });

  it("send KYB files and a related person's document as multipart rawBody + fileType", async () => {
    server.handle((_, response) => response.writeHead(200).end());
    await alfredpay.uploadKybFile("c-1", "s-1", { ...photo, fileType: "articlesIncorporation" });
    await alfredpay.uploadRelatedPersonFile("c-1", "p/1", { ...photo, fileType: "docBack" });
    const [kyb, person] = server.requests;
    expect([kyb.url, person.url]).toEqual([
      `${PREFIX}/customers/c-1/kyb/s-1/files`,
      `${PREFIX}/customers/c-1/kyb/p%2F1/files/relate-person`,
    ]);
    const forms = await Promise.all([formOf(kyb), formOf(person)]);
    expect(forms.map((form) => [form.get("fileType"), (form.get("rawBody") as File).size])).toEqual([
      ["articlesIncorporation", 3],
      ["docBack", 3],
    ]);
  });
});

describe("Alfredpay errors", () => {
  it("make a trade-limit 409 a rejection naming the limit, without the partner's words", async () => {
    server.handle((_, response) =>
      json(response, 409, {
        errorCode: 111426,
        errorMessage: "Amount exceeds limit for customer joe@example.com",
        errorMetadata: { fromCurrency: "MXN", maxQuantity: 86996891.21 },
      }),
    );
    const error = await failure(alfredpay.createQuote(quoteRequest));
    expect(error).toMatchObject({
      kind: "rejected",
      code: "PROVIDER_REJECTED",
      partnerStatus: 409,
      partnerCode: "111426",
    });
    expect(error.message).toBe("The amount is above the partner's maximum of 86996891.21 MXN.");

    server.handle((_, response) =>
      json(response, 409, {
        errorCode: 111426,
        errorMessage: "x",
        errorMetadata: { fromCurrency: "MXN", minQuantity: 20 },
      }),
    );
    expect((await failure(alfredpay.createQuote(quoteRequest))).message).toBe(
      "The amount is below the partner's minimum of 20 MXN.",
    );
    expect(log.lines.join("")).not.toContain("joe@example.com");
  });

  it("answer a used quote's order, read back by the id its 409 names, as the creation's answer", async () => {
    const transaction = {
      transactionId: "tx-first",
      quoteId: "q-1",
      status: "CREATED",
      fromAmount: "1000",
      toAmount: "55.1",
      depositAddress: "0xabc",
      txHash: null,
    };
    const fiatPaymentInstructions = { paymentType: "SPEI", clabe: "0123", reference: "R1" };
    server.handle((request, response) =>
      request.method === "POST"
        ? json(response, 409, {
            errorCode: 111409,
            errorMessage: "Quote already used",
            errorMetadata: { transactionId: "tx-first" },
          })
        : json(response, 200, { ...transaction, fiatPaymentInstructions }),
    );
    const created = await alfredpay.createOnramp({
      customerId: "c-1",
      quoteId: "q-1",
      fromCurrency: "MXN",
      toCurrency: "USDT",
      amount: "1000",
      chain: "MATIC",
      paymentMethodType: "BANK",
      depositAddress: "0xabc",
    });
    expect(created).toEqual({ transaction, fiatPaymentInstructions });
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      `POST ${PREFIX}/onramp`,
      `GET ${PREFIX}/onramp/tx-first`,
    ]);
  });

  it("make a used quote whose 409 names no order an unknown outcome, sent once", async () => {
    server.handle((_, response) => json(response, 409, { errorCode: 111409, errorMessage: "Quote already used" }));
    const error = await failure(
      alfredpay.createOfframp({
        customerId: "c-1",
        quoteId: "q-1",
        fromCurrency: "USDT",
        toCurrency: "MXN",
        amount: "55",
        chain: "MATIC",
        fiatAccountId: "fa-1",
        originAddress: "0xabc",
      }),
    );
    expect(error).toMatchObject({ kind: "unknown", partnerCode: "111409", code: "PROVIDER_UNAVAILABLE" });
    expect(server.requests).toHaveLength(1);
  });

  it("make an invalid field a rejection with the partner's code", async () => {
    server.handle((_, response) => json(response, 400, { errorCode: 110002, errorMessage: "Invalid field(s): dni" }));
    const error = await failure(
      alfredpay.submitKycForm("c-1", {
        firstName: "Ana",
        lastName: "Lopez",
        dateOfBirth: "1990-01-31",
        country: "MX",
        city: "CDMX",
        state: "CDMX",
        zipCode: "01000",
        address: "Calle 1",
        dni: "bad",
      }),
    );
    expect(error).toMatchObject({ kind: "rejected", partnerStatus: 400, partnerCode: "110002" });
  });
});

describe("Alfredpay customer creation", () => {
  const customer = { country: "MX", email: "ana@example.com", type: "INDIVIDUAL" } as const;

  it("creates the customer", async () => {
    server.handle((_, response) => json(response, 200, { customerId: "c-new", createdAt: "now" }));
    expect(await alfredpay.createCustomer(customer)).toEqual({ customerId: "c-new" });
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ["a 409", 409, { errorCode: 409, errorMessage: "Conflict" }],
    ["an 'already registered' refusal", 400, { errorCode: 110001, errorMessage: "Customer already registered" }],
  ])("finds the existing customer on %s", async (_, status, body) => {
    server.handle((request, response) =>
      request.method === "POST"
        ? json(response, status, body)
        : json(response, 200, { customerId: "c-old", country: "MX", type: "INDIVIDUAL" }),
    );
    expect((await alfredpay.createCustomer(customer)).customerId).toBe("c-old");
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      `POST ${PREFIX}/customers/create`,
      `GET ${PREFIX}/customers/find/ana%40example.com/MX`,
    ]);
  });

  it("refuses the existing customer when it is of the other type: Alfredpay knows one per email and country", async () => {
    server.handle((request, response) =>
      request.method === "POST"
        ? json(response, 409, { errorCode: 409, errorMessage: "Conflict" })
        : json(response, 200, { customerId: "c-old", country: "MX", type: "INDIVIDUAL" }),
    );
    const refused = await failure(alfredpay.createCustomer({ ...customer, type: "BUSINESS" }));
    expect([refused.kind, refused.partnerCode, refused.code]).toEqual([
      "rejected",
      "customer-type-taken",
      "PROVIDER_REJECTED",
    ]);
  });

  it("passes on any other refusal", async () => {
    server.handle((_, response) => json(response, 400, { errorCode: 110002, errorMessage: "Invalid field(s)" }));
    expect((await failure(alfredpay.createCustomer(customer))).partnerCode).toBe("110002");
    expect(server.requests).toHaveLength(1);
  });
});

describe("Alfredpay callback verification", () => {
  const secretBytes = randomBytes(24);
  const secret = `whsec_${secretBytes.toString("base64")}`;
  const body = Buffer.from('{"type":"onramp","data":{"transactionId":"tx-1","status":"TRADE_COMPLETED"}}');
  const nowMs = Date.UTC(2026, 11, 7, 1, 0, 0);
  const timestamp = String(nowMs / 1000);

  function signature(key: Buffer, id: string, at: string, payload: Buffer): string {
    const digest = createHmac("sha256", key)
      .update(`${id}.${at}.${payload.toString("utf8")}`)
      .digest("base64");
    return `v1,${digest}`;
  }

  function headers(overrides: Record<string, string> = {}) {
    return {
      "webhook-id": "msg_1",
      "webhook-timestamp": timestamp,
      "webhook-signature": signature(secretBytes, "msg_1", timestamp, body),
      ...overrides,
    };
  }

  it("accepts a genuine callback", () => {
    expect(verifyAlfredpayCallback(body, headers(), secret, nowMs)).toBe(true);
  });

  it("refuses a wrong secret, a tampered body, another id or missing headers", () => {
    expect(verifyAlfredpayCallback(body, headers(), `whsec_${randomBytes(24).toString("base64")}`, nowMs)).toBe(false);
    expect(
      verifyAlfredpayCallback(Buffer.from(body.toString().replace("tx-1", "tx-2")), headers(), secret, nowMs),
    ).toBe(false);
    expect(verifyAlfredpayCallback(body, headers({ "webhook-id": "msg_2" }), secret, nowMs)).toBe(false);
    expect(
      verifyAlfredpayCallback(body, { "webhook-id": "msg_1", "webhook-timestamp": timestamp }, secret, nowMs),
    ).toBe(false);
  });

  it("accepts a timestamp up to five minutes away either way, and refuses one further", () => {
    for (const offsetSeconds of [-300, 300]) {
      const at = String(nowMs / 1000 + offsetSeconds);
      const signed = headers({
        "webhook-timestamp": at,
        "webhook-signature": signature(secretBytes, "msg_1", at, body),
      });
      expect(verifyAlfredpayCallback(body, signed, secret, nowMs)).toBe(true);
    }
    for (const offsetSeconds of [-301, 301]) {
      const at = String(nowMs / 1000 + offsetSeconds);
      const signed = headers({
        "webhook-timestamp": at,
        "webhook-signature": signature(secretBytes, "msg_1", at, body),
      });
      expect(verifyAlfredpayCallback(body, signed, secret, nowMs)).toBe(false);
    }
  });

  it("accepts any one matching signature among several", () => {
    const stale = signature(randomBytes(24), "msg_1", timestamp, body);
    const current = signature(secretBytes, "msg_1", timestamp, body);
    expect(verifyAlfredpayCallback(body, headers({ "webhook-signature": `${stale} ${current}` }), secret, nowMs)).toBe(
      true,
    );
    expect(
      verifyAlfredpayCallback(body, headers({ "webhook-signature": `${stale} v2,${current.slice(3)}` }), secret, nowMs),
    ).toBe(false);
  });
});
