import { aveniaPayIn, aveniaPayout, type MoneyCommandSender } from "../money-commands.js";
import type { Network } from "../../reference-data/catalog.js";
import { fieldError } from "../../validation.js";
import { money, type Money } from "../../money.js";
import type { FiatSymbol } from "../../reference-data/corridors.js";
import { REFERENCE_USD } from "../market-rates.js";
import { PartnerError } from "../http/partner-http.js";
import { followOrder, observeAveniaPayIn, observeAveniaPayout, recorded } from "../order-observations.js";
import type { ProviderRamp, RampRegistration, RampToRegister, StepOutcome } from "../ramp-port.js";
import type { AveniaClient, FixedRateQuoteQuery, Permit } from "./client.js";

/** Avenia's names of the networks it takes and sends tokens on (facts §1.3); the others it does not serve. */
const CHAINS: Partial<Record<Network, "BASE" | "ETHEREUM" | "MOONBEAM" | "POLYGON">> = {
  base: "BASE",
  ethereum: "ETHEREUM",
  moonbeam: "MOONBEAM",
  polygon: "POLYGON",
};
/** Avenia's names of the tokens it serves, by ours. */
const TOKENS: Readonly<Record<string, "USDC" | "USDCe" | "USDT">> = { USDC: "USDC", "USDC.e": "USDCe", USDT: "USDT" };
/** How long a permit the user signs stays usable: past the start window, for the payout sent after the start. */
const PERMIT_LIFETIME_S = 24 * 60 * 60;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * Ramps in Brazil at Avenia. A BUY's registration makes the PIX pay-in ticket whose BR Code the payer pays: no money
 * moves before the payer has the code, so a registration whose answer was lost keeps nothing and is simply made
 * again. A SELL's user signs a permit letting Avenia pull the tokens; the payout ticket that spends it is a money
 * step, sent once through the ledger at the first step after the start. Each later step reads the ticket back.
 */
