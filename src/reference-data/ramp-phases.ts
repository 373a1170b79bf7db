import { describedEnum, screamingCase } from "../enums.js";

/**
 * The provider-agnostic phases of a ramp, in order, and the status each one reports. A ramp only moves
 * forward; `failed` and `timedOut` end it from any non-terminal phase.
 */
export const RAMP_PHASES = [
  "initial",
  "awaitingPayment",
  "paymentConfirmed",
  "exchanging",
  "payingOut",
  "complete",
  "failed",
  "timedOut",
] as const;
export type RampPhase = (typeof RAMP_PHASES)[number];

describedEnum("RampPhase", RAMP_PHASES, {
  description: "The provider-agnostic step of a ramp.",
  graphqlName: screamingCase,
  meanings: {
    initial: "Registered and not started: updateRamp and startRamp work until the start window ends.",
    awaitingPayment: "Started: the provider waits for the incoming funds.",
    paymentConfirmed: "The provider has the incoming funds.",
    exchanging: "The funds are being converted.",
    payingOut: "The converted funds are on their way out (tokens for BUY, fiat for SELL).",
    complete: "Paid out; the status is COMPLETE.",
    failed: "Stopped by an unrecoverable error (see errors); the status is FAILED.",
    timedOut: "Not started within the start window; the status is FAILED.",
  },
});

export const RAMP_STATUSES = ["PENDING", "COMPLETE", "FAILED"] as const;
export type RampStatus = (typeof RAMP_STATUSES)[number];

export const rampStatusEnum = describedEnum("RampStatus", RAMP_STATUSES, {
  description: "PENDING until the ramp completes or fails.",
  graphqlName: screamingCase,
  meanings: {
    PENDING: "Registered or processing: the phase is not yet COMPLETE, FAILED or TIMED_OUT.",
    COMPLETE: "The ramp reached the COMPLETE phase.",
    FAILED: "The ramp failed or was never started in time (phase FAILED or TIMED_OUT).",
  },
});

/** The happy path after `initial`: what the processor moves a started ramp through. */
export const PROCESSING_PHASES = [
  "awaitingPayment",
  "paymentConfirmed",
  "exchanging",
  "payingOut",
  "complete",
] as const satisfies readonly RampPhase[];

export function statusOfPhase(phase: RampPhase): RampStatus {
  if (phase === "complete") return "COMPLETE";
  if (phase === "failed" || phase === "timedOut") return "FAILED";
  return "PENDING";
}

export function isTerminal(phase: RampPhase): boolean {
  return statusOfPhase(phase) !== "PENDING";
}

/**
 * The phases a ramp at `current` moves through, in order, to reach a partner's `observed` phase: each phase it
 * skips on the happy path, then the observed one. Forward only: an observation at or behind the ramp gives none,
 * nothing moves a terminal ramp, and a failure ends the ramp from any other phase at once.
 */
export function advanceTo(current: RampPhase, observed: RampPhase): RampPhase[] {
  if (isTerminal(current)) return [];
  if (statusOfPhase(observed) === "FAILED") return [observed];
  const path: readonly RampPhase[] = ["initial", ...PROCESSING_PHASES];
  return path.slice(path.indexOf(current) + 1, path.indexOf(observed) + 1);
}

/** The phase after `phase` on the happy path. */
export function nextProcessingPhase(phase: RampPhase): RampPhase {
  const index = PROCESSING_PHASES.indexOf(phase as (typeof PROCESSING_PHASES)[number]);
  if (index < 0 || index === PROCESSING_PHASES.length - 1) throw new Error(`no phase follows ${phase}`);
  return PROCESSING_PHASES[index + 1];
}
