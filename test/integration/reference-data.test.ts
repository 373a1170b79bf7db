import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { unknownKey } from "../support/security-suite.js";

/**
 * Public reference data (CONTRACT.md, "Ramp domain"): the reference contract's envelopes, fields and
 * filters over REST, the same over GraphQL, open to every caller whose presented credential is valid.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const ROUTES = [
  "/v1/supported-countries",
  "/v1/supported-cryptocurrencies",
  "/v1/supported-fiat-currencies",
  "/v1/supported-payment-methods",
];

/** The reference contract's fields, per envelope (its `paymentMethods:` key without the stray colon). */
const FIELDS = {
  countries: ["countryCode", "emoji", "name", "support", "supportedCurrencies"],
  cryptocurrencies: ["assetContractAddress", "assetDecimals", "assetForeignAssetId", "assetNetwork", "assetSymbol"],
  currencies: ["decimals", "name", "symbol"],
  paymentMethods: ["id", "limits", "name", "supportedFiats"],
};

function expectValidationFailure(response: HttpResponse, field: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.error).toMatchObject({
    code: "VALIDATION_FAILED",
    status: 400,
    details: [{ field, message: expect.any(String) }],
  });
  expect(response.headers["cache-control"]).toBeUndefined();
}

describe("REST envelopes and fields", () => {
  it("GET /v1/supported-countries: {countries: [{countryCode, name, emoji, supportedCurrencies, support}]}", async () => {
    const response = await t.request("GET", "/v1/supported-countries");
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(["countries"]);
    for (const country of response.body.countries) expect(Object.keys(country).sort()).toEqual(FIELDS.countries);
    expect(response.body.countries.find((country: { countryCode: string }) => country.countryCode === "DE")).toEqual({
      countryCode: "DE",
      name: "Germany",
      emoji: "🇩🇪",
      supportedCurrencies: ["EUR"],
      support: { buy: true, sell: true },
    });
    expect(response.body.countries.map((country: { countryCode: string }) => country.countryCode)).toEqual(
      expect.arrayContaining([
        "AR",
        "BR",
        "CO",
        "MX",
        "US",
        "AT",
        "BE",
        "DE",
        "ES",
        "FI",
        "FR",
        "IE",
        "IT",
        "NL",
        "PT",
      ]),
    );
  });

  it("GET /v1/supported-cryptocurrencies: {cryptocurrencies: [...]}, a contract on EVM networks, an asset id on AssetHub", async () => {
    const response = await t.request("GET", "/v1/supported-cryptocurrencies");
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(["cryptocurrencies"]);
    for (const asset of response.body.cryptocurrencies) {
      expect(Object.keys(asset).sort()).toEqual(FIELDS.cryptocurrencies);
      if (asset.assetNetwork === "assethub")
        expect(asset).toMatchObject({
          assetContractAddress: null,
          assetForeignAssetId: expect.stringMatching(/^\d+$/),
        });
      else
        expect(asset).toMatchObject({
          assetContractAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
          assetForeignAssetId: null,
        });
    }
    expect(response.body.cryptocurrencies).toContainEqual({
      assetSymbol: "USDC",
      assetNetwork: "base",
      assetDecimals: 6,
      assetContractAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      assetForeignAssetId: null,
    });
  });

  it("GET /v1/supported-fiat-currencies: {currencies: [{symbol, name, decimals}]} for EUR, ARS, BRL, USD, MXN, COP", async () => {
    const response = await t.request("GET", "/v1/supported-fiat-currencies");
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(["currencies"]);
    for (const currency of response.body.currencies) expect(Object.keys(currency).sort()).toEqual(FIELDS.currencies);
    expect(response.body.currencies.map((currency: { symbol: string }) => currency.symbol)).toEqual([
      "EUR",
      "ARS",
      "BRL",
      "USD",
      "MXN",
      "COP",
    ]);
    expect(response.body.currencies[2]).toEqual({ symbol: "BRL", name: "Brazilian Real", decimals: 2 });
  });

  it("GET /v1/supported-payment-methods: {paymentMethods: [{id, name, supportedFiats, limits: {min, max}}]}, integer limits", async () => {
    const response = await t.request("GET", "/v1/supported-payment-methods");
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(["paymentMethods"]);
    for (const method of response.body.paymentMethods) {
      expect(Object.keys(method).sort()).toEqual(FIELDS.paymentMethods);
      expect(Object.keys(method.limits).sort()).toEqual(["max", "min"]);
      expect(Number.isInteger(method.limits.min) && Number.isInteger(method.limits.max)).toBe(true);
      expect(method.limits.min).toBeLessThan(method.limits.max);
    }
    expect(
      response.body.paymentMethods.map((method: { id: string; supportedFiats: string[] }) => [
        method.id,
        method.supportedFiats,
      ]),
    ).toEqual([
      ["pix", ["BRL"]],
      ["sepa", ["EUR"]],
      ["cbu", ["ARS"]],
      ["ach", ["USD", "COP"]],
      ["spei", ["MXN"]],
    ]);
  });

  it("answers are cacheable by anyone for 5 minutes; errors are not", async () => {
    for (const route of ROUTES) {
      const response = await t.request("GET", route);
      expect({ route, status: response.status, cacheControl: response.headers["cache-control"] }).toEqual({
        route,
        status: 200,
        cacheControl: "public, max-age=300",
      });
    }
    expect(
      (await t.request("GET", "/v1/supported-fiat-currencies", { headers: { "x-api-key": "sk_test_short" } })).headers[
        "cache-control"
      ],
    ).toBeUndefined();
  });

  it("the OpenAPI document lists the four routes under the Reference data tag", async () => {
    const { paths } = (await t.request("GET", "/v1/openapi.json")).body;
    for (const route of ROUTES) expect(paths[route]?.get?.tags, route).toEqual(["Reference data"]);
    expect(paths["/v1/supported-cryptocurrencies"].get.parameters).toContainEqual(
      expect.objectContaining({ in: "query", name: "network" }),
    );
  });
});

