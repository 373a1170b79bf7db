import { followOrder, observeAlfredpayOfframp, observeAlfredpayOnramp, recorded } from "../order-observations.js";
import type { Network } from "../../reference-data/catalog.js";
import type { PaymentInstructions, ProviderRamp, RampRegistration, RampToRegister, StepOutcome } from "../ramp-port.js";
import { fieldError } from "../../validation.js";
import { money, type Money } from "../../money.js";
import type { FiatSymbol } from "../../reference-data/corridors.js";
import { REFERENCE_USD } from "../market-rates.js";
import type { AlfredpayClient } from "./client.js";

/** Alfredpay's names of the networks it pays out and takes deposits on (facts §2.2); the others it does not serve. */
const CHAINS: Partial<Record<Network, "ETH" | "MATIC" | "ARB" | "BASE" | "AVAX" | "BNB">> = {
  arbitrum: "ARB",
  avalanche: "AVAX",
  base: "BASE",
  bsc: "BNB",
  ethereum: "ETH",
  polygon: "MATIC",
};
const TOKENS = ["USDC", "USDT"] as const;

/**
 * Ramps at Alfredpay (AR, CO, MX, US): registering makes the partner's order (its quote first, single-use, so a
 * creation whose answer was lost is found by sending it again: AlfredpayClient), and each step reads the order back.
 * No money moves when an order is made: a BUY's payer pays the instructions it answers, a SELL's user sends the
 * tokens to its deposit address, and neither has them before the registration's answer.
 */
export class AlfredpayRamps {
  constructor(private readonly client: AlfredpayClient) {}

  async register(ramp: RampToRegister): Promise<RampRegistration> {
    const chain = CHAINS[ramp.network as Network];
    if (!chain) throw fieldError("network", `is not one Alfredpay serves in ${ramp.corridor}`);
    const token = (ramp.type === "BUY" ? ramp.outputCurrency : ramp.inputCurrency) as (typeof TOKENS)[number];
    if (!TOKENS.includes(token))
      throw fieldError("outputCurrency", `is not a token Alfredpay serves (${TOKENS.join(", ")})`);
    const customerId = recorded(ramp.partnerCustomerId, "the subject's Alfredpay customer");
    const wallet = recorded(ramp.walletAddress, "the ramp's wallet");
    const quote = await this.client.createQuote({
      fromCurrency: ramp.inputCurrency,
      toCurrency: ramp.outputCurrency,
      fromAmount: ramp.inputAmount,
      chain,
      paymentMethodType: "BANK",
      metadata: { rampId: ramp.id },
    });
    const order = { customerId, quoteId: quote.quoteId, amount: quote.fromAmount, chain };
    if (ramp.type === "BUY") {
      const { transaction, fiatPaymentInstructions } = await this.client.createOnramp({
        ...order,
        fromCurrency: ramp.inputCurrency,
        toCurrency: token,
        paymentMethodType: "BANK",
        depositAddress: wallet,
      });
      return {
        unsignedTxs: [],
        depositQrCode: null,
        partnerOrderId: transaction.transactionId,
        partnerPayment: paymentOf(ramp, quote.fromAmount, fiatPaymentInstructions),
      };
    }
    const offramp = await this.client.createOfframp({
      ...order,
      fromCurrency: token,
      toCurrency: ramp.outputCurrency,
      fiatAccountId: recorded(ramp.partnerPayoutAccountId, "the payout account at Alfredpay"),
      originAddress: wallet,
    });
    // What the user signs: the tokens' transfer to the order's deposit address, before the order expires.
    const transfer = {
      phase: "transfer",
      network: ramp.network,
      signer: wallet,
      nonce: 0,
      meta: {
        description: `Send ${offramp.fromAmount} ${token} to the deposit address`,
        to: offramp.depositAddress,
        amount: offramp.fromAmount,
        token,
        expiresAt: offramp.expiration,
      },
    };
    return {
      unsignedTxs: [transfer],
      depositQrCode: null,
      partnerOrderId: offramp.transactionId,
      partnerPayment: null,
    };
  }

  /** Units of `fiat` per US dollar: the rate of Alfredpay's reference quote of USDC sold for it. */
  async fiatPerUsd(fiat: FiatSymbol, signal: AbortSignal): Promise<Money> {
    const quote = await this.client.createQuote(
      {
        fromCurrency: "USDC",
        toCurrency: fiat,
        fromAmount: REFERENCE_USD,
        chain: "MATIC",
        paymentMethodType: "BANK",
        metadata: { purpose: "reference rate" },
      },
      { signal },
    );
    return money(String(quote.rate));
  }

  /** Reads the ramp's order. */
  step(ramp: ProviderRamp, signal: AbortSignal): Promise<StepOutcome> {
    const orderId = recorded(ramp.partnerOrderId, "the ramp's Alfredpay order");
    return followOrder("Alfredpay", ramp.currentPhase, () =>
      ramp.type === "BUY"
        ? observeAlfredpayOnramp(this.client, orderId, signal)
        : observeAlfredpayOfframp(this.client, orderId, signal),
    );
  }

  /** A SELL's user signs the transfer to the order's deposit address; nothing else is needed before the start. */
  presignedProblem(): string | null {
    return null;
  }
}

/** How the payer pays, from the partner's instructions: the account to pay into and the reference to quote. */
function paymentOf(
  ramp: RampToRegister,
  amount: string,
  given: { paymentType: string } & Record<string, unknown>,
): PaymentInstructions {
  const text = (field: string) => (typeof given[field] === "string" ? (given[field] as string) : undefined);
  const account = text("clabe") ?? text("bankAccountNumber") ?? text("accountNumber");
  return {
    method: ramp.paymentMethod,
    amount,
    currency: ramp.inputCurrency,
    reference: text("reference") ?? text("paymentDescription") ?? "",
    beneficiary: text("bankBeneficiaryName") ?? "Alfredpay",
    ...(account && { account }),
  };
}
