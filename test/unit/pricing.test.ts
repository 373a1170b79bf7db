import { describe, expect, it } from "vitest";
import { formatAmount, money, quotientDown, roundDisplay } from "../../src/money.js";
import type { MarketTerms } from "../../src/providers/ramp-port.js";
import {
  DEFAULT_PRICING_PROFILE,
  PRICING_PROFILE_NAMES,
  PRICING_PROFILES,
  priceQuote,
  type PricingProfileName,
  type PricingRequest,
} from "../../src/quotes/pricing.js";
import { cryptocurrency, fiatCurrency, type Network } from "../../src/reference-data/catalog.js";
import type { FiatSymbol } from "../../src/reference-data/corridors.js";
import { PRICE_SCHEDULE } from "../../src/reference-data/price-schedule.js";

/**
 * Quote pricing (src/quotes/pricing.ts) with given rates and the gateway's price schedule: fee breakdowns worked out by hand,
 * the rounding directions (fees up, output down, USD half up), each pricing profile, fees that eat the
 * amount, and large amounts with many decimal places checked against an independent BigInt fixed-point
 * computation (and shown to differ from what floating point would give).
 */

/** Rates as a partner would give them (FIAT_PER_USD below), and the gateway's price schedule. */
const terms: MarketTerms = { fiatPerUsd: (fiat) => money(FIAT_PER_USD[fiat]), ...PRICE_SCHEDULE };

/** A pricing request with the catalog's digits for the fiat and the token on the network. */
function request(
  rampType: "BUY" | "SELL",
  inputAmount: string,
  fiat: FiatSymbol,
  token: string,
  network: Network,
): PricingRequest {
  const fiatDetails = fiatCurrency(fiat);
  const tokenDetails = cryptocurrency(token, network);
  if (!fiatDetails || !tokenDetails) throw new Error(`not in the catalog: ${fiat}, ${token} on ${network}`);
  return {
    rampType,
    inputAmount,
    fiat,
    fiatDecimals: fiatDetails.decimals,
    token,
    tokenDecimals: tokenDetails.decimals,
    network,
  };
}

function price(req: PricingRequest, profile: PricingProfileName = DEFAULT_PRICING_PROFILE) {
  const priced = priceQuote(req, terms, profile);
  if (!priced) throw new Error(`no price for ${JSON.stringify(req)}`);
  return priced;
}

/** The breakdown in a compact form: [fiat, USD] per fee. */
function breakdown(fees: Record<string, string>) {
  const pair = (name: string) => [fees[`${name}Fiat`], fees[`${name}USD`]];
  return {
    network: pair("networkFee"),
    anchor: pair("anchorFee"),
    service: pair("serviceFee"),
    partner: pair("partnerFee"),
    processing: pair("processingFee"),
    total: pair("totalFee"),
  };
}

// ---------------------------------------------------------------------------------------------------------
// An independent reference: exact fixed-point decimals on BigInt (no decimal.js, no floats).

interface Fixed {
  /** value = units / 10^scale; every amount here is non-negative. */
  units: bigint;
  scale: number;
}

const pow10 = (n: number) => 10n ** BigInt(n);

function fx(text: string): Fixed {
  if (!/^\d+(\.\d+)?$/.test(text)) throw new Error(`not a plain decimal: ${text}`);
  const [whole, fraction = ""] = text.split(".");
  return { units: BigInt(whole + fraction), scale: fraction.length };
}

const rescale = (a: Fixed, scale: number) => a.units * pow10(scale - a.scale);
const add = (a: Fixed, b: Fixed): Fixed => {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
};
const sub = (a: Fixed, b: Fixed): Fixed => {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) - rescale(b, scale), scale };
};
const mul = (a: Fixed, b: Fixed): Fixed => ({ units: a.units * b.units, scale: a.scale + b.scale });
const sign = (a: Fixed) => (a.units > 0n ? 1 : a.units < 0n ? -1 : 0);

type Rounding = "up" | "down" | "halfUp";

