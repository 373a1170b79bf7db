import { constants, createHash, generateKeyPairSync, randomUUID, sign } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPartnerSimulator, type PartnerSimulator } from "../../packages/partner-simulator/src/index.js";
import { AlfredpayClient } from "../../src/providers/alfredpay/client.js";
import { AveniaClient } from "../../src/providers/avenia/client.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { testEngine } from "../support/database.js";
import { expectError, insideOneRateLimitWindow, ok, sleep, waitFor } from "../support/kit.js";
import { newCallbackSecret, standardWebhookHeaders, startAveniaKeyServer } from "../support/partner-callbacks.js";
import { alfredpayCustomerWithKyc, brazilianKycLevel1, pixPayInTicket } from "../support/partner-fixtures.js";
import { rememberSecret } from "../support/secrets.js";

/*
 * Partner callbacks (issue 41): POST /v1/webhooks/avenia and /v1/webhooks/alfredpay verify the partner's signature
 * over the raw body, refuse replays, oversized and malformed bodies, and store each event once, before answering.
 */

const MAX_CALLBACK_BYTES = 100 * 1024;
const AVENIA_API_KEY = "callbacks-test-avenia-key";
const ALFREDPAY_CREDENTIALS = { apiKey: "callbacks-test-alfred-key", apiSecret: "callbacks-test-alfred-secret" };
const WALLET = "0x1111111111111111111111111111111111111111";
/** Personal data a partner's body may carry: stored in the body, and never in a log (the log audit checks). */
const PAYER = { name: rememberSecret("Joana Callback Pagadora"), taxId: rememberSecret("39053344705") };
const silent = pino({ level: "silent" });

type StoredCallback = Awaited<ReturnType<TestApp["app"]["db"]["partnerCallback"]["findMany"]>>[number];

