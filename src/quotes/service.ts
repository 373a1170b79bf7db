import { randomUUID } from "node:crypto";
import type { ActingContext } from "../auth/delegation.js";
import type { Caches } from "../cache/caches.js";
import type { RevocableCache } from "../cache/revocable-cache.js";
import type { StatementTx } from "../db/statements.js";
import { AppError } from "../errors.js";
import { fractionDigits, money } from "../money.js";
import type { RampProvider } from "../providers/ramp-port.js";
import {
  country,
  CRYPTOCURRENCIES,
  cryptocurrency,
  fiatCurrency,
  NETWORKS,
  PAYMENT_METHODS,
  paymentMethod as railById,
  paymentMethodLimits,
  type Network,
} from "../reference-data/catalog.js";
import { corridorOfFiat, type Corridor, type FiatSymbol } from "../reference-data/corridors.js";
import { canonicalId, fieldError } from "../validation.js";
import type { PricingAssignments } from "./pricing-assignments.js";
import { priceQuote, type PricedQuote, type PricingProfileName } from "./pricing.js";
import type { Quote, QuoteRepository } from "./repo.js";
import type { BestQuoteInput, QuoteInput, QuoteTerms, QuoteTermsField, QuoteView } from "./types.js";

const QUOTE_TTL_MS = 10 * 60_000;

/** A conversion the catalog supports, resolved from a request. */
interface Conversion {
  rampType: "BUY" | "SELL";
  rail: string;
  fiat: FiatSymbol;
  fiatDecimals: number;
  token: string;
  tokenDecimals: number;
  network: Network;
  inputAmount: string;
  countryCode: string | null;
}

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Quotes: priced with the subject's pricing profile, attributed to the caller, valid 10 minutes. */
export class QuoteService {
  /** Quotes never change once made: what a caller may see of one stays true, so it is read once in a while (at most 10,000 kept). */
  private readonly views: RevocableCache<QuoteView>;

  constructor(
    private readonly repository: QuoteRepository,
    private readonly provider: RampProvider,
    private readonly pricing: PricingAssignments,
    caches: Caches,
    /** Corridors closed here (CORRIDOR_PARTNERS `none`): nothing is quoted in them. */
    private readonly closedCorridors: readonly Corridor[],
  ) {
    this.views = caches.define("quotes", 10_000);
  }

  /** A stored quote the viewer may act on (its own, or one nobody owns): what a ramp is registered from. */
  findUsable(quoteId: string, viewerProfileId: string | null): Promise<Quote | null> {
    return this.repository.findVisibleQuote(quoteId, viewerProfileId);
  }

  /** Uses the quote up, in the caller's transaction: false when it was used already or has expired. */
  consume(tx: StatementTx, quoteId: string, now: Date): Promise<boolean> {
    return this.repository.consumeQuote(tx, quoteId, now);
  }

  /** Why a quote could not be consumed: it was already, or else it expired. */
  async unavailable(quoteId: string): Promise<AppError> {
    return (await this.repository.findQuoteConsumption(quoteId))?.consumedAt
      ? new AppError("QUOTE_CONSUMED")
      : new AppError("QUOTE_EXPIRED");
  }

  async create(acting: ActingContext | null, request: QuoteInput): Promise<QuoteView> {
    const [isBuy, network] = [request.rampType === "BUY", request.rampType === "BUY" ? request.to : request.from];
    if (request.network !== undefined && !sameText(request.network, network))
      throw fieldError("network", `must match ${isBuy ? "to" : "from"}`);
    const conversion = resolveConversion({
      rail: isBuy ? request.from : request.to,
      railField: isBuy ? "from" : "to",
      networkField: isBuy ? "to" : "from",
      ...request,
      network,
    });
    const pricingProfile = await this.pricing.effective(acting);
    const priced = this.price(conversion, await this.provider.marketTerms(), pricingProfile);
    return this.save(acting, conversion, priced, pricingProfile);
  }

