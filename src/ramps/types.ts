import type { PaymentInstructions } from "../providers/ports.js";
import type { QuoteTerms } from "../quotes/types.js";
import type { RampPhase, RampStatus } from "./phases.js";

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
  paymentInstructions: PaymentInstructions | null;
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
