import type { Corridor } from "../reference-data/corridors.js";
import type {
  MarketTerms,
  PaymentInstructions,
  ProviderRamp,
  RampProvider,
  RampRegistration,
  RampToRegister,
  StepOutcome,
} from "./ports.js";
import type { Partner } from "./partners.js";
import type { SandboxRampProvider } from "./sandbox.js";

/** What a partner does of ramps: makes the order at registration, reads it at each step. */
export interface PartnerRamps {
  register(ramp: RampToRegister): Promise<RampRegistration>;
  step(ramp: ProviderRamp, signal: AbortSignal): Promise<StepOutcome>;
  presignedProblem(ramp: { type: "BUY" | "SELL"; presignedTxs: readonly unknown[] }): string | null;
}

/**
 * Ramps at the partner wired for each corridor, the others on the in-process sandbox (src/providers/partners.ts says
 * which; `live` refuses to start while any corridor's ramps run on it). Prices are the sandbox's for every corridor
 * until quotes are priced at the partners.
 */
export class CorridorRamps implements RampProvider {
  constructor(
    private readonly sandbox: SandboxRampProvider,
    private readonly partners: Partial<Record<Corridor, PartnerRamps>>,
    /** How long after a partner's order was read it is read again, when no callback says it changed first. */
    private readonly partnerCheckMs: number,
  ) {}

  marketTerms(): Promise<MarketTerms> {
    return this.sandbox.marketTerms();
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

  monthlyLimit(corridor: Corridor): string {
    return this.sandbox.monthlyLimit(corridor);
  }

  explorerLink(network: string, transactionHash: string): string | null {
    return this.sandbox.explorerLink(network, transactionHash);
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
