import type { Logger } from "pino";
import type { Config } from "../config.js";
import { AppError } from "../errors.js";

const MINUTE_MS = 60_000;
/** How long an instance keeps its counts before sending them (PostgreSQL): the overshoot is what others admit meanwhile. */
const FLUSH_INTERVAL_MS = 250;
/** Ended windows one statement deletes at most. */
const PRUNE_BATCH = 1_000;

/** Counts one request for `key`; throws RATE_LIMITED, with Retry-After, once the key's budget for the window is spent. */
export interface RateLimiter {
  hit(key: string, now?: number): void;
}

/**
 * Every request budget of an instance: per client IP, per calling profile, for sign-in per client IP, and for a
 * partner's callbacks per partner and client IP.
 */
export interface RateLimits {
  perIp: RateLimiter;
  perCaller: RateLimiter;
  signIn: RateLimiter;
  partnerCallbacks: RateLimiter;
  /** Sends what is left to share and stops the timers. */
  close(): Promise<void>;
}

/**
 * The limits in this process's memory when it is the only instance (SQLite); shared by every instance
 * through `shared` when there can be several (PostgreSQL).
 */
export function createRateLimits(
  budgets: Config["rateLimits"],
  shared: SharedWindowCounts | undefined,
  options: { log: Logger; flushIntervalMs?: number },
): RateLimits {
  if (!shared) {
    const limits = {
      perIp: new LocalRateLimiter(budgets.perIpPerMinute),
      perCaller: new LocalRateLimiter(budgets.perCredentialPerMinute),
      signIn: new LocalRateLimiter(budgets.otpPerIpPerMinute),
      partnerCallbacks: new LocalRateLimiter(budgets.partnerCallbacksPerIpPerMinute),
    };
    return { ...limits, close: async () => Object.values(limits).forEach((limiter) => limiter.close()) };
  }
  const counts = new SharedRateCounts(shared, options);
  return {
    perIp: counts.limiter("ip", budgets.perIpPerMinute),
    perCaller: counts.limiter("caller", budgets.perCredentialPerMinute),
    signIn: counts.limiter("sign-in", budgets.otpPerIpPerMinute),
    partnerCallbacks: counts.limiter("partner-callbacks", budgets.partnerCallbacksPerIpPerMinute),
    close: () => counts.close(),
  };
}

function refusal(windowEndsAt: number, now: number): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil((windowEndsAt - now) / 1000));
  return new AppError("RATE_LIMITED", undefined, undefined, { "Retry-After": String(retryAfterSeconds) });
}

/**
 * Counts requests per key (a client IP, a profile) in fixed windows, in this process's memory: past `max` in a
 * window, RATE_LIMITED with Retry-After until the window ends. One map lookup per request, and no headers on
 * the requests that pass.
 */
