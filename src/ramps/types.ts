import type { PaymentInstructions } from "../providers/ports.js";
import type { QuoteView } from "../quotes/types.js";
import type { RampPhase, RampStatus } from "./phases.js";

type QuoteTerms = Omit<QuoteView, "id" | "rampType" | "expiresAt" | "createdAt">;

/** A ramp as callers see it (field names of the reference contract). */
export interface RampView extends QuoteTerms {
  id: string;
  quoteId: string;
  type: "BUY" | "SELL";
  currentPhase: RampPhase;
  status: RampStatus;
  walletAddress: string | null;
  sessionId: string | null;
  fiatAccountId: string | null;
  /** How to pay a BUY in fiat; null for SELL. */
  paymentInstructions: Omit<PaymentInstructions, "depositQrCode"> | null;
  depositQrCode: string | null;
  unsignedTxs: unknown[];
  transactionHash: string | null;
  transactionExplorerLink: string | null;
  /** The deadline for starting the ramp. */
  expiresAt: Date;
  startedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface RampErrorView {
  timestamp: Date;
  phase: RampPhase;
  error: string;
  details: string | null;
  recoverable: boolean;
}

/** One entry of GET /v1/ramp/history (the reference's GetRampHistoryTransaction). */
export interface RampHistoryEntry {
  id: string;
  type: "BUY" | "SELL";
  from: string;
  to: string;
  fromAmount: string;
  toAmount: string;
  fromCurrency: string;
  toCurrency: string;
  status: RampStatus;
  currentPhase: RampPhase;
  date: Date;
  expiresAt: Date;
  walletAddress: string | null;
  externalTxHash: string | null;
  externalTxExplorerLink: string | null;
}
