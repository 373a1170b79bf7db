import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { readOutbox } from "../../src/events/outbox.js";
import { LEVEL_ONE_KYC, randomCpf, uploadKycDocuments } from "../support/kyc.js";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { PIX_KEY, sleep, waitFor } from "../support/kit.js";
import { TEST_TIMING } from "../support/partner-simulator.js";

/**
 * The ramp lifecycle over REST (CONTRACT.md, "Ramp domain"): register, update, start, status, errors and
 * history, with the quote consumed exactly once and every refusal leaving nothing behind. Processing, the
 * outbox's full sequences and the start window live in ramp-processing.test.ts.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(
    { RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" },
    { workers: true },
  );
});
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------------------
// Helpers

type Headers = Record<string, string>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const WALLET = "0x1111111111111111111111111111111111111111";
const SELLER = "0x2222222222222222222222222222222222222222";
const START_WINDOW_MS = 900_000;

/**
 * Every field a ramp always has on the wire (the response schema of the ramp routes); the optional strings
 * (OPTIONAL_RAMP_KEYS) are there only when they have a value, never null, as the reference has them.
 */
const RAMP_KEYS = [
  "id",
  "quoteId",
  "type",
  "currentPhase",
  "status",
  "from",
  "to",
  "network",
  "paymentMethod",
  "inputAmount",
  "inputCurrency",
  "outputAmount",
  "outputCurrency",
  "feeCurrency",
  "networkFeeFiat",
  "networkFeeUSD",
  "anchorFeeFiat",
  "anchorFeeUSD",
  "vortexFeeFiat",
  "vortexFeeUSD",
  "partnerFeeFiat",
  "partnerFeeUSD",
  "processingFeeFiat",
  "processingFeeUSD",
  "totalFeeFiat",
  "totalFeeUSD",
  "fiatAccountId",
  "paymentInstructions",
  "depositQrCode",
  "unsignedTxs",
  "expiresAt",
  "startedAt",
  "createdAt",
  "updatedAt",
].sort();
const OPTIONAL_RAMP_KEYS = ["countryCode", "walletAddress", "sessionId", "transactionHash", "transactionExplorerLink"];
/** A ramp's keys but the optional strings it has: what is always there. */
const alwaysThere = (ramp: object) =>
  Object.keys(ramp)
    .filter((key) => !OPTIONAL_RAMP_KEYS.includes(key))
    .sort();

interface Caller {
  profileId: string;
  session: Headers;
  secret: Headers;
}

/** A signed-in profile with a secret key, KYC approved in BR unless `kyc` says otherwise. */

async function newCaller(kyc: "approved" | "none" = "approved"): Promise<Caller & { brTaxId?: string }> {
  const signedIn = await t.signIn();
  const credential = await t.createCredential(signedIn.headers);
  const { brTaxId } = kyc === "approved" ? await t.completeKyc(signedIn.headers) : {};
  return {
    profileId: signedIn.profileId,
    session: signedIn.headers,
    secret: { "x-api-key": credential.secretKey },
    brTaxId,
  };
}

function expectRestError(response: HttpResponse, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.error?.code }, JSON.stringify(response.body)).toEqual({
    status,
    code,
  });
  expect(response.body.error.status).toBe(status);
}

function expectFieldError(response: HttpResponse, field: string): void {
  expectRestError(response, 400, "VALIDATION_FAILED");
  expect(
    response.body.error.details.map((detail: { field: string }) => detail.field),
    JSON.stringify(response.body),
  ).toContain(field);
}

const buyQuoteBody = (inputAmount = "100", overrides: Record<string, unknown> = {}) => ({
  rampType: "BUY",
  from: "pix",
  to: "polygon",
  inputAmount,
  inputCurrency: "BRL",
  outputCurrency: "USDC",
  ...overrides,
});
const sellQuoteBody = (inputAmount = "50", overrides: Record<string, unknown> = {}) => ({
  rampType: "SELL",
  from: "polygon",
  to: "pix",
  inputAmount,
  inputCurrency: "USDC",
  outputCurrency: "BRL",
  ...overrides,
});

