import { z } from "zod";
import { idField, inputObject, instantField, named, outputObject } from "../output.js";
import { quoteTermsShape, RAMP_TYPES } from "../quotes/types.js";
import { instant, text, uuid, walletAddress } from "../validation.js";
import { CORRIDORS } from "../reference-data/corridors.js";
import { RAMP_PHASES, RAMP_STATUSES } from "../reference-data/ramp-phases.js";
import { describedEnum, screamingCase } from "../enums.js";

const MAX_JSON_BYTES = 16 * 1024;

const id = named("ID", uuid());
const shortText = text("line").min(1);

/** The chains a ramp's signing accounts are on, as the reference spells them. */
const SIGNING_ACCOUNT_TYPES = ["EVM", "Substrate"] as const;

describedEnum("SigningAccountType", SIGNING_ACCOUNT_TYPES, {
  description: "The kind of chain a signing account is on (REST spells SUBSTRATE as Substrate).",
  graphqlName: screamingCase,
  meanings: { EVM: "An EVM chain: a 0x address.", Substrate: "A Substrate chain (AssetHub): an SS58 address." },
});

const RAMP_ORDERS = ["NEWEST_FIRST", "OLDEST_FIRST"] as const;

export const rampOrderEnum = describedEnum("RampOrder", RAMP_ORDERS, {
  description: "The order of a ramp history, by registration time.",
  meanings: {
    NEWEST_FIRST: "The most recently registered first (the default).",
    OLDEST_FIRST: "The earliest registered first.",
  },
});

export const rampIdInput = z.object({
  rampId: id.describe("The UUID of the ramp to start; it must be initial and within its start window."),
});
const signingAccount = inputObject(
  "SigningAccountInput",
  "An account that signs the ramp's transactions; stored with the ramp.",
  z.object({
    address: walletAddress().describe("The account's public address: 0x and 40 hex digits, or an SS58 address."),
    type: named("SigningAccountType", z.enum(SIGNING_ACCOUNT_TYPES)).describe("The kind of chain the account is on."),
  }),
);
const paymentData = inputObject(
  "PaymentDataInput",
  "The reference contract's payment data, stored with the ramp as given.",
  z.object({
    amount: shortText.optional().describe("The payment's amount, 1 to 256 characters."),
    memo: shortText.optional().describe("The payment memo, 1 to 256 characters."),
    memoType: shortText.optional().describe("How to read memo (such as text or id), 1 to 256 characters."),
  }),
);
// The reference's known fields; anything else (provider auth tokens included) is dropped, never stored.
const registrationDetails = inputObject(
  "RegisterRampAdditionalDataInput",
  "Direction- and corridor-specific details of a registration, stored with the ramp.",
  z.object({
    destinationAddress: walletAddress()
      .optional()
      .describe(
        "BUY: where the tokens go, instead of the input's destinationAddress (they must match if both are given).",
      ),
    walletAddress: walletAddress().optional().describe("SELL: where the tokens come from (required)."),
    pixDestination: shortText.optional().describe("BRL: a PIX key, 1 to 256 characters, stored as given."),
    receiverTaxId: shortText.optional().describe("BRL: the receiver's tax id, 1 to 256 characters, stored as given."),
    taxId: shortText.optional().describe("BRL: deprecated cross-check; must match the profile's verified tax id."),
    paymentData: paymentData.optional().describe("Payment details, stored as given."),
  }),
);
export const registerInput = z.object({
  quoteId: id.describe("The quote to consume: the caller's own or an unowned one, unexpired and not yet registered."),
  destinationAddress: walletAddress().optional().describe("BUY: where the tokens go (required)."),
  fiatAccountId: id
    .optional()
    .describe(
      "SELL in AR, CO, MX or US: the subject's fiat account for the payout (required there, refused elsewhere).",
    ),
  sessionId: id.optional().describe("A widget session (createWidgetSession)."),
  signingAccounts: z.array(signingAccount).max(10).optional().describe("At most 10 signing accounts."),
  additionalData: registrationDetails.optional().describe("Extra details; a SELL gives its walletAddress here."),
});
const transactionHash = shortText.nullable().optional();
const clientReportedHashes = inputObject(
  "UpdateRampAdditionalDataInput",
  "Client-reported transaction hashes; a null clears one.",
  z
    .object({
      assethubToPendulumHash: transactionHash.describe("Hash of the AssetHub-to-Pendulum transfer."),
      squidRouterApproveHash: transactionHash.describe("Hash of the Squid Router approval."),
      squidRouterNoPermitApproveHash: transactionHash.describe("Hash of the Squid Router approval without permit."),
      squidRouterNoPermitSwapHash: transactionHash.describe("Hash of the Squid Router swap without permit."),
      squidRouterNoPermitTransferHash: transactionHash.describe("Hash of the Squid Router transfer without permit."),
      squidRouterSwapHash: transactionHash.describe("Hash of the Squid Router swap."),
    })
    .strict(),
);
export const updateInput = z.object({
  rampId: id.describe("The UUID of the subject's ramp to update."),
  presignedTxs: z
    .array(named("JSONObject", z.record(z.string(), z.unknown())))
    .max(20)
    .refine((txs) => JSON.stringify(txs).length <= MAX_JSON_BYTES, "must be at most 16 KB")
    .describe("SELL: the signed unsignedTxs (at most 20, 16 KB in all)."),
  additionalData: clientReportedHashes
    .nullable()
    .optional()
    .describe("Hashes to record; each one given replaces the stored value, and the others stay."),
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
    .enum(RAMP_ORDERS)
    .default("NEWEST_FIRST")
    .describe("By registration time: newest first (the default) or oldest first."),
});
/** The history of one wallet address (REST names it in the path). */
export const walletHistoryInput = historyInput.required({ walletAddress: true });

