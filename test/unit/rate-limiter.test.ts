import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "../../src/errors.js";
import {
  LocalRateLimiter,
  SharedRateCounts,
  type SharedWindowCounts,
  type WindowCount,
} from "../../src/rate-limits/limiter.js";

const limiters: LocalRateLimiter[] = [];
const limiter = (max: number, windowMs = 60_000) => {
  const created = new LocalRateLimiter(max, windowMs);
  limiters.push(created);
  return created;
};
afterEach(() => limiters.splice(0).forEach((created) => created.close()));

function refusal(run: () => void): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("not refused");
}

/** How many of `attempts` requests for `key` pass. */
function admitted(limit: { hit(key: string): void }, key: string, attempts: number): number {
  let passed = 0;
  for (let i = 0; i < attempts; i++) {
    try {
      limit.hit(key);
      passed++;
    } catch (error) {
      if (!(error instanceof AppError && error.code === "RATE_LIMITED")) throw error;
    }
  }
  return passed;
}

describe("LocalRateLimiter", () => {
  it("lets `max` requests of a key through per window, then answers RATE_LIMITED until the window ends", () => {
    const limits = limiter(3);
    for (let i = 0; i < 3; i++) limits.hit("ip:1", 1_000);
    const refused = refusal(() => limits.hit("ip:1", 21_000));
    expect(refused.code).toBe("RATE_LIMITED");
    expect(refused.headers).toEqual({ "Retry-After": "40" });
    // Other keys count apart; a new window starts afresh.
    limits.hit("ip:2", 21_000);
    limits.hit("ip:1", 61_000);
  });

  it("never answers Retry-After 0", () => {
    const limits = limiter(1, 1_000);
    limits.hit("key", 0);
    expect(refusal(() => limits.hit("key", 999)).headers).toEqual({ "Retry-After": "1" });
  });
});

/** A stand-in for the RateLimitWindow table: sums per key and window, every call recorded, failing on demand. */
function sharedTable() {
  const sums = new Map<string, number>();
  const table = {
    sums,
    added: [] as WindowCount[][],
    pruned: [] as Date[],
    failing: false,
    async add(counts: readonly WindowCount[]): Promise<WindowCount[]> {
      table.added.push(counts.map((count) => ({ ...count })));
      if (table.failing) throw Object.assign(new Error("connect ECONNREFUSED 198.51.100.7"), { code: "ECONNREFUSED" });
      return counts.map(({ key, windowStart, count }) => {
        const id = `${key}@${windowStart.toISOString()}`;
        sums.set(id, (sums.get(id) ?? 0) + count);
        return { key, windowStart, count: sums.get(id)! };
      });
    },
    async pruneStartedBefore(before: Date): Promise<number> {
      table.pruned.push(before);
      return 0;
    },
  };
  return table;
}

const FLUSH_MS = 250;
/** 12:00:00 UTC: the start of a window. */
const NOON = Date.UTC(2026, 10, 24, 12);

