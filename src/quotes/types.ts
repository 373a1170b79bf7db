import { z } from "zod";
import { idField, instantField, named, outputObject } from "../output.js";
import { NETWORKS } from "../reference-data/catalog.js";
import { amount, countryCode, omissible, text } from "../validation.js";
import { describedEnum } from "../enums.js";

export const RAMP_TYPES = ["BUY", "SELL"] as const;

export const rampDirectionEnum = describedEnum("RampDirection", RAMP_TYPES, {
  description: "BUY = onramp (fiat to crypto), SELL = offramp.",
  meanings: {
    BUY: "Onramp: fiat is paid in and crypto is delivered.",
    SELL: "Offramp: crypto is paid in and fiat is paid out.",
  },
});

/** A payment method, a network, a currency: the service looks each up in the catalog. */
const code = text("code");

/** A quote request. */
const rampType = named("RampDirection", z.enum(RAMP_TYPES)).describe(
  "BUY pays fiat in for tokens; SELL sends tokens for a fiat payout.",
);
const inputAmount = named("Decimal", amount()).describe("What is paid in, in inputCurrency.");
const inputCurrency = code.describe("BUY: the fiat symbol (such as BRL); SELL: the token symbol, in any case.");
const outputCurrency = code.describe("BUY: the token symbol, in any case; SELL: the fiat symbol.");
const quotedCountry = omissible(countryCode()).describe(
  "ISO 3166-1 alpha-2 code, in any case, of a country served in the quote's fiat.",
);
export const quoteInput = z.object({
  rampType,
  from: code.describe("BUY: the payment method; SELL: the network."),
  to: code.describe("BUY: the network; SELL: the payment method."),
  inputAmount,
  inputCurrency,
  outputCurrency,
  network: named("Network", omissible(code)).describe("Must match the network in from/to."),
  paymentMethod: named("PaymentMethodId", omissible(code)).describe("Must match the payment method in from/to."),
  countryCode: quotedCountry,
});
/** A request for the quote, among the candidate networks, that pays out the most. */
export const bestQuoteInput = z.object({
  rampType,
  from: omissible(code).describe(
    "BUY: the payment method (null: paymentMethod, else the fiat's home rail); not read for SELL.",
  ),
  to: omissible(code).describe(
    "SELL: the payment method (null: paymentMethod, else the fiat's home rail); not read for BUY.",
  ),
  inputAmount,
  inputCurrency,
  outputCurrency,
  /** A whitelist of networks to compare; omitted or empty: every network (the reference's rule). */
  networks: omissible(
    z.array(
      named(
        "Network",
        code.transform((name) => name.toLowerCase()).pipe(z.enum(NETWORKS, { error: "must be a supported network" })),
      ),
    ),
  ).describe("Candidate networks (default: all); the one paying out the most wins."),
  paymentMethod: named("PaymentMethodId", omissible(code)).describe(
    "The payment method when from (BUY) or to (SELL) is null; must match it otherwise.",
  ),
  countryCode: quotedCountry,
});
export type QuoteInput = z.output<typeof quoteInput>;
export type BestQuoteInput = z.output<typeof bestQuoteInput>;

const decimal = (description: string) => named("Decimal", z.string()).describe(description);

/** What a quote fixes, shared by quotes and ramps: the conversion and its fee breakdown (decimal strings). */
export const quoteTermsShape = {
  from: z.string().describe("BUY: the payment method; SELL: the network."),
  to: z.string().describe("BUY: the network; SELL: the payment method."),
  network: named("Network", z.string()).describe("The network the tokens move on."),
  paymentMethod: named("PaymentMethodId", z.string()).describe("The payment rail the fiat moves on."),
  countryCode: z
    .string()
    .nullable()
    .describe("ISO 3166-1 alpha-2 code of the country the quote was asked for; null when none was given."),
  inputAmount: decimal("What is paid in, in inputCurrency."),
  inputCurrency: z.string().describe("BUY: the fiat symbol (such as BRL); SELL: the token symbol."),
  outputAmount: decimal("What is paid out, in outputCurrency."),
  outputCurrency: z.string().describe("BUY: the token symbol; SELL: the fiat symbol."),
  feeCurrency: named("FiatCurrencySymbol", z.string()).describe("The fiat of the *Fiat fee fields."),
  networkFeeFiat: decimal("The network's cost, in the fee currency."),
  networkFeeUSD: decimal("The network fee in US dollars (2 decimals)."),
  anchorFeeFiat: decimal("The rail's (anchor's) fee."),
  anchorFeeUSD: decimal("The anchor fee in US dollars (2 decimals)."),
  serviceFeeFiat: decimal("The service fee."),
  serviceFeeUSD: decimal("The service fee in US dollars (2 decimals)."),
  partnerFeeFiat: decimal("The partner's markup."),
  partnerFeeUSD: decimal("The partner's markup in US dollars (2 decimals)."),
  processingFeeFiat: decimal("Anchor fee plus service fee."),
  processingFeeUSD: decimal("Anchor plus service fee in US dollars, summed from the rounded parts."),
  totalFeeFiat: decimal("Network, processing and partner fees."),
  totalFeeUSD: decimal("Network, processing and partner fees in US dollars, summed from the rounded parts."),
};

/** A quote as callers see it (field names of the reference contract). */
export const quoteView = outputObject(
  "Quote",
  "A priced conversion, valid 10 minutes; registering a ramp consumes it.",
  {
    id: idField("UUID v4 of this quote."),
    ...quoteTermsShape,
    rampType: named("RampDirection", z.enum(RAMP_TYPES)).describe(
      "BUY pays fiat in for tokens; SELL sends tokens for a fiat payout.",
    ),
    expiresAt: instantField("When the quote can no longer be registered: 10 minutes after createdAt."),
    createdAt: instantField("When the quote was priced."),
  },
);
export type QuoteView = z.output<typeof quoteView>;

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
