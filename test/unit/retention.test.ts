import pino from "pino";
import { describe, expect, it } from "vitest";
import type { RunAlone } from "../../src/db/client.js";
import { RetentionWorker, type RetentionTask } from "../../src/workers/retention.js";

/** The retention worker's schedule, batching and failures, with stand-in kinds (the SQL is tested on both engines). */

const HOUR_MS = 3_600_000;
const alone: RunAlone = (_lock, work) => work();

/** A kind with `backlog` rows past its age; it records the cut-off and limit of every batch. */
function kind(name: string, backlog: number, retentionMs = HOUR_MS) {
  const batches: { before: number; limit: number }[] = [];
  let left = backlog;
  const task: RetentionTask = {
    kind: name,
    retentionMs,
    async pruneBatch(before, limit) {
      batches.push({ before: before.getTime(), limit });
      const deleted = Math.min(left, limit);
      left -= deleted;
      return deleted;
    },
  };
  return { task, batches, left: () => left };
}

function logged() {
  const lines: { level: number; msg: string; [field: string]: unknown }[] = [];
  return { lines, log: pino({ level: "debug" }, { write: (line: string) => lines.push(JSON.parse(line)) }) };
}

describe("RetentionWorker", () => {
  it("prunes each kind in batches until fewer than a batch are left, from its own cut-off, and logs the counts", async () => {
    const now = Date.parse("2026-12-01T00:00:00Z");
    const tokens = kind("refreshTokens", 7, 7 * 24 * HOUR_MS);
    const quotes = kind("quotes", 3, HOUR_MS);
    const { lines, log } = logged();
    const worker = new RetentionWorker(
      [tokens.task, quotes.task],
      alone,
      { intervalMs: 0, batchSize: 3 },
      log,
      () => new Date(now),
    );

    expect(await worker.runOnce()).toEqual({ refreshTokens: 7, quotes: 3 });
    expect(tokens.batches).toEqual(Array(3).fill({ before: now - 7 * 24 * HOUR_MS, limit: 3 }));
    // A full last batch may leave more: one more statement finds none.
    expect(quotes.batches).toEqual(Array(2).fill({ before: now - HOUR_MS, limit: 3 }));
    const info = lines.filter((line) => line.msg === "retention pass");
    expect(info).toHaveLength(1);
    expect(info[0]!.pruned).toEqual({ refreshTokens: 7, quotes: 3 });
  });

  it("runs a pass as soon as it starts, and none when the interval is 0", async () => {
    const scheduled = kind("quotes", 1);
    const worker = new RetentionWorker([scheduled.task], alone, { intervalMs: HOUR_MS }, logged().log);
    worker.start();
    await expect.poll(scheduled.left, { timeout: 2_000, interval: 5 }).toBe(0);
    await worker.stop();

    const off = kind("quotes", 1);
    const disabled = new RetentionWorker([off.task], alone, { intervalMs: 0 }, logged().log);
    disabled.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(off.batches).toEqual([]);
    await disabled.stop();
  });

  it("a kind that fails is logged and the other kinds are still pruned", async () => {
    const failing: RetentionTask = {
      kind: "webhookDeliveries",
      retentionMs: HOUR_MS,
      pruneBatch: async () => {
        throw new Error("disk I/O error");
      },
    };
    const quotes = kind("quotes", 2);
    const { lines, log } = logged();
    const worker = new RetentionWorker([failing, quotes.task], alone, { intervalMs: 0 }, log);
    expect(await worker.runOnce()).toEqual({ webhookDeliveries: 0, quotes: 2 });
    expect(lines.find((line) => line.level === 50)).toMatchObject({ kind: "webhookDeliveries" });
  });

  it("skips the pass when another instance is running one, pruning nothing", async () => {
    const quotes = kind("quotes", 2);
    const { lines, log } = logged();
    const busy: RunAlone = async () => null;
    expect(await new RetentionWorker([quotes.task], busy, { intervalMs: 0 }, log).runOnce()).toBeNull();
    expect(quotes.batches).toEqual([]);
    expect(lines.map((line) => line.msg)).not.toContain("retention pass");
  });

  it("stopping ends a pass after the batch in progress, however large the backlog", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let batches = 0;
    const endless: RetentionTask = {
      kind: "quotes",
      retentionMs: HOUR_MS,
      async pruneBatch(_before, limit) {
        if (++batches === 2) await gate;
        return limit;
      },
    };
    const worker = new RetentionWorker([endless], alone, { intervalMs: HOUR_MS, batchSize: 10 }, logged().log);
    worker.start();
    await expect.poll(() => batches, { timeout: 2_000, interval: 5 }).toBe(2);
    const stopped = worker.stop();
    release();
    await stopped;
    expect(batches).toBe(2);
  });
});
