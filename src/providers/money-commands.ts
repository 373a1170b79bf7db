import type { AlfredpayClient, OfframpRequest, OnrampRequest } from "./alfredpay/client.js";
import type { AveniaClient, FixedRateQuoteQuery, Permit } from "./avenia/client.js";
import { PartnerError } from "./http/partner-http.js";
import type { OrderKind } from "./order-observations.js";
import type { Partner } from "./partners.js";

/*
 * The money commands per partner, which the ledger (src/partner-commands/ledger.ts) sends at most once: how each is
 * sent, and how the partner tells whether an earlier send made it (spec decisions 3 and 8). An Avenia ticket takes its quote at send time: a quote token is a short-lived price
 * lock, not the ticket's identity, so a command sent again after a while is not refused for an expired token.
 */

/** What the partner made: its id for the order and what of its answer the ramp needs later. */
export interface PartnerOrder<Answer> {
  partnerOrderId: string;
  answer: Answer;
}

/**
 * A partner call that moves money, as the ledger sends it at most once. `send` and `find` talk to the partner;
 * the ledger decides when each may run.
 */
export interface MoneyCommand<Answer> {
  rampId: string;
  kind: OrderKind;
  partner: Partner;
  /** The command's identity at the partner (spec decision 8), e.g. `payin:<additionalData>`: unique. */
  reference: string;
  /**
   * Makes the order. A PartnerError says how it failed; any other error counts as an unknown outcome. Without a
   * signal, each call keeps the client's own timeout (a registration's order, which moves no money).
   */
  send(signal?: AbortSignal): Promise<PartnerOrder<Answer>>;
  /**
   * How the partner tells whether an earlier send made the order: a lookup answering the order, or null when the
   * partner surely has none (the command is then sent again, and only then); or "resend" when sending again is
   * itself the lookup, because the partner executes the command once and answers a repeat with the order it made
   * (an Alfredpay order: its quote is single-use, and the client reads back the order a 409 names).
   */
  find: ((signal: AbortSignal) => Promise<PartnerOrder<Answer> | null>) | "resend";
}

/** What came of executing a command, for the caller to act on. */
export type CommandResult<Answer> =
  | ({ outcome: "accepted" } & PartnerOrder<Answer>)
  /** Final: the partner refused it and created nothing; `error` is ours to show. */
  | { outcome: "refused"; error: string }
  /**
   * Ask again later: another caller holds the command (`in-progress`), or the partner's answer is not known yet
   * (`unsettled`: no certain answer, or the lookup failed; `error` says which).
   */
  | { outcome: "pending"; reason: "in-progress" }
  | { outcome: "pending"; reason: "unsettled"; error: string };

/** What sends money commands at most once: the ledger (src/partner-commands/ledger.ts). */
export interface MoneyCommandSender {
  /** Sends the command, or learns what an earlier send made; `signal` abandons the call in flight. */
  execute<A>(command: MoneyCommand<A>, signal?: AbortSignal): Promise<CommandResult<A>>;
}

/** The PIX copy-and-paste code the payer pays. */
export interface PayInAnswer {
  brCode: string;
}

/** A payout ticket's id is all a ramp needs of it. */
export type PayoutAnswer = Record<string, never>;

/** How the customer pays in (a rail's fields, e.g. SPEI's CLABE and reference), as the partner gave them. */
export interface OnrampAnswer {
  fiatPaymentInstructions: { paymentType: string } & Record<string, unknown>;
}

/** Where the customer sends the crypto, and until when the order takes it. */
export interface OfframpAnswer {
  depositAddress: string;
  expiration: string;
}

type TicketOutput = { walletChain: string; walletAddress: string } | { beneficiaryWalletId: string };

