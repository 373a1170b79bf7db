import { z } from "zod";
import { countryCode, omissible } from "../validation.js";
import {
  COUNTRIES,
  CRYPTOCURRENCIES,
  FIAT_CURRENCIES,
  FIAT_SYMBOLS,
  NETWORKS,
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
  countryCode: omissible(countryCode()),
  name: omissible(
    z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(100)
      .transform((name) => name.toLowerCase()),
  ),
  fiatCurrency: omissible(oneOf(FIAT_SYMBOLS)),
});
export const cryptocurrenciesQuery = z.object({ network: omissible(oneOf(NETWORKS)) });
export const paymentMethodsQuery = z.object({
  type: omissible(oneOf(RAMP_DIRECTIONS)),
  fiat: omissible(oneOf(FIAT_SYMBOLS)),
});

export interface CountryView {
  countryCode: string;
  name: string;
  emoji: string;
  supportedCurrencies: FiatSymbol[];
  support: { buy: boolean; sell: boolean };
}

export interface CryptocurrencyView {
  assetSymbol: string;
  assetNetwork: Cryptocurrency["network"];
  assetDecimals: number;
  /** Set on EVM networks. */
  assetContractAddress: string | null;
  /** Set on AssetHub. */
  assetForeignAssetId: string | null;
}

export interface FiatCurrencyView {
  symbol: FiatSymbol;
  name: string;
  decimals: number;
}

export interface PaymentMethodView {
  id: PaymentMethod["id"];
  name: string;
  supportedFiats: FiatSymbol[];
  limits: { min: number; max: number };
}

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