export class LocalRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly max: number,
    private readonly windowMs = MINUTE_MS,
  ) {
    // Ended windows are forgotten, so memory follows the keys seen in the last window.
    this.sweeper = setInterval(() => this.forgetEnded(Date.now()), windowMs).unref();
  }

  hit(key: string, now = Date.now()): void {
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    if (++window.count > this.max) throw refusal(window.endsAt, now);
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private forgetEnded(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}

/** Requests admitted for one key in one window: what an instance sends, or the sum over every instance. */
export interface WindowCount {
  key: string;
  windowStart: Date;
  count: number;
}

/** Where the instances add up their counts (src/rate-limits/repo.ts). */
export interface SharedWindowCounts {
  /** Adds each count to its key's in its window, in one statement; the sums after adding, one per count sent. */
  add(counts: readonly WindowCount[]): Promise<WindowCount[]>;
  /** Deletes up to `limit` windows that started before `before`; how many it deleted. */
  pruneStartedBefore(before: Date, limit: number): Promise<number>;
}

/** One key's window as this instance sees it. */
interface SharedWindow {
  start: number;
  /** The sum over every instance, as of this instance's last flush of the key. */
  learnt: number;
  /** Admitted here, in the flush under way. */
  sending: number;
  /** Admitted here since. */
  unsent: number;
}

/**
 * The rate limits of one instance among several on one database. Windows are fixed minutes aligned to the
 * clock (they start at floor(now / 1 min) * 1 min), so every instance counts in the same ones. A request costs
 * a map lookup, never a statement: it is refused when the sum last learnt plus what this instance admitted
 * since passes the budget. A flush, one interval after the first request it has to send (none while idle),
 * adds this instance's new counts of every limit and key in one statement and learns the sums back.
 *
 * Overshoot: an instance learns what the others admitted for a key when it flushes that key, so a window's
 * sum can pass the budget by what the other instances admit for that key before their next flush: with
 * requests spread over the instances, what they admit in one interval (250 ms). In the worst case, a burst
 * reaching every instance in the same interval, each admits up to the budget: N instances, N budgets.
 *
 * A flush that fails fails no request: the counts stay to be sent with the next one (retried an interval
 * later) and each instance goes on counting on top of the sums it last learnt. The flush also deletes the
 * windows that ended over a window ago, a batch at a time.
 */
export class SharedRateCounts {
  /**
   * Each limit's windows, by limit name and then key (a client address, a profile id): a request looks its key up
   * as it came, and the shared table's key (`ip:<address>`) is made only when counts are sent. Ended windows
   * leave at the next flush.
   */
  private readonly windows = new Map<string, Map<string, SharedWindow>>();
  private readonly flushIntervalMs: number;
  private readonly log: Logger;
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /** The last flush failed: the next success is logged, and failures until then are not. */
  private failing = false;
  /** Every window that started before this is deleted. */
  private prunedBefore = 0;

  constructor(
    private readonly shared: SharedWindowCounts,
    options: { log: Logger; flushIntervalMs?: number },
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? FLUSH_INTERVAL_MS;
    this.log = options.log;
  }

  limiter(name: string, max: number): RateLimiter {
    const windows = new Map<string, SharedWindow>();
    this.windows.set(name, windows);
    return { hit: (key, now = Date.now()) => this.hit(windows, key, max, now) };
  }

  /** Sends what is left, so other instances count it, and stops. */
  async close(): Promise<void> {
    await this.flush();
    clearTimeout(this.flushTimer);
  }

  private hit(windows: Map<string, SharedWindow>, key: string, max: number, now: number): void {
    const start = now - (now % MINUTE_MS);
    let window = windows.get(key);
    if (window?.start !== start) {
      window = { start, learnt: 0, sending: 0, unsent: 0 };
      windows.set(key, window);
    }
    if (window.learnt + window.sending + window.unsent >= max) throw refusal(start + MINUTE_MS, now);
    window.unsent++;
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    this.flushTimer ??= setTimeout(() => void this.flush(), this.flushIntervalMs).unref();
  }

  /** Sends the counts not sent yet, learns the sums, and prunes ended windows; one flush at a time. */
  private async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    while (this.flushing) await this.flushing;
    this.flushing = this.send(Date.now());
    try {
      await this.flushing;
    } finally {
      this.flushing = undefined;
    }
  }

  private async send(now: number): Promise<void> {
    const current = now - (now % MINUTE_MS);
    /** The windows whose counts are sent, by the shared table's key. */
    const sent = new Map<string, SharedWindow>();
    const counts: WindowCount[] = [];
    for (const [name, windows] of this.windows) {
      for (const [key, window] of windows) {
        // No one decides on an ended window any more: its unsent counts go with it.
        if (window.start < current) windows.delete(key);
        else if (window.unsent > 0) {
          window.sending = window.unsent;
          window.unsent = 0;
          const sharedKey = `${name}:${key}`;
          sent.set(sharedKey, window);
          counts.push({ key: sharedKey, windowStart: new Date(window.start), count: window.sending });
        }
      }
    }
    if (counts.length) await this.add(counts, sent);
    // Kept one window after it ends, so an instance whose clock is a little behind still finds it.
    const pruneBefore = current - MINUTE_MS;
    if (pruneBefore > this.prunedBefore && !this.failing) await this.prune(pruneBefore);
  }

  private async add(counts: WindowCount[], sent: Map<string, SharedWindow>): Promise<void> {
    try {
      const sums = await this.shared.add(counts);
      for (const sum of sums) {
        const window = sent.get(sum.key);
        // Sums only grow within a window; a smaller one would be a window pruned early by a clock far ahead.
        if (window?.start === sum.windowStart.getTime()) window.learnt = Math.max(window.learnt, sum.count);
      }
      sent.forEach((window) => (window.sending = 0));
      if (this.failing) this.log.info("rate-limit counts are shared again");
      this.failing = false;
    } catch (error) {
      for (const window of sent.values()) {
        window.unsent += window.sending;
        window.sending = 0;
      }
      // Named by its code only: a driver's message can quote the values sent, client addresses among them.
      if (!this.failing)
        this.log.warn(
          { errorCode: errorCode(error) },
          "rate-limit counts could not be shared; this instance counts on its own until they can",
        );
      this.failing = true;
      this.scheduleFlush();
    }
  }

  private async prune(before: number): Promise<void> {
    try {
      const deleted = await this.shared.pruneStartedBefore(new Date(before), PRUNE_BATCH);
      if (deleted < PRUNE_BATCH) this.prunedBefore = before;
      else this.scheduleFlush();
    } catch (error) {
      this.log.warn(
        { errorCode: errorCode(error) },
        "ended rate-limit windows could not be pruned; retried next window",
      );
      this.prunedBefore = before;
    }
  }
}

function errorCode(error: unknown): string {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  return String(code ?? name ?? "unknown");
}
