import type { Money } from "../money.js";
import type { Corridor, FiatSymbol } from "../reference-data/corridors.js";
import type { Network } from "../reference-data/catalog.js";
import type { RampPhase } from "../reference-data/ramp-phases.js";

/*
 * The ramp port: each partner's adapter implements it for the corridors it serves; the in-process sandbox implements
 * it for the corridors whose ramps no partner serves yet.
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
  corridor: Corridor;
  /** The subject's customer at the partner the ramp was registered with; null on the sandbox. */
  partnerCustomerId: string | null;
  /** The partner's order the ramp follows, once made; null on the sandbox. */
  partnerOrderId: string | null;
  /**
   * The same on every call for one step (ramp, phase, retries): a step whose answer was lost (a crash, a timeout)
   * is asked again, and the partner answers a repeated key as it did the first time.
   */
  stepKey: string;
  type: "BUY" | "SELL";
  currentPhase: RampPhase;
  inputAmount: string;
  inputCurrency: string;
  network: string;
  walletAddress: string | null;
  /** What a SELL's user signed (POST /v1/ramp/update), for a partner that pulls the tokens by it. */
  presignedTxs: readonly Record<string, unknown>[];
  /** Where a SELL paid out by PIX pays: the key the caller registered it with. */
  pixKey: string | null;
  /** Recoverable errors already met in the current phase. */
  retries: number;
}

/** The provider's answer for a ramp due for its next step. */
export type StepOutcome =
  /** `partnerOrderId`: the order this step made at the partner, stored on the ramp for the next steps to read. */
  | { kind: "advance"; phase: RampPhase; transactionHash?: string; partnerOrderId?: string }
  | { kind: "retry"; error: string; details: string }
  | { kind: "fail"; error: string; details: string };

export interface PaymentInstructions {
  method: string;
  amount: string;
  currency: string;
  reference: string;
  beneficiary: string;
  /** The account to pay into (a CLABE, a bank account number), where the partner names one. */
  account?: string;
}

/** What the provider is told of a ramp being registered. */
export interface RampToRegister {
  id: string;
  type: "BUY" | "SELL";
  corridor: Corridor;
  paymentMethod: string;
  network: string;
  walletAddress: string | null;
  inputAmount: string;
  inputCurrency: string;
  outputCurrency: string;
  /** The subject's customer at the corridor's partner (its approved KYC case's). */
  partnerCustomerId: string | null;
  /** A SELL's payout account, as the corridor's partner knows it (fiat-account corridors). */
  partnerPayoutAccountId: string | null;
  /** Where a SELL paid out by PIX pays: the caller's key (`additionalData.pixDestination`). */
  pixKey: string | null;
  /** Whom the caller says the PIX key's holder is (`additionalData.receiverTaxId`), checked against the partner's. */
  receiverTaxId: string | null;
}

/** What the provider hands out when a ramp is registered. */
export interface RampRegistration {
  /** What a SELL's user signs to send the tokens (none for BUY). */
  unsignedTxs: unknown[];
  /** A BUY's PIX BR Code (copy and paste), when the rail is PIX. */
  depositQrCode: string | null;
  /** The partner's order that moves the money; null on the sandbox. */
  partnerOrderId: string | null;
  /** How a BUY's payer pays, as the partner gave it (stored, then shown); null on the sandbox. */
  partnerPayment: PaymentInstructions | null;
}

/**
 * The partner's calls return promises and are never made inside a database transaction; the synchronous members
 * are facts of the partner's rails that an adapter knows without a call.
 */
export interface RampProvider {
  marketTerms(): Promise<MarketTerms>;
  /** Made once, before the ramp is stored: the ramp is stored only if its quote is still unconsumed then. */
  register(ramp: RampToRegister): Promise<RampRegistration>;
  /**
   * The next step of a started ramp. `signal` aborts when the processor stops waiting (its timeout, or shutdown);
   * the step is then asked again later with the same `stepKey`.
   */
  step(ramp: ProviderRamp, signal: AbortSignal): Promise<StepOutcome>;
  /**
   * Why a SELL cannot start with what its user signed (a field error's message), or null: what the partner needs
   * signed (an Avenia payout's permit) is checked before processing begins, not when the payout is sent.
   */
  presignedProblem(ramp: { corridor: Corridor; type: "BUY" | "SELL"; presignedTxs: readonly unknown[] }): string | null;
  /** How a BUY's user pays in fiat: what the partner gave at registration, or the sandbox's. */
  paymentInstructions(ramp: {
    id: string;
    paymentMethod: string;
    inputAmount: string;
    inputCurrency: string;
    partnerPayment: PaymentInstructions | null;
  }): PaymentInstructions;
  /** How long after a step the corridor's next one is asked for (a partner's order: when it is read again). */
  stepDelayMs(corridor: Corridor): number;
  /**
   * How long after the start the first step is due: a partner's order is read (or a BR SELL's payout sent) at the
   * next pass, since the start is when the caller says its part is done; the sandbox takes its step delay.
   */
  firstStepDelayMs(corridor: Corridor): number;
}