const storedAbout = (t: TestApp, subjectId: string): Promise<StoredCallback[]> =>
  t.app.db.partnerCallback.findMany({ where: { subjectId }, orderBy: { receivedAt: "asc" } });

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe(`callbacks the partner simulator sends (${testEngine()})`, () => {
  const secret = newCallbackSecret();
  const clientKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  let aveniaPartner: PartnerSimulator;
  let alfredpayPartner: PartnerSimulator;
  let t: TestApp;
  let avenia: AveniaClient;
  let alfredpay: AlfredpayClient;

  const simulatorOptions = (alfredpayCallbackUrl?: string) => ({
    avenia: {
      apiKey: AVENIA_API_KEY,
      clientPublicKeyPem: clientKeys.publicKey.export({ type: "spki", format: "pem" }).toString(),
    },
    alfredpay: {
      ...ALFREDPAY_CREDENTIALS,
      ...(alfredpayCallbackUrl && { callbackUrl: alfredpayCallbackUrl, callbackSecret: secret }),
    },
    // The payer of a pay-in pays when the test says.
    timing: { paymentDelayMs: 600_000, stageDelayMs: 20, kycDecisionMs: 20, callbackRetryBaseMs: 20 },
  });

  beforeAll(async () => {
    // Each partner is a simulator of its own, as each is a host of its own: Avenia's serves the key the gateway
    // fetches (so it starts first), Alfredpay's needs the gateway's address for its callbacks (so it starts last).
    aveniaPartner = await startPartnerSimulator(simulatorOptions());
    t = await startTestApp({ AVENIA_BASE_URL: aveniaPartner.url, ALFREDPAY_CALLBACK_SECRET: secret });
    const gateway = await t.server.listen({ port: 0, host: "127.0.0.1" });
    alfredpayPartner = await startPartnerSimulator(simulatorOptions(`${gateway}/v1/webhooks/alfredpay`));
    avenia = new AveniaClient({
      baseUrl: aveniaPartner.url,
      apiKey: AVENIA_API_KEY,
      privateKeyPem: clientKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      logger: silent,
    });
    alfredpay = new AlfredpayClient({ baseUrl: alfredpayPartner.url, ...ALFREDPAY_CREDENTIALS, logger: silent });
    await avenia.createWebhook({ webhookUrl: `${gateway}/v1/webhooks/avenia`, subscriptions: ["TICKET", "KYC"] });
  });
  afterAll(async () => {
    await Promise.all([avenia?.close(), alfredpay?.close(), aveniaPartner?.stop(), alfredpayPartner?.stop()]);
    await t?.close();
  });

  /** A PIX pay-in ticket of a new subaccount, paid by its payer: Avenia then calls back PROCESSING and PAID. */
  async function paidPayIn() {
    const subAccountId = (await avenia.createSubAccount({ accountType: "INDIVIDUAL", name: "Ana Callback" })).id;
    const ticketId = await pixPayInTicket(avenia, subAccountId, `ramp-${randomUUID()}`, WALLET);
    expect(aveniaPartner.payAveniaTicket(ticketId)).toBe(true);
    return { subAccountId, ticketId };
  }

  /** A Mexican customer's KYC submission, finished: Alfredpay then calls back IN_REVIEW and COMPLETED. */
  const finishedKyc = () => alfredpayCustomerWithKyc(alfredpay, "Callback");

  const deliveries = (partner: PartnerSimulator, name: "avenia" | "alfredpay") => partner.stats()[name].callbacks;

  /** A partner's delivery counts once no delivery of an earlier test is still in flight: unchanged over 200 ms. */
  async function settled(partner: PartnerSimulator, name: "avenia" | "alfredpay") {
    for (let last = JSON.stringify(deliveries(partner, name)); ;) {
      await sleep(200);
      const now = JSON.stringify(deliveries(partner, name));
      if (now === last) return deliveries(partner, name);
      last = now;
    }
  }

  it("stores each callback of a PIX pay-in once, verified with the key Avenia's API serves, and answers 200", async () => {
    const { subAccountId, ticketId } = await paidPayIn();
    const rows = await waitFor(
      () => storedAbout(t, ticketId),
      (stored) => stored.length === 2,
      "the pay-in's two callbacks",
    );
    expect(rows.map((row) => row.partnerStatus).sort()).toEqual(["PAID", "PROCESSING"]);
    for (const row of rows) {
      expect(row).toMatchObject({
        partner: "Avenia",
        subjectKind: "ticket",
        partnerCustomerId: subAccountId,
        appliedAt: null,
        receivedAt: expect.any(Date),
      });
      // Avenia signs no event id: the body's digest stands for one, and the body is kept as it came.
      expect(row.dedupeKey).toBe(sha256(row.rawBody));
      expect(JSON.parse(row.rawBody)).toMatchObject({
        subscription: "TICKET",
        subAccountId,
        data: { ticket: { id: ticketId, status: row.partnerStatus } },
      });
    }
    const answered = await waitFor(
      async () => deliveries(aveniaPartner, "avenia"),
      (callbacks) => callbacks.sent >= 2,
      "both deliveries answered",
    );
    expect(answered.failed).toBe(0);
  });

  it("stores a KYC attempt's callbacks too, as kycAttempt", async () => {
    const subAccountId = (await avenia.createSubAccount({ accountType: "INDIVIDUAL", name: "Ana Callback" })).id;
    const selfie = await avenia.createDocument(subAccountId, { documentType: "SELFIE-FROM-LIVENESS" });
    const document = await avenia.createDocument(subAccountId, { documentType: "ID", isDoubleSided: false });
    const { id: attemptId } = await avenia.submitKycLevel1(
      subAccountId,
      brazilianKycLevel1(subAccountId, "Ana Callback", { selfieId: selfie.id, documentId: document.id }),
    );
    const rows = await waitFor(
      () => storedAbout(t, attemptId),
      (stored) => stored.some((row) => row.partnerStatus === "COMPLETED"),
      "the attempt's decision",
    );
    expect(rows[0]).toMatchObject({ partner: "Avenia", subjectKind: "kycAttempt", partnerCustomerId: subAccountId });
    expect(JSON.parse(rows.at(-1)!.rawBody).data.attempt).toMatchObject({ id: attemptId, result: "APPROVED" });
  });

  it("stores each Alfredpay KYC callback once under its webhook-id", async () => {
    const { customerId, submissionId } = await finishedKyc();
    const rows = await waitFor(
      () => storedAbout(t, submissionId),
      (stored) => stored.length === 2,
      "the submission's two callbacks",
    );
    expect(rows.map((row) => row.partnerStatus).sort()).toEqual(["COMPLETED", "IN_REVIEW"]);
    for (const row of rows) {
      expect(row).toMatchObject({ partner: "Alfredpay", subjectKind: "kyc", partnerCustomerId: customerId });
      expect(row.dedupeKey).toMatch(/^msg_/);
      expect(JSON.parse(row.rawBody)).toMatchObject({ type: "kyc", data: { submissionId, status: row.partnerStatus } });
    }
    expect(new Set(rows.map((row) => row.dedupeKey)).size).toBe(2);
  });

  it("stores an event the partner sends three times (the simulator's duplicated fault) once, for either partner", async () => {
    const aveniaBefore = (await settled(aveniaPartner, "avenia")).sent;
    const alfredpayBefore = (await settled(alfredpayPartner, "alfredpay")).sent;
    aveniaPartner.setFaults({ partner: "avenia", callbacks: { duplicate: 2 } });
    alfredpayPartner.setFaults({ partner: "alfredpay", callbacks: { duplicate: 2 } });
    try {
      const { ticketId } = await paidPayIn();
      const { submissionId } = await finishedKyc();
      // The first event of each went three times, the second once: four deliveries each, every one answered 2xx.
      await waitFor(
        async () => [deliveries(aveniaPartner, "avenia").sent, deliveries(alfredpayPartner, "alfredpay").sent],
        ([aveniaSent, alfredpaySent]) => aveniaSent! >= aveniaBefore + 4 && alfredpaySent! >= alfredpayBefore + 4,
        "every copy answered",
      );
      expect(await settled(aveniaPartner, "avenia")).toMatchObject({
        sent: aveniaBefore + 4,
        duplicated: 2,
        failed: 0,
      });
      expect(await settled(alfredpayPartner, "alfredpay")).toMatchObject({
        sent: alfredpayBefore + 4,
        duplicated: 2,
        failed: 0,
      });
      expect((await storedAbout(t, ticketId)).map((row) => row.partnerStatus).sort()).toEqual(["PAID", "PROCESSING"]);
      expect((await storedAbout(t, submissionId)).map((row) => row.partnerStatus).sort()).toEqual([
        "COMPLETED",
        "IN_REVIEW",
      ]);
    } finally {
      aveniaPartner.clearFaults();
      alfredpayPartner.clearFaults();
    }
  });
});