  /** Prices every candidate network and keeps the one that pays out the most. */
  async createBest(acting: ActingContext | null, request: BestQuoteInput): Promise<QuoteView> {
    const isBuy = request.rampType === "BUY";
    const railGiven = isBuy ? request.from : request.to;
    const candidates = request.networks?.length ? request.networks : [...NETWORKS];
    const fiatSymbol = isBuy ? request.inputCurrency : request.outputCurrency;
    const rail = railGiven ?? request.paymentMethod ?? defaultRail(fiatSymbol);
    const options = candidates
      .filter((network) => tokenSymbol(isBuy ? request.outputCurrency : request.inputCurrency, network))
      .map((network) =>
        resolveConversion({ rail, railField: isBuy ? "from" : "to", networkField: "networks", ...request, network }),
      );
    if (!options.length)
      throw fieldError(
        "networks",
        `offer no network carrying ${isBuy ? request.outputCurrency : request.inputCurrency}`,
      );
    const [terms, pricingProfile] = await Promise.all([this.provider.marketTerms(), this.pricing.effective(acting)]);
    const priced = options.map((conversion) => ({ conversion, priced: this.price(conversion, terms, pricingProfile) }));
    const best = priced.reduce((a, b) => (money(b.priced.outputAmount).gt(a.priced.outputAmount) ? b : a));
    return this.save(acting, best.conversion, best.priced, pricingProfile);
  }

  /** A quote the caller may see (its own, or an unowned one); another profile's is NOT_FOUND. */
  async get(acting: ActingContext | null, quoteId: string): Promise<QuoteView> {
    const id = canonicalId(quoteId);
    const viewer = ownerOf(acting);
    const key = `${viewer} ${id}`;
    const view =
      id &&
      (this.views.peek(key) ??
        (await this.views.load(key, async () => {
          const quote = await this.repository.findVisibleQuote(id, viewer);
          return quote ? { value: toQuoteView(quote), tags: [] } : undefined;
        })));
    if (!view) throw new AppError("NOT_FOUND", "Quote not found.");
    return view;
  }

  private price(
    conversion: Conversion,
    terms: Awaited<ReturnType<RampProvider["marketTerms"]>>,
    profile: PricingProfileName,
  ): PricedQuote {
    const corridor = corridorOfFiat(conversion.fiat);
    if (this.closedCorridors.includes(corridor))
      throw fieldError(
        conversion.rampType === "BUY" ? "inputCurrency" : "outputCurrency",
        `is not served here (${corridor} is closed)`,
      );
    const priced = priceQuote(conversion, terms, profile);
    if (!priced) throw fieldError("inputAmount", "does not cover the fees");
    const limits = paymentMethodLimits(conversion.rail, conversion.fiat)!;
    if (priced.grossFiat.lt(limits.min) || priced.grossFiat.gt(limits.max)) {
      throw fieldError(
        "inputAmount",
        `must be worth between ${limits.min} and ${limits.max} ${conversion.fiat} on ${conversion.rail}`,
      );
    }
    return priced;
  }

  private async save(
    acting: ActingContext | null,
    conversion: Conversion,
    priced: PricedQuote,
    pricingProfile: PricingProfileName,
  ): Promise<QuoteView> {
    const isBuy = conversion.rampType === "BUY";
    const now = Date.now();
    const owner = ownerOf(acting);
    const quote = await this.repository.insertQuote({
      id: randomUUID(),
      rampType: conversion.rampType,
      from: isBuy ? conversion.rail : conversion.network,
      to: isBuy ? conversion.network : conversion.rail,
      network: conversion.network,
      paymentMethod: conversion.rail,
      corridor: corridorOfFiat(conversion.fiat),
      countryCode: conversion.countryCode,
      inputAmount: conversion.inputAmount,
      inputCurrency: isBuy ? conversion.fiat : conversion.token,
      outputAmount: priced.outputAmount,
      outputCurrency: isBuy ? conversion.token : conversion.fiat,
      feeCurrency: conversion.fiat,
      ...priced.fees,
      pricingProfile,
      ownerProfileId: owner,
      credentialId: acting?.credentialId ?? null,
      partnerId: acting?.partnerId ?? null,
      expiresAt: new Date(now + QUOTE_TTL_MS),
      createdAt: new Date(now),
    });
    return toQuoteView(quote);
  }
}

/**
 * The profile a caller owns quotes and sessions as: secret keys and sessions own what they create and see
 * their own; a public key (it sits in browsers) or no key only attributes, and sees only unowned ones.
 */
export function ownerOf(acting: ActingContext | null): string | null {
  return acting && acting.principalKind !== "public" ? acting.subjectProfileId : null;
}

/** The catalog's symbol of a token, matched without regard to case (the reference spells USDC.e "USDC.E"). */
function tokenSymbol(symbol: string, network: string): string | undefined {
  return CRYPTOCURRENCIES.find((asset) => asset.network === network && sameText(asset.symbol, symbol))?.symbol;
}

