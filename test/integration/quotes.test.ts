import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NETWORKS } from "../../src/reference-data/catalog.js";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { rememberSecret } from "../support/secrets.js";
import { expectError } from "../support/kit.js";

/**
 * Quotes, pricing precedence, attribution and widget sessions over REST (CONTRACT.md, "Ramp domain";
 * issue 4, items 2 and 3), on the project's engine.
 */

const WIDGET_BASE_URL = "https://widget.quotes-test.example:8443/open?theme=dark";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    WIDGET_BASE_URL,
    // Many requests from one address and one key: the rate limits have tests of their own.
    RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
    RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000",
  });
});
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------------------
// Helpers

type Headers = Record<string, string>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TEN_MINUTES_MS = 10 * 60_000;

/** One signed-in profile with every way it can call: session, secret key, public key. */
interface Caller {
  profileId: string;
  session: Headers;
  secret: Headers;
  public: Headers;
  credentialId: string;
  publicKey: string;
}

async function newCaller(email?: string): Promise<Caller> {
  const session = await t.signIn(email);
  const credential = await t.createCredential(session.headers, { name: "quotes" });
  return {
    profileId: session.profileId,
    session: session.headers,
    secret: { "x-api-key": credential.secretKey },
    public: { "x-public-key": credential.publicKey },
    credentialId: credential.id,
    publicKey: credential.publicKey,
  };
}

function expectValidation(response: HttpResponse, field: string): void {
  expectError(response, 400, "VALIDATION_FAILED");
  expect(response.body.error.details, JSON.stringify(response.body)).toEqual(
    expect.arrayContaining([expect.objectContaining({ field, message: expect.any(String) })]),
  );
}

const BUY = {
  rampType: "BUY",
  from: "pix",
  to: "polygon",
  inputAmount: "100",
  inputCurrency: "BRL",
  outputCurrency: "USDC",
} as const;
const SELL = {
  rampType: "SELL",
  from: "polygon",
  to: "sepa",
  inputAmount: "100",
  inputCurrency: "USDC",
  outputCurrency: "EUR",
} as const;
/** Prices differ per pricing profile here (see test/unit/pricing.test.ts, "each pricing profile"). */
const PROFILED = { ...BUY, inputAmount: "1000" } as const;
const PROFILE_OUTPUT = {
  default: "183.775925",
  "partner-markup": "183.312962",
  reduced: "184.238888",
  "zero-fee": "184.701851",
} as const;
type ProfileName = keyof typeof PROFILE_OUTPUT;

const postQuote = (body: unknown, headers: Headers = {}) => t.request("POST", "/v1/quotes", { headers, body });
const postBest = (body: unknown, headers: Headers = {}) => t.request("POST", "/v1/quotes/best", { headers, body });
const getQuote = (id: string, headers: Headers = {}) => t.request("GET", `/v1/quotes/${id}`, { headers });
const postSession = (body: unknown, headers: Headers = {}) =>
  t.request("POST", "/v1/session/create", { headers, body });

