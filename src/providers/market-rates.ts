import type { Logger } from "pino";
import { AppError } from "../errors.js";
import type { Money } from "../money.js";
import type { FiatSymbol } from "../reference-data/corridors.js";

/** The amount, in US dollars, a partner's reference quote is asked for. */
export const REFERENCE_USD = "100";

/** After an asking that a partner did not answer, the next is due this soon (unless `refreshMs` is sooner). */
const RETRY_MS = 5_000;

/** A partner's rate, refused unless above zero: a price of nothing would quote every ramp at nothing. */
function positiveRate(rate: Money): Money {
  if (!rate.isFinite() || rate.lte(0)) throw new Error("the partner's rate is not a positive number");
  return rate;
}

/** Where a fiat's rate comes from: the partner serving its corridor, asked for a reference quote. */
export type FiatRateSource = (fiat: FiatSymbol, signal: AbortSignal) => Promise<Money>;

export interface MarketRatesOptions {
  /** A rate older than this is asked for again, in the background: the quote that notices does not wait. */
  refreshMs: number;
  /** After an asking that a partner did not answer, the next is due this soon instead (RETRY_MS unless said). */
  retryMs?: number;
  /** A rate older than this is not quoted from: quotes in its fiat answer PROVIDER_UNAVAILABLE until a new one comes. */
  maxAgeMs: number;
  /** How long one partner's reference quote may take. */
  timeoutMs: number;
  log: Logger;
}

interface Rate {
  fiatPerUsd: Money;
  at: number;
}

/**
 * Units of each fiat one US dollar buys, from the partners serving the corridors: each partner's reference quote,
 * kept and asked for again once `refreshMs` old, so that a quote costs no partner call (the first quotes after the
 * start wait for the first rates). A partner that does not answer leaves its last rates in use until `maxAgeMs`; after
 * that its fiats are not quoted, rather than quoted at a price nobody gives any more. It is asked again after
 * `retryMs`, so its fiats come back soon after it does.
 */
export class MarketRates {
  private readonly rates = new Map<FiatSymbol, Rate>();
  private refreshing: Promise<void> | undefined;
  private firstAsking: Promise<void> | undefined;
  private refreshedAt = Number.NEGATIVE_INFINITY;
  /** Whether a partner gave no rate at the last asking: the next one is then due after `retryMs`. */
  private lastAskingMissed = false;

  constructor(
    private readonly sources: ReadonlyMap<FiatSymbol, FiatRateSource>,
    private readonly options: MarketRatesOptions,
  ) {}

  /** The rates to quote from now; asks for new ones when they are due. */
  async current(): Promise<(fiat: FiatSymbol) => Money> {
    const { refreshMs, retryMs = RETRY_MS } = this.options;
    if (Date.now() - this.refreshedAt >= (this.lastAskingMissed ? Math.min(refreshMs, retryMs) : refreshMs)) {
      const asking = this.refresh();
      this.firstAsking ??= asking;
    }
    // Until the first asking has heard from every partner, every quote waits for it (not only the one that asked);
    // after it, none does.
    await this.firstAsking;
    const now = Date.now();
    return (fiat) => this.rateOf(fiat, now);
  }

  /** Asks every source at once; one asking is in flight at a time. */
  private refresh(): Promise<void> {
    this.refreshing ??= this.askAll().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async askAll(): Promise<void> {
    this.refreshedAt = Date.now();
    let missed = false;
    await Promise.all(
      [...this.sources].map(async ([fiat, source]) => {
        try {
          const fiatPerUsd = positiveRate(await source(fiat, AbortSignal.timeout(this.options.timeoutMs)));
          this.rates.set(fiat, { fiatPerUsd, at: Date.now() });
        } catch (error) {
          // The partner's error is its client's to describe: a kind and a status, never a body.
          this.options.log.warn({ fiat, err: error }, "a partner's rate could not be refreshed");
          missed = true;
        }
      }),
    );
    this.lastAskingMissed = missed;
  }

  private rateOf(fiat: FiatSymbol, now: number): Money {
    const rate = this.rates.get(fiat);
    if (!rate || now - rate.at > this.options.maxAgeMs)
      throw new AppError("PROVIDER_UNAVAILABLE", `Prices in ${fiat} are not available now; try again shortly.`);
    return rate.fiatPerUsd;
  }
}
