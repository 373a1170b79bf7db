import { z } from "zod";
import type { PaymentInstructions } from "../providers/ports.js";
import type { QuoteTerms } from "../quotes/types.js";
import { instant, text, uuid, walletAddress } from "../validation.js";
import { CORRIDORS } from "../reference-data/corridors.js";
import { RAMP_STATUSES, type RampPhase, type RampStatus } from "../reference-data/ramp-phases.js";

const MAX_JSON_BYTES = 16 * 1024;

const id = uuid();
const shortText = text("line").min(1);

/** The chains a ramp's signing accounts are on, as the reference spells them. */
export const SIGNING_ACCOUNT_TYPES = ["EVM", "Substrate"] as const;

export const rampIdInput = z.object({ rampId: id });
export const registerInput = z.object({
  quoteId: id,
  destinationAddress: walletAddress().optional(),
  fiatAccountId: id.optional(),
  sessionId: id.optional(),
  signingAccounts: z
    .array(z.object({ address: walletAddress(), type: z.enum(SIGNING_ACCOUNT_TYPES) }))
    .max(10)
    .optional(),
  // The reference's known fields; anything else (provider auth tokens included) is dropped, never stored.
  additionalData: z
    .object({
      destinationAddress: walletAddress().optional(),
      walletAddress: walletAddress().optional(),
      pixDestination: shortText.optional(),
      receiverTaxId: shortText.optional(),
      taxId: shortText.optional(),
      paymentData: z
        .object({ amount: shortText.optional(), memo: shortText.optional(), memoType: shortText.optional() })
        .optional(),
    })
    .optional(),
});
const transactionHash = shortText.nullable().optional();
export const updateInput = z.object({
  rampId: id,
  presignedTxs: z
    .array(z.record(z.string(), z.unknown()))
    .max(20)
    .refine((txs) => JSON.stringify(txs).length <= MAX_JSON_BYTES, "must be at most 16 KB"),
  additionalData: z
    .object({
      assethubToPendulumHash: transactionHash,
      squidRouterApproveHash: transactionHash,
      squidRouterNoPermitApproveHash: transactionHash,
      squidRouterNoPermitSwapHash: transactionHash,
      squidRouterNoPermitTransferHash: transactionHash,
      squidRouterSwapHash: transactionHash,
    })
    .strict()
    .nullable()
    .optional(),
});
export const historyInput = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
  walletAddress: walletAddress()
    .optional()
    .describe("Only the ramps whose tokens go to or come from this address (EVM addresses in any case)."),
  status: z.enum(RAMP_STATUSES).optional().describe("Only the ramps with this status."),
  type: z.enum(["BUY", "SELL"]).optional().describe("Only onramps (BUY) or only offramps (SELL)."),
  corridor: z.enum(CORRIDORS).optional().describe("Only the ramps of this corridor."),
  createdFrom: instant().optional().describe("Only the ramps registered at or after this instant (RFC 3339)."),
  createdBefore: instant().optional().describe("Only the ramps registered before this instant (RFC 3339)."),
  order: z
    .enum(["NEWEST_FIRST", "OLDEST_FIRST"])
    .default("NEWEST_FIRST")
    .describe("By registration time: newest first (the default) or oldest first."),
});
/** The history of one wallet address (REST names it in the path). */
export const walletHistoryInput = historyInput.required({ walletAddress: true });

export type RegisterInput = z.output<typeof registerInput>;
export type UpdateInput = z.output<typeof updateInput>;
export type HistoryPage = z.output<typeof historyInput>;

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
