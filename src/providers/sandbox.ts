import { createHash } from "node:crypto";
import { money, type Money } from "../money.js";
import type { FiatSymbol } from "../reference-data/corridors.js";
import { nextProcessingPhase } from "../reference-data/ramp-phases.js";
import type {
  PaymentInstructions,
  ProviderRamp,
  RampProvider,
  RampRegistration,
  RampToRegister,
  StepOutcome,
} from "./ramp-port.js";

/*
 * The sandbox ramp provider: a made-up rate and a processing run with configurable delays for the ramps of EU, the one
 * corridor no integrated partner serves (KYC, and the other corridors' ramps and rates, go to the partners). Its
 * failure triggers are documented in docs/ramps.md ("Test triggers").
 */

/** The sandbox's rate, for EU's ramps, the one corridor that can run on it (partners give theirs: market-rates.ts). */
const SANDBOX_FIAT_PER_USD: Partial<Record<FiatSymbol, string>> = { EUR: "0.92" };

/** Input amounts whose fraction is one of these trigger the documented sandbox outcomes. */
const SANDBOX_TRIGGERS = {
  /** The exchange is refused: the ramp fails in `exchanging`. */
  failExchange: "66",
  /** The payout fails once (recoverable, logged), then succeeds. */
  retryPayout: "77",
} as const;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A ramp provider but for its prices, which CorridorRamps makes from the rates and the price schedule. */
export class SandboxRampProvider implements Omit<RampProvider, "marketTerms"> {
  constructor(private readonly stepDelay: number) {}

  stepDelayMs(): number {
    return this.stepDelay;
  }

  firstStepDelayMs(): number {
    return this.stepDelay;
  }

  /** Units of the fiat one US dollar buys, made up. */
  fiatPerUsd(fiat: FiatSymbol): Money {
    const rate = SANDBOX_FIAT_PER_USD[fiat];
    if (rate === undefined) throw new Error(`the sandbox has no rate for ${fiat}`);
    return money(rate);
  }

  paymentInstructions(ramp: {
    id: string;
    paymentMethod: string;
    inputAmount: string;
    inputCurrency: string;
  }): PaymentInstructions {
    return {
      method: ramp.paymentMethod,
      amount: ramp.inputAmount,
      currency: ramp.inputCurrency,
      reference: paymentReference(ramp.id),
      beneficiary: "Sandbox Ramp Partner",
    };
  }

  async register(ramp: RampToRegister): Promise<RampRegistration> {
    if (ramp.type === "BUY")
      return { unsignedTxs: [], depositQrCode: null, partnerOrderId: null, partnerPayment: null };
    const transfer = {
      phase: "RampPhase",
      network: ramp.network,
      signer: ramp.walletAddress,
      nonce: 0,
      txData: `0x${sha256(`sandbox-transfer:${ramp.id}:${ramp.inputAmount}`)}`,
      meta: { description: "Transfer the input amount to the sandbox deposit address" },
    };
    return { unsignedTxs: [transfer], depositQrCode: null, partnerOrderId: null, partnerPayment: null };
  }

  async step(ramp: ProviderRamp): Promise<StepOutcome> {
    const fraction = ramp.inputAmount.split(".")[1] ?? "";
    if (fraction === SANDBOX_TRIGGERS.failExchange && ramp.currentPhase === "exchanging") {
      return {
        kind: "fail",
        error: "Exchange refused",
        details: "The sandbox liquidity provider refused the exchange (amount trigger .66).",
      };
    }
    if (fraction === SANDBOX_TRIGGERS.retryPayout && ramp.currentPhase === "payingOut" && ramp.retries === 0) {
      return {
        kind: "retry",
        error: "Payout delayed",
        details: "The sandbox payout rail timed out once (amount trigger .77); retrying.",
      };
    }
    const phase = nextProcessingPhase(ramp.currentPhase);
    if (phase === "complete" && ramp.type === "BUY")
      return { kind: "advance", phase, transactionHash: `0x${sha256(`sandbox-payout:${ramp.id}`)}` };
    return { kind: "advance", phase };
  }

  /** The sandbox pulls nothing: any signed transactions start a SELL. */
  presignedProblem(): string | null {
    return null;
  }
}

/** The reference a payer quotes, derived from the ramp id. */
const paymentReference = (rampId: string) => `SBX${rampId.replace(/-/g, "").slice(0, 22).toUpperCase()}`;
