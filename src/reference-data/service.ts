import { z } from "zod";
import { named, outputObject } from "../output.js";
import { countryCode, omissible } from "../validation.js";
import {
  COUNTRIES,
  CRYPTOCURRENCIES,
  FIAT_CURRENCIES,
  FIAT_SYMBOLS,
  NETWORKS,
  PAYMENT_METHOD_IDS,
  PAYMENT_METHODS,
  RAMP_DIRECTIONS,
  type Country,
  type Cryptocurrency,
  type PaymentMethod,
} from "./catalog.js";
import type { FiatSymbol } from "./corridors.js";

/*
 * The public reference data, filtered as the reference contract's query parameters say, in its wire shapes.
 * A filter value outside its allowed set is a validation failure; an allowed one that matches nothing is an
 * empty list.
 */

const oneOf = <T extends string>(values: readonly T[]) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });

export const countriesQuery = z.object({
  countryCode: omissible(countryCode()).describe(
    "A two-letter ISO 3166-1 code, in any case; anything else fails validation.",
  ),
  name: omissible(
    z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(100)
      .transform((name) => name.toLowerCase()),
  ).describe("The English name, matched whole and ignoring case (at most 100 characters)."),
  fiatCurrency: named("FiatCurrencySymbol", omissible(oneOf(FIAT_SYMBOLS))).describe(
    "Only the countries that ramp in this currency.",
  ),
});
export const cryptocurrenciesQuery = z.object({
  network: named("Network", omissible(oneOf(NETWORKS))).describe(
    "Only the assets on this network; null: every network.",
  ),
});
export const paymentMethodsQuery = z.object({
  type: omissible(oneOf(RAMP_DIRECTIONS)).describe("Only the rails that serve this direction."),
  fiat: named("FiatCurrencySymbol", omissible(oneOf(FIAT_SYMBOLS))).describe(
    "Only the rails carrying this fiat; their limits are then given in it.",
  ),
});

const fiatSymbol = () => named("FiatCurrencySymbol", z.enum(FIAT_SYMBOLS));

const rampSupportOutput = outputObject("RampSupport", "Which ramp directions a country is served in.", {
  buy: z.boolean().describe("True when some rail carrying the country's currency serves BUY ramps."),
  sell: z.boolean().describe("True when some rail carrying the country's currency serves SELL ramps."),
});

const countryOutput = outputObject("Country", "A country the gateway serves.", {
  countryCode: z.string().describe("ISO 3166-1 alpha-2."),
  name: z.string().describe("English name; the name filter matches it exactly, ignoring case."),
  emoji: z.string().describe("The country's flag."),
  supportedCurrencies: z
    .array(fiatSymbol())
    .describe("The fiat the country ramps in: its corridor's currency (EUR across the euro area)."),
  support: rampSupportOutput.describe("Which ramp directions the country's currency can be used for."),
});
type CountryView = z.output<typeof countryOutput>;

const cryptocurrencyOutput = outputObject("Cryptocurrency", "A crypto asset on one network.", {
  assetSymbol: z
    .string()
    .describe("Token symbol, such as USDC, USDT or USDC.e; a token on several networks has one entry per network."),
  assetNetwork: named("Network", z.enum(NETWORKS)).describe("The network this entry of the token lives on."),
  assetDecimals: z
    .number()
    .int()
    .describe("Decimal places of the token on this network; a SELL quote's input amount may have no more."),
  assetContractAddress: z.string().nullable().describe("The ERC-20 contract, on EVM networks."),
  assetForeignAssetId: z.string().nullable().describe("The asset id, on AssetHub."),
});
type CryptocurrencyView = z.output<typeof cryptocurrencyOutput>;

const fiatCurrencyOutput = outputObject("FiatCurrency", "A fiat currency the gateway ramps in, one per corridor.", {
  symbol: fiatSymbol().describe("ISO 4217 code."),
  name: z.string().describe("English name, such as Mexican Peso."),
  decimals: z.number().int().describe("Minor-unit digits."),
});
type FiatCurrencyView = z.output<typeof fiatCurrencyOutput>;