/** numerator / denominator (as integers) rounded to an integer; both positive. */
function roundQuotient(numerator: bigint, denominator: bigint, mode: Rounding): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (mode === "up") return remainder > 0n ? quotient + 1n : quotient;
  if (mode === "halfUp") return 2n * remainder >= denominator ? quotient + 1n : quotient;
  return quotient;
}

/** a rounded to `digits` places. */
function round(a: Fixed, digits: number, mode: Rounding): Fixed {
  if (a.units < 0n) throw new Error("negative");
  if (a.scale <= digits) return { units: rescale(a, digits), scale: digits };
  return { units: roundQuotient(a.units, pow10(a.scale - digits), mode), scale: digits };
}

/** a / b rounded to `digits` places: (a.units / 10^a.scale) / (b.units / 10^b.scale) * 10^digits. */
function divide(a: Fixed, b: Fixed, digits: number, mode: Rounding): Fixed {
  if (a.units < 0n || b.units <= 0n) throw new Error("out of range");
  return { units: roundQuotient(a.units * pow10(b.scale + digits), b.units * pow10(a.scale), mode), scale: digits };
}

/** Plain notation with exactly the value's scale. */
function text(a: Fixed): string {
  const digits = a.units.toString().padStart(a.scale + 1, "0");
  return a.scale === 0 ? digits : `${digits.slice(0, -a.scale)}.${digits.slice(-a.scale)}`;
}

/** The shortest plain notation (what decimal.js prints for an unrounded value). */
function plain(a: Fixed): string {
  const full = text(a);
  return full.includes(".") ? full.replace(/0+$/, "").replace(/\.$/, "") : full;
}

// The sandbox's documented terms (docs/ramps.md, "Prices"), typed in again so the reference does not
// read them from the code under test.
const FIAT_PER_USD: Record<FiatSymbol, string> = {
  USD: "1",
  EUR: "0.92",
  BRL: "5.40",
  ARS: "1050",
  MXN: "17.20",
  COP: "4100",
};
const USD_PER_TOKEN: Record<string, string> = { USDC: "1", "USDC.e": "0.9999", USDT: "0.9998" };
const NETWORK_FEE_USD: Partial<Record<Network, string>> = {
  polygon: "0.02",
  base: "0.01",
  ethereum: "1.50",
  bsc: "0.05",
  arbitrum: "0.03",
};
const RAIL_FEE: Record<FiatSymbol, { fixed: string; rate: string }> = {
  BRL: { fixed: "0", rate: "0.0025" },
  EUR: { fixed: "0.50", rate: "0" },
  ARS: { fixed: "0", rate: "0.005" },
  USD: { fixed: "1", rate: "0" },
  MXN: { fixed: "0", rate: "0.002" },
  COP: { fixed: "0", rate: "0.003" },
};
const PROFILE_RATES: Record<PricingProfileName, { service: string; partner: string }> = {
  default: { service: "0.005", partner: "0" },
  "partner-markup": { service: "0.005", partner: "0.0025" },
  reduced: { service: "0.0025", partner: "0" },
  "zero-fee": { service: "0", partner: "0" },
};

