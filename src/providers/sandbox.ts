import { createHash } from "node:crypto";
import { money } from "../money.js";
import type { Corridor, FiatSymbol } from "../reference-data/corridors.js";
import type { Network } from "../reference-data/catalog.js";
import { nextProcessingPhase } from "../reference-data/ramp-phases.js";
import type {
  MarketTerms,
  PaymentInstructions,
  ProviderRamp,
  RampProvider,
  RampRegistration,
  RampToRegister,
  StepOutcome,
} from "./ports.js";

/*
 * The sandbox ramp provider: deterministic prices for every corridor, and a processing run with configurable delays
 * for the ramps of EU, the one corridor no integrated partner serves (KYC, and the other corridors' ramps, go to the
 * partners). Its failure triggers are documented in the README ("Sandbox provider").
 */

const FIAT_PER_USD: Record<FiatSymbol, string> = {
  USD: "1",
  EUR: "0.92",
  BRL: "5.40",
  ARS: "1050",
  MXN: "17.20",
  COP: "4100",
};
const USD_PER_TOKEN: Record<string, string> = { USDC: "1", "USDC.e": "0.9999", USDT: "0.9998" };
const NETWORK_FEE_USD: Record<Network, string> = {
  assethub: "0.01",
  arbitrum: "0.03",
  avalanche: "0.05",
  base: "0.01",
  bsc: "0.05",
  ethereum: "1.50",
  moonbeam: "0.02",
  polygon: "0.02",
};
const RAIL_FEES: Record<FiatSymbol, { fixed: string; rate: string }> = {
  BRL: { fixed: "0", rate: "0.0025" },
  EUR: { fixed: "0.50", rate: "0" },
  ARS: { fixed: "0", rate: "0.005" },
  USD: { fixed: "1", rate: "0" },
  MXN: { fixed: "0", rate: "0.002" },
  COP: { fixed: "0", rate: "0.003" },
};
/** Monthly ceilings per corridor, the same for both directions, in the corridor's fiat. */
const MONTHLY_LIMITS: Record<Corridor, string> = {
  AR: "10000000",
  BR: "50000",
  CO: "80000000",
  EU: "20000",
  MX: "200000",
  US: "10000",
};
const EXPLORERS: Record<Network, string> = {
  assethub: "https://assethub-polkadot.subscan.io/extrinsic/",
  arbitrum: "https://arbiscan.io/tx/",
  avalanche: "https://snowtrace.io/tx/",
  base: "https://basescan.org/tx/",
  bsc: "https://bscscan.com/tx/",
  ethereum: "https://etherscan.io/tx/",
  moonbeam: "https://moonscan.io/tx/",
  polygon: "https://polygonscan.com/tx/",
};

/** Input amounts whose fraction is one of these trigger the documented sandbox outcomes. */
const SANDBOX_TRIGGERS = {
  /** The exchange is refused: the ramp fails in `exchanging`. */
  failExchange: "66",
  /** The payout fails once (recoverable, logged), then succeeds. */
  retryPayout: "77",
} as const;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export class SandboxRampProvider implements RampProvider {
  constructor(private readonly stepDelay: number) {}

  stepDelayMs(): number {
    return this.stepDelay;
  }

  firstStepDelayMs(): number {
    return this.stepDelay;
  }

  async marketTerms(): Promise<MarketTerms> {
    return {
      fiatPerUsd: (fiat) => money(FIAT_PER_USD[fiat]),
      usdPerToken: (symbol) => money(USD_PER_TOKEN[symbol]),
      networkFeeUsd: (network) => money(NETWORK_FEE_USD[network]),
      railFee: (fiat) => ({ fixed: money(RAIL_FEES[fiat].fixed), rate: money(RAIL_FEES[fiat].rate) }),
    };
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

  monthlyLimit(corridor: Corridor): string {
    return MONTHLY_LIMITS[corridor];
  }

  explorerLink(network: string, transactionHash: string): string | null {
    const base = EXPLORERS[network as Network];
    return base ? base + transactionHash : null;
  }
}

/** The reference a payer quotes, derived from the ramp id. */
const paymentReference = (rampId: string) => `SBX${rampId.replace(/-/g, "").slice(0, 22).toUpperCase()}`;