describe("REST filters", () => {
  const countries = async (query: string) =>
    (await t.request("GET", `/v1/supported-countries?${query}`)).body.countries.map(
      (country: { countryCode: string }) => country.countryCode,
    );

  it("countries by code and name (case-insensitive) and by fiat currency, combined", async () => {
    expect(await countries("countryCode=br")).toEqual(["BR"]);
    expect(await countries("name=GERMANY")).toEqual(["DE"]);
    expect(await countries("name=United%20States")).toEqual(["US"]);
    const euro = await countries("fiatCurrency=EUR");
    expect(euro).toEqual(expect.arrayContaining(["AT", "BE", "DE", "ES", "FI", "FR", "IE", "IT", "NL", "PT"]));
    expect(euro).not.toContain("BR");
    expect(await countries("fiatCurrency=COP&countryCode=CO")).toEqual(["CO"]);
  });

  it("a valid filter that matches nothing is 200 with an empty list", async () => {
    for (const [url, envelope] of [
      ["/v1/supported-countries?countryCode=JP", "countries"],
      ["/v1/supported-countries?name=Atlantis", "countries"],
      ["/v1/supported-countries?fiatCurrency=BRL&countryCode=AR", "countries"],
      ["/v1/supported-cryptocurrencies?network=moonbeam", "cryptocurrencies"],
    ] as const) {
      const response = await t.request("GET", url);
      expect({ url, status: response.status, body: response.body }).toEqual({
        url,
        status: 200,
        body: { [envelope]: [] },
      });
    }
  });

  it("cryptocurrencies by network", async () => {
    const response = await t.request("GET", "/v1/supported-cryptocurrencies?network=assethub");
    expect(response.body.cryptocurrencies).toEqual([
      {
        assetSymbol: "USDC",
        assetNetwork: "assethub",
        assetDecimals: 6,
        assetContractAddress: null,
        assetForeignAssetId: "1337",
      },
      {
        assetSymbol: "USDT",
        assetNetwork: "assethub",
        assetDecimals: 6,
        assetContractAddress: null,
        assetForeignAssetId: "1984",
      },
    ]);
    const bsc = await t.request("GET", "/v1/supported-cryptocurrencies?network=bsc");
    expect(
      bsc.body.cryptocurrencies.map((asset: { assetSymbol: string; assetDecimals: number }) => [
        asset.assetSymbol,
        asset.assetDecimals,
      ]),
    ).toEqual([
      ["USDC", 18],
      ["USDT", 18],
    ]);
  });

  it("payment methods by type and fiat; the limits are those of the fiat asked for", async () => {
    const sell = await t.request("GET", "/v1/supported-payment-methods?type=sell&fiat=BRL");
    expect(sell.body).toEqual({
      paymentMethods: [{ id: "pix", name: "PIX", supportedFiats: ["BRL"], limits: { min: 50, max: 250000 } }],
    });
    const buy = await t.request("GET", "/v1/supported-payment-methods?type=buy");
    expect(buy.body.paymentMethods.map((method: { id: string }) => method.id)).toEqual([
      "pix",
      "sepa",
      "cbu",
      "ach",
      "spei",
    ]);
    const usd = await t.request("GET", "/v1/supported-payment-methods?fiat=USD");
    const cop = await t.request("GET", "/v1/supported-payment-methods?fiat=COP");
    expect(usd.body.paymentMethods).toEqual([
      { id: "ach", name: "ACH", supportedFiats: ["USD", "COP"], limits: { min: 10, max: 50000 } },
    ]);
    expect(cop.body.paymentMethods).toEqual([
      { id: "ach", name: "ACH", supportedFiats: ["USD", "COP"], limits: { min: 33000, max: 200000000 } },
    ]);
  });

  it("filter values outside the allowed sets are 400 VALIDATION_FAILED naming the field", async () => {
    expectValidationFailure(await t.request("GET", "/v1/supported-cryptocurrencies?network=solana"), "network");
    expectValidationFailure(await t.request("GET", "/v1/supported-cryptocurrencies?network="), "network");
    expectValidationFailure(await t.request("GET", "/v1/supported-payment-methods?type=swap"), "type");
    expectValidationFailure(await t.request("GET", "/v1/supported-payment-methods?fiat=JPY"), "fiat");
    expectValidationFailure(await t.request("GET", "/v1/supported-countries?fiatCurrency=JPY"), "fiatCurrency");
    expectValidationFailure(await t.request("GET", "/v1/supported-countries?countryCode=Brazil"), "countryCode");
    expectValidationFailure(
      await t.request("GET", "/v1/supported-countries?countryCode=BR&countryCode=AR"),
      "countryCode",
    );
    const both = await t.request("GET", "/v1/supported-payment-methods?type=swap&fiat=JPY");
    expect(both.body.error.details.map((detail: { field: string }) => detail.field)).toEqual(["type", "fiat"]);
    expect(both.body.error.details[0].message).toContain("buy, sell");
  });
});