/** The quote the documented rules give, computed exactly; null when the fees leave nothing. */
function reference(req: PricingRequest, profile: PricingProfileName) {
  const fiatPerUsd = fx(FIAT_PER_USD[req.fiat]);
  const fiatPerToken = mul(fx(USD_PER_TOKEN[req.token]), fiatPerUsd);
  const gross = req.rampType === "BUY" ? fx(req.inputAmount) : mul(fx(req.inputAmount), fiatPerToken);
  const d = req.fiatDecimals;
  const rail = RAIL_FEE[req.fiat];
  const rates = PROFILE_RATES[profile];
  const networkFee = round(mul(fx(NETWORK_FEE_USD[req.network]!), fiatPerUsd), d, "up");
  const anchorFee = round(add(fx(rail.fixed), mul(gross, fx(rail.rate))), d, "up");
  const serviceFee = round(mul(gross, fx(rates.service)), d, "up");
  const partnerFee = round(mul(gross, fx(rates.partner)), d, "up");
  const processingFee = add(anchorFee, serviceFee);
  const totalFee = add(add(networkFee, processingFee), partnerFee);
  const net = sub(gross, totalFee);
  if (sign(net) <= 0) return null;
  const output = req.rampType === "BUY" ? divide(net, fiatPerToken, req.tokenDecimals, "down") : round(net, d, "down");
  if (sign(output) <= 0) return null;
  const usd = (fee: Fixed) => divide(fee, fiatPerUsd, 2, "halfUp");
  const [networkUsd, anchorUsd, serviceUsd, partnerUsd] = [
    usd(networkFee),
    usd(anchorFee),
    usd(serviceFee),
    usd(partnerFee),
  ];
  const processingUsd = add(anchorUsd, serviceUsd);
  return {
    gross: plain(gross),
    outputAmount: text(output),
    fees: {
      networkFeeFiat: text(networkFee),
      networkFeeUSD: text(networkUsd),
      anchorFeeFiat: text(anchorFee),
      anchorFeeUSD: text(anchorUsd),
      serviceFeeFiat: text(serviceFee),
      serviceFeeUSD: text(serviceUsd),
      partnerFeeFiat: text(partnerFee),
      partnerFeeUSD: text(partnerUsd),
      processingFeeFiat: text(processingFee),
      processingFeeUSD: text(processingUsd),
      totalFeeFiat: text(totalFee),
      totalFeeUSD: text(add(add(networkUsd, processingUsd), partnerUsd)),
    },
  };
}

/** What a naive floating-point implementation of the same rules would answer. */
function floatOutput(req: PricingRequest, profile: PricingProfileName): string {
  const fiatPerUsd = Number(FIAT_PER_USD[req.fiat]);
  const fiatPerToken = Number(USD_PER_TOKEN[req.token]) * fiatPerUsd;
  const gross = req.rampType === "BUY" ? Number(req.inputAmount) : Number(req.inputAmount) * fiatPerToken;
  const up = (value: number) => Math.ceil(value * 100) / 100;
  const rail = RAIL_FEE[req.fiat];
  const rates = PROFILE_RATES[profile];
  const total =
    up(Number(NETWORK_FEE_USD[req.network]) * fiatPerUsd) +
    up(Number(rail.fixed) + gross * Number(rail.rate)) +
    up(gross * Number(rates.service)) +
    up(gross * Number(rates.partner));
  const net = gross - total;
  if (req.rampType === "SELL") return (Math.floor(net * 100) / 100).toFixed(2);
  const scale = 10 ** req.tokenDecimals;
  return (Math.floor((net / fiatPerToken) * scale) / scale).toFixed(req.tokenDecimals);
}

/** The four USD parts add up to the totals as shown. */
function expectUsdAddsUp(fees: Record<string, string>) {
  const cents = (name: string) => {
    const value = fees[`${name}USD`];
    expect(value, name).toMatch(/^\d+\.\d{2}$/);
    return BigInt(value.replace(".", ""));
  };
  expect(cents("processingFee")).toBe(cents("anchorFee") + cents("serviceFee"));
  expect(cents("totalFee")).toBe(cents("networkFee") + cents("processingFee") + cents("partnerFee"));
}

/** processing = anchor + service and total = network + processing + partner, in the fiat, exactly. */
function expectFiatAddsUp(fees: Record<string, string>) {
  const f = (name: string) => fx(fees[`${name}Fiat`]);
  expect(text(add(f("anchorFee"), f("serviceFee")))).toBe(fees.processingFeeFiat);
  expect(text(add(add(f("networkFee"), f("processingFee")), f("partnerFee")))).toBe(fees.totalFeeFiat);
}

// ---------------------------------------------------------------------------------------------------------

