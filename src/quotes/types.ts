import { z } from "zod";
import { AMOUNT_PATTERN } from "../money.js";
import { NETWORKS } from "../reference-data/catalog.js";
import { omissible } from "../validation.js";
import type { FeeBreakdown } from "./pricing.js";

export const RAMP_TYPES = ["BUY", "SELL"] as const;
type RampType = (typeof RAMP_TYPES)[number];

const amount = z.string().regex(AMOUNT_PATTERN, 'must be a positive decimal string such as "100.50"');

/** A quote request. */
export const quoteInput = z.object({
  rampType: z.enum(RAMP_TYPES),
  from: z.string(),
  to: z.string(),
  inputAmount: amount,
  inputCurrency: z.string(),
  outputCurrency: z.string(),
  network: omissible(z.string()),
  paymentMethod: omissible(z.string()),
  countryCode: omissible(z.string()),
});
/** A request for the quote, among the candidate networks, that pays out the most. */
export const bestQuoteInput = z.object({
  rampType: z.enum(RAMP_TYPES),
  from: omissible(z.string()),
  to: omissible(z.string()),
  inputAmount: amount,
  inputCurrency: z.string(),
  outputCurrency: z.string(),
  /** A whitelist of networks to compare; omitted or empty: every network (the reference's rule). */
  networks: omissible(
    z.array(
      z
        .string()
        .transform((name) => name.toLowerCase())
        .pipe(z.enum(NETWORKS, { error: "must be a supported network" })),
    ),
  ),
  paymentMethod: omissible(z.string()),
  countryCode: omissible(z.string()),
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