describe("who may read it", () => {
  it("anyone: no credential, a public key, a secret key, a session", async () => {
    const session = await t.signIn();
    const credential = await t.createCredential(session.headers);
    for (const [who, headers] of Object.entries<Record<string, string>>({
      anonymous: {},
      "public key": { "x-public-key": credential.publicKey },
      "secret key": { "x-api-key": credential.secretKey },
      session: session.headers,
    })) {
      for (const route of ROUTES)
        expect({ who, route, status: (await t.request("GET", route, { headers })).status }).toEqual({
          who,
          route,
          status: 200,
        });
    }
  });

  it("a presented credential is still verified: malformed, unknown or broken ones are 401, before the filters are read", async () => {
    for (const [headers, code] of [
      [{ "x-api-key": "sk_test_short" }, "INVALID_SECRET_KEY"],
      [{ "x-api-key": unknownKey("sk") }, "INVALID_API_KEY"],
      [{ "x-public-key": unknownKey("pk") }, "INVALID_PUBLIC_KEY"],
      [{ authorization: "Bearer garbage" }, "INVALID_BEARER_TOKEN"],
    ] as const) {
      const response = await t.request("GET", "/v1/supported-cryptocurrencies?network=solana", { headers });
      expect({ status: response.status, code: response.body.error.code }).toEqual({ status: 401, code });
      const graphql = await t.graphql("{ supportedFiatCurrencies { symbol } }", undefined, headers);
      expect({
        status: graphql.status,
        code: graphql.body.errors[0].extensions.code,
        data: graphql.body.data ?? null,
      }).toEqual({ status: 401, code, data: null });
    }
  });
});

