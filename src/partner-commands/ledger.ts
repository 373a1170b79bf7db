import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Db } from "../db/client.js";
import { isUniqueViolation } from "../db/tx.js";
import { deadline } from "../deadline.js";
import { PartnerError } from "../providers/http/partner-http.js";
import * as repo from "./repo.js";
import type { OrderKind } from "../providers/order-observations.js";
import type { CommandResult, MoneyCommand, MoneyCommandSender, PartnerOrder } from "../providers/money-commands.js";

const DEFAULT_CALL_TIMEOUT_MS = 30_000;

const LABELS: Record<OrderKind, string> = {
  "avenia-payin": "PIX pay-in ticket",
  "avenia-payout": "PIX payout ticket",
  "alfredpay-onramp": "onramp order",
  "alfredpay-offramp": "offramp order",
};

const IN_PROGRESS = { outcome: "pending", reason: "in-progress" } as const;

export interface LedgerOptions {
  /** A partner call's budget: its signal aborts then. */
  callTimeoutMs?: number;
  now?: () => Date;
}

/**
 * Sends each money command at most once, across crashes, timeouts and instances (docs/architecture.md, "Money
 * commands"). The intent is written before the call, in its own statement, and the unique (rampId, kind) makes it
 * the claim; the call runs outside any transaction; its outcome is written after it, conditionally, so of callers
 * racing on one command one sends and the others are told it is in progress. A command that may have reached the
 * partner (its outcome unknown, or its holder gone mid-call) is looked up before anything is sent again, and sent
 * again only when the partner surely has none.
 */