async function quote(headers: Headers | undefined, body: Record<string, unknown> = buyQuoteBody()) {
  const created = await t.request("POST", "/v1/quotes", { headers, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as Record<string, string> & { id: string };
}

const register = (headers: Headers, body: Record<string, unknown>) =>
  t.request("POST", "/v1/ramp/register", { headers, body });
const update = (headers: Headers, body: Record<string, unknown>) =>
  t.request("POST", "/v1/ramp/update", { headers, body });
const start = (headers: Headers, rampId: string) => t.request("POST", "/v1/ramp/start", { headers, body: { rampId } });
const getRamp = (headers: Headers, rampId: string) => t.request("GET", `/v1/ramp/${rampId}`, { headers });

async function registered(headers: Headers, body: Record<string, unknown>) {
  const response = await register(headers, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** A registered BUY ramp of the caller (its own quote). */
async function buyRamp(headers: Headers, inputAmount = "100") {
  const q = await quote(headers, buyQuoteBody(inputAmount));
  return registered(headers, { quoteId: q.id, destinationAddress: WALLET });
}

/** A registered SELL ramp of the caller (its own quote). */
async function sellRamp(headers: Headers, inputAmount = "50") {
  const q = await quote(headers, sellQuoteBody(inputAmount));
  return registered(headers, { quoteId: q.id, additionalData: { walletAddress: SELLER, pixDestination: PIX_KEY } });
}

const PERMIT_DEADLINE = Math.floor(Date.now() / 1000) + 24 * 60 * 60;
/** The n-th signed permit of SELLER (Avenia pulls a BR SELL's tokens by it). */
const presigned = (n: number) => [
  {
    phase: "permit",
    network: "polygon",
    signer: SELLER,
    nonce: n,
    deadline: PERMIT_DEADLINE,
    signature: `0x${String(n).padStart(130, "0")}`,
  },
];

async function outboxOf(rampId: string) {
  return (await readOutbox(t.app.reads, 0, 100_000)).entries
    .filter((entry) => entry.rampId === rampId)
    .map((entry) => entry.body);
}

async function outboxOfQuote(quoteId: string) {
  return (await readOutbox(t.app.reads, 0, 100_000)).entries.filter((entry) => entry.body.payload.quoteId === quoteId);
}

/** What a quote fixes, as a ramp repeats it. */
function quoteTerms(q: Record<string, unknown>) {
  const { id: _id, rampType: _type, expiresAt: _expiresAt, createdAt: _createdAt, countryCode, ...terms } = q;
  // A quote answers a missing country as null; a ramp leaves it out (the reference's ramp shape).
  return countryCode === null ? terms : { ...terms, countryCode };
}

/** A refused registration leaves the quote unconsumed, no ramp and no outbox row behind. */
async function expectNothingChanged(quoteId: string) {
  const row = await t.app.db.quote.findUnique({ where: { id: quoteId }, select: { consumedAt: true } });
  expect(row?.consumedAt ?? null).toBeNull();
  expect(await t.app.db.ramp.count({ where: { quoteId } })).toBe(0);
  expect(await outboxOfQuote(quoteId)).toEqual([]);
}

// ---------------------------------------------------------------------------------------------------------

describe("POST /v1/ramp/register", () => {
  it("registers a pix BUY with the full ramp shape: initial, PENDING, the quote's terms, payment instructions and a PIX code", async () => {
    const caller = await newCaller();
    const q = await quote(caller.secret, buyQuoteBody("123.45"));
    const response = await register(caller.secret, { quoteId: q.id, destinationAddress: WALLET });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const ramp = response.body;
    expect(alwaysThere(ramp)).toEqual(RAMP_KEYS);
    expect(ramp).toMatchObject({
      ...quoteTerms(q),
      quoteId: q.id,
      type: "BUY",
      currentPhase: "initial",
      status: "PENDING",
      walletAddress: WALLET,
      fiatAccountId: null,
      unsignedTxs: [],
      startedAt: null,
    });
    // Optional strings without a value are left out, not null.
    for (const key of ["countryCode", "sessionId", "transactionHash", "transactionExplorerLink"])
      expect(ramp).not.toHaveProperty(key);
    expect(ramp.id).toMatch(UUID);
    expect(ramp.inputAmount).toBe("123.45");
    // Avenia's pay-in ticket: its BR Code, for a reference made of the ramp's id.
    expect(ramp.paymentInstructions).toEqual({
      method: "pix",
      amount: "123.45",
      currency: "BRL",
      reference: ramp.id.replace(/-/g, "").slice(0, 25).toUpperCase(),
      beneficiary: "Avenia",
    });
    // A dynamic BR Code: payload format 01, the amount, the reference, and the CRC16 at the end.
    expect(ramp.depositQrCode).toMatch(/^000201.*5406123\.45.*6304[0-9A-F]{4}$/);
    expect(ramp.depositQrCode).toContain(ramp.paymentInstructions.reference);
    for (const field of ["expiresAt", "createdAt", "updatedAt"]) expect(ramp[field]).toMatch(ISO);
    // expiresAt is the start deadline (the start window after registration), not the quote's expiry.
    expect(Date.parse(ramp.expiresAt) - Date.parse(ramp.createdAt)).toBe(START_WINDOW_MS);
    expect(ramp.expiresAt).not.toBe(q.expiresAt);

    // The quote is consumed, the status read gives the same ramp, and TRANSACTION_CREATED is in the outbox.
    expect((await t.app.db.quote.findUnique({ where: { id: q.id } }))?.consumedAt).toBeInstanceOf(Date);
    const read = await getRamp(caller.secret, ramp.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(ramp);
    const events = await outboxOf(ramp.id);
    expect(events.map((event) => [event.eventType, event.payload.transactionStatus])).toEqual([
      ["TRANSACTION_CREATED", "PENDING"],
    ]);
  });

  it("registers a SELL (source in additionalData.walletAddress) with unsigned transactions and no payment instructions", async () => {
    const caller = await newCaller();
    const q = await quote(caller.session, sellQuoteBody("75.5"));
    const response = await register(caller.session, {
      quoteId: q.id,
      additionalData: { walletAddress: SELLER, pixDestination: PIX_KEY },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const ramp = response.body;
    expect(alwaysThere(ramp)).toEqual(RAMP_KEYS);
    expect(ramp).toMatchObject({
      ...quoteTerms(q),
      type: "SELL",
      currentPhase: "initial",
      status: "PENDING",
      walletAddress: SELLER,
      paymentInstructions: null,
      depositQrCode: null,
    });
    expect(ramp).not.toHaveProperty("transactionHash");
    // What Avenia pulls the tokens by: a permit the wallet signs with its token nonce, usable for a day.
    expect(ramp.unsignedTxs).toEqual([
      {
        phase: "permit",
        network: "polygon",
        signer: SELLER,
        nonce: 0,
        deadline: expect.any(Number),
        meta: expect.objectContaining({ token: "USDC", amount: "75.5" }),
      },
    ]);
    expect(ramp.unsignedTxs[0].deadline * 1000 - Date.parse(ramp.createdAt)).toBeGreaterThan(START_WINDOW_MS);
    expect(Date.parse(ramp.expiresAt) - Date.parse(ramp.createdAt)).toBe(START_WINDOW_MS);
  });

  it("gives a SEPA BUY payment instructions without a PIX code", async () => {
    const caller = await newCaller();
    const q = await quote(caller.secret, buyQuoteBody("40", { from: "sepa", inputCurrency: "EUR", to: "base" }));
    const ramp = await registered(caller.secret, { quoteId: q.id, destinationAddress: WALLET });
    expect(ramp.paymentInstructions).toMatchObject({ method: "sepa", amount: "40", currency: "EUR" });
    expect(ramp.depositQrCode).toBeNull();
  });

  it("refuses a missing or malformed quoteId (400) and an unknown quote (404)", async () => {
    const caller = await newCaller();
    expectFieldError(await register(caller.secret, { destinationAddress: WALLET }), "quoteId");
    expectFieldError(await register(caller.secret, { quoteId: "not-a-uuid", destinationAddress: WALLET }), "quoteId");
    expectFieldError(await register(caller.secret, { quoteId: 42, destinationAddress: WALLET }), "quoteId");
    expectRestError(
      await register(caller.secret, { quoteId: randomUUID(), destinationAddress: WALLET }),
      404,
      "NOT_FOUND",
    );
  });

  it("answers 404 for another profile's quote (made with A's secret key, registered with B's), and changes nothing", async () => {
    const [a, b] = [await newCaller(), await newCaller()];
    const q = await quote(a.secret);
    expectRestError(await register(b.secret, { quoteId: q.id, destinationAddress: WALLET }), 404, "NOT_FOUND");
    expectRestError(await register(b.session, { quoteId: q.id, destinationAddress: WALLET }), 404, "NOT_FOUND");
    await expectNothingChanged(q.id);
    // The owner still can (with its session as well as its key: both act as the same profile).
    await registered(a.session, { quoteId: q.id, destinationAddress: WALLET });
  });

  it("lets anyone register an unowned quote (anonymous or public key)", async () => {
    const [owner, other] = [await newCaller(), await newCaller()];
    const anonymous = await quote(undefined);
    await registered(other.secret, { quoteId: anonymous.id, destinationAddress: WALLET });
    const credential = await t.createCredential(owner.session);
    const byPublicKey = await quote({ "x-public-key": credential.publicKey });
    await registered(other.session, { quoteId: byPublicKey.id, destinationAddress: WALLET });
  });

  it("refuses an expired quote with 400 QUOTE_EXPIRED and changes nothing", async () => {
    const caller = await newCaller();
    const q = await quote(caller.secret);
    await t.app.db.quote.update({ where: { id: q.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectRestError(await register(caller.secret, { quoteId: q.id, destinationAddress: WALLET }), 400, "QUOTE_EXPIRED");
    await expectNothingChanged(q.id);
  });

  it("refuses a consumed quote with 409 QUOTE_CONSUMED", async () => {
    const caller = await newCaller();
    const q = await quote(caller.secret);
    const first = await registered(caller.secret, { quoteId: q.id, destinationAddress: WALLET });
    expectRestError(
      await register(caller.secret, { quoteId: q.id, destinationAddress: WALLET }),
      409,
      "QUOTE_CONSUMED",
    );
    expect(await t.app.db.ramp.findMany({ where: { quoteId: q.id }, select: { id: true } })).toEqual([
      { id: first.id },
    ]);
  });

  it("refuses missing or invalid addresses with 400 and the field in details, and changes nothing", async () => {
    const caller = await newCaller();
    const buy = await quote(caller.secret);
    expectFieldError(await register(caller.secret, { quoteId: buy.id }), "destinationAddress");
    expectFieldError(
      await register(caller.secret, { quoteId: buy.id, destinationAddress: "0x1234" }),
      "destinationAddress",
    );
    expectFieldError(
      await register(caller.secret, { quoteId: buy.id, destinationAddress: `${WALLET}00` }),
      "destinationAddress",
    );
    expectFieldError(
      await register(caller.secret, {
        quoteId: buy.id,
        destinationAddress: "0xZZ11111111111111111111111111111111111111",
      }),
      "destinationAddress",
    );
    // A SELL's source goes in additionalData.walletAddress; destinationAddress does not stand in for it.
    const sell = await quote(caller.secret, sellQuoteBody());
    expectFieldError(await register(caller.secret, { quoteId: sell.id }), "additionalData.walletAddress");
    expectFieldError(
      await register(caller.secret, { quoteId: sell.id, destinationAddress: SELLER }),
      "additionalData.walletAddress",
    );
    expectFieldError(
      await register(caller.secret, { quoteId: sell.id, additionalData: { walletAddress: "not-an-address" } }),
      "additionalData.walletAddress",
    );
    // Asset Hub takes SS58 addresses, not EVM ones.
    const assethub = await quote(caller.secret, buyQuoteBody("100", { to: "assethub" }));
    expectFieldError(
      await register(caller.secret, { quoteId: assethub.id, destinationAddress: WALLET }),
      "destinationAddress",
    );
    // A valid address on a network BR's partner does not serve: refused by the partner's rule, before any call.
    expectFieldError(
      await register(caller.secret, {
        quoteId: assethub.id,
        destinationAddress: "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5",
      }),
      "network",
    );
    // A SELL paid out by PIX names a key Avenia pays to, and a receiver's tax id, when given, is the key holder's.
    const sellTo = (additionalData: Record<string, string>) =>
      register(caller.secret, { quoteId: sell.id, additionalData: { walletAddress: SELLER, ...additionalData } });
    expectFieldError(await sellTo({}), "additionalData.pixDestination");
    expectFieldError(await sellTo({ pixDestination: "not a pix key" }), "additionalData.pixDestination");
    const cpfKey = { pixDestination: "123.456.789-09" };
    expectFieldError(await sellTo({ ...cpfKey, receiverTaxId: "987.654.321-00" }), "additionalData.receiverTaxId");
    expectFieldError(await sellTo({ ...cpfKey, receiverTaxId: "1234567890" }), "additionalData.receiverTaxId");
    for (const q of [buy, sell, assethub]) await expectNothingChanged(q.id);
    expect((await sellTo({ ...cpfKey, receiverTaxId: "12345678909" })).status).toBe(201);
  });

  it.each([
    ["not started", async (caller: Caller) => caller],
    [
      "rejected",
      async (caller: Caller) => {
        // The sandbox rejects a submitted name containing "reject".
        const { subAccountId } = (
          await t.request("POST", "/v1/brl/createSubaccount", {
            headers: caller.secret,
            body: { accountType: "INDIVIDUAL", name: "Rejected Person", taxId: randomCpf() },
          })
        ).body;
        const taxIdNumber = (await t.app.db.kycCase.findFirstOrThrow({ where: { providerCustomerId: subAccountId } }))
          .taxId!;
        const uploads = await uploadKycDocuments(t.send, caller.secret, taxIdNumber);
        const submitted = await t.request("POST", "/v1/brl/newKyc", {
          headers: caller.secret,
          body: { ...LEVEL_ONE_KYC, ...uploads, subAccountId, taxIdNumber, fullName: "Rejected Person" },
        });
        expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
        return caller;
      },
    ],
  ])(
    "refuses a subject whose KYC is not approved (%s) with 403 KYC_NOT_APPROVED, and changes nothing",
    async (_state, prepare) => {
      const caller = await prepare(await newCaller("none"));
      const q = await quote(caller.session);
      expectRestError(
        await register(caller.session, { quoteId: q.id, destinationAddress: WALLET }),
        403,
        "KYC_NOT_APPROVED",
      );
      expectRestError(
        await register(caller.secret, { quoteId: q.id, destinationAddress: WALLET }),
        403,
        "KYC_NOT_APPROVED",
      );
      await expectNothingChanged(q.id);
    },
  );

  it("cross-checks a BRL taxId against the profile's verified CPF (punctuation ignored); a mismatch is refused", async () => {
    const caller = await newCaller();
    const cpf = caller.brTaxId!;
    expect(cpf).toMatch(/^\d{11}$/);

    const plain = await quote(caller.secret);
    await registered(caller.secret, { quoteId: plain.id, destinationAddress: WALLET, additionalData: { taxId: cpf } });

    const punctuated = await quote(caller.secret);
    const formatted = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    await registered(caller.secret, {
      quoteId: punctuated.id,
      destinationAddress: WALLET,
      additionalData: { taxId: formatted },
    });

    const mismatched = await quote(caller.secret);
    const wrong = cpf.slice(0, 10) + String((Number(cpf[10]) + 1) % 10);
    expectFieldError(
      await register(caller.secret, {
        quoteId: mismatched.id,
        destinationAddress: WALLET,
        additionalData: { taxId: wrong },
      }),
      "additionalData.taxId",
    );
    // Another profile's CPF is a mismatch too.
    const other = await newCaller();
    expectFieldError(
      await register(caller.secret, {
        quoteId: mismatched.id,
        destinationAddress: WALLET,
        additionalData: { taxId: other.brTaxId },
      }),
      "additionalData.taxId",
    );
    await expectNothingChanged(mismatched.id);
  });

  it("refuses an unknown widget session (404) and a fiatAccountId on a BUY ramp (400), and changes nothing", async () => {
    const caller = await newCaller();
    const q = await quote(caller.secret);
    expectRestError(
      await register(caller.secret, { quoteId: q.id, destinationAddress: WALLET, sessionId: randomUUID() }),
      404,
      "NOT_FOUND",
    );
    // Another profile's widget session is as unknown as a made-up one.
    const other = await newCaller();
    const foreign = await t.request("POST", "/v1/session/create", {
      headers: other.secret,
      body: { quoteId: (await quote(other.secret)).id },
    });
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(201);
    expectRestError(
      await register(caller.secret, { quoteId: q.id, destinationAddress: WALLET, sessionId: foreign.body.sessionId }),
      404,
      "NOT_FOUND",
    );
    // Payout accounts are for SELL ramps (test/integration/fiat-accounts.test.ts has the SELL rules).
    expectRestError(
      await register(caller.secret, { quoteId: q.id, destinationAddress: WALLET, fiatAccountId: randomUUID() }),
      400,
      "VALIDATION_FAILED",
    );
    await expectNothingChanged(q.id);
  });

  it("records the widget session on the ramp and in its events", async () => {
    const caller = await newCaller();
    const q = await quote(caller.secret);
    const session = await t.request("POST", "/v1/session/create", { headers: caller.secret, body: { quoteId: q.id } });
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    const ramp = await registered(caller.secret, {
      quoteId: q.id,
      destinationAddress: WALLET,
      sessionId: session.body.sessionId,
    });
    expect(ramp.sessionId).toBe(session.body.sessionId);
    const [created] = await outboxOf(ramp.id);
    expect(created.payload.sessionId).toBe(session.body.sessionId);
  });

  it("consumes a quote exactly once under 20 concurrent registrations", async () => {
    const caller = await newCaller();
    const q = await quote(caller.secret);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => register(caller.secret, { quoteId: q.id, destinationAddress: WALLET })),
    );
    const winners = responses.filter((response) => response.status === 201);
    const losers = responses.filter((response) => response.status !== 201);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(19);
    for (const loser of losers) expectRestError(loser, 409, "QUOTE_CONSUMED");
    expect(await t.app.db.ramp.findMany({ where: { quoteId: q.id }, select: { id: true } })).toEqual([
      { id: winners[0].body.id },
    ]);
    const created = (await outboxOfQuote(q.id)).filter((entry) => entry.body.eventType === "TRANSACTION_CREATED");
    expect(created.map((entry) => entry.rampId)).toEqual([winners[0].body.id]);
  });
});

describe("POST /v1/ramp/update and /v1/ramp/start", () => {
  it("merges additionalData (later values win) and replaces presignedTxs", async () => {
    const caller = await newCaller();
    const ramp = await sellRamp(caller.secret);
    const first = await update(caller.secret, {
      rampId: ramp.id,
      presignedTxs: presigned(1),
      additionalData: { squidRouterApproveHash: "0xaa", squidRouterSwapHash: "0xbb" },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(alwaysThere(first.body)).toEqual(RAMP_KEYS);
    expect(first.body).toMatchObject({ id: ramp.id, currentPhase: "initial", status: "PENDING" });

    const second = await update(caller.secret, {
      rampId: ramp.id,
      presignedTxs: presigned(2),
      additionalData: { squidRouterSwapHash: "0xcc" },
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    // additionalData may be omitted or null: the merged data stays.
    expect(
      (await update(caller.secret, { rampId: ramp.id, presignedTxs: presigned(3), additionalData: null })).status,
    ).toBe(200);
    expect((await update(caller.secret, { rampId: ramp.id, presignedTxs: presigned(4) })).status).toBe(200);

    const row = await t.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.id } });
    expect(JSON.parse(row.additionalData)).toEqual({
      walletAddress: SELLER,
      pixDestination: PIX_KEY,
      squidRouterApproveHash: "0xaa",
      squidRouterSwapHash: "0xcc",
    });
    expect(JSON.parse(row.presignedTxs)).toEqual(presigned(4));
    // Updates are not events.
    expect((await outboxOf(ramp.id)).map((event) => event.eventType)).toEqual(["TRANSACTION_CREATED"]);
  });

  it("loses no value under concurrent updates: each sets its own key, all of them are merged", async () => {
    const caller = await newCaller();
    const keys = [
      "assethubToPendulumHash",
      "squidRouterApproveHash",
      "squidRouterNoPermitApproveHash",
      "squidRouterNoPermitSwapHash",
      "squidRouterNoPermitTransferHash",
      "squidRouterSwapHash",
    ];
    for (let round = 0; round < 2; round++) {
      const ramp = await sellRamp(caller.secret);
      const responses = await Promise.all(
        keys.map((key, index) =>
          update(caller.secret, {
            rampId: ramp.id,
            presignedTxs: presigned(index),
            additionalData: { [key]: `0x${index}` },
          }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(keys.map(() => 200));
      const row = await t.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.id } });
      expect(JSON.parse(row.additionalData)).toEqual({
        walletAddress: SELLER,
        pixDestination: PIX_KEY,
        ...Object.fromEntries(keys.map((key, index) => [key, `0x${index}`])),
      });
    }
  });

  it("refuses an unknown additionalData key, a missing presignedTxs, and unknown or foreign ramps", async () => {
    const caller = await newCaller();
    const ramp = await sellRamp(caller.secret);
    expectFieldError(
      await update(caller.secret, {
        rampId: ramp.id,
        presignedTxs: presigned(1),
        additionalData: { providerToken: "x" },
      }),
      "additionalData",
    );
    expectFieldError(await update(caller.secret, { rampId: ramp.id }), "presignedTxs");
    expectFieldError(await update(caller.secret, { rampId: "nope", presignedTxs: [] }), "rampId");
    expectRestError(
      await update(caller.secret, { rampId: randomUUID(), presignedTxs: presigned(1) }),
      404,
      "NOT_FOUND",
    );
    const other = await newCaller();
    expectRestError(await update(other.secret, { rampId: ramp.id, presignedTxs: presigned(1) }), 404, "NOT_FOUND");
    expectRestError(await start(other.secret, ramp.id), 404, "NOT_FOUND");
    const row = await t.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.id } });
    expect(JSON.parse(row.presignedTxs)).toEqual([]);
    expect(row.currentPhase).toBe("initial");
  });

  it("starts a SELL only after presignedTxs were sent; then update and a second start answer 409 RAMP_NOT_STARTABLE", async () => {
    const caller = await newCaller();
    const ramp = await sellRamp(caller.secret);
    expectFieldError(await start(caller.secret, ramp.id), "presignedTxs");
    expect((await getRamp(caller.secret, ramp.id)).body.currentPhase).toBe("initial");
    // Signed transactions without the permit, or with one whose signature, nonce or deadline is unusable, start
    // nothing: the payout could not pull the tokens.
    const [permit] = presigned(1);
    for (const unusable of [
      [{ phase: "transfer", network: "polygon", signer: SELLER, signature: permit.signature }],
      [{ ...permit, signature: "0x1234" }],
      [{ ...permit, nonce: -1 }],
      [{ ...permit, nonce: "1" }],
      [{ ...permit, deadline: Math.floor(Date.now() / 1000) - 1 }],
    ]) {
      expect((await update(caller.secret, { rampId: ramp.id, presignedTxs: unusable })).status).toBe(200);
      expectFieldError(await start(caller.secret, ramp.id), "presignedTxs");
      expect((await getRamp(caller.secret, ramp.id)).body.currentPhase).toBe("initial");
    }

    expect((await update(caller.secret, { rampId: ramp.id, presignedTxs: presigned(1) })).status).toBe(200);
    const started = await start(caller.secret, ramp.id);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(alwaysThere(started.body)).toEqual(RAMP_KEYS);
    expect(started.body).toMatchObject({ id: ramp.id, currentPhase: "awaitingPayment", status: "PENDING" });
    expect(started.body.startedAt).toMatch(ISO);

    expectRestError(await start(caller.secret, ramp.id), 409, "RAMP_NOT_STARTABLE");
    expectRestError(
      await update(caller.secret, { rampId: ramp.id, presignedTxs: presigned(2) }),
      409,
      "RAMP_NOT_STARTABLE",
    );
    const row = await t.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.id } });
    expect(JSON.parse(row.presignedTxs)).toEqual(presigned(1));
  });

  it("starts a BUY without presignedTxs", async () => {
    const caller = await newCaller();
    const ramp = await buyRamp(caller.session);
    const started = await start(caller.session, ramp.id);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.currentPhase).toBe("awaitingPayment");
  });

  it("lets exactly one of 10 concurrent starts win", async () => {
    const caller = await newCaller();
    const ramp = await buyRamp(caller.secret);
    const responses = await Promise.all(Array.from({ length: 10 }, () => start(caller.secret, ramp.id)));
    const winners = responses.filter((response) => response.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of responses.filter((response) => response.status !== 200))
      expectRestError(loser, 409, "RAMP_NOT_STARTABLE");
    const events = await outboxOf(ramp.id);
    expect(
      events.filter((event) => event.eventType === "PHASE_CHANGE" && event.payload.currentPhase === "awaitingPayment"),
    ).toHaveLength(1);
  });

  it("answers 400 RAMP_START_WINDOW_ELAPSED to update and start once the start window has passed", async () => {
    const caller = await newCaller();
    const ramp = await sellRamp(caller.secret);
    await t.app.db.ramp.update({ where: { id: ramp.id }, data: { startDeadline: new Date(Date.now() - 1000) } });
    expectRestError(
      await update(caller.secret, { rampId: ramp.id, presignedTxs: presigned(1) }),
      400,
      "RAMP_START_WINDOW_ELAPSED",
    );
    expectRestError(await start(caller.secret, ramp.id), 400, "RAMP_START_WINDOW_ELAPSED");
    // Still so once the processor has timed it out.
    await waitFor(
      () => getRamp(caller.secret, ramp.id),
      (response) => response.body.currentPhase === "timedOut",
    );
    expectRestError(
      await update(caller.secret, { rampId: ramp.id, presignedTxs: presigned(1) }),
      400,
      "RAMP_START_WINDOW_ELAPSED",
    );
    expectRestError(await start(caller.secret, ramp.id), 400, "RAMP_START_WINDOW_ELAPSED");
    const row = await t.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.id } });
    expect(JSON.parse(row.presignedTxs)).toEqual([]);
  });
});

