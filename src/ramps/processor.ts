import type { Logger } from "pino";
import { deadline } from "../deadline.js";
import type { RampEventOutbox } from "../events/outbox.js";
import type { OutboxSignal } from "../events/outbox-signal.js";
import { PollLoop } from "../workers/poll-loop.js";
import type { Corridor } from "../reference-data/corridors.js";
import type { RampProvider, StepOutcome } from "../providers/ramp-port.js";
import { advanceTo, isTerminal, statusOfPhase, type RampPhase } from "../reference-data/ramp-phases.js";
import type { RampRepository } from "./repo.js";
import type { RampRow } from "./rows-repo.js";
import { eventRamp } from "./service.js";
import type { RampViewCache } from "./view-cache.js";

const BATCH = 100;
/** Steps in flight at once: partner calls take their time, and one slow ramp must not hold up the others. */
const STEPS_AT_ONCE = 8;

/** What came of one call for a ramp's step: the provider's answer, or no answer (timeout, error, shutdown). */
export type StepCallOutcome = StepOutcome["kind"] | "no_answer";

/**
 * Drives started ramps through the provider's steps and times out ramps never started. All state is in the
 * database (the phase and when the next step is due), so a restart resumes where it stopped. A step is claimed
 * before the partner is called, so with several instances each step is asked for once, and every change is a
 * conditional update, so none is applied twice.
 */
export class RampProcessor {
  private readonly loop: PollLoop;
  /**
   * How long a claimed step stays this instance's: longer than its partner calls may take (`stepTimeoutMs`, after
   * which they are abandoned and the step asked again after the provider's delay), so no other instance asks the
   * partner for the same step meanwhile; a crashed instance's steps are taken again once their claims lapse.
   */
  private readonly stepClaimMs: number;
  /** Aborts the partner calls in flight when the processor stops: their steps are released for another instance. */
  private stopping = new AbortController();

  constructor(
    private readonly repository: RampRepository,
    private readonly provider: RampProvider,
    private readonly events: RampEventOutbox,
    private readonly outbox: OutboxSignal,
    private readonly views: RampViewCache,
    intervalMs: number,
    private readonly stepTimeoutMs: number,
    private readonly log: Logger,
    private readonly observeStep: (outcome: StepCallOutcome, elapsedMs: number) => void,
  ) {
    this.stepClaimMs = 2 * stepTimeoutMs;
    this.loop = new PollLoop(() => this.tick(), intervalMs, log, "ramp processing pass failed");
  }

  start(): void {
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    this.loop.start(0);
  }

  /** Stops polling, abandons the partner calls in flight and waits for the pass in progress. */
  stop(): Promise<void> {
    this.stopping.abort();
    return this.loop.stop();
  }

  /**
   * One pass: time out unstarted ramps, bring forward the steps of orders a partner's callback says changed, then take
   * every due step, a few at a time.
   */
  async tick(now = new Date()): Promise<void> {
    for (const ramp of await this.repository.findUnstartedPastDeadline(now, BATCH)) await this.timeOut(ramp, now);
    while ((await this.repository.applyOrderCallbacks(now, BATCH)) === BATCH);
    const due = await this.repository.findDueRamps(now, BATCH);
    const lane = async () => {
      for (let ramp = due.shift(); ramp; ramp = due.shift()) await this.step(ramp);
    };
    await Promise.all(Array.from({ length: STEPS_AT_ONCE }, lane));
  }

  private async timeOut(ramp: RampRow, now: Date) {
    const timedOut = await this.repository.transaction(async (tx) => {
      const moved = await this.repository.updateRampIf(
        tx,
        { id: ramp.id, currentPhase: "initial" },
        { currentPhase: "timedOut", status: "FAILED", nextStepAt: null },
      );
      if (!moved) return false;
      await this.repository.insertError(tx, {
        rampId: ramp.id,
        phase: "initial",
        error: "Start window elapsed",
        details: `The ramp was not started by ${ramp.startDeadline.toISOString()}.`,
        recoverable: false,
        at: now,
      });
      await this.events.record(tx, eventRamp(moved), "PHASE_CHANGE", now);
      await this.events.record(tx, eventRamp(moved), "STATUS_CHANGE", now);
      return true;
    });
    if (!timedOut) return;
    await this.views.enteredHistory(ramp);
    this.outbox.committed();
  }