describe("SharedRateCounts (several instances on PostgreSQL)", () => {
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const instances: SharedRateCounts[] = [];
  const instance = (table: SharedWindowCounts) => {
    const created = new SharedRateCounts(table, { log, flushIntervalMs: FLUSH_MS });
    instances.push(created);
    return created;
  };
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOON + 10_000);
  });
  afterEach(async () => {
    for (const created of instances.splice(0)) await created.close();
    lines.splice(0);
    vi.useRealTimers();
  });

  it("refuses once the sum over every instance passes the budget, not once this instance's own count does", async () => {
    const table = sharedTable();
    const first = instance(table).limiter("caller", 5);
    const second = instance(table).limiter("caller", 5);
    expect(admitted(first, "profile:a", 3)).toBe(3);
    await vi.advanceTimersByTimeAsync(FLUSH_MS);
    expect(admitted(second, "profile:a", 1)).toBe(1);
    await vi.advanceTimersByTimeAsync(FLUSH_MS);
    // The second instance learnt the first one's 3: one more, and its budget of 5 is spent.
    expect(admitted(second, "profile:a", 3)).toBe(1);
    expect(table.sums.get(`caller:profile:a@${new Date(NOON).toISOString()}`)).toBe(4);
    await vi.advanceTimersByTimeAsync(FLUSH_MS);
    // The first one learns the sum at its next flush of the key: until then it counts on top of the 3 it knew,
    // so the window passes the budget by what the other admitted meanwhile (the documented overshoot).
    expect(admitted(first, "profile:a", 3)).toBe(2);
    await vi.advanceTimersByTimeAsync(FLUSH_MS);
    expect(table.sums.get(`caller:profile:a@${new Date(NOON).toISOString()}`)).toBe(7);
    expect(admitted(first, "profile:a", 3)).toBe(0);
    expect(admitted(second, "profile:a", 3)).toBe(0);
    // Other keys, and the same key of another limit, count apart.
    expect(admitted(first, "profile:b", 5)).toBe(5);
    expect(admitted(instance(table).limiter("ip", 5), "profile:a", 5)).toBe(5);
  });

  it("sends nothing per request: one batch per interval with every key's new count, and nothing while idle", async () => {
    const table = sharedTable();
    const counts = instance(table);
    const [perIp, perCaller] = [counts.limiter("ip", 100), counts.limiter("caller", 100)];
    admitted(perIp, "198.51.100.7", 4);
    await vi.advanceTimersByTimeAsync(100);
    admitted(perCaller, "profile:a", 2);
    await vi.advanceTimersByTimeAsync(100);
    admitted(perIp, "198.51.100.8", 1);
    expect(table.added).toEqual([]);
    // One interval after the first request it has to send.
    await vi.advanceTimersByTimeAsync(FLUSH_MS - 200);
    const windowStart = new Date(NOON);
    // In any order: the store sorts a batch before it writes.
    expect(table.added).toHaveLength(1);
    expect(table.added[0]).toHaveLength(3);
    expect(table.added[0]).toEqual(
      expect.arrayContaining([
        { key: "ip:198.51.100.7", windowStart, count: 4 },
        { key: "caller:profile:a", windowStart, count: 2 },
        { key: "ip:198.51.100.8", windowStart, count: 1 },
      ]),
    );
    // Only what is new goes in the next batch; an idle instance sends nothing.
    admitted(perCaller, "profile:a", 3);
    await vi.advanceTimersByTimeAsync(FLUSH_MS * 10);
    expect(table.added.slice(1)).toEqual([[{ key: "caller:profile:a", windowStart, count: 3 }]]);
  });

  it("a failing store fails no request: counting goes on locally, the counts are kept and sent once it works", async () => {
    const table = sharedTable();
    table.failing = true;
    const perCaller = instance(table).limiter("caller", 5);
    expect(admitted(perCaller, "profile:a", 2)).toBe(2);
    await vi.advanceTimersByTimeAsync(FLUSH_MS * 3);
    expect(admitted(perCaller, "profile:a", 5)).toBe(3);
    // One warning while it fails, naming no key or address, however often the flush is retried.
    expect(table.added.length).toBeGreaterThanOrEqual(2);
    const warnings = lines.filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toEqual([
      "rate-limit counts could not be shared; this instance counts on its own until they can",
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/198\.51|profile:a/);

    table.failing = false;
    await vi.advanceTimersByTimeAsync(FLUSH_MS);
    expect(table.added.at(-1)).toEqual([{ key: "caller:profile:a", windowStart: new Date(NOON), count: 5 }]);
    expect(lines.at(-1)?.msg).toBe("rate-limit counts are shared again");
    expect(admitted(perCaller, "profile:a", 1)).toBe(0);
  });

  it("windows are minutes aligned to the clock: a new one starts afresh, and an ended one's counts are not sent", async () => {
    const table = sharedTable();
    const perIp = instance(table).limiter("ip", 3);
    vi.setSystemTime(NOON + 30_500);
    expect(admitted(perIp, "198.51.100.7", 3)).toBe(3);
    expect(refusal(() => perIp.hit("198.51.100.7")).headers).toEqual({ "Retry-After": "30" });
    vi.setSystemTime(NOON + 59_999);
    expect(refusal(() => perIp.hit("198.51.100.7")).headers).toEqual({ "Retry-After": "1" });
    // The flush comes after the window ended: its counts go with it, as no instance decides on it any more.
    await vi.advanceTimersByTimeAsync(FLUSH_MS);
    expect(table.added).toEqual([]);
    expect(admitted(perIp, "198.51.100.7", 5)).toBe(3);
    await vi.advanceTimersByTimeAsync(FLUSH_MS);
    expect(table.added).toEqual([[{ key: "ip:198.51.100.7", windowStart: new Date(NOON + 60_000), count: 3 }]]);
  });

  it("prunes the windows that ended over a window ago once per window, a batch at a time", async () => {
    const table = sharedTable();
    const backlog = [1_000, 1_000, 10];
    table.pruneStartedBefore = async (before: Date) => (table.pruned.push(before), backlog.shift() ?? 0);
    const perIp = instance(table).limiter("ip", 100);
    admitted(perIp, "198.51.100.7", 1);
    // The first flush prunes, and so does each one after it while a whole batch was deleted.
    await vi.advanceTimersByTimeAsync(FLUSH_MS * 4);
    expect(table.pruned).toEqual(Array(3).fill(new Date(NOON - 60_000)));
    admitted(perIp, "198.51.100.7", 1);
    await vi.advanceTimersByTimeAsync(FLUSH_MS);
    expect(table.pruned).toHaveLength(3);
    vi.setSystemTime(NOON + 60_000);
    admitted(perIp, "198.51.100.7", 1);
    await vi.advanceTimersByTimeAsync(FLUSH_MS);
    expect(table.pruned.at(-1)).toEqual(new Date(NOON));
  });
});
