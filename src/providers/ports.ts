import type { Money } from "../money.js";
import type { Corridor, CustomerType, FiatSymbol } from "../reference-data/corridors.js";
import type { Network } from "../reference-data/catalog.js";
import type { RampPhase } from "../ramps/phases.js";

/*
 * The ports licensed partners plug in behind. The sandbox provider implements them deterministically;
 * a real partner adapter implements the same interfaces.
 */

/** A snapshot of the prices a quote is computed from. */
export interface MarketTerms {
  /** Units of the fiat one US dollar buys. */
  fiatPerUsd(fiat: FiatSymbol): Money;
  /** US dollars one unit of the token is worth. */
  usdPerToken(symbol: string): Money;
  /** What moving the token on the network costs, in US dollars. */
  networkFeeUsd(network: Network): Money;
  /** The rail's (anchor's) charge in the fiat: a fixed part plus a rate of the fiat amount. */
  railFee(fiat: FiatSymbol): { fixed: Money; rate: Money };
}

/** What the provider needs to know about a ramp to move it on. */
export interface ProviderRamp {
  id: string;
  type: "BUY" | "SELL";
  currentPhase: RampPhase;
  inputAmount: string;
  network: string;
  walletAddress: string | null;
  /** Recoverable errors already met in the current phase. */
  retries: number;
}

/** The provider's answer for a ramp due for its next step. */
export type StepOutcome =
  | { kind: "advance"; phase: RampPhase; transactionHash?: string }
  | { kind: "retry"; error: string; details: string }
  | { kind: "fail"; error: string; details: string };

export interface PaymentInstructions {
  method: string;
  amount: string;
  currency: string;
  reference: string;
  beneficiary: string;
  /** PIX BR Code (copy-and-paste), when the rail is PIX. */
  depositQrCode: string | null;
}

export interface RampProvider {
  marketTerms(): Promise<MarketTerms>;
  /** How a BUY's user pays in fiat. */
  paymentInstructions(ramp: { id: string; paymentMethod: string; inputAmount: string; inputCurrency: string }): PaymentInstructions;
  /** What a SELL's user signs to send the tokens (none for BUY). */
  unsignedTransactions(ramp: { id: string; type: "BUY" | "SELL"; network: string; walletAddress: string | null; inputAmount: string }): unknown[];
  /** The next step of a started ramp. */
  step(ramp: ProviderRamp): StepOutcome;
  /** How long the provider takes between steps. */
  readonly stepDelayMs: number;
  /** The monthly ceiling per corridor and direction, in the corridor's fiat. */
  monthlyLimit(corridor: Corridor, direction: "BUY" | "SELL"): string;
  explorerLink(network: string, transactionHash: string): string | null;
}

export const KYC_STATUSES = ["not_started", "pending", "approved", "rejected"] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

/** Who is verified: the subject profile as the KYC provider knows it. */
export interface KycSubject {
  profileId: string;
  /** The login email of a direct profile, the contact email of a managed child. */
  email: string | null;
  customerType: CustomerType;
}

export interface KycProvider {
  status(subject: KycSubject, corridor: Corridor): Promise<KycStatus>;
  /** The tax id the provider verified for the subject in Brazil (CPF or CNPJ digits), if any. */
  brazilianTaxId(subject: KycSubject): Promise<string | null>;
}