describe("reads: GET /v1/ramp/{id}, /errors and /history", () => {
  it("answers 404 for another profile's ramp and 400 for a malformed id", async () => {
    const [owner, other] = [await newCaller(), await newCaller()];
    const ramp = await buyRamp(owner.secret);
    expect((await getRamp(owner.secret, ramp.id)).status).toBe(200);
    expect((await t.request("GET", `/v1/ramp/${ramp.id}/errors`, { headers: owner.secret })).body).toEqual([]);
    // Upper-case ids name the same ramp.
    expect((await getRamp(owner.session, ramp.id.toUpperCase())).body.id).toBe(ramp.id);
    for (const headers of [other.secret, other.session]) {
      expectRestError(await getRamp(headers, ramp.id), 404, "NOT_FOUND");
      expectRestError(await t.request("GET", `/v1/ramp/${ramp.id}/errors`, { headers }), 404, "NOT_FOUND");
    }
    for (const malformed of ["not-a-uuid", "1", `${ramp.id}0`]) {
      expectRestError(await getRamp(owner.secret, malformed), 400, "VALIDATION_FAILED");
      expectRestError(
        await t.request("GET", `/v1/ramp/${malformed}/errors`, { headers: owner.secret }),
        400,
        "VALIDATION_FAILED",
      );
    }
    expectRestError(await getRamp(owner.secret, randomUUID()), 404, "NOT_FOUND");
  });

  it("lists only the caller's started ramps, newest first, with limit/offset paging and totalCount as a string", async () => {
    // Unpaid while the test reads them: a payment 20 ms after the start could pay the newest out before the read.
    t.partners.simulator.setTiming({ paymentDelayMs: 600_000 });
    onTestFinished(() => t.partners.simulator.setTiming({ paymentDelayMs: TEST_TIMING.paymentDelayMs }));
    const [caller, other] = [await newCaller(), await newCaller()];
    const started: Record<string, any>[] = [];
    for (const amount of ["100", "200", "300"]) {
      const ramp = await buyRamp(caller.secret, amount);
      expect((await start(caller.secret, ramp.id)).status).toBe(200);
      started.push(ramp);
      await sleep(5); // distinct creation times, so "newest first" is one order
    }
    await buyRamp(caller.secret, "400"); // never started: not in the history
    const foreign = await buyRamp(other.secret, "500");
    expect((await start(other.secret, foreign.id)).status).toBe(200);

    const newestFirst = started.map((ramp) => ramp.id).reverse();
    const all = await t.request("GET", "/v1/ramp/history", { headers: caller.secret });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.totalCount).toBe("3");
    expect(all.body.transactions.map((entry: { id: string }) => entry.id)).toEqual(newestFirst);
    const newest = all.body.transactions[0];
    expect(Object.keys(newest).sort()).toEqual(
      [
        "id",
        "type",
        "from",
        "to",
        "fromAmount",
        "toAmount",
        "fromCurrency",
        "toCurrency",
        "status",
        "currentPhase",
        "date",
        "expiresAt",
        "walletAddress",
      ].sort(),
    );
    // Not paid out yet: no hash and no link, left out rather than null.
    expect(newest).toMatchObject({
      id: started[2].id,
      type: "BUY",
      from: "pix",
      to: "polygon",
      fromAmount: "300",
      toAmount: started[2].outputAmount,
      fromCurrency: "BRL",
      toCurrency: "USDC",
      date: started[2].createdAt,
      expiresAt: started[2].expiresAt,
      walletAddress: WALLET,
    });

    const page = (query: string, headers = caller.secret) => t.request("GET", `/v1/ramp/history?${query}`, { headers });
    const first = await page("limit=2");
    expect(first.body.totalCount).toBe("3");
    expect(first.body.transactions.map((entry: { id: string }) => entry.id)).toEqual(newestFirst.slice(0, 2));
    const second = await page("limit=2&offset=2");
    expect(second.body.totalCount).toBe("3");
    expect(second.body.transactions.map((entry: { id: string }) => entry.id)).toEqual(newestFirst.slice(2));
    expect((await page("offset=3")).body).toEqual({ totalCount: "3", transactions: [] });
    expect((await page("limit=100")).body.transactions).toHaveLength(3);
    // The session sees the same history as the key: both are the profile.
    expect(
      (await page("limit=1&offset=1", caller.session)).body.transactions.map((entry: { id: string }) => entry.id),
    ).toEqual([newestFirst[1]]);

    for (const query of ["limit=101", "limit=0", "limit=-1", "limit=abc", "offset=-1", "limit=1.5"]) {
      expectRestError(await page(query), 400, "VALIDATION_FAILED");
    }
    const otherHistory = await t.request("GET", "/v1/ramp/history", { headers: other.secret });
    expect(otherHistory.body.totalCount).toBe("1");
    expect(otherHistory.body.transactions.map((entry: { id: string }) => entry.id)).toEqual([foreign.id]);
    const fresh = await newCaller();
    expect((await t.request("GET", "/v1/ramp/history", { headers: fresh.secret })).body).toEqual({
      totalCount: "0",
      transactions: [],
    });
  });

  it("lists one wallet address's started ramps under /v1/ramp/history/{walletAddress} (EVM addresses in any case), as GraphQL's ramps(walletAddress) does", async () => {
    const [caller, other] = [await newCaller(), await newCaller()];
    const elsewhere = "0x3333333333333333333333333333333333333333";
    const toWallet = await buyRamp(caller.secret, "100");
    const toElsewhere = await registered(caller.secret, {
      quoteId: (await quote(caller.secret, buyQuoteBody("200"))).id,
      destinationAddress: elsewhere,
    });
    for (const ramp of [toWallet, toElsewhere]) expect((await start(caller.secret, ramp.id)).status).toBe(200);
    await buyRamp(caller.secret, "300"); // never started: not in the history
    const foreign = await buyRamp(other.secret, "400");
    expect((await start(other.secret, foreign.id)).status).toBe(200);

    const history = (address: string, query = "") =>
      t.request("GET", `/v1/ramp/history/${address}${query}`, { headers: caller.secret });
    const ids = (response: HttpResponse) => response.body.transactions.map((entry: { id: string }) => entry.id);
    const ofWallet = await history(WALLET);
    expect(ofWallet.status, JSON.stringify(ofWallet.body)).toBe(200);
    expect(ofWallet.body.totalCount).toBe("1");
    expect(ids(ofWallet)).toEqual([toWallet.id]);
    expect(ofWallet.body.transactions[0]).toMatchObject({ walletAddress: WALLET, fromAmount: "100" });
    expect(ids(await history(`0x${WALLET.slice(2).toUpperCase()}`))).toEqual([toWallet.id]);
    expect(ids(await history(elsewhere))).toEqual([toElsewhere.id]);
    expect((await history("0x4444444444444444444444444444444444444444")).body).toEqual({
      totalCount: "0",
      transactions: [],
    });
    expect((await history(WALLET, "?offset=1")).body).toEqual({ totalCount: "1", transactions: [] });
    expectRestError(await history(WALLET, "?limit=101"), 400, "VALIDATION_FAILED");
    expectRestError(await history("x".repeat(129)), 400, "VALIDATION_FAILED");

    const graphql = await t.graphql(
      `query ($address: String) { ramps(first: 10, walletAddress: $address) { edges { node { id } } } }`,
      { address: elsewhere.toUpperCase().replace("0X", "0x") },
      caller.secret,
    );
    expect(graphql.body.data.ramps.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([
      toElsewhere.id,
    ]);
  });
});