/** The first rail that carries the fiat (its home rail). */
function defaultRail(fiat: string): string {
  return PAYMENT_METHODS.find((rail) => rail.limits.some((limit) => limit.fiat === fiat))?.id ?? "";
}

/** Checks a request against the catalog: the rail carries the fiat, the network carries the token, digits fit. */
function resolveConversion(request: {
  rampType: "BUY" | "SELL";
  rail: string;
  network: string;
  inputAmount: string;
  inputCurrency: string;
  outputCurrency: string;
  paymentMethod?: string;
  countryCode?: string;
  railField: string;
  networkField: string;
}): Conversion {
  const isBuy = request.rampType === "BUY";
  const [fiatField, tokenField] = isBuy ? ["inputCurrency", "outputCurrency"] : ["outputCurrency", "inputCurrency"];
  const rail = railById(request.rail.toLowerCase());
  if (!rail) throw fieldError(request.railField, "must be a payment method (pix, sepa, cbu, ach, spei)");
  if (request.paymentMethod !== undefined && !sameText(request.paymentMethod, rail.id))
    throw fieldError("paymentMethod", `must match ${request.railField}`);
  const fiat = fiatCurrency(isBuy ? request.inputCurrency : request.outputCurrency);
  if (!fiat) throw fieldError(fiatField, "must be a supported fiat currency");
  if (!paymentMethodLimits(rail.id, fiat.symbol)) throw fieldError(fiatField, `is not carried by ${rail.id}`);
  const network = NETWORKS.find((candidate) => sameText(candidate, request.network));
  if (!network) throw fieldError(request.networkField, "must be a supported network");
  const symbol = tokenSymbol(isBuy ? request.outputCurrency : request.inputCurrency, network);
  const token = symbol ? cryptocurrency(symbol, network) : undefined;
  if (!token) throw fieldError(tokenField, `is not a supported token on ${network}`);
  const inputDecimals = isBuy ? fiat.decimals : token.decimals;
  if (fractionDigits(request.inputAmount) > inputDecimals)
    throw fieldError("inputAmount", `has more than ${inputDecimals} decimal places`);
  if (money(request.inputAmount).isZero()) throw fieldError("inputAmount", "must be greater than zero");
  let countryCode: string | null = null;
  if (request.countryCode !== undefined) {
    const match = country(request.countryCode.toUpperCase());
    if (!match || match.corridor !== corridorOfFiat(fiat.symbol))
      throw fieldError("countryCode", `must be a country served in ${fiat.symbol}`);
    countryCode = match.countryCode;
  }
  return {
    rampType: request.rampType,
    rail: rail.id,
    fiat: fiat.symbol,
    fiatDecimals: fiat.decimals,
    token: token.symbol,
    tokenDecimals: token.decimals,
    network,
    inputAmount: request.inputAmount,
    countryCode,
  };
}

function toQuoteView(quote: Quote): QuoteView {
  // Fields first, then the spread: building it the other way round leaves V8 a slow dictionary object.
  return {
    id: quote.id,
    rampType: quote.rampType as QuoteView["rampType"],
    expiresAt: quote.expiresAt,
    createdAt: quote.createdAt,
    ...quoteTerms(quote),
  };
}

/** What a quote fixes, as a ramp registered from it shows it too: the conversion and its fee breakdown. */
export function quoteTerms(quote: Pick<Quote, QuoteTermsField>): QuoteTerms {
  return {
    from: quote.from,
    to: quote.to,
    network: quote.network,
    paymentMethod: quote.paymentMethod,
    countryCode: quote.countryCode,
    inputAmount: quote.inputAmount,
    inputCurrency: quote.inputCurrency,
    outputAmount: quote.outputAmount,
    outputCurrency: quote.outputCurrency,
    feeCurrency: quote.feeCurrency,
    networkFeeFiat: quote.networkFeeFiat,
    networkFeeUSD: quote.networkFeeUSD,
    anchorFeeFiat: quote.anchorFeeFiat,
    anchorFeeUSD: quote.anchorFeeUSD,
    serviceFeeFiat: quote.serviceFeeFiat,
    serviceFeeUSD: quote.serviceFeeUSD,
    partnerFeeFiat: quote.partnerFeeFiat,
    partnerFeeUSD: quote.partnerFeeUSD,
    processingFeeFiat: quote.processingFeeFiat,
    processingFeeUSD: quote.processingFeeUSD,
    totalFeeFiat: quote.totalFeeFiat,
    totalFeeUSD: quote.totalFeeUSD,
  };
}