describe(`callbacks sent directly (${testEngine()})`, () => {
  const secret = newCallbackSecret();
  let keyServer: Awaited<ReturnType<typeof startAveniaKeyServer>>;
  let t: TestApp;

  beforeAll(async () => {
    // An Avenia stand-in serving a key this test signs with: the simulator keeps its own private key to itself.
    keyServer = await startAveniaKeyServer();
    t = await startTestApp({ AVENIA_BASE_URL: keyServer.url, ALFREDPAY_CALLBACK_SECRET: secret });
  });
  afterAll(async () => {
    await t?.close();
    await keyServer?.close();
  });

  /** An Avenia TICKET callback's body; the ticket carries its payer, as a paid pay-in's does. */
  const aveniaBody = (ticket: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      subscription: "TICKET",
      subAccountId: randomUUID(),
      data: {
        ticket: {
          id: randomUUID(),
          status: "PAID",
          updatedAt: new Date().toISOString(),
          brazilianFiatSenderInfo: PAYER,
          ...ticket,
        },
      },
      ...extra,
    });

  const alfredpayBody = (data: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      type: "onramp",
      data: { transactionId: randomUUID(), customerId: randomUUID(), status: "FIAT_DEPOSIT_RECEIVED", ...data },
      ...extra,
    });

  /** Signed by the key Avenia's stand-in serves, unless another signature (or none: null) is given. */
  const sendAvenia = (rawBody: string | Buffer, signature: string | null = keyServer.sign(rawBody)) =>
    t.request("POST", "/v1/webhooks/avenia", { rawBody, headers: signature === null ? {} : { signature } });

  const sendAlfredpay = (
    rawBody: string,
    { id = `msg_${randomUUID()}`, at = Date.now(), key = secret }: { id?: string; at?: number; key?: string } = {},
  ) => t.request("POST", "/v1/webhooks/alfredpay", { rawBody, headers: standardWebhookHeaders(key, id, rawBody, at) });

  const subjectOf = (rawBody: string): string => {
    const { data } = JSON.parse(rawBody);
    return data.ticket?.id ?? data.transactionId;
  };
  const rowsAbout = async (rawBody: string) => (await storedAbout(t, subjectOf(rawBody))).length;

  it("stores a new callback with one insert and no partner call once Avenia's key is held, and answers 200", async () => {
    expect(ok(await sendAvenia(aveniaBody()))).toEqual({ received: true });
    const fetches = keyServer.keyFetches();
    expect(fetches).toBe(1);

    const oneStatement = async (rawBody: string, send: (rawBody: string) => ReturnType<typeof sendAvenia>) => {
      const before = t.app.statements.count;
      expect(ok(await send(rawBody))).toEqual({ received: true });
      expect(t.app.statements.count - before).toBe(1);
      const [row] = await storedAbout(t, subjectOf(rawBody));
      expect(row!.rawBody).toBe(rawBody);
    };
    await oneStatement(aveniaBody(), (rawBody) => sendAvenia(rawBody));
    await oneStatement(alfredpayBody(), (rawBody) => sendAlfredpay(rawBody));
    expect(keyServer.keyFetches()).toBe(fetches);
  });

  it("stores an event sent three times at once once: every copy is answered 200 and changes nothing", async () => {
    const avenia = aveniaBody();
    for (const answer of await Promise.all([1, 2, 3].map(() => sendAvenia(avenia)))) ok(answer);
    expect(await rowsAbout(avenia)).toBe(1);

    const alfredpay = alfredpayBody();
    const id = `msg_${randomUUID()}`;
    for (const answer of await Promise.all(
      [0, 1, 2].map((second) => sendAlfredpay(alfredpay, { id, at: Date.now() + second * 1000 })),
    ))
      ok(answer);
    expect(await rowsAbout(alfredpay)).toBe(1);
    const [row] = await storedAbout(t, subjectOf(alfredpay));
    expect(row!.dedupeKey).toBe(id);
    // A copy is one more insert refused by the unique key: no read before it.
    const before = t.app.statements.count;
    ok(await sendAlfredpay(alfredpay, { id }));
    expect(t.app.statements.count - before).toBe(1);
    expect(await rowsAbout(alfredpay)).toBe(1);
  });

  it("refuses a missing, malformed or wrong signature, or an altered body, with 401 AUTHENTICATION_REQUIRED, storing nothing", async () => {
    const avenia = aveniaBody();
    const otherKey = await startAveniaKeyServer();
    const forgedAvenia: [string, string | null][] = [
      [avenia, null],
      [avenia, ""],
      [avenia, "not base64 at all"],
      [avenia, otherKey.sign(avenia)],
      [avenia.replace('"PAID"', '"FAILED"'), keyServer.sign(avenia)],
    ];
    await otherKey.close();
    for (const [rawBody, signature] of forgedAvenia) {
      const refused = await sendAvenia(rawBody, signature);
      expectError(refused, 401, "AUTHENTICATION_REQUIRED");
      expect(refused.body.error.message).not.toMatch(/replay/);
    }
    expect(await rowsAbout(avenia)).toBe(0);

    const alfredpay = alfredpayBody();
    const headers = standardWebhookHeaders(secret, `msg_${randomUUID()}`, alfredpay, Date.now());
    const forgedAlfredpay: Record<string, string>[] = [
      {},
      { ...headers, "webhook-signature": "" },
      { ...headers, "webhook-signature": headers["webhook-signature"]!.replace("v1,", "v2,") },
      { ...headers, "webhook-id": `msg_${randomUUID()}` },
      standardWebhookHeaders(newCallbackSecret(), `msg_${randomUUID()}`, alfredpay, Date.now()),
    ];
    for (const forged of forgedAlfredpay) {
      const refused = await t.request("POST", "/v1/webhooks/alfredpay", { rawBody: alfredpay, headers: forged });
      expectError(refused, 401, "AUTHENTICATION_REQUIRED");
      expect(refused.body.error.message).not.toMatch(/replay/);
    }
    const altered = await t.request("POST", "/v1/webhooks/alfredpay", {
      rawBody: alfredpay.replace("FIAT_DEPOSIT_RECEIVED", "FAILED"),
      headers,
    });
    expectError(altered, 401, "AUTHENTICATION_REQUIRED");
    expect(await rowsAbout(alfredpay)).toBe(0);
  });

  it("refuses a genuine Alfredpay callback timestamped more than 5 minutes away as a replay (401), a forged one as forged", async () => {
    const minutes = (count: number) => Date.now() + count * 60_000;
    for (const at of [minutes(-6), minutes(6)]) {
      const replayed = await sendAlfredpay(alfredpayBody(), { at });
      expectError(replayed, 401, "AUTHENTICATION_REQUIRED");
      expect(replayed.body.error.message).toMatch(/webhook-timestamp .* refused as a replay/);
    }
    const forgedAndOld = await sendAlfredpay(alfredpayBody(), { at: minutes(-6), key: newCallbackSecret() });
    expectError(forgedAndOld, 401, "AUTHENTICATION_REQUIRED");
    expect(forgedAndOld.body.error.message).not.toMatch(/replay/);

    const rawBody = alfredpayBody();
    ok(await sendAlfredpay(rawBody, { at: minutes(-4) }));
    expect(await rowsAbout(rawBody)).toBe(1);
  });

  it("refuses an Avenia callback about an object updated more than an hour before it arrived as a replay (401)", async () => {
    const updatedAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const stale = aveniaBody({ updatedAt: updatedAgo(61) });
    const replayed = await sendAvenia(stale);
    expectError(replayed, 401, "AUTHENTICATION_REQUIRED");
    expect(replayed.body.error.message).toMatch(/more than an hour before it arrived: refused as a replay/);
    expect(await rowsAbout(stale)).toBe(0);

    const recent = aveniaBody({ updatedAt: updatedAgo(59) });
    ok(await sendAvenia(recent));
    expect(await rowsAbout(recent)).toBe(1);
  });

  it(`takes a body of ${MAX_CALLBACK_BYTES} bytes and refuses one more with 413 PAYLOAD_TOO_LARGE, signed or not`, async () => {
    /** The body grown to `size` bytes by a padding field the envelope lets through. */
    const padded = (body: (extra: Record<string, unknown>) => string, size: number) => {
      const grown = body({ padding: "x".repeat(size - Buffer.byteLength(body({ padding: "" }))) });
      expect(Buffer.byteLength(grown)).toBe(size);
      return grown;
    };
    const aveniaAtLimit = padded((extra) => aveniaBody({}, extra), MAX_CALLBACK_BYTES);
    ok(await sendAvenia(aveniaAtLimit));
    const aveniaOver = padded((extra) => aveniaBody({}, extra), MAX_CALLBACK_BYTES + 1);
    expectError(await sendAvenia(aveniaOver), 413, "PAYLOAD_TOO_LARGE");
    expectError(await sendAvenia(aveniaOver, null), 413, "PAYLOAD_TOO_LARGE");
    expect(await rowsAbout(aveniaOver)).toBe(0);

    const alfredpayAtLimit = padded((extra) => alfredpayBody({}, extra), MAX_CALLBACK_BYTES);
    ok(await sendAlfredpay(alfredpayAtLimit));
    const alfredpayOver = padded((extra) => alfredpayBody({}, extra), MAX_CALLBACK_BYTES + 1);
    expectError(await sendAlfredpay(alfredpayOver), 413, "PAYLOAD_TOO_LARGE");
    expect(await rowsAbout(alfredpayOver)).toBe(0);
  });

  it("refuses a signed body that is not JSON in UTF-8 (400 INVALID_JSON) or not a callback (400 VALIDATION_FAILED, per field)", async () => {
    const before = await t.app.db.partnerCallback.count();
    expectError(await sendAlfredpay("{not json"), 400, "INVALID_JSON");
    expectError(await sendAvenia(""), 400, "INVALID_JSON");
    // A byte that is no UTF-8 inside a string: the stored text could not be the body's bytes.
    const notUtf8 = Buffer.concat([
      Buffer.from('{"subscription":"TICKET","x":"'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    expectError(await sendAvenia(notUtf8), 400, "INVALID_JSON");

    const refusals: [ReturnType<typeof sendAvenia>, string, string][] = [
      [sendAlfredpay("[]"), "(body)", "must be a JSON object"],
      [sendAlfredpay(JSON.stringify({ type: "refund", data: {} })), "type", "must be onramp, offramp, kyc or kyb"],
      [
        sendAlfredpay(JSON.stringify({ type: "kyc", data: { submissionId: "s", status: "PENDING" } })),
        "data.customerId",
        "is required",
      ],
      [sendAlfredpay(alfredpayBody({ status: "x".repeat(101) })), "data.status", "must be at most 100 characters"],
      [sendAlfredpay(alfredpayBody({ status: "PAID\u0000" })), "data.status", "must not contain NUL characters"],
      [
        sendAlfredpay(alfredpayBody(), { id: `msg_${"x".repeat(256)}` }),
        "webhook-id",
        "must be at most 256 characters",
      ],
      [sendAvenia(aveniaBody({}, { subscription: "LIMIT-UPDATE" })), "subscription", "must be TICKET or KYC"],
      [
        sendAvenia(aveniaBody({ updatedAt: undefined })),
        "data.ticket.updatedAt",
        "Invalid input: expected string, received undefined",
      ],
      [sendAvenia(aveniaBody({ updatedAt: "yesterday" })), "data.ticket.updatedAt", "Invalid ISO datetime"],
      [
        sendAvenia(JSON.stringify({ subscription: "KYC", subAccountId: "s", data: { ticket: {} } })),
        "data.attempt",
        "Invalid input: expected object, received undefined",
      ],
    ];
    for (const [sent, field, message] of refusals) {
      const refused = await sent;
      expectError(refused, 400, "VALIDATION_FAILED", field);
      expect(refused.body.error.details).toContainEqual({ field, message });
    }
    expect(await t.app.db.partnerCallback.count()).toBe(before);
  });

  it("refuses a signed body nested deeper than 64 levels with 400 VALIDATION_FAILED, naming the field", async () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    for (const sent of [
      sendAvenia(aveniaBody().replace(/}$/, `,"deep":${deep}}`)),
      sendAlfredpay(alfredpayBody().replace(/}$/, `,"deep":${deep}}`)),
    ]) {
      const refused = await sent;
      expectError(refused, 400, "VALIDATION_FAILED");
      expect(refused.body.error.details).toEqual([{ field: "deep", message: "nests deeper than 64 levels" }]);
    }
  });

  it("reads Avenia's event shape {event: {accountId, subscription, data}} as the same callback", async () => {
    const attemptId = randomUUID();
    const accountId = randomUUID();
    const attempt = { id: attemptId, status: "COMPLETED", result: "APPROVED", updatedAt: new Date().toISOString() };
    const rawBody = JSON.stringify({ event: { accountId, subscription: "KYC", data: { attempt } } });
    ok(await sendAvenia(rawBody));
    expect(await storedAbout(t, attemptId)).toEqual([
      expect.objectContaining({
        partner: "Avenia",
        subjectKind: "kycAttempt",
        partnerStatus: "COMPLETED",
        partnerCustomerId: accountId,
        rawBody,
        dedupeKey: sha256(rawBody),
      }),
    ]);
  });
});

