import { randomUUID } from "node:crypto";
import type { AlfredpayClient, OnrampRequest } from "../../src/providers/alfredpay/client.js";
import type { KycSubmission } from "../../src/providers/alfredpay/requests.js";
import type { AveniaClient } from "../../src/providers/avenia/client.js";
import type { IndividualKycLevel1 } from "../../src/providers/avenia/requests.js";
import { waitFor } from "./kit.js";

/*
 * What tests set up at a partner (the simulator, through our clients) before the part they are about: a Mexican
 * customer verified at Alfredpay, an Avenia PIX pay-in.
 */

/** Avenia's fixed-rate quote of a PIX pay-in into BRLA on Base; the amount and the subaccount are the caller's. */
export const PIX_PAYIN_QUOTE = {
  inputCurrency: "BRL",
  inputPaymentMethod: "PIX",
  outputCurrency: "BRLA",
  outputPaymentMethod: "BASE",
  inputThirdParty: false,
  outputThirdParty: false,
} as const;

/** A Mexican individual's KYC form as Alfredpay takes it. */
export function mexicanKycForm(lastName: string, email?: string): KycSubmission {
  return {
    firstName: "Ana",
    lastName,
    dateOfBirth: "1990-01-31",
    ...(email !== undefined && { email }),
    country: "MX",
    city: "CDMX",
    state: "CDMX",
    zipCode: "01000",
    address: "Calle Uno 1",
    dni: "GODE561231HDFRRN09",
    typeDocument: "INE",
  };
}

/** A new Mexican customer with a finished KYC submission, which the partner then decides. */
export async function alfredpayCustomerWithKyc(
  alfredpay: AlfredpayClient,
  lastName: string,
  email = `ana+${randomUUID()}@example.com`,
): Promise<{ customerId: string; submissionId: string }> {
  const { customerId } = await alfredpay.createCustomer({ country: "MX", email, type: "INDIVIDUAL" });
  const { submissionId } = await alfredpay.submitKycForm(customerId, mexicanKycForm(lastName, email));
  await alfredpay.finishKycSubmission(customerId, submissionId);
  return { customerId, submissionId };
}

/** A new Mexican customer whose KYC is COMPLETED: the only kind Alfredpay opens orders for. */
export async function verifiedAlfredpayCustomer(alfredpay: AlfredpayClient, lastName: string): Promise<string> {
  const { customerId, submissionId } = await alfredpayCustomerWithKyc(alfredpay, lastName);
  await waitFor(
    () => alfredpay.kycStatus(customerId, submissionId),
    (status) => status.status === "COMPLETED",
    "the customer's KYC",
  );
  return customerId;
}

/** A PIX pay-in ticket of 100 BRL for the subaccount, carrying our reference, paying out to the wallet on Base. */
export async function pixPayInTicket(
  avenia: AveniaClient,
  subAccountId: string,
  reference: string,
  walletAddress: string,
): Promise<string> {
  const quote = await avenia.fixedRateQuote({ ...PIX_PAYIN_QUOTE, inputAmount: "100.00", subAccountId });
  const created = await avenia.createTicket(subAccountId, {
    quoteToken: quote.quoteToken,
    ticketBrlPixInput: { additionalData: reference },
    ticketBlockchainOutput: { walletChain: "BASE", walletAddress },
  });
  return created.id;
}

/** A Brazilian individual's level-1 KYC as Avenia takes it, naming the selfie and identity document uploaded. */
export function brazilianKycLevel1(
  subAccountId: string,
  fullName: string,
  uploaded: { selfieId: string; documentId: string },
): IndividualKycLevel1 {
  return {
    subAccountId,
    fullName,
    dateOfBirth: "1990-01-31",
    countryOfTaxId: "BRA",
    taxIdNumber: "12345678909",
    email: "ana@example.com",
    country: "BRA",
    state: "SP",
    city: "Sao Paulo",
    zipCode: "01000-000",
    streetAddress: "Rua Um, 1",
    uploadedSelfieId: uploaded.selfieId,
    uploadedDocumentId: uploaded.documentId,
  };
}

/** An onramp order of MXN into USDC on Polygon on the partner's quote, paid out to the wallet. */
export function mexicanOnrampOrder(
  customerId: string,
  quote: { quoteId: string; fromAmount: string },
  depositAddress: string,
): OnrampRequest {
  return {
    customerId,
    quoteId: quote.quoteId,
    fromCurrency: "MXN",
    toCurrency: "USDC",
    amount: quote.fromAmount,
    chain: "MATIC",
    paymentMethodType: "BANK",
    depositAddress,
  };
}