describe("GraphQL", () => {
  const COUNTRY = "countryCode name emoji supportedCurrencies support { buy sell }";
  const CRYPTO = "assetSymbol assetNetwork assetDecimals assetContractAddress assetForeignAssetId";
  const METHOD = "id name supportedFiats limits { min max }";

  it("answers what REST answers, with enums in GraphQL's upper case and amounts as decimal strings", async () => {
    const { body } = await t.graphql(
      `{ supportedCountries { ${COUNTRY} } supportedCryptocurrencies { ${CRYPTO} } supportedFiatCurrencies { symbol name decimals } supportedPaymentMethods { ${METHOD} } }`,
    );
    expect(body.errors).toBeUndefined();
    const rest = await Promise.all(ROUTES.map(async (route) => (await t.request("GET", route)).body));
    expect(body.data.supportedCountries).toEqual(rest[0].countries);
    expect(body.data.supportedCryptocurrencies).toEqual(
      rest[1].cryptocurrencies.map((asset: { assetNetwork: string }) => ({
        ...asset,
        assetNetwork: asset.assetNetwork.toUpperCase(),
      })),
    );
    expect(body.data.supportedFiatCurrencies).toEqual(rest[2].currencies);
    expect(body.data.supportedPaymentMethods).toEqual(
      rest[3].paymentMethods.map((method: { id: string; limits: { min: number; max: number } }) => ({
        ...method,
        id: method.id.toUpperCase(),
        limits: { min: String(method.limits.min), max: String(method.limits.max) },
      })),
    );
  });

  it("filters as REST does", async () => {
    const { body } = await t.graphql(
      `query Filtered($network: Network, $type: RampDirection, $fiat: FiatCurrencySymbol) {
        byCode: supportedCountries(countryCode: "mx") { countryCode }
        byName: supportedCountries(name: "colombia") { countryCode }
        byCurrency: supportedCountries(fiatCurrency: EUR, countryCode: "FR") { countryCode }
        nothing: supportedCountries(countryCode: "JP") { countryCode }
        supportedCryptocurrencies(network: $network) { assetSymbol assetNetwork }
        supportedPaymentMethods(type: $type, fiat: $fiat) { id limits { min max } }
      }`,
      { network: "ETHEREUM", type: "BUY", fiat: "COP" },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      byCode: [{ countryCode: "MX" }],
      byName: [{ countryCode: "CO" }],
      byCurrency: [{ countryCode: "FR" }],
      nothing: [],
      supportedCryptocurrencies: [
        { assetSymbol: "USDC", assetNetwork: "ETHEREUM" },
        { assetSymbol: "USDT", assetNetwork: "ETHEREUM" },
      ],
      supportedPaymentMethods: [{ id: "ACH", limits: { min: "33000", max: "200000000" } }],
    });
  });

  it("bad filter values are VALIDATION_FAILED (with details where the service decides)", async () => {
    const malformed = await t.graphql(`{ supportedCountries(countryCode: "Brazil") { countryCode } }`);
    expect(malformed.body.data).toBeNull();
    expect(malformed.body.errors[0].extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      status: 400,
      details: [{ field: "countryCode" }],
    });
    const unknownNetwork = await t.graphql(
      "query ($network: Network) { supportedCryptocurrencies(network: $network) { assetSymbol } }",
      { network: "SOLANA" },
    );
    expect(unknownNetwork.status).toBe(400);
    expect(unknownNetwork.body.errors[0].extensions).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
    const unknownType = await t.graphql("{ supportedPaymentMethods(type: SWAP) { id } }");
    expect(unknownType.body.errors[0].extensions).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
  });
});
