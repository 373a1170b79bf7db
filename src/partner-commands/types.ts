import type { OrderKind } from "../providers/order-observations.js";
import type { Partner } from "../providers/partners.js";

/**
 * - `intended`: claimed and about to be sent, or being sent; a claim that lapsed here means its holder stopped
 *   mid-way, and the partner may have the order.
 * - `accepted`: the partner made the order (its id and answer are stored). Final.
 * - `refused`: the partner refused it deterministically; nothing was created. Final.
 * - `unknown`: sent without a certain answer (timeout, reset, 5xx, 408/409/429): looked up before anything else.
 */
export type CommandState = "intended" | "accepted" | "refused" | "unknown";

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
  /** Makes the order. A PartnerError says how it failed; any other error counts as an unknown outcome. */
  send(signal: AbortSignal): Promise<PartnerOrder<Answer>>;
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