export class MoneyCommandLedger implements MoneyCommandSender {
  private readonly callTimeoutMs: number;
  /**
   * How long a claim holds: twice a call's budget, renewed before each send, so a holder's call is abandoned (its
   * signal aborted) well before another caller may take the command over.
   */
  private readonly claimMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    options: LedgerOptions = {},
  ) {
    this.callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.claimMs = 2 * this.callTimeoutMs;
    this.now = options.now ?? (() => new Date());
  }

  /** Sends the command, or learns what an earlier send made; `signal` (a shutdown) abandons the call in flight. */
  async execute<A>(command: MoneyCommand<A>, signal?: AbortSignal): Promise<CommandResult<A>> {
    const { rampId, kind, partner, reference } = command;
    const claim = { id: randomUUID(), claimedUntil: this.claimFrom(this.now()) };
    const claimed = await repo.insertIntent(this.db, { ...claim, rampId, kind, partner, reference }).then(
      () => true,
      (error: unknown) => {
        if (isUniqueViolation(error)) return false;
        throw error;
      },
    );
    return claimed ? this.send(command, claim, signal) : this.resume(command, signal);
  }

  /** A command recorded already: its settled outcome, in progress elsewhere, or taken over and looked up. */
  private async resume<A>(command: MoneyCommand<A>, signal?: AbortSignal): Promise<CommandResult<A>> {
    const row = await repo.findCommand(this.db, command.rampId, command.kind);
    // The claim conflicted on the reference alone: another ramp's command is this one (a permit spent twice).
    if (!row) return { outcome: "refused", error: `Another ramp's ${LABELS[command.kind]} has this reference.` };
    if (row.partner !== command.partner || row.reference !== command.reference)
      throw new Error(`The ${command.kind} of ramp ${command.rampId} differs from the command recorded for it`);
    const settled = settledResult<A>(row);
    if (settled) return settled;
    const now = this.now();
    if (row.claimedUntil > now) return IN_PROGRESS;
    const claim = { id: row.id, claimedUntil: this.claimFrom(now) };
    if (!(await repo.takeOver(this.db, row, claim.claimedUntil, command.find === "resend"))) return IN_PROGRESS;
    this.log.info({ ...this.fields(command), state: row.state }, "money command taken over, to be looked up");
    return command.find === "resend"
      ? this.send(command, claim, signal)
      : this.lookUp(command, command.find, claim, signal);
  }

  private async lookUp<A>(
    command: MoneyCommand<A>,
    find: (signal: AbortSignal) => Promise<PartnerOrder<A> | null>,
    claim: repo.HeldCommand,
    signal?: AbortSignal,
  ): Promise<CommandResult<A>> {
    let found: PartnerOrder<A> | null;
    try {
      found = await this.call(find, signal);
    } catch (error) {
      const lastError = `Looking the ${LABELS[command.kind]} up at ${command.partner} failed (${detailOf(error)}).`;
      return this.giveBack(command, claim, { lastError }, error);
    }
    if (found) return this.accept(command, claim.id, found);
    const renewed = { id: claim.id, claimedUntil: this.claimFrom(this.now()) };
    if (!(await repo.renewForSend(this.db, claim, renewed.claimedUntil))) return this.current(command);
    return this.send(command, renewed, signal);
  }

  private async send<A>(
    command: MoneyCommand<A>,
    claim: repo.HeldCommand,
    signal?: AbortSignal,
  ): Promise<CommandResult<A>> {
    const label = LABELS[command.kind];
    let order: PartnerOrder<A>;
    try {
      order = await this.call(command.send, signal);
    } catch (error) {
      if (error instanceof PartnerError && error.kind === "rejected") {
        const lastError = `${command.partner} refused the ${label} (${detailOf(error)}): ${error.message}`;
        if (!(await repo.recordRefused(this.db, claim, lastError, this.now()))) return this.current(command);
        this.log.warn({ ...this.fields(command), partnerCode: error.partnerCode }, "money command refused");
        return { outcome: "refused", error: lastError };
      }
      // Only a call that surely never left keeps its state; any other may have made the order.
      const notSent = error instanceof PartnerError && error.kind === "unavailable";
      const lastError = notSent
        ? `${command.partner} was not reached for the ${label} (${detailOf(error)}).`
        : `The ${label} was sent to ${command.partner} without a certain answer (${detailOf(error)}).`;
      return this.giveBack(command, claim, notSent ? { lastError } : { lastError, state: "unknown" }, error);
    }
    return this.accept(command, claim.id, order);
  }

  private async accept<A>(command: MoneyCommand<A>, id: string, order: PartnerOrder<A>): Promise<CommandResult<A>> {
    const stored = { partnerOrderId: order.partnerOrderId, answer: JSON.stringify(order.answer) };
    if (await repo.recordAccepted(this.db, id, stored, this.now())) {
      this.log.info({ ...this.fields(command), partnerOrderId: order.partnerOrderId }, "money command accepted");
      return { outcome: "accepted", ...order };
    }
    const current = await this.current(command);
    if (current.outcome !== "accepted" || current.partnerOrderId !== order.partnerOrderId)
      this.log.error(
        { ...this.fields(command), partnerOrderId: order.partnerOrderId, recorded: current.outcome },
        "the partner made an order for a money command recorded otherwise: reconcile by hand",
      );
    return current;
  }

  /** Releases a claim still held, unsettled, for the next caller to look up; an error not the partner's is rethrown. */
  private async giveBack<A>(
    command: MoneyCommand<A>,
    claim: repo.HeldCommand,
    change: { lastError: string; state?: "unknown" },
    error: unknown,
  ): Promise<CommandResult<A>> {
    const released = await repo.releaseUnsettled(this.db, claim, change, this.now());
    this.log.warn({ ...this.fields(command), err: error, state: change.state }, "money command unsettled");
    if (!(error instanceof PartnerError)) throw error;
    return released ? { outcome: "pending", reason: "unsettled", error: change.lastError } : this.current(command);
  }

  /** The command as recorded now, for a caller whose own write found it changed by another. */
  private async current<A>(command: MoneyCommand<A>): Promise<CommandResult<A>> {
    const row = await repo.findCommand(this.db, command.rampId, command.kind);
    if (!row) throw new Error(`The ${command.kind} of ramp ${command.rampId} is not recorded`);
    const settled = settledResult<A>(row);
    if (settled) return settled;
    if (row.claimedUntil > this.now()) return IN_PROGRESS;
    const awaiting = `The ${LABELS[command.kind]} awaits a lookup at ${command.partner}.`;
    return { outcome: "pending", reason: "unsettled", error: row.lastError ?? awaiting };
  }

  private async call<T>(work: (signal: AbortSignal) => Promise<T>, outer?: AbortSignal): Promise<T> {
    const callDeadline = deadline(this.callTimeoutMs, outer);
    try {
      return await work(callDeadline.signal);
    } finally {
      callDeadline.release();
    }
  }

  private claimFrom(now: Date): Date {
    return new Date(now.getTime() + this.claimMs);
  }

  /** What a log says of a command: never its reference (a wallet, our ramp's reference) or the partner's answer. */
  private fields(command: MoneyCommand<unknown>) {
    return { rampId: command.rampId, kind: command.kind, partner: command.partner };
  }
}

function settledResult<A>(row: repo.PartnerCommandRow): CommandResult<A> | null {
  if (row.state === "accepted")
    return { outcome: "accepted", partnerOrderId: row.partnerOrderId!, answer: JSON.parse(row.answer!) as A };
  if (row.state === "refused") return { outcome: "refused", error: row.lastError! };
  return null;
}

/** A failure in a few log-safe words: the partner's status and short code, never its body. */
function detailOf(error: unknown): string {
  if (!(error instanceof PartnerError)) return `an error in the gateway: ${(error as Error)?.name ?? "unknown"}`;
  const parts = [error.partnerStatus === null ? null : `HTTP ${error.partnerStatus}`, error.partnerCode];
  return parts.filter((part) => part !== null).join(", ") || "no answer";
}
