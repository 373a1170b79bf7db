import { describe, expect, it } from "vitest";
import {
  COUNTRIES,
  CRYPTOCURRENCIES,
  EVM_NETWORKS,
  FIAT_CURRENCIES,
  FIAT_SYMBOLS,
  NETWORKS,
  PAYMENT_METHODS,
  country,
  cryptocurrency,
  fiatCurrency,
  paymentMethod,
  paymentMethodLimits,
} from "../../src/reference-data/catalog.js";
import { CORRIDORS, CORRIDOR_FIAT, corridorOfFiat } from "../../src/reference-data/corridors.js";
import { parseInput } from "../../src/validation.js";
import {
  countriesQuery,
  cryptocurrenciesQuery,
  paymentMethodsQuery,
  supportedCountries,
  supportedCryptocurrencies,
  supportedFiatCurrencies,
  supportedPaymentMethods,
} from "../../src/reference-data/service.js";
import { AppError } from "../../src/errors.js";

const unique = (values: readonly string[]) => new Set(values).size === values.length;

/** The error a call throws, as the contract would answer it. */
function failure(call: () => unknown) {
  try {
    call();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, fields: error.details?.map((detail) => detail.field) };
    throw error;
  }
  throw new Error("expected a failure");
}

describe("reference catalog consistency", () => {
  it("has exactly the contract's fiat currencies, one per corridor, each with a name and 2 decimals", () => {
    expect([...FIAT_SYMBOLS].sort()).toEqual(["ARS", "BRL", "COP", "EUR", "MXN", "USD"]);
    expect(unique(FIAT_SYMBOLS)).toBe(true);
    expect(CORRIDORS.map((corridor) => CORRIDOR_FIAT[corridor]).sort()).toEqual([...FIAT_SYMBOLS].sort());
    for (const corridor of CORRIDORS) expect(corridorOfFiat(CORRIDOR_FIAT[corridor])).toBe(corridor);
    for (const currency of FIAT_CURRENCIES) {
      expect(currency.name.length).toBeGreaterThan(0);
      expect(currency.decimals).toBe(2);
    }
  });

  it("every country: a unique ISO code, its flag, existing currencies of its corridor, and a rail for what it supports", () => {
    expect(unique(COUNTRIES.map((entry) => entry.countryCode))).toBe(true);
    expect(COUNTRIES.map((entry) => entry.countryCode)).toEqual(
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
    for (const entry of COUNTRIES) {
      expect(entry.countryCode).toMatch(/^[A-Z]{2}$/);
      expect(
        [...entry.emoji].map((symbol) => String.fromCharCode(symbol.codePointAt(0)! - 0x1f1e6 + 65)).join(""),
      ).toBe(entry.countryCode);
      expect(entry.supportedCurrencies.length).toBeGreaterThan(0);
      for (const symbol of entry.supportedCurrencies)
        expect(fiatCurrency(symbol), `${entry.countryCode}: ${symbol}`).toBeDefined();
      expect(entry.supportedCurrencies).toContain(CORRIDOR_FIAT[entry.corridor]);
      for (const direction of ["buy", "sell"] as const) {
        const rails = PAYMENT_METHODS.filter(
          (method) =>
            method.directions.includes(direction) &&
            method.limits.some((limit) => entry.supportedCurrencies.includes(limit.fiat)),
        );
        expect(entry.support[direction], `${entry.countryCode} ${direction}`).toBe(rails.length > 0);
      }
    }
    // Every corridor is served by at least one country; the euro area through SEPA.
    expect(CORRIDORS.filter((corridor) => !COUNTRIES.some((entry) => entry.corridor === corridor))).toEqual([]);
    expect(
      COUNTRIES.filter((entry) => entry.corridor === "EU").every((entry) => entry.supportedCurrencies.includes("EUR")),
    ).toBe(true);
  });

  it("every payment method: a unique id, existing fiats once each, a direction, and whole-unit limits with 0 < min < max", () => {
    expect(PAYMENT_METHODS.map((method) => method.id)).toEqual(["pix", "sepa", "cbu", "ach", "spei"]);
    for (const method of PAYMENT_METHODS) {
      expect(method.directions.length).toBeGreaterThan(0);
      expect(method.limits.length).toBeGreaterThan(0);
      expect(unique(method.limits.map((limit) => limit.fiat))).toBe(true);
      for (const limit of method.limits) {
        expect(fiatCurrency(limit.fiat), `${method.id}: ${limit.fiat}`).toBeDefined();
        expect(Number.isSafeInteger(limit.min) && Number.isSafeInteger(limit.max)).toBe(true);
        expect(limit.min).toBeGreaterThan(0);
        expect(limit.min).toBeLessThan(limit.max);
      }
    }
    // Every fiat can be paid in or out over some rail.
    expect(
      FIAT_SYMBOLS.filter(
        (symbol) => !PAYMENT_METHODS.some((method) => method.limits.some((limit) => limit.fiat === symbol)),
      ),
    ).toEqual([]);
    expect(
      Object.fromEntries(PAYMENT_METHODS.map((method) => [method.id, method.limits.map((limit) => limit.fiat)])),
    ).toEqual({
      pix: ["BRL"],
      sepa: ["EUR"],
      cbu: ["ARS"],
      ach: ["USD", "COP"],
      spei: ["MXN"],
    });
  });

  it("every cryptocurrency: a known network, unique per network, EVM contracts as 0x + 40 hex, AssetHub ids, sane decimals", () => {
    expect(unique(CRYPTOCURRENCIES.map((asset) => `${asset.network}:${asset.symbol}`))).toBe(true);
    for (const asset of CRYPTOCURRENCIES) {
      expect(NETWORKS).toContain(asset.network);
      expect([6, 18]).toContain(asset.decimals);
      if (asset.network === "assethub") {
        expect(asset.foreignAssetId).toMatch(/^[0-9]+$/);
        expect(asset).not.toHaveProperty("contractAddress");
      } else {
        expect(EVM_NETWORKS).toContain(asset.network);
        expect(asset.contractAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
        expect(asset).not.toHaveProperty("foreignAssetId");
      }
    }
    // A contract address names one token only.
    expect(
      unique(
        CRYPTOCURRENCIES.flatMap((asset) =>
          asset.network === "assethub" ? [] : [`${asset.network}:${asset.contractAddress.toLowerCase()}`],
        ),
      ),
    ).toBe(true);
    for (const network of ["assethub", "arbitrum", "avalanche", "base", "bsc", "ethereum", "polygon"] as const) {
      expect(cryptocurrency("USDC", network), network).toBeDefined();
      expect(cryptocurrency("USDT", network), network).toBeDefined();
    }
  });

  it("lookups answer exact catalog values only", () => {
    expect(fiatCurrency("BRL")).toEqual({ symbol: "BRL", name: "Brazilian Real", decimals: 2 });
    expect(fiatCurrency("brl")).toBeUndefined();
    expect(fiatCurrency("JPY")).toBeUndefined();
    expect(paymentMethod("pix")?.name).toBe("PIX");
    expect(paymentMethod("swift")).toBeUndefined();
    expect(paymentMethodLimits("ach", "COP")).toEqual({ fiat: "COP", min: 33_000, max: 200_000_000 });
    expect(paymentMethodLimits("pix", "EUR")).toBeUndefined();
    expect(cryptocurrency("USDC", "ethereum")).toMatchObject({
      contractAddress: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
      decimals: 6,
    });
    expect(cryptocurrency("USDC", "solana")).toBeUndefined();
    expect(country("DE")).toMatchObject({ name: "Germany", emoji: "🇩🇪", corridor: "EU", supportedCurrencies: ["EUR"] });
    expect(country("JP")).toBeUndefined();
  });
});

/** What the reference-data operations do with a query: validate it with its schema, then filter. */
const countriesOf = (query: unknown) => supportedCountries(parseInput(countriesQuery, query ?? {}));
const cryptocurrenciesOf = (query: unknown) => supportedCryptocurrencies(parseInput(cryptocurrenciesQuery, query));
const paymentMethodsOf = (query: unknown) => supportedPaymentMethods(parseInput(paymentMethodsQuery, query));

describe("reference data filters", () => {
  it("countries: by code and name case-insensitively, by currency; no filter lists all", () => {
    expect(countriesOf({})).toHaveLength(COUNTRIES.length);
    expect(countriesOf(undefined)).toHaveLength(COUNTRIES.length);
    expect(countriesOf({ countryCode: "br" })).toEqual([
      {
        countryCode: "BR",
        name: "Brazil",
        emoji: "🇧🇷",
        supportedCurrencies: ["BRL"],
        support: { buy: true, sell: true },
      },
    ]);
    expect(countriesOf({ name: "  united STATES " }).map((entry) => entry.countryCode)).toEqual(["US"]);
    expect(countriesOf({ name: "United" })).toEqual([]);
    const euro = countriesOf({ fiatCurrency: "EUR" });
    expect(euro.length).toBe(COUNTRIES.filter((entry) => entry.corridor === "EU").length);
    expect(euro.map((entry) => entry.countryCode)).toEqual(expect.arrayContaining(["DE", "FR", "ES", "IT", "NL"]));
    expect(
      countriesOf({ fiatCurrency: "EUR", countryCode: "DE", name: "germany" }).map((entry) => entry.countryCode),
    ).toEqual(["DE"]);
    expect(countriesOf({ fiatCurrency: "BRL", countryCode: "DE" })).toEqual([]);
    expect(countriesOf({ countryCode: "JP" })).toEqual([]);
  });

  it("countries: malformed filters are VALIDATION_FAILED naming the field", () => {
    expect(failure(() => countriesOf({ countryCode: "Brazil" }))).toEqual({
      code: "VALIDATION_FAILED",
      fields: ["countryCode"],
    });
    expect(failure(() => countriesOf({ fiatCurrency: "JPY" }))).toEqual({
      code: "VALIDATION_FAILED",
      fields: ["fiatCurrency"],
    });
    expect(failure(() => countriesOf({ name: "  " }))).toEqual({ code: "VALIDATION_FAILED", fields: ["name"] });
    expect(failure(() => countriesOf({ name: "x".repeat(101) }))).toEqual({
      code: "VALIDATION_FAILED",
      fields: ["name"],
    });
    expect(failure(() => countriesOf({ countryCode: ["BR", "AR"] }))).toEqual({
      code: "VALIDATION_FAILED",
      fields: ["countryCode"],
    });
  });

  it("cryptocurrencies: by network; a network of the enum without assets is an empty list; others are refused", () => {
    expect(cryptocurrenciesOf({})).toHaveLength(CRYPTOCURRENCIES.length);
    const polygon = cryptocurrenciesOf({ network: "polygon" });
    expect(polygon.map((asset) => asset.assetSymbol)).toEqual(["USDC", "USDC.e", "USDT"]);
    expect(polygon.every((asset) => asset.assetNetwork === "polygon" && asset.assetForeignAssetId === null)).toBe(true);
    expect(cryptocurrenciesOf({ network: "assethub" })).toEqual([
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
    expect(cryptocurrenciesOf({ network: "moonbeam" })).toEqual([]);
    expect(failure(() => cryptocurrenciesOf({ network: "solana" }))).toEqual({
      code: "VALIDATION_FAILED",
      fields: ["network"],
    });
    expect(failure(() => cryptocurrenciesOf({ network: "Polygon" }))).toEqual({
      code: "VALIDATION_FAILED",
      fields: ["network"],
    });
  });

  it("fiat currencies: all of them, in the reference's order", () => {
    expect(supportedFiatCurrencies().map((currency) => currency.symbol)).toEqual([
      "EUR",
      "ARS",
      "BRL",
      "USD",
      "MXN",
      "COP",
    ]);
  });

  it("payment methods: by direction and fiat, with the limits of the fiat asked for", () => {
    expect(paymentMethodsOf({}).map((method) => method.id)).toEqual(["pix", "sepa", "cbu", "ach", "spei"]);
    expect(paymentMethodsOf({ type: "buy" }).map((method) => method.id)).toEqual(
      PAYMENT_METHODS.filter((method) => method.directions.includes("buy")).map((method) => method.id),
    );
    expect(paymentMethodsOf({ type: "sell", fiat: "BRL" })).toEqual([
      { id: "pix", name: "PIX", supportedFiats: ["BRL"], limits: { min: 50, max: 250_000 } },
    ]);
    expect(paymentMethodsOf({ fiat: "COP" })).toEqual([
      { id: "ach", name: "ACH", supportedFiats: ["USD", "COP"], limits: { min: 33_000, max: 200_000_000 } },
    ]);
    expect(paymentMethodsOf({}).find((method) => method.id === "ach")?.limits).toEqual({ min: 10, max: 50_000 });
    expect(failure(() => paymentMethodsOf({ type: "swap" }))).toEqual({
      code: "VALIDATION_FAILED",
      fields: ["type"],
    });
    expect(failure(() => paymentMethodsOf({ fiat: "JPY" }))).toEqual({
      code: "VALIDATION_FAILED",
      fields: ["fiat"],
    });
    expect(failure(() => paymentMethodsOf({ type: "BUY", fiat: "brl" }))).toEqual({
      code: "VALIDATION_FAILED",
      fields: ["type", "fiat"],
    });
  });

  it("views are copies: changing one leaves the catalog as it was", () => {
    const [first] = countriesOf({ countryCode: "AR" });
    first!.supportedCurrencies.push("USD");
    first!.support.buy = false;
    expect(country("AR")).toMatchObject({ supportedCurrencies: ["ARS"], support: { buy: true, sell: true } });
  });
});