/** A PIX pay-in ticket carrying our reference as `additionalData`, found again by it. */
export function aveniaPayIn(
  client: AveniaClient,
  input: {
    rampId: string;
    subAccountId: string;
    /** Our reference (up to 64 characters), unique per pay-in. */
    additionalData: string;
    quote: FixedRateQuoteQuery;
    output: TicketOutput;
  },
): MoneyCommand<PayInAnswer> {
  const { subAccountId, additionalData } = input;
  return {
    rampId: input.rampId,
    kind: "avenia-payin",
    partner: "Avenia",
    reference: `payin:${additionalData}`,
    async send(signal) {
      const { quoteToken } = await client.fixedRateQuote(input.quote, { signal });
      const ticket = { quoteToken, ticketBrlPixInput: { additionalData }, ticketBlockchainOutput: input.output };
      const created = await client.createTicket(subAccountId, ticket, { signal });
      return payInOrder(created.id, created.brCode);
    },
    async find(signal) {
      const ticket = await client.findPayInTicket(subAccountId, additionalData, { signal });
      return ticket && payInOrder(ticket.id, ticket.brlPixInputInfo?.brCode);
    },
  };
}

/** A pay-in without the code to pay is no answer we can use: unknown, so the lookup reads the ticket again. */
function payInOrder(ticketId: string, brCode: string | null | undefined): PartnerOrder<PayInAnswer> {
  if (!brCode) throw new PartnerError("Avenia", "unknown", null, "pay-in-without-brcode");
  return { partnerOrderId: ticketId, answer: { brCode } };
}

/** A PIX payout ticket pulling BRLA by the user's permit, found again by the permit's nonce and wallet. */
export function aveniaPayout(
  client: AveniaClient,
  input: {
    rampId: string;
    subAccountId: string;
    walletAddress: string;
    permit: Permit;
    pixKey: string;
    quote: FixedRateQuoteQuery;
  },
): MoneyCommand<PayoutAnswer> {
  const { subAccountId, walletAddress, permit } = input;
  return {
    rampId: input.rampId,
    kind: "avenia-payout",
    partner: "Avenia",
    reference: `payout:${walletAddress.toLowerCase()}:${permit.nonce}`,
    async send(signal) {
      const { quoteToken } = await client.fixedRateQuote(input.quote, { signal });
      const ticket = {
        quoteToken,
        ticketBrlPixOutput: { pixKey: input.pixKey },
        ticketBlockchainInput: { walletAddress, permit },
      };
      const created = await client.createTicket(subAccountId, ticket, { signal });
      return { partnerOrderId: created.id, answer: {} };
    },
    async find(signal) {
      const ticket = await client.findPayoutTicket(subAccountId, walletAddress, permit.nonce, { signal });
      return ticket && { partnerOrderId: ticket.id, answer: {} };
    },
  };
}

/** An Alfredpay onramp order; its quote is single-use, so sending it again is its lookup. */
export function alfredpayOnramp(
  client: AlfredpayClient,
  rampId: string,
  order: OnrampRequest,
): MoneyCommand<OnrampAnswer> {
  return {
    rampId,
    kind: "alfredpay-onramp",
    partner: "Alfredpay",
    reference: `onramp:${order.quoteId}`,
    async send(signal) {
      const { transaction, fiatPaymentInstructions } = await client.createOnramp(order, { signal });
      return { partnerOrderId: transaction.transactionId, answer: { fiatPaymentInstructions } };
    },
    find: "resend",
  };
}

/** An Alfredpay offramp order; its quote is single-use, so sending it again is its lookup. */
export function alfredpayOfframp(
  client: AlfredpayClient,
  rampId: string,
  order: OfframpRequest,
): MoneyCommand<OfframpAnswer> {
  return {
    rampId,
    kind: "alfredpay-offramp",
    partner: "Alfredpay",
    reference: `offramp:${order.quoteId}`,
    async send(signal) {
      const { transactionId, depositAddress, expiration } = await client.createOfframp(order, { signal });
      return { partnerOrderId: transactionId, answer: { depositAddress, expiration } };
    },
    find: "resend",
  };
}