  private async step(due: RampRow) {
    const phase = due.currentPhase as RampPhase;
    if (isTerminal(phase) || !due.nextStepAt || this.stopping.signal.aborted) return;
    const claimedUntil = new Date(Date.now() + this.stepClaimMs);
    if (!(await this.repository.rescheduleStep({ ...due, nextStepAt: due.nextStepAt }, claimedUntil))) return;
    const ramp = { ...due, nextStepAt: claimedUntil };
    const outcome = await this.callProvider(ramp, phase);
    const now = new Date();
    const stepDelay = this.provider.stepDelayMs(ramp.corridor as Corridor);
    const expected = { id: ramp.id, currentPhase: phase, nextStepAt: claimedUntil };
    if (!outcome) {
      // No answer: the step is asked again (same key) after the provider's delay, or at once after a shutdown.
      const retryAt = this.stopping.signal.aborted ? now : new Date(now.getTime() + stepDelay);
      await this.repository.rescheduleStep(expected, retryAt);
      return;
    }
    const path = outcome.kind === "retry" ? [] : advanceTo(phase, outcome.kind === "fail" ? "failed" : outcome.phase);
    if (outcome.kind === "advance" && path.length === 0) {
      // The partner's order is where the ramp is (or behind it): nothing happened yet, so ask again later; an order
      // the step made is kept for the next steps to read.
      await this.repository.rescheduleStep(expected, new Date(now.getTime() + stepDelay), outcome.partnerOrderId);
      return;
    }
    const changed = await this.repository.transaction(async (tx): Promise<"retried" | "moved" | undefined> => {
      if (outcome.kind === "retry") {
        const moved = await this.repository.updateRampIf(tx, expected, {
          retries: ramp.retries + 1,
          nextStepAt: new Date(now.getTime() + stepDelay),
        });
        if (!moved) return undefined;
        await this.repository.insertError(tx, {
          rampId: ramp.id,
          phase,
          error: outcome.error,
          details: outcome.details,
          recoverable: true,
          at: now,
        });
        return "retried";
      }
      const next = path.at(-1)!;
      const moved = await this.repository.updateRampIf(tx, expected, {
        currentPhase: next,
        status: statusOfPhase(next),
        retries: 0,
        nextStepAt: isTerminal(next) ? null : new Date(now.getTime() + stepDelay),
        ...(outcome.kind === "advance" && outcome.transactionHash ? { transactionHash: outcome.transactionHash } : {}),
      });
      if (!moved) return undefined; // the claim lapsed and another instance took the step
      if (outcome.kind === "fail")
        await this.repository.insertError(tx, {
          rampId: ramp.id,
          phase,
          error: outcome.error,
          details: outcome.details,
          recoverable: false,
          at: now,
        });
      // A jump records each phase it skipped, in order, as if the ramp had moved through it.
      for (const reached of path)
        await this.events.record(
          tx,
          { ...eventRamp(moved), currentPhase: reached, status: statusOfPhase(reached) },
          "PHASE_CHANGE",
          now,
        );
      if (statusOfPhase(next) !== statusOfPhase(phase))
        await this.events.record(tx, eventRamp(moved), "STATUS_CHANGE", now);
      return "moved";
    });
    if (!changed) return;
    await this.views.changed(ramp.id);
    if (changed === "moved") this.outbox.committed();
  }

  /** The provider's answer for the ramp's step, or undefined when it gave none in time (logged). */
  private async callProvider(ramp: RampRow, phase: RampPhase): Promise<StepOutcome | undefined> {
    // Let go of when the call ends: nothing of an answered call outlives it (see deadline).
    const callDeadline = deadline(this.stepTimeoutMs, this.stopping.signal);
    const { signal } = callDeadline;
    const started = performance.now();
    try {
      const answer = this.provider.step(
        {
          id: ramp.id,
          corridor: ramp.corridor as Corridor,
          partnerCustomerId: ramp.partnerCustomerId,
          partnerOrderId: ramp.partnerOrderId,
          stepKey: `${ramp.id}:${phase}:${ramp.retries}`,
          type: ramp.type as "BUY" | "SELL",
          currentPhase: phase,
          inputAmount: ramp.quote.inputAmount,
          inputCurrency: ramp.quote.inputCurrency,
          network: ramp.quote.network,
          walletAddress: ramp.walletAddress,
          // Read only by the step that sends a BR SELL's payout: parsed then, not on every step of every ramp.
          get presignedTxs() {
            return JSON.parse(ramp.presignedTxs) as Record<string, unknown>[];
          },
          get pixKey() {
            return (JSON.parse(ramp.additionalData) as { pixDestination?: string }).pixDestination ?? null;
          },
          retries: ramp.retries,
        },
        signal,
      );
      // An adapter that ignores the signal is not waited for beyond it either.
      const outcome = await Promise.race([answer, abortedBy(signal)]);
      this.observeStep(outcome.kind, performance.now() - started);
      return outcome;
    } catch (error) {
      this.observeStep("no_answer", performance.now() - started);
      this.log.warn(
        { err: error, rampId: ramp.id, phase },
        "the provider gave no answer for a ramp step; asking again later",
      );
      return undefined;
    } finally {
      callDeadline.release();
    }
  }
}

/** Rejects with the signal's reason once it aborts. */
function abortedBy(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
