import pino from "pino";
import { describe, expect, it } from "vitest";
import { createInProcessBus } from "../../src/events/bus.js";
import { OutboxSignal } from "../../src/events/outbox-signal.js";
import { PollLoop } from "../../src/workers/poll-loop.js";

const log = pino({ level: "silent" });
const HOUR_MS = 60 * 60 * 1000;

/** A loop that polls once an hour and counts its passes; `gate` holds a pass open until released. */
function hourlyLoop() {
  let passes = 0;
  let release: (() => void) | undefined;
  let holding = false;
  const loop = new PollLoop(
    async () => {
      passes++;
      if (holding) await new Promise<void>((resolve) => (release = resolve));
    },
    HOUR_MS,
    log,
    "test pass failed",
  );
  return {
    loop,
    passes: () => passes,
    hold: () => (holding = true),
    release: () => {
      holding = false;
      release?.();
    },
  };
}

describe("PollLoop.wake", () => {
  it("runs the next pass at once instead of after the interval", async () => {
    const { loop, passes } = hourlyLoop();
    loop.start();
    expect(passes()).toBe(0);
    loop.wake();
    await expect.poll(passes, { timeout: 2_000, interval: 5 }).toBe(1);
    loop.wake();
    await expect.poll(passes, { timeout: 2_000, interval: 5 }).toBe(2);
    await loop.stop();
  });

  it("runs one more pass right after the one in progress when woken during it", async () => {
    const { loop, passes, hold, release } = hourlyLoop();
    hold();
    loop.start(0);
    await expect.poll(passes, { timeout: 2_000, interval: 5 }).toBe(1);
    loop.wake();
    loop.wake();
    release();
    await expect.poll(passes, { timeout: 2_000, interval: 5 }).toBe(2);
    // Two wake-ups during one pass ask for one more pass, not two.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(passes()).toBe(2);
    await loop.stop();
  });

  it("does nothing once stopped", async () => {
    const { loop, passes } = hourlyLoop();
    loop.start();
    await loop.stop();
    loop.wake();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(passes()).toBe(0);
  });
});

describe("OutboxSignal", () => {
  it("sends the commits of one turn of the event loop as one notice", async () => {
    const bus = createInProcessBus(log);
    const signal = new OutboxSignal(bus, log);
    let notices = 0;
    signal.onCommitted(() => notices++);
    signal.committed();
    signal.committed();
    signal.committed();
    expect(notices).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(notices).toBe(1);
    signal.committed();
    await new Promise((resolve) => setImmediate(resolve));
    expect(notices).toBe(2);
  });
});