describe("the price schedule and the pricing profiles", () => {
  it("are the documented ones", () => {
    for (const [token, rate] of Object.entries(USD_PER_TOKEN))
      expect(terms.usdPerToken(token).toFixed(), token).toBe(plain(fx(rate)));
    for (const [network, fee] of Object.entries(NETWORK_FEE_USD))
      expect(terms.networkFeeUsd(network as Network).toFixed(), network).toBe(plain(fx(fee)));
    for (const [fiat, fee] of Object.entries(RAIL_FEE)) {
      const rail = terms.railFee(fiat as FiatSymbol);
      expect([rail.fixed.toFixed(), rail.rate.toFixed()], fiat).toEqual([plain(fx(fee.fixed)), plain(fx(fee.rate))]);
    }
    expect([...PRICING_PROFILE_NAMES].sort()).toEqual(["default", "partner-markup", "reduced", "zero-fee"]);
    expect(DEFAULT_PRICING_PROFILE).toBe("default");
    for (const name of PRICING_PROFILE_NAMES) {
      expect(PRICING_PROFILES[name], name).toEqual({
        serviceFeeRate: PROFILE_RATES[name].service,
        partnerMarkupRate: PROFILE_RATES[name].partner,
      });
    }
    // The precision cases below rely on BNB Smart Chain's 18-decimal tokens.
    expect(cryptocurrency("USDT", "bsc")?.decimals).toBe(18);
    expect(cryptocurrency("USDC", "bsc")?.decimals).toBe(18);
  });
});

