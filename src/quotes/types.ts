import { z } from "zod";
import { NETWORKS } from "../reference-data/catalog.js";
import { amount, countryCode, omissible, text } from "../validation.js";
import type { FeeBreakdown } from "./pricing.js";

export const RAMP_TYPES = ["BUY", "SELL"] as const;
type RampType = (typeof RAMP_TYPES)[number];

/** A payment method, a network, a currency: the service looks each up in the catalog. */
const code = text("code");

/** A quote request. */
export const quoteInput = z.object({
  rampType: z.enum(RAMP_TYPES),
  from: code,
  to: code,
  inputAmount: amount(),
  inputCurrency: code,
  outputCurrency: code,
  network: omissible(code),
  paymentMethod: omissible(code),
  countryCode: omissible(countryCode()),
});
/** A request for the quote, among the candidate networks, that pays out the most. */
export const bestQuoteInput = z.object({
  rampType: z.enum(RAMP_TYPES),
  from: omissible(code),
  to: omissible(code),
  inputAmount: amount(),
  inputCurrency: code,
  outputCurrency: code,
  /** A whitelist of networks to compare; omitted or empty: every network (the reference's rule). */
  networks: omissible(
    z.array(
      code.transform((name) => name.toLowerCase()).pipe(z.enum(NETWORKS, { error: "must be a supported network" })),
    ),
  ),
  paymentMethod: omissible(code),
  countryCode: omissible(countryCode()),
});
export type QuoteInput = z.output<typeof quoteInput>;
export type BestQuoteInput = z.output<typeof bestQuoteInput>;

/** A quote as callers see it (field names of the reference contract). */
export interface QuoteView extends FeeBreakdown {
  id: string;
  rampType: RampType;
  from: string;
  to: string;
  network: string;
  paymentMethod: string;
  countryCode: string | null;
  inputAmount: string;
  inputCurrency: string;
  outputAmount: string;
  outputCurrency: string;
  feeCurrency: string;
  expiresAt: Date;
  createdAt: Date;
}

/** What a ramp shows of the quote it was registered from. */
export type QuoteTerms = Omit<QuoteView, "id" | "rampType" | "expiresAt" | "createdAt">;

/** The quote's columns its terms come from (named as the terms are): all a ramp's view reads of its quote. */
export const QUOTE_TERMS_FIELDS = [
  "from",
  "to",
  "network",
  "paymentMethod",
  "countryCode",
  "inputAmount",
  "inputCurrency",
  "outputAmount",
  "outputCurrency",
  "feeCurrency",
  "networkFeeFiat",
  "networkFeeUSD",
  "anchorFeeFiat",
  "anchorFeeUSD",
  "serviceFeeFiat",
  "serviceFeeUSD",
  "partnerFeeFiat",
  "partnerFeeUSD",
  "processingFeeFiat",
  "processingFeeUSD",
  "totalFeeFiat",
  "totalFeeUSD",
] as const satisfies readonly (keyof QuoteTerms)[];
export type QuoteTermsField = (typeof QUOTE_TERMS_FIELDS)[number];
