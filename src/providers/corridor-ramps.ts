import type { Money } from "../money.js";
import { CORRIDOR_FIAT, CORRIDORS, type Corridor, type FiatSymbol } from "../reference-data/corridors.js";
import { PRICE_SCHEDULE } from "../reference-data/price-schedule.js";
import { MarketRates, type FiatRateSource, type MarketRatesOptions } from "./market-rates.js";
import type {
  MarketTerms,
  PaymentInstructions,
  ProviderRamp,
  RampProvider,
  RampRegistration,
  RampToRegister,
  StepOutcome,
} from "./ramp-port.js";
import type { Partner } from "./partners.js";
import type { SandboxRampProvider } from "./sandbox.js";

/** What a partner does of ramps: prices its fiats, makes the order at registration, reads it at each step. */
export interface PartnerRamps {
  /** Units of `fiat` one US dollar buys at the partner now (a reference quote). */
  fiatPerUsd(fiat: FiatSymbol, signal: AbortSignal): Promise<Money>;
  register(ramp: RampToRegister): Promise<RampRegistration>;
  step(ramp: ProviderRamp, signal: AbortSignal): Promise<StepOutcome>;
  presignedProblem(ramp: { type: "BUY" | "SELL"; presignedTxs: readonly unknown[] }): string | null;
}

/**
 * Ramps at the partner wired for each corridor, the others on the in-process sandbox (src/providers/partners.ts says
 * which; `live` refuses to start while any corridor's ramps run on it). Quotes are priced at the rates of the partner
 * serving each corridor (market-rates.ts) and the gateway's price schedule.
 */
export class CorridorRamps implements RampProvider {
  private readonly rates: MarketRates;

  constructor(
    private readonly sandbox: SandboxRampProvider,
    private readonly partners: Partial<Record<Corridor, PartnerRamps>>,
    /** How long after a partner's order was read it is read again, when no callback says it changed first. */
    private readonly partnerCheckMs: number,
    /** Corridors closed here: nobody is asked for their rates. */
    closed: readonly Corridor[],
    ratesOptions: MarketRatesOptions,
  ) {
    const sources = new Map<FiatSymbol, FiatRateSource>(
      CORRIDORS.filter((corridor) => !closed.includes(corridor)).map((corridor) => {
        const partner = partners[corridor];
        const source: FiatRateSource = partner
          ? (fiat, signal) => partner.fiatPerUsd(fiat, signal)
          : async (fiat) => sandbox.fiatPerUsd(fiat);
        return [CORRIDOR_FIAT[corridor], source];
      }),
    );
    this.rates = new MarketRates(sources, ratesOptions);
  }

  async marketTerms(): Promise<MarketTerms> {
    return { fiatPerUsd: await this.rates.current(), ...PRICE_SCHEDULE };
  }

  register(ramp: RampToRegister): Promise<RampRegistration> {
    return (this.partners[ramp.corridor] ?? this.sandbox).register(ramp);
  }

  step(ramp: ProviderRamp, signal: AbortSignal): Promise<StepOutcome> {
    // A ramp registered on the sandbox stays there: it has no partner customer or order.
    const atPartner = ramp.partnerCustomerId !== null || ramp.partnerOrderId !== null;
    const partner = atPartner ? this.partners[ramp.corridor] : undefined;
    return (partner ?? this.sandbox).step(ramp, signal);
  }

  presignedProblem(ramp: Parameters<RampProvider["presignedProblem"]>[0]): string | null {
    return this.partners[ramp.corridor]?.presignedProblem(ramp) ?? null;
  }

  paymentInstructions(ramp: Parameters<RampProvider["paymentInstructions"]>[0]): PaymentInstructions {
    return ramp.partnerPayment ?? this.sandbox.paymentInstructions(ramp);
  }

  stepDelayMs(corridor: Corridor): number {
    return this.partners[corridor] ? this.partnerCheckMs : this.sandbox.stepDelayMs();
  }

  firstStepDelayMs(corridor: Corridor): number {
    return this.partners[corridor] ? 0 : this.sandbox.stepDelayMs();
  }
}

/** The partners wired into ramps, by the corridors they serve here. */
export function partnerRampsOf(
  corridors: Readonly<Record<Corridor, Partner | null>>,
  wired: Partial<Record<Partner, PartnerRamps>>,
): Partial<Record<Corridor, PartnerRamps>> {
  return Object.fromEntries(
    Object.entries(corridors).flatMap(([corridor, partner]) => {
      const ramps = partner && wired[partner];
      return ramps ? [[corridor, ramps]] : [];
    }),
  );
}
