import type { Decimal } from "decimal.js";
import { formatAmount, money, quotientDown, roundDisplay, roundFee, roundPayout } from "../money.js";
import type { MarketTerms } from "../providers/ramp-port.js";
import type { FiatSymbol } from "../reference-data/corridors.js";
import type { Network } from "../reference-data/catalog.js";
import { describedEnum, hyphensAsUnderscores } from "../enums.js";

/**
 * The pricing profiles the operator can assign (PUT /v1/admin/pricing-assignments): the service's own
 * fee and a partner's markup, as rates of the fiat amount. Quotes use the subject's profile, else its
 * manager's, else `default`.
 */
export const PRICING_PROFILES = {
  default: { serviceFeeRate: "0.005", partnerMarkupRate: "0" },
  "partner-markup": { serviceFeeRate: "0.005", partnerMarkupRate: "0.0025" },
  reduced: { serviceFeeRate: "0.0025", partnerMarkupRate: "0" },
  "zero-fee": { serviceFeeRate: "0", partnerMarkupRate: "0" },
} as const;
export type PricingProfileName = keyof typeof PRICING_PROFILES;
export const PRICING_PROFILE_NAMES = Object.keys(PRICING_PROFILES) as [PricingProfileName, ...PricingProfileName[]];

describedEnum("PricingProfileName", PRICING_PROFILE_NAMES, {
  description: "A pricing profile, by name (REST spells PARTNER_MARKUP as partner-markup).",
  graphqlName: hyphensAsUnderscores,
  meanings: {
    default: "The standard fees.",
    "partner-markup": "The standard fees and a partner's markup.",
    reduced: "Reduced fees.",
    "zero-fee": "No service fee.",
  },
});

export const DEFAULT_PRICING_PROFILE: PricingProfileName = "default";

export interface PricingRequest {
  rampType: "BUY" | "SELL";
  /** The caller's amount: fiat for BUY, tokens for SELL. */
  inputAmount: string;
  fiat: FiatSymbol;
  fiatDecimals: number;
  token: string;
  tokenDecimals: number;
  network: Network;
}

const FEE_NAMES = ["networkFee", "anchorFee", "serviceFee", "partnerFee", "processingFee", "totalFee"] as const;
type FeeBreakdown = { [K in (typeof FEE_NAMES)[number] as `${K}Fiat` | `${K}USD`]: string };

export interface PricedQuote {
  outputAmount: string;
  /** The fiat side of the conversion before fees (BUY: the input; SELL: the tokens' fiat value). */
  grossFiat: Decimal;
  fees: FeeBreakdown;
}

const USD_DECIMALS = 2;

/**
 * Prices one conversion with decimal arithmetic. Fees are charged in the fiat, each rounded up to its
 * digits: network (the network's cost), anchor (the rail's fee), the service fee and the partner markup;
 * processing = anchor + service, total = network + processing + partner. The output is what remains,
 * converted and rounded down to the output currency's digits. Null when the fees eat the whole amount.
 */
export function priceQuote(
  request: PricingRequest,
  terms: MarketTerms,
  profile: PricingProfileName,
): PricedQuote | null {
  const pricing = PRICING_PROFILES[profile];
  const fiatPerUsd = terms.fiatPerUsd(request.fiat);
  const fiatPerToken = terms.usdPerToken(request.token).times(fiatPerUsd);
  const input = money(request.inputAmount);
  const grossFiat = request.rampType === "BUY" ? input : input.times(fiatPerToken);

  const inFiat = (value: Decimal) => roundFee(value, request.fiatDecimals);
  const rail = terms.railFee(request.fiat);
  const networkFee = inFiat(terms.networkFeeUsd(request.network).times(fiatPerUsd));
  const anchorFee = inFiat(rail.fixed.plus(grossFiat.times(rail.rate)));
  const serviceFee = inFiat(grossFiat.times(pricing.serviceFeeRate));
  const partnerFee = inFiat(grossFiat.times(pricing.partnerMarkupRate));
  const processingFee = anchorFee.plus(serviceFee);
  const totalFee = networkFee.plus(processingFee).plus(partnerFee);

  const netFiat = grossFiat.minus(totalFee);
  if (netFiat.lte(0)) return null;
  const output =
    request.rampType === "BUY"
      ? quotientDown(netFiat, fiatPerToken, request.tokenDecimals)
      : roundPayout(netFiat, request.fiatDecimals);
  if (output.lte(0)) return null;

  // USD equivalents: each part rounded for display, the sums taken from the rounded parts so they add up.
  const usd = (value: Decimal) => roundDisplay(quotientDown(value, fiatPerUsd, USD_DECIMALS + 1), USD_DECIMALS);
  const usdParts = {
    networkFee: usd(networkFee),
    anchorFee: usd(anchorFee),
    serviceFee: usd(serviceFee),
    partnerFee: usd(partnerFee),
  };
  const usdProcessing = usdParts.anchorFee.plus(usdParts.serviceFee);
  const fiatValues = { networkFee, anchorFee, serviceFee, partnerFee, processingFee, totalFee };
  const usdValues = {
    processingFee: usdProcessing,
    totalFee: usdParts.networkFee.plus(usdProcessing).plus(usdParts.partnerFee),
    ...usdParts,
  };

  // Filled in place: built as pairs and made into an object, the breakdown cost a sixth of the whole pricing.
  const fees = {} as FeeBreakdown;
  for (const name of FEE_NAMES) {
    fees[`${name}Fiat`] = formatAmount(fiatValues[name], request.fiatDecimals);
    fees[`${name}USD`] = formatAmount(usdValues[name], USD_DECIMALS);
  }
  return {
    outputAmount: formatAmount(output, request.rampType === "BUY" ? request.tokenDecimals : request.fiatDecimals),
    grossFiat,
    fees,
  };
}
