import type { FeeBreakdown } from "./pricing.js";

export const RAMP_TYPES = ["BUY", "SELL"] as const;
type RampType = (typeof RAMP_TYPES)[number];

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
  "vortexFeeFiat",
  "vortexFeeUSD",
  "partnerFeeFiat",
  "partnerFeeUSD",
  "processingFeeFiat",
  "processingFeeUSD",
  "totalFeeFiat",
  "totalFeeUSD",
] as const satisfies readonly (keyof QuoteTerms)[];
export type QuoteTermsField = (typeof QUOTE_TERMS_FIELDS)[number];