async function quote(body: unknown, headers: Headers = {}) {
  const response = await postQuote(body, headers);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

function expectTenMinutes(body: { createdAt: string; expiresAt: string }) {
  expect(body.createdAt).toMatch(ISO);
  expect(body.expiresAt).toMatch(ISO);
  expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(TEN_MINUTES_MS);
}

const selecting = (headers: Headers, childId: string) => ({ ...headers, "x-managed-profile-id": childId });

async function assignPricing(profileId: string, pricingProfile: string) {
  const response = await t.request("PUT", `/v1/admin/pricing-assignments/${profileId}`, {
    headers: t.operatorHeaders,
    body: { pricingProfile },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/** A manager (enabled by the operator for BR and US) with one individual child and the child's own keys. */
async function managerWithChild() {
  const manager = await newCaller();
  const enabled = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
    headers: t.operatorHeaders,
    body: { allowedCorridors: ["BR", "US"], isActive: true },
  });
  expect([200, 201]).toContain(enabled.status);
  const child = await newChild(manager);
  return { manager, ...child };
}

async function newChild(manager: Caller) {
  const created = await t.request("POST", "/v1/managed-profiles", {
    headers: manager.secret,
    body: {
      externalSubjectId: `subject-${randomUUID()}`,
      contactEmail: `child-${randomUUID()}@example.com`,
      customerType: "individual",
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const childId: string = created.body.managedProfile.profileId;
  const issued = await t.request("POST", `/v1/managed-profiles/${childId}/api-credentials`, {
    headers: manager.secret,
    body: {},
  });
  expect(issued.status, JSON.stringify(issued.body)).toBe(201);
  rememberSecret(issued.body.secretKey);
  return {
    childId,
    childCredentialId: issued.body.id as string,
    childSecret: { "x-api-key": issued.body.secretKey } as Headers,
    childPublic: { "x-public-key": issued.body.publicKey } as Headers,
  };
}

const quoteRow = (id: string) => t.app.db.quote.findUniqueOrThrow({ where: { id } });

// ---------------------------------------------------------------------------------------------------------

describe("POST /v1/quotes", () => {
  it("BUY -> 201 with every field, priced in decimals, valid 10 minutes", async () => {
    const response = await postQuote({ ...BUY, countryCode: "BR" });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    // BUY 100 BRL -> USDC on polygon with the default profile (worked out in test/unit/pricing.test.ts).
    expect(response.body).toEqual({
      id: expect.stringMatching(UUID),
      rampType: "BUY",
      from: "pix",
      to: "polygon",
      network: "polygon",
      paymentMethod: "pix",
      countryCode: "BR",
      inputAmount: "100",
      inputCurrency: "BRL",
      outputAmount: "18.359259",
      outputCurrency: "USDC",
      feeCurrency: "BRL",
      networkFeeFiat: "0.11",
      networkFeeUSD: "0.02",
      anchorFeeFiat: "0.25",
      anchorFeeUSD: "0.05",
      vortexFeeFiat: "0.50",
      vortexFeeUSD: "0.09",
      partnerFeeFiat: "0.00",
      partnerFeeUSD: "0.00",
      processingFeeFiat: "0.75",
      processingFeeUSD: "0.14",
      totalFeeFiat: "0.86",
      totalFeeUSD: "0.16",
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
    });
    expectTenMinutes(response.body);
    expect(Math.abs(Date.parse(response.body.createdAt) - Date.now())).toBeLessThan(60_000);
    const row = await quoteRow(response.body.id);
    expect(row).toMatchObject({
      corridor: "BR",
      pricingProfile: "default",
      consumedAt: null,
      outputAmount: "18.359259",
    });
  });

  it("SELL -> 201 with every field; countryCode is null when not given", async () => {
    const response = await postQuote(SELL);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(UUID),
      rampType: "SELL",
      from: "polygon",
      to: "sepa",
      network: "polygon",
      paymentMethod: "sepa",
      countryCode: null,
      inputAmount: "100",
      inputCurrency: "USDC",
      outputAmount: "91.02",
      outputCurrency: "EUR",
      feeCurrency: "EUR",
      networkFeeFiat: "0.02",
      networkFeeUSD: "0.02",
      anchorFeeFiat: "0.50",
      anchorFeeUSD: "0.54",
      vortexFeeFiat: "0.46",
      vortexFeeUSD: "0.50",
      partnerFeeFiat: "0.00",
      partnerFeeUSD: "0.00",
      processingFeeFiat: "0.96",
      processingFeeUSD: "1.04",
      totalFeeFiat: "0.98",
      totalFeeUSD: "1.06",
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
    });
    expectTenMinutes(response.body);
    expect((await quoteRow(response.body.id)).corridor).toBe("EU");
  });

  it("keeps every digit of a large SELL from an 18-decimal token (bsc) into COP", async () => {
    const response = await postQuote({
      rampType: "SELL",
      from: "bsc",
      to: "ach",
      inputAmount: "12345.678901234567890123",
      inputCurrency: "USDT",
      outputCurrency: "COP",
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({
      inputAmount: "12345.678901234567890123",
      outputAmount: "50202097.73",
      totalFeeFiat: "405062.30",
      feeCurrency: "COP",
    });
    // The stored row keeps the caller's string as given.
    expect((await quoteRow(response.body.id)).inputAmount).toBe("12345.678901234567890123");
    const buy = await postQuote({
      rampType: "BUY",
      from: "cbu",
      to: "bsc",
      inputAmount: "49999999.99",
      inputCurrency: "ARS",
      outputCurrency: "USDT",
    });
    expect(buy.status, JSON.stringify(buy.body)).toBe(201);
    expect(buy.body.outputAmount).toBe("47152.237580849503233980");
  });

  it("accepts the optional network, paymentMethod and countryCode when they agree; symbols without regard to case", async () => {
    const agreed = await postQuote({ ...BUY, network: "polygon", paymentMethod: "pix", countryCode: "br" });
    expect(agreed.status, JSON.stringify(agreed.body)).toBe(201);
    expect(agreed.body).toMatchObject({
      network: "polygon",
      paymentMethod: "pix",
      countryCode: "BR",
      outputAmount: "18.359259",
    });
    const sell = await postQuote({ ...SELL, countryCode: "DE", paymentMethod: "sepa", network: "polygon" });
    expect(sell.status, JSON.stringify(sell.body)).toBe(201);
    expect(sell.body).toMatchObject({ countryCode: "DE", paymentMethod: "sepa" });
    // The reference spells the bridged token "USDC.E".
    const bridged = await postQuote({ ...BUY, outputCurrency: "USDC.E" });
    expect(bridged.status, JSON.stringify(bridged.body)).toBe(201);
    expect(bridged.body.outputCurrency).toBe("USDC.e");
  });

  it("anonymous, public-key, secret-key and session callers all get quotes", async () => {
    const caller = await newCaller();
    for (const [name, headers] of Object.entries({
      anonymous: {},
      public: caller.public,
      secret: caller.secret,
      session: caller.session,
    })) {
      for (const body of [BUY, SELL]) {
        const response = await postQuote(body, headers);
        expect(response.status, `${name} ${body.rampType}: ${JSON.stringify(response.body)}`).toBe(201);
        expect(response.body.outputAmount).toBe(body.rampType === "BUY" ? "18.359259" : "91.02");
      }
    }
  });
});

describe("GET /v1/quotes/{id}", () => {
  it("a quote made with a secret key or a session is its profile's: readable by it, 404 for anyone else", async () => {
    const [owner, other] = [await newCaller(), await newCaller()];
    for (const creator of [owner.secret, owner.session]) {
      const created = await quote(BUY, creator);
      // Either of the owner's credentials reads it, identical to the creation response.
      for (const reader of [owner.secret, owner.session]) {
        const read = await getQuote(created.id, reader);
        expect(read.status, JSON.stringify(read.body)).toBe(200);
        expect(read.body).toEqual(created);
      }
      for (const stranger of [other.secret, other.session, other.public, {}])
        expectError(await getQuote(created.id, stranger), 404, "NOT_FOUND");
      // A public key (it sits in browsers) sees only unowned quotes, even its own profile's.
      expectError(await getQuote(created.id, owner.public), 404, "NOT_FOUND");
      expect((await quoteRow(created.id)).ownerProfileId).toBe(owner.profileId);
    }
  });

  it("anonymous and public-key quotes are unowned: anyone reads them", async () => {
    const [maker, reader] = [await newCaller(), await newCaller()];
    for (const creator of [{}, maker.public]) {
      const created = await quote(SELL, creator);
      expect((await quoteRow(created.id)).ownerProfileId).toBeNull();
      for (const headers of [
        {},
        maker.public,
        maker.secret,
        maker.session,
        reader.public,
        reader.secret,
        reader.session,
      ]) {
        const read = await getQuote(created.id, headers);
        expect(read.status, JSON.stringify(read.body)).toBe(200);
        expect(read.body).toEqual(created);
      }
    }
  });

  it("ids are matched as UUIDs: upper case finds the quote; unknown -> 404 NOT_FOUND; malformed -> 400", async () => {
    const created = await quote(BUY);
    const upper = await getQuote(created.id.toUpperCase());
    expect(upper.status).toBe(200);
    expect(upper.body.id).toBe(created.id);
    expectError(await getQuote(randomUUID()), 404, "NOT_FOUND");
    for (const id of ["not-a-uuid", `quote_${created.id}`, `${created.id}x`, "%20"])
      expectError(await getQuote(id), 400, "VALIDATION_FAILED", "id");
  });
});

describe("POST /v1/quotes/best", () => {
  /** The individual quotes of every network carrying the token, by network. */
  async function individualOutputs(body: Record<string, string>, networks: readonly string[]) {
    const outputs: Record<string, string> = {};
    for (const network of networks) {
      const response = await postQuote({ ...body, ...(body.rampType === "BUY" ? { to: network } : { from: network }) });
      if (response.status === 201) outputs[network] = response.body.outputAmount;
      else expectValidation(response, body.rampType === "BUY" ? "outputCurrency" : "inputCurrency");
    }
    return outputs;
  }

  /** The networks whose output is the highest (exact decimal comparison on the strings). */
  function best(outputs: Record<string, string>) {
    const scaled = (value: string) => {
      const [whole, fraction = ""] = value.split(".");
      return BigInt(whole + fraction.padEnd(18, "0"));
    };
    const max = Object.values(outputs).reduce((a, b) => (scaled(b) > scaled(a) ? b : a));
    return { max, networks: Object.keys(outputs).filter((network) => scaled(outputs[network]) === scaled(max)) };
  }

  it("BUY: picks the network with the highest output among all that carry the token", async () => {
    const outputs = await individualOutputs({ ...BUY, inputAmount: "500" }, NETWORKS);
    expect(Object.keys(outputs).length).toBeGreaterThan(3);
    const want = best(outputs);
    const response = await postBest({
      rampType: "BUY",
      from: "pix",
      inputAmount: "500",
      inputCurrency: "BRL",
      outputCurrency: "USDC",
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(want.networks).toContain(response.body.network);
    expect(response.body).toMatchObject({
      rampType: "BUY",
      from: "pix",
      to: response.body.network,
      paymentMethod: "pix",
      outputAmount: want.max,
      inputAmount: "500",
    });
    // Ethereum's network fee makes it the worst; the best is strictly better than it.
    expect(outputs.ethereum).not.toBe(want.max);
    expectTenMinutes(response.body);
    // Stored like any quote.
    expect((await getQuote(response.body.id)).body).toEqual(response.body);
  });

  it("SELL: picks the best network for the token, with the rail taken from `to`", async () => {
    const outputs = await individualOutputs({ ...SELL, inputCurrency: "USDT", inputAmount: "2000" }, NETWORKS);
    const want = best(outputs);
    const response = await postBest({
      rampType: "SELL",
      to: "sepa",
      inputAmount: "2000",
      inputCurrency: "USDT",
      outputCurrency: "EUR",
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(want.networks).toContain(response.body.network);
    expect(response.body).toMatchObject({
      rampType: "SELL",
      from: response.body.network,
      to: "sepa",
      outputAmount: want.max,
      feeCurrency: "EUR",
    });
  });

  it("an empty `networks` list compares every network, as if omitted (the reference's rule)", async () => {
    const body = { rampType: "BUY", from: "pix", inputAmount: "100", inputCurrency: "BRL", outputCurrency: "USDC" };
    const omitted = await postBest(body);
    const empty = await postBest({ ...body, networks: [] });
    expect([omitted.status, empty.status], JSON.stringify(empty.body)).toEqual([201, 201]);
    expect(empty.body).toMatchObject({ network: omitted.body.network, outputAmount: omitted.body.outputAmount });
    expectValidation(await postBest({ ...body, networks: "polygon" }), "networks");
  });

  it("honours `networks`: only those are compared (even a worse one alone)", async () => {
    const outputs = await individualOutputs(BUY, ["ethereum", "bsc", "polygon"]);
    expect(best(outputs).networks).toEqual(["polygon"]);
    const among = await postBest({
      rampType: "BUY",
      from: "pix",
      inputAmount: "100",
      inputCurrency: "BRL",
      outputCurrency: "USDC",
      networks: ["ethereum", "bsc", "polygon"],
    });
    expect(among.status, JSON.stringify(among.body)).toBe(201);
    expect(among.body).toMatchObject({ network: "polygon", outputAmount: outputs.polygon });

    const only = await postBest({
      rampType: "BUY",
      from: "pix",
      inputAmount: "100",
      inputCurrency: "BRL",
      outputCurrency: "USDC",
      networks: ["ethereum"],
    });
    expect(only.status, JSON.stringify(only.body)).toBe(201);
    expect(only.body).toMatchObject({ network: "ethereum", to: "ethereum", outputAmount: outputs.ethereum });

    // USDC.e lives on polygon only: a list without polygon offers nothing.
    expectValidation(
      await postBest({
        rampType: "BUY",
        from: "pix",
        inputAmount: "100",
        inputCurrency: "BRL",
        outputCurrency: "USDC.e",
        networks: ["base", "bsc"],
      }),
      "networks",
    );
    const bridged = await postBest({
      rampType: "BUY",
      from: "pix",
      inputAmount: "100",
      inputCurrency: "BRL",
      outputCurrency: "USDC.e",
    });
    expect(bridged.status, JSON.stringify(bridged.body)).toBe(201);
    expect(bridged.body.network).toBe("polygon");
  });

  it("validation: unknown rail, fiat off the rail, amount outside the rail's limits -> 400 VALIDATION_FAILED", async () => {
    const body = { rampType: "BUY", from: "pix", inputAmount: "100", inputCurrency: "BRL", outputCurrency: "USDC" };
    expectValidation(await postBest({ ...body, from: "boleto" }), "from");
    expectValidation(await postBest({ ...body, inputCurrency: "EUR" }), "inputCurrency");
    expectValidation(await postBest({ ...body, inputAmount: "49.99" }), "inputAmount");
    expectValidation(await postBest({ ...body, inputAmount: "1e3" }), "inputAmount");
    expectValidation(await postBest({ ...body, rampType: "SIDEWAYS" }), "rampType");
  });
});

describe("quote validation -> 400 VALIDATION_FAILED with the field", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["unknown rail (BUY from)", { ...BUY, from: "boleto" }, "from"],
    ["unknown rail (SELL to)", { ...SELL, to: "swift" }, "to"],
    ["unknown network", { ...BUY, to: "solana" }, "to"],
    ["fiat not carried by the rail (BUY)", { ...BUY, inputCurrency: "EUR" }, "inputCurrency"],
    ["fiat not carried by the rail (SELL)", { ...SELL, outputCurrency: "BRL" }, "outputCurrency"],
    ["unsupported fiat", { ...BUY, inputCurrency: "GBP" }, "inputCurrency"],
    ["token not on the network (BUY)", { ...BUY, to: "base", outputCurrency: "USDC.e" }, "outputCurrency"],
    ["token not on the network (SELL)", { ...SELL, from: "assethub", inputCurrency: "USDC.e" }, "inputCurrency"],
    ["too many decimals for the fiat", { ...BUY, inputAmount: "100.001" }, "inputAmount"],
    ["too many decimals for the token", { ...SELL, inputAmount: "100.0000001" }, "inputAmount"],
    [
      "too many decimals for an 18-decimal token",
      { ...SELL, from: "bsc", inputAmount: "100.0000000000000000001" },
      "inputAmount",
    ],
    ["zero", { ...BUY, inputAmount: "0" }, "inputAmount"],
    ["zero with decimals", { ...SELL, inputAmount: "0.000000" }, "inputAmount"],
    ["below the rail's minimum (BUY: 50 BRL)", { ...BUY, inputAmount: "49.99" }, "inputAmount"],
    ["above the rail's maximum (BUY: 250000 BRL)", { ...BUY, inputAmount: "250000.01" }, "inputAmount"],
    ["below the rail's minimum (SELL: 10 USDC = 9.20 EUR < 10)", { ...SELL, inputAmount: "10" }, "inputAmount"],
    ["above the rail's maximum (SELL: 54348 USDC = 50000.16 EUR)", { ...SELL, inputAmount: "54348" }, "inputAmount"],
    ["fees eat the amount", { ...SELL, from: "ethereum", inputAmount: "1" }, "inputAmount"],
    ["countryCode outside the fiat's corridor", { ...BUY, countryCode: "AR" }, "countryCode"],
    ["countryCode outside the fiat's corridor (EUR)", { ...SELL, countryCode: "US" }, "countryCode"],
    ["unknown countryCode", { ...BUY, countryCode: "ZZ" }, "countryCode"],
    ["paymentMethod not matching the rail", { ...BUY, paymentMethod: "sepa" }, "paymentMethod"],
    ["network not matching", { ...BUY, network: "base" }, "network"],
    ["exponent", { ...BUY, inputAmount: "1e3" }, "inputAmount"],
    ["negative", { ...BUY, inputAmount: "-1" }, "inputAmount"],
    ["decimal comma", { ...BUY, inputAmount: "1,5" }, "inputAmount"],
    ["grouping", { ...BUY, inputAmount: "1,000" }, "inputAmount"],
    ["leading zero", { ...BUY, inputAmount: "0100" }, "inputAmount"],
    ["whitespace", { ...BUY, inputAmount: " 100" }, "inputAmount"],
    ["empty", { ...BUY, inputAmount: "" }, "inputAmount"],
    ["a JSON number", { ...BUY, inputAmount: 100 }, "inputAmount"],
    ["trailing point", { ...BUY, inputAmount: "100." }, "inputAmount"],
    ["unknown rampType", { ...BUY, rampType: "SWAP" }, "rampType"],
    [
      "missing outputCurrency",
      { rampType: "BUY", from: "pix", to: "polygon", inputAmount: "100", inputCurrency: "BRL" },
      "outputCurrency",
    ],
  ];

  it.each(cases)("%s", async (_name, body, field) => {
    const before = await t.app.db.quote.count();
    expectValidation(await postQuote(body), field);
    expect(await t.app.db.quote.count()).toBe(before);
  });

  it("the rails' limits are inclusive: exactly the minimum and the maximum are quoted", async () => {
    for (const inputAmount of ["50", "250000", "50.00", "250000.00"]) {
      const response = await postQuote({ ...BUY, inputAmount });
      expect(response.status, `${inputAmount}: ${JSON.stringify(response.body)}`).toBe(201);
    }
  });

  it("a non-object body -> 400", async () => {
    const array = await t.request("POST", "/v1/quotes", { body: [BUY] });
    expectError(array, 400, "VALIDATION_FAILED");
    const broken = await t.request("POST", "/v1/quotes", { rawBody: '{"rampType":' });
    expectError(broken, 400, "INVALID_JSON");
  });

  it("a caller with a bad credential gets the authentication error, never a validation error", async () => {
    const bad: [Headers, string][] = [
      [{ "x-api-key": "sk_test_short" }, "INVALID_SECRET_KEY"],
      [{ "x-api-key": `sk_test_${"A".repeat(32)}` }, "INVALID_API_KEY"],
      [{ "x-public-key": `pk_test_${"B".repeat(32)}` }, "INVALID_PUBLIC_KEY"],
      [{ authorization: "Bearer not.a.jwt" }, "INVALID_BEARER_TOKEN"],
    ];
    const invalidBody = { ...BUY, from: "boleto", inputAmount: "1e3" };
    for (const [headers, code] of bad) {
      expectError(await postQuote(invalidBody, headers), 401, code);
      expectError(await postBest({ rampType: "nope" }, headers), 401, code);
      expectError(await postSession({ callbackUrl: "ftp://x" }, headers), 401, code);
      expectError(await getQuote("not-a-uuid", headers), 401, code);
      // With a valid body too: the key is refused, nothing is quoted.
      expectError(await postQuote(BUY, headers), 401, code);
    }
  });
});

describe("pricing precedence", () => {
  const price = async (headers: Headers) => {
    const created = await quote(PROFILED, headers);
    const row = await quoteRow(created.id);
    expect(created.outputAmount, `output for ${row.pricingProfile}`).toBe(
      PROFILE_OUTPUT[row.pricingProfile as ProfileName],
    );
    return row.pricingProfile;
  };

  it("the child's assignment, else its manager's, else default: the same for delegation and the child's own keys", async () => {
    const { manager, childId, childSecret, childPublic } = await managerWithChild();
    const asChild: Record<string, Headers> = {
      "manager secret + selector": selecting(manager.secret, childId),
      "manager session + selector": selecting(manager.session, childId),
      "child secret": childSecret,
      "child public": childPublic,
    };
    const profiles = async () =>
      Object.fromEntries(
        await Promise.all(Object.entries(asChild).map(async ([name, headers]) => [name, await price(headers)])),
      );
    const everywhere = (name: string) => Object.fromEntries(Object.keys(asChild).map((key) => [key, name]));

    // Nothing assigned: the default.
    expect(await profiles()).toEqual(everywhere("default"));
    expect(await price(manager.secret)).toBe("default");

    // The manager's assignment reaches its child.
    await assignPricing(manager.profileId, "reduced");
    expect(await profiles()).toEqual(everywhere("reduced"));
    expect(await price(manager.session)).toBe("reduced");

    // The child's own assignment wins over the manager's; the manager's own quotes keep the manager's.
    await assignPricing(childId, "partner-markup");
    expect(await profiles()).toEqual(everywhere("partner-markup"));
    expect(await price(manager.secret)).toBe("reduced");
    expect(await price(manager.public)).toBe("reduced");

    // Another child of the same manager, without an assignment of its own: the manager's.
    const sibling = await newChild(manager);
    expect(await price(selecting(manager.secret, sibling.childId))).toBe("reduced");
    expect(await price(sibling.childSecret)).toBe("reduced");

    // A change of the manager's assignment applies to the next quote.
    await assignPricing(manager.profileId, "zero-fee");
    expect(await price(sibling.childPublic)).toBe("zero-fee");
    expect(await price(childSecret)).toBe("partner-markup");
  });

  it("a direct profile's assignment applies to its session, secret and public key; anonymous callers pay the default", async () => {
    const caller = await newCaller();
    await assignPricing(caller.profileId, "zero-fee");
    for (const headers of [caller.session, caller.secret, caller.public]) expect(await price(headers)).toBe("zero-fee");
    expect(await price({})).toBe("default");
    // A manager's assignment never reaches profiles it does not manage.
    const { manager } = await managerWithChild();
    await assignPricing(manager.profileId, "reduced");
    expect(await price((await newCaller()).secret)).toBe("default");
  });

  it("the quote's fees follow the profile: partner markup appears only with partner-markup", async () => {
    const caller = await newCaller();
    await assignPricing(caller.profileId, "partner-markup");
    const marked = await quote(PROFILED, caller.secret);
    expect(marked).toMatchObject({
      vortexFeeFiat: "5.00",
      partnerFeeFiat: "2.50",
      partnerFeeUSD: "0.46",
      processingFeeFiat: "7.50",
      totalFeeFiat: "10.11",
    });
    const plain = await quote(PROFILED);
    expect(plain).toMatchObject({
      vortexFeeFiat: "5.00",
      partnerFeeFiat: "0.00",
      partnerFeeUSD: "0.00",
      totalFeeFiat: "7.61",
    });
  });

  it("an unknown pricing profile name -> 400 VALIDATION_FAILED and nothing changes", async () => {
    const caller = await newCaller();
    await assignPricing(caller.profileId, "reduced");
    for (const pricingProfile of ["vip-gold", "Default", "zero_fee"]) {
      const response = await t.request("PUT", `/v1/admin/pricing-assignments/${caller.profileId}`, {
        headers: t.operatorHeaders,
        body: { pricingProfile },
      });
      expectValidation(response, "pricingProfile");
    }
    expect(await price(caller.secret)).toBe("reduced");
  });
});

describe("attribution", () => {
  it("quotes record the credential, the owner and (for partner-managed credentials) the partner", async () => {
    const caller = await newCaller();
    const rowOf = async (headers: Headers, body: unknown = BUY) => {
      const { credentialId, partnerId, ownerProfileId } = await quoteRow((await quote(body, headers)).id);
      return { credentialId, partnerId, ownerProfileId };
    };
    expect(await rowOf({})).toEqual({ credentialId: null, partnerId: null, ownerProfileId: null });
    expect(await rowOf(caller.public)).toEqual({
      credentialId: caller.credentialId,
      partnerId: null,
      ownerProfileId: null,
    });
    expect(await rowOf(caller.secret, SELL)).toEqual({
      credentialId: caller.credentialId,
      partnerId: null,
      ownerProfileId: caller.profileId,
    });
    expect(await rowOf(caller.session)).toEqual({
      credentialId: null,
      partnerId: null,
      ownerProfileId: caller.profileId,
    });

    // A partner-managed credential, issued by the operator for this profile.
    const partner = await t.request("POST", "/v1/admin/partners", {
      headers: t.operatorHeaders,
      body: { name: `Wallet ${randomUUID().slice(0, 8)}` },
    });
    expect(partner.status, JSON.stringify(partner.body)).toBe(201);
    const partnerId: string = partner.body.partner.id;
    const issued = await t.request("POST", `/v1/admin/partners/${partnerId}/api-credentials`, {
      headers: t.operatorHeaders,
      body: { profileId: caller.profileId },
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    rememberSecret(issued.body.secretKey);
    expect(await rowOf({ "x-api-key": issued.body.secretKey })).toEqual({
      credentialId: issued.body.id,
      partnerId,
      ownerProfileId: caller.profileId,
    });
    expect(await rowOf({ "x-public-key": issued.body.publicKey }, SELL)).toEqual({
      credentialId: issued.body.id,
      partnerId,
      ownerProfileId: null,
    });
    // The profile's own session reads the partner-attributed quote it owns.
    const owned = await quote(BUY, { "x-api-key": issued.body.secretKey });
    expect((await getQuote(owned.id, caller.session)).status).toBe(200);
    // Best quotes are attributed the same way.
    const bestQuote = await postBest(
      { rampType: "BUY", from: "pix", inputAmount: "100", inputCurrency: "BRL", outputCurrency: "USDC" },
      { "x-api-key": issued.body.secretKey },
    );
    expect(bestQuote.status).toBe(201);
    expect(await quoteRow(bestQuote.body.id)).toMatchObject({
      credentialId: issued.body.id,
      partnerId,
      ownerProfileId: caller.profileId,
    });
  });

  it("under delegation the child owns the quote and the manager's credential is recorded", async () => {
    const { manager, childId, childCredentialId, childSecret } = await managerWithChild();
    const delegated = await quote(BUY, selecting(manager.secret, childId));
    expect(await quoteRow(delegated.id)).toMatchObject({
      credentialId: manager.credentialId,
      partnerId: null,
      ownerProfileId: childId,
    });
    const bySession = await quote(BUY, selecting(manager.session, childId));
    expect(await quoteRow(bySession.id)).toMatchObject({ credentialId: null, ownerProfileId: childId });
    const own = await quote(SELL, childSecret);
    expect(await quoteRow(own.id)).toMatchObject({
      credentialId: childCredentialId,
      partnerId: null,
      ownerProfileId: childId,
    });

    // Whoever acts as the child reads the child's quotes; the manager acting as itself does not.
    for (const id of [delegated.id, bySession.id, own.id]) {
      for (const headers of [childSecret, selecting(manager.secret, childId), selecting(manager.session, childId)]) {
        expect((await getQuote(id, headers)).status, id).toBe(200);
      }
      expectError(await getQuote(id, manager.secret), 404, "NOT_FOUND");
      expectError(await getQuote(id, manager.session), 404, "NOT_FOUND");
    }
    // And the child does not read its manager's own quotes.
    const managers = await quote(BUY, manager.secret);
    expectError(await getQuote(managers.id, childSecret), 404, "NOT_FOUND");
  });
});

describe("POST /v1/session/create", () => {
  function expectWidgetUrl(body: { sessionId: string; url: string }) {
    expect(Object.keys(body).sort()).toEqual(["sessionId", "url"]);
    expect(body.sessionId).toMatch(UUID);
    const url = new URL(body.url);
    const base = new URL(WIDGET_BASE_URL);
    expect(url.origin).toBe("https://widget.quotes-test.example:8443");
    expect(url.pathname).toBe(base.pathname);
    expect(url.searchParams.get("sessionId")).toBe(body.sessionId);
    // The base URL's own parameters survive.
    expect(url.searchParams.get("theme")).toBe("dark");
  }

  const refresh = {
    rampType: "BUY",
    network: "polygon",
    inputAmount: "150",
    externalSessionId: "partner-session-1",
    fiat: "BRL",
    cryptoLocked: "USDC",
    paymentMethod: "pix",
    countryCode: "BR",
    callbackUrl: "https://partner.example.com/ramp/complete",
    walletAddressLocked: "0x1234567890123456789012345678901234567890",
  };

  it("the locked form (quoteId) -> 201 {sessionId, url} on WIDGET_BASE_URL, owned like the quote", async () => {
    const caller = await newCaller();
    const owned = await quote(BUY, caller.session);
    const response = await postSession(
      { quoteId: owned.id, externalSessionId: "ext-locked", callbackUrl: "http://localhost:3000/done" },
      caller.secret,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expectWidgetUrl(response.body);
    const row = await t.app.db.widgetSession.findUniqueOrThrow({ where: { id: response.body.sessionId } });
    expect(row).toMatchObject({
      quoteId: owned.id,
      ownerProfileId: caller.profileId,
      credentialId: caller.credentialId,
      externalSessionId: "ext-locked",
    });

    // Without the optional fields too, and each call makes a new session.
    const again = await postSession({ quoteId: owned.id }, caller.session);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expectWidgetUrl(again.body);
    expect(again.body.sessionId).not.toBe(response.body.sessionId);
  });

  it("the refresh form (route parameters) -> 201 for anonymous, public, secret and session callers", async () => {
    const caller = await newCaller();
    const callers: [string, Headers, string | null, string | null][] = [
      ["anonymous", {}, null, null],
      ["public", caller.public, null, caller.credentialId],
      ["secret", caller.secret, caller.profileId, caller.credentialId],
      ["session", caller.session, caller.profileId, null],
    ];
    for (const [name, headers, owner, credentialId] of callers) {
      const response = await postSession(refresh, headers);
      expect(response.status, `${name}: ${JSON.stringify(response.body)}`).toBe(201);
      expectWidgetUrl(response.body);
      const row = await t.app.db.widgetSession.findUniqueOrThrow({ where: { id: response.body.sessionId } });
      expect(row, name).toMatchObject({
        quoteId: null,
        ownerProfileId: owner,
        credentialId,
        externalSessionId: "partner-session-1",
      });
      expect(JSON.parse(row.parameters)).toMatchObject({
        rampType: "BUY",
        network: "polygon",
        inputAmount: "150",
        callbackUrl: refresh.callbackUrl,
      });
    }
    const minimal = await postSession({
      rampType: "SELL",
      network: "bsc",
      inputAmount: "0.000000000000000001",
      externalSessionId: "x",
    });
    expect(minimal.status, JSON.stringify(minimal.body)).toBe(201);
  });

  it("the locked form with another profile's quote or an unknown id -> 404 NOT_FOUND; a malformed id -> 400", async () => {
    const [owner, other] = [await newCaller(), await newCaller()];
    const owned = await quote(BUY, owner.secret);
    const before = await t.app.db.widgetSession.count();
    for (const headers of [other.secret, other.session, other.public, {}])
      expectError(await postSession({ quoteId: owned.id }, headers), 404, "NOT_FOUND");
    // A public key sees only unowned quotes, its own profile's owned ones included.
    expectError(await postSession({ quoteId: owned.id }, owner.public), 404, "NOT_FOUND");
    expectError(await postSession({ quoteId: randomUUID() }, owner.secret), 404, "NOT_FOUND");
    expectError(await postSession({ quoteId: "quote_01HXY" }, owner.secret), 400, "VALIDATION_FAILED", "quoteId");
    expect(await t.app.db.widgetSession.count()).toBe(before);

    // An unowned (anonymous) quote can be locked by anyone.
    const unowned = await quote(SELL);
    for (const headers of [{}, other.public, other.secret])
      expect((await postSession({ quoteId: unowned.id }, headers)).status).toBe(201);
  });

  it("under delegation the session belongs to the child", async () => {
    const { manager, childId, childSecret } = await managerWithChild();
    const childQuote = await quote(BUY, childSecret);
    const response = await postSession(
      { quoteId: childQuote.id, externalSessionId: "delegated" },
      selecting(manager.secret, childId),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(await t.app.db.widgetSession.findUniqueOrThrow({ where: { id: response.body.sessionId } })).toMatchObject({
      ownerProfileId: childId,
      credentialId: manager.credentialId,
      quoteId: childQuote.id,
    });
    // The manager acting as itself cannot lock its child's quote.
    expectError(await postSession({ quoteId: childQuote.id }, manager.secret), 404, "NOT_FOUND");
  });

  it("invalid bodies -> 400 VALIDATION_FAILED", async () => {
    const { externalSessionId: _omitted, ...withoutExternalId } = refresh;
    const quoteId = (await quote(BUY)).id;
    // Each with the field the details name: a body with `quoteId` is the locked form, any other the refresh form.
    const bodies: [string, unknown, string][] = [
      ["callbackUrl ftp", { quoteId, callbackUrl: "ftp://partner.example.com/done" }, "callbackUrl"],
      ["callbackUrl javascript", { quoteId, callbackUrl: "javascript:alert(1)" }, "callbackUrl"],
      ["callbackUrl not a URL", { ...refresh, callbackUrl: "partner.example.com/done" }, "callbackUrl"],
      ["refresh form without externalSessionId", withoutExternalId, "externalSessionId"],
      ["refresh form with an empty externalSessionId", { ...refresh, externalSessionId: "" }, "externalSessionId"],
      ["unknown network", { ...refresh, network: "solana" }, "network"],
      ["unknown rampType", { ...refresh, rampType: "SWAP" }, "rampType"],
      ["malformed inputAmount", { ...refresh, inputAmount: "1e3" }, "inputAmount"],
      ["negative inputAmount", { ...refresh, inputAmount: "-5" }, "inputAmount"],
      ["empty body (the refresh form's required fields)", {}, "externalSessionId"],
      ["quoteId not a string", { quoteId: 42 }, "quoteId"],
      ["countryCode of three letters", { ...refresh, countryCode: "BRA" }, "countryCode"],
      [
        "an externalSessionId over 128 characters",
        { quoteId, externalSessionId: "x".repeat(129) },
        "externalSessionId",
      ],
      // The two forms are exclusive: route parameters next to a quoteId are unknown keys of the locked form.
      ["both forms at once", { ...refresh, quoteId }, "(body)"],
    ];
    const before = await t.app.db.widgetSession.count();
    for (const [name, body, field] of bodies) {
      const response = await postSession(body);
      expect(
        { name, status: response.status, code: response.body?.error?.code },
        JSON.stringify(response.body),
      ).toEqual({ name, status: 400, code: "VALIDATION_FAILED" });
      expect(response.body.error.details, name).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
    const empty = await postSession({});
    expect(empty.body.error.details.map((detail: { field: string }) => detail.field).sort()).toEqual([
      "externalSessionId",
      "inputAmount",
      "network",
      "rampType",
    ]);
    expect(await t.app.db.widgetSession.count()).toBe(before);
  });
});

describe("the reference's apiKey on quote, best quote and widget session creation (issue 13)", () => {
  /** A route whose body (or query) may present a public key, and what shows whom a creation is attributed to. */
  interface Creation {
    url: string;
    body: object;
    /** A body validation refuses (authentication comes first). */
    invalidBody: object;
    count(): Promise<number>;
    attribution(created: Record<string, string>): Promise<Record<string, unknown>>;
  }
  const quoteCreation = (url: string): Creation => ({
    url,
    body: BUY,
    invalidBody: { ...BUY, from: "boleto", inputAmount: "1e3" },
    count: () => t.app.db.quote.count(),
    async attribution(created) {
      const { credentialId, partnerId, ownerProfileId, pricingProfile } = await quoteRow(created.id!);
      return { credentialId, partnerId, ownerProfileId, pricingProfile };
    },
  });
  const creations: Creation[] = [
    quoteCreation("/v1/quotes"),
    quoteCreation("/v1/quotes/best"),
    {
      url: "/v1/session/create",
      body: { rampType: "BUY", network: "polygon", inputAmount: "150", externalSessionId: "api-key" },
      invalidBody: { rampType: "SWAP", callbackUrl: "ftp://x" },
      count: () => t.app.db.widgetSession.count(),
      async attribution(created) {
        const row = await t.app.db.widgetSession.findUniqueOrThrow({ where: { id: created.sessionId } });
        // The key did its work in authentication: the session's parameters do not keep it.
        expect(JSON.parse(row.parameters)).not.toHaveProperty("apiKey");
        const { credentialId, partnerId, ownerProfileId } = row;
        return { credentialId, partnerId, ownerProfileId };
      },
    },
  ];

  /** A creation request: its headers, the apiKey of its body and of its query (each left out when undefined). */
  interface Presented {
    headers?: Headers;
    body?: unknown;
    query?: unknown;
    /** Sends the route's invalid body. */
    invalid?: boolean;
  }
  const create = (route: Creation, { headers = {}, body, query, invalid }: Presented) => {
    // Presented keys stay out of the logs as the X-Public-Key header does: the log audit looks for them too.
    for (const value of [body, query])
      if (typeof value === "string" && /^pk_\w+_\w{32}$/.test(value)) rememberSecret(value);
    const url = query === undefined ? route.url : `${route.url}?apiKey=${encodeURIComponent(String(query))}`;
    const sent = { ...(invalid ? route.invalidBody : route.body), ...(body !== undefined && { apiKey: body }) };
    return t.request("POST", url, { headers, body: sent });
  };
  const created = async (route: Creation, presented: Presented) => {
    const response = await create(route, presented);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return route.attribution(response.body);
  };
  /** Each place a lone value can be presented. */
  const placesOf = (value: unknown): Presented[] => [{ body: value }, { query: value }];

  async function partnerCredential(profileId: string) {
    const partner = await t.request("POST", "/v1/admin/partners", {
      headers: t.operatorHeaders,
      body: { name: `Widget ${randomUUID().slice(0, 8)}` },
    });
    expect(partner.status, JSON.stringify(partner.body)).toBe(201);
    const issued = await t.request("POST", `/v1/admin/partners/${partner.body.partner.id}/api-credentials`, {
      headers: t.operatorHeaders,
      body: { profileId },
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    rememberSecret(issued.body.secretKey);
    return {
      partnerId: partner.body.partner.id as string,
      id: issued.body.id as string,
      publicKey: issued.body.publicKey,
    };
  }

  it("a lone apiKey, in the body or the query, attributes exactly as X-Public-Key does (credential, partner, pricing)", async () => {
    const caller = await newCaller();
    await assignPricing(caller.profileId, "zero-fee");
    const issued = await partnerCredential(caller.profileId);
    for (const route of creations) {
      const asHeader = await created(route, { headers: { "x-public-key": issued.publicKey } });
      expect(asHeader).toMatchObject({ credentialId: issued.id, partnerId: issued.partnerId, ownerProfileId: null });
      for (const presented of placesOf(issued.publicKey))
        expect(await created(route, presented), `${route.url} ${Object.keys(presented)}`).toEqual(asHeader);
      // null presents nothing, as an absent field.
      expect(await created(route, { body: null })).toMatchObject({ credentialId: null, partnerId: null });
    }
    expect(await created(creations[0]!, { body: issued.publicKey })).toMatchObject({ pricingProfile: "zero-fee" });
  });

  it("a managed child's public key as apiKey acts as the child, and is refused once its manager is inactive", async () => {
    const { manager, childId, childCredentialId, childPublic } = await managerWithChild();
    await assignPricing(childId, "reduced");
    const childKey = childPublic["x-public-key"]!;
    for (const route of creations) {
      for (const presented of placesOf(childKey))
        expect(await created(route, presented)).toMatchObject({
          credentialId: childCredentialId,
          ownerProfileId: null,
        });
    }
    expect(await created(creations[0]!, { body: childKey })).toMatchObject({ pricingProfile: "reduced" });

    const deactivated = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
      headers: t.operatorHeaders,
      body: { allowedCorridors: ["BR", "US"], isActive: false },
    });
    expect(deactivated.status, JSON.stringify(deactivated.body)).toBe(200);
    for (const route of creations) {
      const before = await route.count();
      expectError(await create(route, { headers: childPublic }), 403, "MANAGED_PROFILE_ACCESS_DENIED");
      for (const presented of placesOf(childKey))
        expectError(await create(route, presented), 403, "MANAGED_PROFILE_ACCESS_DENIED");
      expect(await route.count()).toBe(before);
    }
  });

  it("an apiKey of another credential than the headers' keys or the other apiKey -> 403 CREDENTIAL_MISMATCH, before validation; nothing is created", async () => {
    const [caller, other] = [await newCaller(), await newCaller()];
    const sibling = await t.createCredential(caller.session, { name: "sibling" });
    const mismatches: [string, Presented][] = [
      ["X-API-Key and a body apiKey of another profile", { headers: caller.secret, body: other.publicKey }],
      ["X-API-Key and a query apiKey of another profile", { headers: caller.secret, query: other.publicKey }],
      ["X-Public-Key and a body apiKey of another profile", { headers: caller.public, body: other.publicKey }],
      [
        "X-Public-Key and a query apiKey of the same profile's other credential",
        { headers: caller.public, query: sibling.publicKey },
      ],
      [
        "X-API-Key and a body apiKey of the same profile's other credential",
        { headers: caller.secret, body: sibling.publicKey },
      ],
      [
        "both header keys and a body apiKey of another profile",
        { headers: { ...caller.secret, ...caller.public }, body: other.publicKey },
      ],
      ["a body and a query apiKey of two credentials", { body: caller.publicKey, query: other.publicKey }],
    ];
    for (const route of creations) {
      const before = await route.count();
      for (const [name, presented] of mismatches) {
        for (const invalid of [false, true]) {
          const response = await create(route, { ...presented, invalid });
          expect({ name, invalid, status: response.status, code: response.body?.error?.code }).toEqual({
            name,
            invalid,
            status: 403,
            code: "CREDENTIAL_MISMATCH",
          });
        }
      }
      expect(await route.count(), route.url).toBe(before);
    }
  });

  it("a malformed, unknown, expired or revoked apiKey -> 401 INVALID_PUBLIC_KEY, before validation, beside any headers; nothing is created", async () => {
    const caller = await newCaller();
    const revoked = await t.createCredential(caller.session, { name: "revoked" });
    // Used first, so its cached verification has to be dropped by the revocation.
    await created(creations[0]!, { body: revoked.publicKey });
    expect((await t.request("DELETE", `/v1/api-credentials/${revoked.id}`, { headers: caller.session })).status).toBe(
      204,
    );
    const expired = await t.createCredential(caller.session, { name: "expired" });
    await t.app.db.apiCredential.update({
      where: { id: expired.id },
      data: { expiresAt: new Date(Date.now() - 60_000) },
    });
    const invalidValues: [string, unknown][] = [
      ["unknown pk_test_", `pk_test_${"Q".repeat(32)}`],
      ["unknown pk_live_", `pk_live_${"Q".repeat(32)}`],
      ["revoked", revoked.publicKey],
      ["expired", expired.publicKey],
      ["malformed", "pk_test_short"],
      ["a secret value", caller.secret["x-api-key"]],
      ["empty", ""],
    ];
    const headerSets: [string, Headers][] = [
      ["no headers", {}],
      ["X-Public-Key", caller.public],
      ["X-API-Key", caller.secret],
      ["a session", caller.session],
    ];
    for (const route of creations) {
      const before = await route.count();
      for (const [value, apiKey] of invalidValues) {
        for (const [headersName, headers] of headerSets) {
          for (const place of placesOf(apiKey)) {
            for (const invalid of [false, true]) {
              const response = await create(route, { ...place, headers, invalid });
              expect({
                value,
                headersName,
                place: Object.keys(place),
                invalid,
                status: response.status,
                code: response.body?.error?.code,
              }).toEqual({
                value,
                headersName,
                place: Object.keys(place),
                invalid,
                status: 401,
                code: "INVALID_PUBLIC_KEY",
              });
            }
          }
        }
      }
      // Anything but one string is no public value either: a list, or a query parameter given twice.
      for (const apiKey of [42, true, { key: caller.publicKey }, [caller.publicKey]])
        expectError(await create(route, { body: apiKey }), 401, "INVALID_PUBLIC_KEY");
      const twice = `${route.url}?apiKey=${caller.publicKey}&apiKey=${caller.publicKey}`;
      expectError(await t.request("POST", twice, { body: route.body }), 401, "INVALID_PUBLIC_KEY");
      expect(await route.count(), route.url).toBe(before);
    }
  });

  it("an apiKey of the headers' own credential, or beside a session -> 201, attributed as the headers alone would be", async () => {
    const [caller, other] = [await newCaller(), await newCaller()];
    for (const route of creations) {
      const asSecret = await created(route, { headers: caller.secret });
      const asPublic = await created(route, { headers: caller.public });
      const asSession = await created(route, { headers: caller.session });
      expect(asSecret).toMatchObject({ credentialId: caller.credentialId, ownerProfileId: caller.profileId });
      for (const place of placesOf(caller.publicKey)) {
        expect(await created(route, { ...place, headers: caller.secret })).toEqual(asSecret);
        expect(await created(route, { ...place, headers: { ...caller.secret, ...caller.public } })).toEqual(asSecret);
        expect(await created(route, { ...place, headers: caller.public })).toEqual(asPublic);
        // A session acts; a key beside it is verified (see the 401s above), whosever it is, and never acts.
        expect(await created(route, { ...place, headers: caller.session })).toEqual(asSession);
      }
      for (const place of placesOf(other.publicKey))
        expect(await created(route, { ...place, headers: caller.session })).toEqual(asSession);
      expect(await created(route, { body: caller.publicKey, query: caller.publicKey })).toEqual(asPublic);
    }
  });

  it("partnerId in the body attributes nothing: attribution comes from credentials", async () => {
    const caller = await newCaller();
    const issued = await partnerCredential(caller.profileId);
    for (const route of creations) {
      const response = await t.request("POST", route.url, { body: { ...route.body, partnerId: issued.partnerId } });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(await route.attribution(response.body)).toMatchObject({ credentialId: null, partnerId: null });
    }
  });
});