describe("fee breakdowns worked out by hand", () => {
  it("BUY 100 BRL via PIX to USDC on polygon (default)", () => {
    // fiat per token 5.40; network 0.02 USD * 5.40 = 0.108 -> 0.11; anchor 0.25% of 100 = 0.25; service
    // 0.5% = 0.50; partner 0; processing 0.75; total 0.86; 99.14 / 5.40 = 18.3592592... -> 18.359259.
    // USD: 0.11/5.4 = 0.0204 -> 0.02; 0.25/5.4 = 0.0463 -> 0.05; 0.50/5.4 = 0.0926 -> 0.09.
    const priced = price(request("BUY", "100", "BRL", "USDC", "polygon"));
    expect(priced.outputAmount).toBe("18.359259");
    expect(priced.grossFiat.toFixed()).toBe("100");
    expect(breakdown(priced.fees)).toEqual({
      network: ["0.11", "0.02"],
      anchor: ["0.25", "0.05"],
      service: ["0.50", "0.09"],
      partner: ["0.00", "0.00"],
      processing: ["0.75", "0.14"],
      total: ["0.86", "0.16"],
    });
  });

  it("SELL 100 USDC on polygon to EUR via SEPA (default)", () => {
    // gross 100 * 0.92 = 92; network 0.02 * 0.92 = 0.0184 -> 0.02; anchor fixed 0.50; service 0.46;
    // total 0.98; output 91.02. USD: 0.0217 -> 0.02; 0.5435 -> 0.54; 0.46/0.92 = 0.50 exactly.
    const priced = price(request("SELL", "100", "EUR", "USDC", "polygon"));
    expect(priced.outputAmount).toBe("91.02");
    expect(priced.grossFiat.toFixed()).toBe("92");
    expect(breakdown(priced.fees)).toEqual({
      network: ["0.02", "0.02"],
      anchor: ["0.50", "0.54"],
      service: ["0.46", "0.50"],
      partner: ["0.00", "0.00"],
      processing: ["0.96", "1.04"],
      // The USD total is the sum of the rounded USD parts (1.06), not 0.98 / 0.92 = 1.0652 -> 1.07.
      total: ["0.98", "1.06"],
    });
  });

  it("BUY 1000 MXN via SPEI to USDT on base (partner-markup)", () => {
    // fiat per token 0.9998 * 17.20 = 17.19656; network 0.01 * 17.20 = 0.172 -> 0.18; anchor 0.2% = 2.00;
    // service 5.00; partner 0.25% = 2.50; processing 7.00; total 9.68; 990.32 / 17.19656 = 57.5882618... -> 57.588261.
    const priced = price(request("BUY", "1000", "MXN", "USDT", "base"), "partner-markup");
    expect(priced.outputAmount).toBe("57.588261");
    expect(breakdown(priced.fees)).toEqual({
      network: ["0.18", "0.01"],
      anchor: ["2.00", "0.12"],
      service: ["5.00", "0.29"],
      partner: ["2.50", "0.15"],
      processing: ["7.00", "0.41"],
      total: ["9.68", "0.57"],
    });
  });

  it("SELL 250 USDT on arbitrum to USD via ACH (reduced)", () => {
    // gross 250 * 0.9998 = 249.95; network 0.03; anchor fixed 1.00; service 0.25% = 0.624875 -> 0.63;
    // total 1.66; output 248.29 (USD fees equal the fiat ones).
    const priced = price(request("SELL", "250", "USD", "USDT", "arbitrum"), "reduced");
    expect(priced.grossFiat.toFixed()).toBe("249.95");
    expect(priced.outputAmount).toBe("248.29");
    expect(breakdown(priced.fees)).toEqual({
      network: ["0.03", "0.03"],
      anchor: ["1.00", "1.00"],
      service: ["0.63", "0.63"],
      partner: ["0.00", "0.00"],
      processing: ["1.63", "1.63"],
      total: ["1.66", "1.66"],
    });
  });

  it("each pricing profile: BUY 1000 BRL via PIX to USDC on polygon", () => {
    // network 0.11 and anchor 2.50 (0.46 USD) for all; service 5.00 (0.93 USD) or 2.50 (0.46 USD) or 0;
    // partner 2.50 (0.46 USD) with partner-markup only.
    const expected: Record<
      PricingProfileName,
      { output: string; service: string[]; partner: string[]; processing: string[]; total: string[] }
    > = {
      default: {
        output: "183.775925",
        service: ["5.00", "0.93"],
        partner: ["0.00", "0.00"],
        processing: ["7.50", "1.39"],
        total: ["7.61", "1.41"],
      },
      "partner-markup": {
        output: "183.312962",
        service: ["5.00", "0.93"],
        partner: ["2.50", "0.46"],
        processing: ["7.50", "1.39"],
        total: ["10.11", "1.87"],
      },
      reduced: {
        output: "184.238888",
        service: ["2.50", "0.46"],
        partner: ["0.00", "0.00"],
        processing: ["5.00", "0.92"],
        total: ["5.11", "0.94"],
      },
      "zero-fee": {
        output: "184.701851",
        service: ["0.00", "0.00"],
        partner: ["0.00", "0.00"],
        processing: ["2.50", "0.46"],
        total: ["2.61", "0.48"],
      },
    };
    const outputs = new Set<string>();
    for (const profile of PRICING_PROFILE_NAMES) {
      const priced = price(request("BUY", "1000", "BRL", "USDC", "polygon"), profile);
      const want = expected[profile];
      expect({ output: priced.outputAmount, ...breakdown(priced.fees) }, profile).toEqual({
        output: want.output,
        network: ["0.11", "0.02"],
        anchor: ["2.50", "0.46"],
        service: want.service,
        partner: want.partner,
        processing: want.processing,
        total: want.total,
      });
      outputs.add(priced.outputAmount);
    }
    expect(outputs.size).toBe(4);
  });

  it("the independent reference agrees with every hand-worked case", () => {
    const cases: [PricingRequest, PricingProfileName][] = [
      [request("BUY", "100", "BRL", "USDC", "polygon"), "default"],
      [request("SELL", "100", "EUR", "USDC", "polygon"), "default"],
      [request("BUY", "1000", "MXN", "USDT", "base"), "partner-markup"],
      [request("SELL", "250", "USD", "USDT", "arbitrum"), "reduced"],
      ...PRICING_PROFILE_NAMES.map((profile): [PricingRequest, PricingProfileName] => [
        request("BUY", "1000", "BRL", "USDC", "polygon"),
        profile,
      ]),
    ];
    for (const [req, profile] of cases) {
      const priced = price(req, profile);
      expect(
        { gross: priced.grossFiat.toFixed(), outputAmount: priced.outputAmount, fees: priced.fees },
        `${req.rampType} ${req.inputAmount} ${profile}`,
      ).toEqual(reference(req, profile));
    }
  });
});