export class AveniaRamps {
  constructor(
    private readonly client: AveniaClient,
    private readonly ledger: MoneyCommandSender,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async register(ramp: RampToRegister): Promise<RampRegistration> {
    const chain = CHAINS[ramp.network as Network];
    if (!chain) throw fieldError("network", "is not one Avenia serves in BR");
    const subAccountId = recorded(ramp.partnerCustomerId, "the subject's Avenia subaccount");
    const wallet = recorded(ramp.walletAddress, "the ramp's wallet");
    if (ramp.type === "SELL") {
      if (!ramp.pixKey) throw fieldError("additionalData.pixDestination", "is required for a SELL paid out by PIX");
      tokenOf(ramp.inputCurrency, "inputCurrency");
      await this.checkPixKey(ramp.pixKey, ramp.receiverTaxId);
      return {
        unsignedTxs: [this.permitToSign(ramp, wallet)],
        depositQrCode: null,
        partnerOrderId: null,
        partnerPayment: null,
      };
    }
    const reference = payInReference(ramp.id);
    const payIn = aveniaPayIn(this.client, {
      rampId: ramp.id,
      subAccountId,
      additionalData: reference,
      quote: {
        inputCurrency: "BRL",
        inputPaymentMethod: "PIX",
        inputAmount: ramp.inputAmount,
        outputCurrency: tokenOf(ramp.outputCurrency, "outputCurrency"),
        outputPaymentMethod: chain,
        inputThirdParty: false,
        outputThirdParty: false,
        subAccountId,
      },
      output: { walletChain: chain, walletAddress: wallet },
    });
    // Sent as a plain call, not through the ledger: no money moves before the payer has the code it answers.
    const { partnerOrderId, answer } = await payIn.send();
    return {
      unsignedTxs: [],
      depositQrCode: answer.brCode,
      partnerOrderId,
      partnerPayment: {
        method: ramp.paymentMethod,
        amount: ramp.inputAmount,
        currency: ramp.inputCurrency,
        reference,
        beneficiary: "Avenia",
      },
    };
  }

  /**
   * A payout to a PIX key cannot be called back: the key must be one Avenia pays to, and when the caller names the
   * receiver's tax id, the key's holder must be that person or company (the digits Avenia shows of its masked id).
   */
  private async checkPixKey(pixKey: string, receiverTaxId: string | null): Promise<void> {
    let holder: { taxId: string };
    try {
      holder = await this.client.pixKeyHolder(pixKey);
    } catch (error) {
      if (error instanceof PartnerError && error.kind === "rejected")
        throw fieldError("additionalData.pixDestination", "is not a PIX key Avenia can pay to");
      throw error;
    }
    if (receiverTaxId !== null && !matchesMasked(holder.taxId, receiverTaxId))
      throw fieldError("additionalData.receiverTaxId", "is not the tax id of the PIX key's holder");
  }

  /**
   * BRL per US dollar: Avenia's price of USDC sold for BRL by PIX, from a reference quote (no subaccount). The rate
   * before fees is its `basePrice`; where it gives none, the output over the input less the fees taken from it.
   */
  async fiatPerUsd(_fiat: FiatSymbol, signal: AbortSignal): Promise<Money> {
    const quote = await this.client.fixedRateQuote(
      {
        inputCurrency: "USDC",
        inputPaymentMethod: "POLYGON",
        inputAmount: REFERENCE_USD,
        outputCurrency: "BRL",
        outputPaymentMethod: "PIX",
        inputThirdParty: false,
        outputThirdParty: false,
      },
      { signal },
    );
    const feesInUsdc = quote.appliedFees
      .filter((fee) => fee.currency === undefined || fee.currency === "USDC")
      .reduce((sum, fee) => sum.plus(fee.amount), money(0));
    return quote.basePrice === undefined
      ? money(quote.outputAmount).dividedBy(money(quote.inputAmount).minus(feesInUsdc))
      : money(quote.basePrice);
  }

  /** Whether the user signed the permit the payout spends; a BUY needs nothing signed. */
  presignedProblem(ramp: { type: "BUY" | "SELL"; presignedTxs: readonly unknown[] }): string | null {
    if (ramp.type === "BUY" || permitOf(ramp.presignedTxs, this.now())) return null;
    return (
      'must hold the signed permit (phase "permit"): its signature (0x and 65 bytes), the nonce signed and a ' +
      "deadline not yet passed"
    );
  }

  async step(ramp: ProviderRamp, signal: AbortSignal): Promise<StepOutcome> {
    const subAccountId = recorded(ramp.partnerCustomerId, "the ramp's Avenia subaccount");
    if (ramp.type === "SELL" && ramp.partnerOrderId === null) return this.sendPayout(ramp, subAccountId, signal);
    const ticketId = recorded(ramp.partnerOrderId, "the ramp's Avenia ticket");
    return followOrder("Avenia", ramp.currentPhase, () =>
      ramp.type === "BUY"
        ? observeAveniaPayIn(this.client, subAccountId, ticketId, signal)
        : observeAveniaPayout(this.client, subAccountId, ticketId, signal),
    );
  }

  /** The payout ticket, sent at most once (the ledger): its id is the ramp's order from then on. */
  private async sendPayout(ramp: ProviderRamp, subAccountId: string, signal: AbortSignal): Promise<StepOutcome> {
    const walletAddress = recorded(ramp.walletAddress, "the ramp's wallet");
    // Checked at the start; a ramp started before the check existed has nothing to pull the tokens with.
    const permit = permitOf(ramp.presignedTxs, this.now());
    if (!permit)
      return {
        kind: "fail",
        error: "The payout could not be sent",
        details: "The ramp holds no usable signed permit.",
      };
    const quote: FixedRateQuoteQuery = {
      inputCurrency: tokenOf(ramp.inputCurrency, "inputCurrency"),
      inputPaymentMethod: recorded(CHAINS[ramp.network as Network] ?? null, "the ramp's network at Avenia"),
      inputAmount: ramp.inputAmount,
      outputCurrency: "BRL",
      outputPaymentMethod: "PIX",
      inputThirdParty: false,
      outputThirdParty: false,
      blockchainSendMethod: "PERMIT",
      subAccountId,
    };
    const pixKey = recorded(ramp.pixKey, "the ramp's PIX key");
    const command = aveniaPayout(this.client, { rampId: ramp.id, subAccountId, walletAddress, permit, pixKey, quote });
    const result = await this.ledger.execute(command, signal);
    switch (result.outcome) {
      case "accepted":
        return { kind: "advance", phase: ramp.currentPhase, partnerOrderId: result.partnerOrderId };
      case "refused":
        return {
          kind: "fail",
          error: "The partner refused the payout",
          details:
            "Avenia refused the PIX payout, or its permit was spent already; no tokens were pulled for this ramp.",
        };
      case "pending":
        // Another instance is sending it: nothing to report, the ramp is read again later.
        if (result.reason === "in-progress") return { kind: "advance", phase: ramp.currentPhase };
        return {
          kind: "retry",
          error: "The partner is unavailable",
          details: "Avenia gave no certain answer for the payout; it is looked up there before it is sent again.",
        };
    }
  }

  /** What the user signs: a permit letting Avenia pull the input amount from the wallet, until its deadline. */
  private permitToSign(ramp: RampToRegister, wallet: string) {
    const deadline = Math.floor(this.now().getTime() / 1000) + PERMIT_LIFETIME_S;
    return {
      phase: "permit",
      network: ramp.network,
      signer: wallet,
      nonce: 0,
      deadline,
      meta: {
        description:
          `Sign a permit letting Avenia pull ${ramp.inputAmount} ${ramp.inputCurrency} from the wallet for the PIX ` +
          "payout; sign it with the token's current permit nonce of the wallet, and send that nonce with the signature",
        token: ramp.inputCurrency,
        amount: ramp.inputAmount,
      },
    };
  }
}

/** Whether a tax id has, at every position a masked one shows (`***.123.456-**`), the digit shown there. */
function matchesMasked(masked: string, taxId: string): boolean {
  const shown = masked.replace(/[.\-/]/g, "");
  const digits = taxId.replace(/\D/g, "");
  return shown.length === digits.length && [...shown].every((char, index) => char === "*" || char === digits[index]);
}

/** The reference a pay-in carries (Avenia's `additionalData`, the BR Code's reference label: 25 characters). */
const payInReference = (rampId: string) => rampId.replace(/-/g, "").slice(0, 25).toUpperCase();

/**
 * The permit among the presigned transactions: the entry of phase "permit", its 65-byte signature split into r, s
 * and v, with the nonce and deadline it was signed with; null when there is none usable.
 */
function permitOf(presignedTxs: readonly unknown[], now: Date): Permit | null {
  const entry = presignedTxs.find(
    (tx): tx is Record<string, unknown> =>
      typeof tx === "object" && tx !== null && (tx as { phase?: unknown }).phase === "permit",
  );
  if (!entry) return null;
  const { signature, nonce, deadline } = entry;
  if (typeof signature !== "string" || !SIGNATURE.test(signature)) return null;
  if (!Number.isSafeInteger(nonce) || (nonce as number) < 0) return null;
  if (!Number.isSafeInteger(deadline) || (deadline as number) * 1000 <= now.getTime()) return null;
  return {
    r: `0x${signature.slice(2, 66)}`,
    s: `0x${signature.slice(66, 130)}`,
    v: Number.parseInt(signature.slice(130, 132), 16),
    nonce: nonce as number,
    deadline: deadline as number,
  };
}

function tokenOf(symbol: string, field: "inputCurrency" | "outputCurrency") {
  const token = TOKENS[symbol];
  if (!token) throw fieldError(field, `is not a token Avenia serves (${Object.keys(TOKENS).join(", ")})`);
  return token;
}