export type RegisterInput = z.output<typeof registerInput>;
export type UpdateInput = z.output<typeof updateInput>;
export type HistoryPage = z.output<typeof historyInput>;

const phase = (description: string) => named("RampPhase", z.enum(RAMP_PHASES)).describe(description);

/** How a BUY's payer pays in the fiat. */
const paymentInstructionsView = outputObject("PaymentInstructions", "BUY: how to pay the fiat in.", {
  method: named("PaymentMethodId", z.string()).describe("The payment method to pay with (the quote's)."),
  amount: named("Decimal", z.string()).describe("What to pay, in currency."),
  currency: named("FiatCurrencySymbol", z.string()).describe("The fiat to pay in (the quote's inputCurrency)."),
  reference: z.string().describe("The reference the transfer must carry."),
  beneficiary: z.string().describe("Whom the transfer is made out to."),
  account: z
    .string()
    .optional()
    .describe("The account to pay into (a CLABE, a bank account number), where the partner names one."),
});

/** A ramp as callers see it (field names of the reference contract). */
export const rampView = outputObject("Ramp", "A ramp: a registered quote on its way through the provider's phases.", {
  id: idField("UUID v4 of this ramp."),
  ...quoteTermsShape,
  quoteId: idField("The quote the ramp was registered from (and consumed)."),
  type: named("RampDirection", z.enum(RAMP_TYPES)).describe("The quote's rampType."),
  currentPhase: phase("The fine-grained step; it only moves forward."),
  status: named("RampStatus", z.enum(RAMP_STATUSES)).describe(
    "Follows from currentPhase; each change emits a STATUS_CHANGE event.",
  ),
  walletAddress: z.string().nullable().describe("BUY: where the tokens go; SELL: where they come from."),
  sessionId: idField("The widget session the ramp was registered with.").nullable(),
  fiatAccountId: idField(
    "SELL in AR, CO, MX or US: the subject's fiat account the payout goes to; null otherwise.",
  ).nullable(),
  paymentInstructions: paymentInstructionsView.nullable().describe("BUY: how to pay the fiat in; null for SELL."),
  depositQrCode: z.string().nullable().describe("PIX BR Code (copy and paste), for PIX payments."),
  unsignedTxs: z
    .array(named("JSONObject", z.record(z.string(), z.unknown())))
    .describe("SELL: what the user signs and returns with its update."),
  transactionHash: z
    .string()
    .nullable()
    .describe(
      "Hash of the on-chain transaction the provider reports while processing (BUY: the token payout); null until then.",
    ),
  transactionExplorerLink: z
    .string()
    .nullable()
    .describe("A block explorer URL for transactionHash; null without a hash or an explorer for the network."),
  expiresAt: instantField("The deadline for starting the ramp."),
  startedAt: instantField("When the ramp was started; null until then.").nullable(),
  createdAt: instantField("When the ramp was registered."),
  updatedAt: instantField("When the ramp last changed."),
});
export type RampView = z.output<typeof rampView>;

/** An entry of a ramp's error log. */
export const rampErrorView = outputObject("RampError", "An entry of a ramp's error log.", {
  timestamp: instantField("When the error was recorded."),
  phase: phase("The phase the ramp was in when the error occurred."),
  error: z.string().describe("A short summary of what went wrong."),
  details: z.string().nullable().describe("A longer explanation; null when there is none."),
  recoverable: z.boolean().describe("True when processing retries and may still complete."),
});
export type RampErrorView = z.output<typeof rampErrorView>;