describe("rounding directions", () => {
  it("fees round up to the fiat's digits and the output rounds down (BUY 100.01 BRL to USDC on base)", () => {
    // network 0.01 * 5.40 = 0.054 -> 0.06 (half up would give 0.05); anchor 0.250025 -> 0.26 (not 0.25);
    // service 0.50005 -> 0.51 (not 0.50); total 0.83; 99.18 / 5.40 = 18.3666666... -> 18.366666 (not ...667).
    const priced = price(request("BUY", "100.01", "BRL", "USDC", "base"));
    expect(breakdown(priced.fees)).toEqual({
      network: ["0.06", "0.01"],
      anchor: ["0.26", "0.05"],
      service: ["0.51", "0.09"],
      partner: ["0.00", "0.00"],
      processing: ["0.77", "0.14"],
      total: ["0.83", "0.15"],
    });
    expect(priced.outputAmount).toBe("18.366666");
  });

  it("a SELL output rounds down to the fiat's digits (SELL 10.001 USDC on polygon to USD)", () => {
    // gross 10.001; network 0.02; anchor 1.00; service 0.050005 -> 0.06; total 1.08; 8.921 -> 8.92.
    const priced = price(request("SELL", "10.001", "USD", "USDC", "polygon"));
    expect(priced.fees.serviceFeeFiat).toBe("0.06");
    expect(priced.fees.totalFeeFiat).toBe("1.08");
    expect(priced.outputAmount).toBe("8.92");
    // 8.929 would round half up to 8.93; down it stays 8.92.
    const higher = price(request("SELL", "10.009", "USD", "USDC", "polygon"));
    expect(higher.fees.totalFeeFiat).toBe("1.08");
    expect(higher.outputAmount).toBe("8.92");
  });

  it("USD equivalents round half up (BUY 26250 ARS via CBU: 131.25 ARS = 0.125 USD -> 0.13)", () => {
    // network 0.02 * 1050 = 21.00; anchor 0.5% = 131.25; service 131.25; total 283.50;
    // 25966.50 / 1050 = 24.73 exactly.
    const priced = price(request("BUY", "26250", "ARS", "USDC", "polygon"));
    expect(priced.outputAmount).toBe("24.730000");
    expect(breakdown(priced.fees)).toEqual({
      network: ["21.00", "0.02"],
      anchor: ["131.25", "0.13"],
      service: ["131.25", "0.13"],
      partner: ["0.00", "0.00"],
      processing: ["262.50", "0.26"],
      total: ["283.50", "0.28"],
    });
  });
});

describe("fees that eat the amount", () => {
  it("priceQuote answers null when the fees reach or exceed the amount, or nothing is left after rounding", () => {
    // 0.02 + 1.00 + 0.01 = 1.03 > 1.
    expect(priceQuote(request("BUY", "1", "USD", "USDC", "polygon"), terms, "default")).toBeNull();
    // 1.03 of fees on exactly 1.03: nothing left.
    expect(priceQuote(request("BUY", "1.03", "USD", "USDC", "polygon"), terms, "default")).toBeNull();
    // One cent more leaves one cent: 0.010000 USDC.
    expect(price(request("BUY", "1.04", "USD", "USDC", "polygon")).outputAmount).toBe("0.010000");
    // SELL 1.035 USDC: 1.035 - 1.03 = 0.005 USD, which rounds down to 0.00.
    expect(priceQuote(request("SELL", "1.035", "USD", "USDC", "polygon"), terms, "default")).toBeNull();
    expect(price(request("SELL", "1.04", "USD", "USDC", "polygon")).outputAmount).toBe("0.01");
    // Ethereum's network fee alone (1.38 EUR) is more than 1 USDC is worth (0.92 EUR).
    expect(priceQuote(request("SELL", "1", "EUR", "USDC", "ethereum"), terms, "default")).toBeNull();
    // Zero fee still pays the network and the rail.
    expect(priceQuote(request("BUY", "1.02", "USD", "USDC", "polygon"), terms, "zero-fee")).toBeNull();
    expect(price(request("BUY", "1.03", "USD", "USDC", "polygon"), "zero-fee").outputAmount).toBe("0.010000");
  });
});