const limit = (description: string) => named("Decimal", z.number().int()).describe(description);
const paymentMethodOutput = outputObject("PaymentMethod", "A payment rail and the fiat currencies it carries.", {
  id: named("PaymentMethodId", z.enum(PAYMENT_METHOD_IDS)).describe("The rail, as a quote's paymentMethod names it."),
  name: z.string().describe("Display name, such as PIX or SEPA."),
  supportedFiats: z.array(fiatSymbol()).describe("The fiats the rail carries; the first is its home currency."),
  limits: outputObject("PaymentMethodLimits", "Amount bounds of one ramp, in whole units of the fiat.", {
    min: limit("Smallest fiat value a quote on this rail may have (inclusive)."),
    max: limit("Largest fiat value a quote on this rail may have (inclusive)."),
  }).describe("For the `fiat` filtered by, else for the first supported fiat."),
});
type PaymentMethodView = z.output<typeof paymentMethodOutput>;

export const countryList = z.object({ countries: z.array(countryOutput) });
export const cryptocurrencyList = z.object({ cryptocurrencies: z.array(cryptocurrencyOutput) });
export const fiatCurrencyList = z.object({ currencies: z.array(fiatCurrencyOutput) });
export const paymentMethodList = z.object({ paymentMethods: z.array(paymentMethodOutput) });

/** Countries by code and name (both case-insensitive, exact) and by a currency they use. */
export function supportedCountries({
  countryCode,
  name,
  fiatCurrency,
}: z.output<typeof countriesQuery>): CountryView[] {
  return COUNTRIES.filter(
    (country) =>
      (countryCode === undefined || country.countryCode === countryCode) &&
      (name === undefined || country.name.toLowerCase() === name) &&
      (fiatCurrency === undefined || country.supportedCurrencies.includes(fiatCurrency)),
  ).map(countryView);
}

export function supportedCryptocurrencies({ network }: z.output<typeof cryptocurrenciesQuery>): CryptocurrencyView[] {
  return CRYPTOCURRENCIES.filter((asset) => network === undefined || asset.network === network).map(cryptocurrencyView);
}

export function supportedFiatCurrencies(): FiatCurrencyView[] {
  return FIAT_CURRENCIES.map(({ symbol, name, decimals }) => ({ symbol, name, decimals }));
}

/** Rails by ramp direction and by a fiat they carry. */
export function supportedPaymentMethods({ type, fiat }: z.output<typeof paymentMethodsQuery>): PaymentMethodView[] {
  return PAYMENT_METHODS.filter(
    (method) =>
      (type === undefined || method.directions.includes(type)) &&
      (fiat === undefined || method.limits.some((limit) => limit.fiat === fiat)),
  ).map((method) => paymentMethodView(method, fiat));
}

const countryView = (country: Country): CountryView => ({
  countryCode: country.countryCode,
  name: country.name,
  emoji: country.emoji,
  supportedCurrencies: [...country.supportedCurrencies],
  support: { ...country.support },
});

const cryptocurrencyView = (asset: Cryptocurrency): CryptocurrencyView => ({
  assetSymbol: asset.symbol,
  assetNetwork: asset.network,
  assetDecimals: asset.decimals,
  assetContractAddress: asset.network === "assethub" ? null : asset.contractAddress,
  assetForeignAssetId: asset.network === "assethub" ? asset.foreignAssetId : null,
});

/**
 * The wire has one min/max per rail while the catalog keeps them per fiat: the limits of the fiat filtered
 * by, else those of the rail's home (first) currency.
 */
function paymentMethodView(method: PaymentMethod, fiat: FiatSymbol | undefined): PaymentMethodView {
  const { min, max } = method.limits.find((limit) => limit.fiat === fiat) ?? method.limits[0]!;
  return {
    id: method.id,
    name: method.name,
    supportedFiats: method.limits.map((limit) => limit.fiat),
    limits: { min, max },
  };
}
