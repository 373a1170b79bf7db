import { z } from "zod";

/*
 * Alfredpay's wire shapes (partners-wire-facts §2.2). Answers require only the fields we consume; other fields pass
 * through untouched.
 */

export const customerCreated = z.object({ customerId: z.string().min(1) });
export const customerFound = z.object({ customerId: z.string().min(1), country: z.string(), type: z.string() });

export const submissionCreated = z.object({ submissionId: z.string().min(1) });
export const verificationUrl = z.object({ verification_url: z.string().min(1), submissionId: z.string().min(1) });
/** One entry per business; only what names a submission and its related persons is read. */
export const kybDetails = z.array(
  z.object({
    customerId: z.string(),
    submissionId: z.string(),
    businessName: z.string(),
    relatedPersons: z.array(
      z.object({
        idRelatedPerson: z.string().min(1),
        firstName: z.string().optional(),
        lastName: z.string().optional(),
      }),
    ),
  }),
);
export const verificationStatus = z.object({
  status: z.string(),
  updatedAt: z.string().optional(),
  metadata: z.object({ failureReason: z.string().nullish(), requiredFields: z.array(z.string()).nullish() }).nullish(),
});

const fee = z.object({ type: z.string(), amount: z.string(), currency: z.string() });
export const quoteAnswer = z.object({
  quoteId: z.string().min(1),
  fromCurrency: z.string(),
  toCurrency: z.string(),
  fromAmount: z.string(),
  toAmount: z.string(),
  expiration: z.string(),
  fees: z.array(fee),
  rate: z.union([z.string(), z.number()]),
});

const onrampTransaction = z.object({
  transactionId: z.string().min(1),
  quoteId: z.string(),
  status: z.string(),
  fromAmount: z.string(),
  toAmount: z.string(),
  depositAddress: z.string(),
  txHash: z.string().nullish(),
  metadata: z.object({ txHash: z.string().nullish(), failureReason: z.string().nullish() }).nullish(),
});
/**
 * Rail-specific and open (SPEI: `{paymentType, clabe, reference}`); passed on as the partner gave it. `expirationDate`:
 * until when the payment is taken, where the partner says.
 */
const fiatPaymentInstructions = z.looseObject({ paymentType: z.string(), expirationDate: z.string().nullish() });

export const onrampCreated = z.object({ transaction: onrampTransaction, fiatPaymentInstructions });
export const onrampAnswer = onrampTransaction.extend({ fiatPaymentInstructions: fiatPaymentInstructions.optional() });
/** An order read back for its creation's answer: the instructions must be there. */
export const onrampWithInstructions = onrampTransaction.extend({ fiatPaymentInstructions });

export const offrampAnswer = z.object({
  transactionId: z.string().min(1),
  quoteId: z.string(),
  status: z.string(),
  fromAmount: z.string(),
  toAmount: z.string(),
  depositAddress: z.string(),
  fiatAccountId: z.string(),
  expiration: z.string(),
  metadata: z.object({ txHash: z.string().nullish(), failureReason: z.string().nullish() }).nullish(),
});

export const fiatAccountCreated = z.object({ fiatAccountId: z.string().min(1) });
export const fiatAccountsAnswer = z.array(
  z.object({ fiatAccountId: z.string().min(1), customerId: z.string(), type: z.string(), accountNumber: z.string() }),
);

export const errorBody = z.object({
  errorCode: z.union([z.number(), z.string()]),
  errorMessage: z.string().optional(),
  errorMetadata: z
    .object({
      fromCurrency: z.string().optional(),
      minQuantity: z.number().optional(),
      maxQuantity: z.number().optional(),
      /** A used quote's refusal names the order that used it (spec decision 8). */
      transactionId: z.string().min(1).optional(),
    })
    .nullish(),
});