describe(`a gateway with no partner configured (${testEngine()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({}, { partners: null });
  });
  afterAll(() => t?.close());

  it("answers either callback route 404 NOT_FOUND, before the body is read", async () => {
    for (const path of ["/v1/webhooks/avenia", "/v1/webhooks/alfredpay"]) {
      expectError(await t.request("POST", path, { rawBody: "{}" }), 404, "NOT_FOUND");
      // Past the body limit, still 404: the body was never read.
      expectError(await t.request("POST", path, { rawBody: "x".repeat(MAX_CALLBACK_BYTES * 2) }), 404, "NOT_FOUND");
    }
    expect(await t.app.db.partnerCallback.count()).toBe(0);
  });

  it("documents both routes as partner-facing, each with its partner's signature as its only security", async () => {
    const { paths } = ok(await t.request("GET", "/v1/openapi.json"));
    expect(paths["/v1/webhooks/avenia"].post).toMatchObject({
      operationId: "receiveAveniaCallback",
      tags: ["Partner callbacks"],
      security: [{ AveniaSignature: [] }],
    });
    expect(paths["/v1/webhooks/alfredpay"].post).toMatchObject({
      operationId: "receiveAlfredpayCallback",
      tags: ["Partner callbacks"],
      security: [{ AlfredpaySignature: [] }],
    });
  });
});

/** An Avenia TICKET callback's body about a new ticket, updated at `at`. */
const aveniaTicketBody = (at: Date) =>
  JSON.stringify({
    subscription: "TICKET",
    subAccountId: randomUUID(),
    data: { ticket: { id: randomUUID(), status: "PAID", updatedAt: at.toISOString() } },
  });

describe(`callbacks and the rate limits (${testEngine()})`, () => {
  const PER_IP_BUDGET = 5;
  const CALLBACK_BUDGET = 20;
  const secret = newCallbackSecret();
  let keyServer: Awaited<ReturnType<typeof startAveniaKeyServer>>;
  let t: TestApp;

  beforeAll(async () => {
    keyServer = await startAveniaKeyServer();
    t = await startTestApp({
      AVENIA_BASE_URL: keyServer.url,
      ALFREDPAY_CALLBACK_SECRET: secret,
      RATE_LIMIT_PER_IP_PER_MINUTE: String(PER_IP_BUDGET),
      RATE_LIMIT_PARTNER_CALLBACKS_PER_IP_PER_MINUTE: String(CALLBACK_BUDGET),
    });
  });
  afterAll(async () => {
    await t?.close();
    await keyServer?.close();
  });

  const ordinaryRequest = (remoteAddress: string) => t.request("GET", "/v1/openapi.json", { remoteAddress });
  const alfredpayCallback = (remoteAddress: string) => {
    const rawBody = JSON.stringify({
      type: "onramp",
      data: { transactionId: randomUUID(), customerId: randomUUID(), status: "FIAT_DEPOSIT_RECEIVED" },
    });
    const headers = standardWebhookHeaders(secret, `msg_${randomUUID()}`, rawBody, Date.now());
    return t.request("POST", "/v1/webhooks/alfredpay", { rawBody, headers, remoteAddress });
  };
  const aveniaCallback = (remoteAddress: string, sign: (rawBody: string) => string = keyServer.sign) => {
    const rawBody = aveniaTicketBody(new Date());
    return t.request("POST", "/v1/webhooks/avenia", { rawBody, headers: { signature: sign(rawBody) }, remoteAddress });
  };
  const statuses = (answers: { status: number }[]) =>
    answers.reduce<Record<number, number>>(
      (counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }),
      {},
    );

  it("lets a partner's burst within its budget through though the callers at its address spent theirs; one more is 429 with Retry-After", async () => {
    await insideOneRateLimitWindow();
    const address = "198.51.100.41";
    for (let request = 0; request < PER_IP_BUDGET; request++) ok(await ordinaryRequest(address));
    expectError(await ordinaryRequest(address), 429, "RATE_LIMITED");

    const burst = await Promise.all(Array.from({ length: CALLBACK_BUDGET }, () => alfredpayCallback(address)));
    expect(statuses(burst)).toEqual({ 200: CALLBACK_BUDGET });
    const past = await alfredpayCallback(address);
    expectError(past, 429, "RATE_LIMITED");
    expect(Number(past.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(past.headers["retry-after"])).toBeLessThanOrEqual(60);
    // Each partner counts apart: Avenia's callbacks from that address still have their budget.
    ok(await aveniaCallback(address));
  });

  it("cuts a flood of forged callbacks at the budget, and the flood spends nothing of the other callers' budget at its address", async () => {
    await insideOneRateLimitWindow();
    const address = "198.51.100.42";
    const forger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const forge = (rawBody: string) =>
      sign("sha256", Buffer.from(rawBody), { key: forger, padding: constants.RSA_PKCS1_PSS_PADDING }).toString(
        "base64",
      );
    const flood = await Promise.all(Array.from({ length: CALLBACK_BUDGET + 10 }, () => aveniaCallback(address, forge)));
    expect(statuses(flood)).toEqual({ 401: CALLBACK_BUDGET, 429: 10 });
    for (const refused of flood.filter(({ status }) => status === 429)) expectError(refused, 429, "RATE_LIMITED");
    for (let request = 0; request < PER_IP_BUDGET; request++) ok(await ordinaryRequest(address));
  });
});

describe(`Avenia's key under a flood of forged callbacks (${testEngine()})`, () => {
  const FORGED = 50;
  let keyServer: Awaited<ReturnType<typeof startAveniaKeyServer>>;
  let t: TestApp;
  /** How far the gateway's clock is ahead of the real one. */
  let aheadMs = 0;
  const gatewayNow = () => new Date(Date.now() + aheadMs);

  beforeAll(async () => {
    keyServer = await startAveniaKeyServer();
    t = await startTestApp({ AVENIA_BASE_URL: keyServer.url }, { seams: { clock: gatewayNow } });
  });
  afterAll(async () => {
    await t?.close();
    await keyServer?.close();
  });

  const forger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  const send = (rawBody: string, signature: string) =>
    t.request("POST", "/v1/webhooks/avenia", { rawBody, headers: { signature } });
  /** FORGED callbacks at once, each a body of its own signed by a key Avenia does not hold. */
  const forgedFlood = () =>
    Promise.all(
      Array.from({ length: FORGED }, () => {
        const rawBody = aveniaTicketBody(gatewayNow());
        const signature = sign("sha256", Buffer.from(rawBody), {
          key: forger,
          padding: constants.RSA_PKCS1_PSS_PADDING,
        }).toString("base64");
        return send(rawBody, signature);
      }),
    );

  it(`answers ${FORGED} forged callbacks at once 401 with one fetch of the key, and at most one more per 30 s after`, async () => {
    for (const refused of await forgedFlood()) expectError(refused, 401, "AUTHENTICATION_REQUIRED");
    // The key was not held: one fetch, shared by all; a failed signature refetches no sooner than 30 s after it.
    expect(keyServer.keyFetches()).toBe(1);

    aheadMs += 31_000;
    for (const refused of await forgedFlood()) expectError(refused, 401, "AUTHENTICATION_REQUIRED");
    // Past 30 s, the flood may look for a rotated key: once, for all of it.
    expect(keyServer.keyFetches()).toBe(2);

    aheadMs += 29_000;
    for (const refused of await forgedFlood()) expectError(refused, 401, "AUTHENTICATION_REQUIRED");
    expect(keyServer.keyFetches()).toBe(2);

    // Avenia's own callbacks still pass, on the key held.
    const genuine = aveniaTicketBody(gatewayNow());
    ok(await send(genuine, keyServer.sign(genuine)));
    expect(keyServer.keyFetches()).toBe(2);
    expect(await t.app.db.partnerCallback.count()).toBe(1);
  });
});
