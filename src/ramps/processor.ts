import type { Logger } from "pino";
import type { Db } from "../db/client.js";
import { inTransaction } from "../db/tx.js";
import type { RampEventOutbox } from "../events/outbox.js";
import type { OutboxSignal } from "../events/outbox-signal.js";
import { PollLoop } from "../workers/poll-loop.js";
import type { RampProvider, StepOutcome } from "../providers/ports.js";
import { isTerminal, statusOfPhase, type RampPhase } from "../reference-data/ramp-phases.js";
import * as repo from "./repo.js";
import { eventRamp } from "./service.js";
import type { RampViewCache } from "./view-cache.js";

const BATCH = 100;

/**
 * Drives started ramps through the provider's steps and times out ramps never started. All state is
 * in the database (the phase and when the next step is due), so a restart resumes where it stopped;
 * every change is a conditional update, so several instances never apply a step twice.
 */
export class RampProcessor {
  private readonly loop: PollLoop;

  constructor(
    private readonly db: Db,
    private readonly provider: RampProvider,
    private readonly events: RampEventOutbox,
    private readonly outbox: OutboxSignal,
    private readonly views: RampViewCache,
    intervalMs: number,
    log: Logger,
  ) {
    this.loop = new PollLoop(() => this.tick(), intervalMs, log, "ramp processing pass failed");
  }

  start(): void {
    this.loop.start(0);
  }

  /** Stops polling and waits for the pass in progress. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass: time out unstarted ramps, then take every due step. */
  async tick(now = new Date()): Promise<void> {
    for (const ramp of await repo.findUnstartedPastDeadline(this.db, now, BATCH)) await this.timeOut(ramp, now);
    for (const ramp of await repo.findDueRamps(this.db, now, BATCH)) await this.step(ramp);
  }

  private async timeOut(ramp: repo.RampRow, now: Date) {
    const timedOut = await inTransaction(this.db, async (tx) => {
      const moved = await repo.updateRampIf(
        tx,
        { id: ramp.id, currentPhase: "initial" },
        { currentPhase: "timedOut", status: "FAILED", nextStepAt: null },
      );
      if (!moved) return false;
      await repo.insertError(tx, {
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

  private async step(ramp: repo.RampRow) {
    const phase = ramp.currentPhase as RampPhase;
    if (isTerminal(phase)) return;
    const outcome: StepOutcome = this.provider.step({
      id: ramp.id,
      type: ramp.type as "BUY" | "SELL",
      currentPhase: phase,
      inputAmount: ramp.quote.inputAmount,
      network: ramp.quote.network,
      walletAddress: ramp.walletAddress,
      retries: ramp.retries,
    });
    const now = new Date();
    const expected = { id: ramp.id, currentPhase: phase, nextStepAt: ramp.nextStepAt };
    const changed = await inTransaction(this.db, async (tx): Promise<"retried" | "moved" | undefined> => {
      if (outcome.kind === "retry") {
        const moved = await repo.updateRampIf(tx, expected, {
          retries: ramp.retries + 1,
          nextStepAt: new Date(now.getTime() + this.provider.stepDelayMs),
        });
        if (!moved) return undefined;
        await repo.insertError(tx, {
          rampId: ramp.id,
          phase,
          error: outcome.error,
          details: outcome.details,
          recoverable: true,
          at: now,
        });
        return "retried";
      }
      const next: RampPhase = outcome.kind === "fail" ? "failed" : outcome.phase;
      const moved = await repo.updateRampIf(tx, expected, {
        currentPhase: next,
        status: statusOfPhase(next),
        retries: 0,
        nextStepAt: isTerminal(next) ? null : new Date(now.getTime() + this.provider.stepDelayMs),
        ...(outcome.kind === "advance" && outcome.transactionHash ? { transactionHash: outcome.transactionHash } : {}),
      });
      if (!moved) return undefined; // another instance took this step
      if (outcome.kind === "fail")
        await repo.insertError(tx, {
          rampId: ramp.id,
          phase,
          error: outcome.error,
          details: outcome.details,
          recoverable: false,
          at: now,
        });
      await this.events.record(tx, eventRamp(moved), "PHASE_CHANGE", now);
      if (statusOfPhase(next) !== statusOfPhase(phase))
        await this.events.record(tx, eventRamp(moved), "STATUS_CHANGE", now);
      return "moved";
    });
    if (!changed) return;
    await this.views.changed(ramp.id);
    if (changed === "moved") this.outbox.committed();
  }
}
