import { z } from "zod";

/*
 * Avenia's wire shapes (partners-wire-facts §1.3). Answers require only the fields we consume; other fields pass
 * through untouched, so a partner adding fields breaks nothing.
 */

export const subAccountCreated = z.object({ id: z.string().min(1) });

export const accountInfoAnswer = z.object({
  accountInfo: z.object({
    identityStatus: z.string(),
    accountType: z.string().optional(),
    name: z.string().optional(),
  }),
  brCode: z.string().optional(),
  wallets: z.array(z.object({ chain: z.string(), walletAddress: z.string() })),
});

const decimal = z.string().regex(/^\d+(\.\d+)?$/);

/** A PIX key's holder; `taxId` masked, e.g. `***.123.456-**` (facts §1.3). */
export const pixKeyHolderAnswer = z.object({ name: z.string(), taxId: z.string(), bankName: z.string() });

export const limitsAnswer = z.object({
  limitInfo: z.object({
    blocked: z.boolean(),
    limits: z.array(
      z.object({
        currency: z.string(),
        maxFiatIn: decimal,
        maxFiatOut: decimal,
        maxChainIn: decimal,
        maxChainOut: decimal,
        usedLimit: z.object({
          usedFiatIn: decimal,
          usedFiatOut: decimal,
          usedChainIn: decimal,
          usedChainOut: decimal,
        }),
      }),
    ),
  }),
});

export const fixedRateQuoteAnswer = z.object({
  quoteToken: z.string().min(1),
  inputAmount: decimal,
  outputAmount: decimal,
  appliedFees: z.array(z.object({ type: z.string(), amount: decimal, currency: z.string().optional() })),
  /** The rate before fees, output per input: not always given. */
  basePrice: decimal.optional(),
});

/** A pay-in answers `{id, brCode, expiration}`; a payout or a transfer `{id}` only. */
export const ticketCreated = z.object({
  id: z.string().min(1),
  brCode: z.string().optional(),
  expiration: z.string().optional(),
});

const ticket = z.object({
  id: z.string().min(1),
  status: z.string(),
  expiresAt: z.string().nullish(),
  failureReason: z.string().nullish(),
  brlPixInputInfo: z.object({ additionalData: z.string().nullish(), brCode: z.string().nullish() }).nullish(),
  blockchainReceiverInfo: z.object({ txHash: z.string().nullish() }).nullish(),
  brazilianFiatReceiverInfo: z.object({ endToEndId: z.string().nullish() }).nullish(),
  blockchainSenderInfo: z.object({ walletAddress: z.string().nullish() }).nullish(),
  blockchainInputInfo: z.object({ nonce: z.union([z.number(), z.string()]).nullish() }).nullish(),
});
export type AveniaTicket = z.infer<typeof ticket>;

export const ticketAnswer = z.object({ ticket });
export const ticketsAnswer = z.object({ tickets: z.array(ticket) });

export const documentCreated = z.union([
  z.object({ id: z.string().min(1), livenessUrl: z.string(), validateLivenessToken: z.string() }),
  z.object({ id: z.string().min(1), uploadURLFront: z.string(), uploadURLBack: z.string().nullish() }),
]);

export const idAnswer = z.object({ id: z.string().min(1) });

/** `id` is the attempt the import started; `message` is Avenia's words, e.g. "processing KYC". */
export const importTokenAccepted = z.object({ id: z.string().min(1), message: z.string() });

export const webSdkStarted = z.object({
  attemptId: z.string().min(1),
  authorizedRepresentativeUrl: z.string(),
  basicCompanyDataUrl: z.string(),
});

const attempt = z.object({
  id: z.string().min(1),
  levelName: z.string().optional(),
  status: z.string(),
  result: z.string().nullish(),
  resultMessage: z.string().nullish(),
  retryable: z.boolean().nullish(),
  createdAt: z.string().optional(),
  updatedAt: z.string(),
});

export const attemptAnswer = z.object({ attempt });
export const attemptsAnswer = z.object({ attempts: z.array(attempt), cursor: z.string().nullish() });

export const publicKeyAnswer = z.object({ publicKey: z.string().min(1) });

export const webhookCreated = z.object({ webhookId: z.string().min(1) });
export const webhooksAnswer = z.object({
  webhooks: z.array(z.object({ id: z.string(), url: z.string(), subscriptions: z.array(z.string()) })),
});

export const errorBody = z.object({ error: z.string() });