describe("precision: large amounts with many decimal places", () => {
  const cases: { name: string; req: PricingRequest; profile: PricingProfileName }[] = [
    {
      name: "SELL 12345.678901234567890123 USDT (bsc) to COP",
      req: request("SELL", "12345.678901234567890123", "COP", "USDT", "bsc"),
      profile: "default",
    },
    // 48780.487804878048780487 USDC is worth 199999999.9999999999999967 COP: just under the ACH maximum.
    {
      name: "SELL USDC (bsc) to COP near the maximum",
      req: request("SELL", "48780.487804878048780487", "COP", "USDC", "bsc"),
      profile: "partner-markup",
    },
    {
      name: "SELL USDT (bsc) to ARS near the maximum",
      req: request("SELL", "47619.999999999999999999", "ARS", "USDT", "bsc"),
      profile: "reduced",
    },
    {
      name: "BUY 49999999.99 ARS to USDT (bsc)",
      req: request("BUY", "49999999.99", "ARS", "USDT", "bsc"),
      profile: "default",
    },
    {
      name: "BUY 199999999.99 COP to USDC (bsc)",
      req: request("BUY", "199999999.99", "COP", "USDC", "bsc"),
      profile: "partner-markup",
    },
    {
      name: "BUY 123456789.01 COP to USDC.e (polygon)",
      req: request("BUY", "123456789.01", "COP", "USDC.e", "polygon"),
      profile: "zero-fee",
    },
    {
      name: "SELL 999.999999999999999999 USDT (bsc) to MXN",
      req: request("SELL", "999.999999999999999999", "MXN", "USDT", "bsc"),
      profile: "default",
    },
  ];

  it.each(cases)("$name: every field equals the exact BigInt computation", ({ req, profile }) => {
    const want = reference(req, profile)!;
    expect(want).not.toBeNull();
    const priced = price(req, profile);
    expect({ gross: priced.grossFiat.toFixed(), outputAmount: priced.outputAmount, fees: priced.fees }).toEqual(want);
    expectFiatAddsUp(priced.fees);
    expectUsdAddsUp(priced.fees);
    // The output carries exactly the output currency's digits.
    const digits = req.rampType === "BUY" ? req.tokenDecimals : req.fiatDecimals;
    expect(priced.outputAmount).toMatch(new RegExp(`^\\d+\\.\\d{${digits}}$`));
  });

  it("spot values of the exact computation (SELL 12345.678901234567890123 USDT on bsc to COP)", () => {
    const priced = price(request("SELL", "12345.678901234567890123", "COP", "USDT", "bsc"));
    // 12345.678901234567890123 * 0.9998 * 4100, digit for digit.
    expect(priced.grossFiat.toFixed()).toBe("50607160.03836271600383439914");
    // network 205.00; anchor 0.3% = 151821.48011508814801150319742 -> 151821.49; service 0.5% -> 253035.81.
    expect(breakdown(priced.fees)).toMatchObject({
      network: ["205.00", "0.05"],
      anchor: ["151821.49", "37.03"],
      service: ["253035.81", "61.72"],
    });
    // 50607160.03836... - 405062.30 = 50202097.73836... -> 50202097.73.
    expect(priced.fees.totalFeeFiat).toBe("405062.30");
    expect(priced.outputAmount).toBe("50202097.73");
  });

  it("a BUY into an 18-decimal token keeps all 18 digits (49999999.99 ARS to USDT on bsc)", () => {
    const priced = price(request("BUY", "49999999.99", "ARS", "USDT", "bsc"));
    // fees: network 52.50, anchor 250000.00 (0.5%), service 250000.00 -> total 500052.50; net 49499947.49.
    expect(priced.fees.totalFeeFiat).toBe("500052.50");
    // 49499947.49 / (0.9998 * 1050) = 47152.23758084950323398012935... rounded down to 18 digits.
    expect(priced.outputAmount).toBe("47152.237580849503233980");
    expect(priced.outputAmount).toBe(text(divide(fx("49499947.49"), fx("1049.79"), 18, "down")));
    expect(priced.outputAmount.split(".")[1]).toHaveLength(18);
  });

  it("floating point would get these wrong (so the comparison above proves something)", () => {
    const differing = cases.filter(
      ({ req, profile }) => floatOutput(req, profile) !== reference(req, profile)!.outputAmount,
    );
    // Every BUY into an 18-decimal token is beyond a double's 15-17 significant digits.
    expect(differing.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(["BUY 49999999.99 ARS to USDT (bsc)", "BUY 199999999.99 COP to USDC (bsc)"]),
    );
    // And the input amount itself does not survive a trip through a double.
    expect(Number("12345.678901234567890123").toFixed(18)).not.toBe("12345.678901234567890123");
    // A float's product is off where the exact one is not.
    // eslint-disable-next-line no-loss-of-precision -- the float this literal rounds to is the point
    expect(String(12345.678901234567890123 * 0.9998 * 4100)).not.toBe(price(cases[0].req).grossFiat.toFixed());
  });
});

