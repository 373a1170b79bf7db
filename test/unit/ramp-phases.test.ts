import { describe, expect, it } from "vitest";
import { advanceTo, RAMP_PHASES, type RampPhase } from "../../src/reference-data/ramp-phases.js";

const NON_TERMINAL = ["initial", "awaitingPayment", "paymentConfirmed", "exchanging", "payingOut"] as const;
const TERMINAL = ["complete", "failed", "timedOut"] as const;

describe("advanceTo: the phases a ramp moves through to reach an observed phase, forward only", () => {
  it.each<[RampPhase, RampPhase, RampPhase[]]>([
    ["awaitingPayment", "complete", ["paymentConfirmed", "exchanging", "payingOut", "complete"]],
    ["awaitingPayment", "exchanging", ["paymentConfirmed", "exchanging"]],
    ["awaitingPayment", "paymentConfirmed", ["paymentConfirmed"]],
    ["exchanging", "complete", ["payingOut", "complete"]],
    ["initial", "awaitingPayment", ["awaitingPayment"]],
    ["initial", "payingOut", ["awaitingPayment", "paymentConfirmed", "exchanging", "payingOut"]],
  ])("from %s to %s: %j", (current, observed, path) => {
    expect(advanceTo(current, observed)).toEqual(path);
  });

  it.each(NON_TERMINAL)("ends a ramp at %s at once on a failure, whatever it skipped", (current) => {
    expect(advanceTo(current, "failed")).toEqual(["failed"]);
    expect(advanceTo(current, "timedOut")).toEqual(["timedOut"]);
  });

  it.each(NON_TERMINAL)("gives nothing for an observation at or behind %s", (current) => {
    const behind = NON_TERMINAL.slice(0, NON_TERMINAL.indexOf(current) + 1);
    for (const observed of behind) expect(advanceTo(current, observed), observed).toEqual([]);
  });

  it.each(TERMINAL)("moves nothing out of %s", (current) => {
    for (const observed of RAMP_PHASES) expect(advanceTo(current, observed), observed).toEqual([]);
  });
});