describe("quotients cut to their digits (quotientDown)", () => {
  // Deterministic operands: a linear congruential sequence, so a failure names the same case every run.
  let state = 12345;
  const next = (below: number) => (state = (state * 1103515245 + 12345) % 2 ** 31) % below;
  const digits = (count: number) => Array.from({ length: count }, () => next(10)).join("");
  const decimal = (whole: number, fraction: number) => `${1 + next(9)}${digits(whole)}.${digits(fraction)}`;
  const pairs = Array.from({ length: 400 }, () => ({
    dividend: decimal(next(12), 1 + next(8)),
    divisor: decimal(next(4), 1 + next(5)),
  }));
  // Quotients exactly halfway at two digits (x.xx5), where half up must round up.
  const ties = pairs.slice(0, 100).map(({ divisor }) => {
    const quotient = `${next(1000)}.${digits(2)}5`;
    return { dividend: mul(fx(quotient), fx(divisor)), divisor, quotient };
  });

  it("equals the exact quotient rounded down, to every count of digits a token has", () => {
    for (const { dividend, divisor } of pairs) {
      for (const places of [0, 2, 6, 18]) {
        expect(quotientDown(money(dividend), money(divisor), places).toFixed(places)).toBe(
          text(divide(fx(dividend), fx(divisor), places, "down")),
        );
      }
    }
  });

  it("rounded half up from one digit more, equals the exact quotient rounded half up (ties included)", () => {
    const halfUp = (dividend: string, divisor: string) =>
      roundDisplay(quotientDown(money(dividend), money(divisor), 3), 2).toFixed(2);
    for (const { dividend, divisor } of pairs) {
      expect(halfUp(dividend, divisor)).toBe(text(divide(fx(dividend), fx(divisor), 2, "halfUp")));
    }
    for (const { dividend, divisor, quotient } of ties) {
      const exact = text(divide(dividend, fx(divisor), 2, "halfUp"));
      expect(exact).toBe(text(round(fx(quotient), 2, "halfUp")));
      expect(halfUp(text(dividend), divisor)).toBe(exact);
    }
  });
});

describe("amounts on the wire (formatAmount)", () => {
  it("prints what toFixed prints, padded or rounded to the digits asked for", () => {
    const values = [
      "0",
      "-0",
      "5",
      "120",
      "0.5",
      "1.25",
      "1.255",
      "-3.14159",
      "0.000001",
      "1e-7",
      "123456789.123456789",
    ];
    for (const value of values) {
      for (const decimals of [0, 1, 2, 6, 18]) {
        expect(formatAmount(money(value), decimals)).toBe(money(value).toFixed(decimals));
      }
    }
    expect(formatAmount(money("5"), 2)).toBe("5.00");
    expect(formatAmount(money("1.255"), 2)).toBe("1.26");
  });
});
