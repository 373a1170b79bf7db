import { AppError } from "./errors.js";

const MINUTE_MS = 60_000;

/**
 * Counts requests per key (a client IP, a credential, a profile) in fixed windows, in this process's memory:
 * past `max` in a window, RATE_LIMITED with Retry-After until the window ends. One map lookup per request,
 * and no headers on the requests that pass.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly max: number,
    private readonly windowMs = MINUTE_MS,
  ) {
    // Ended windows are forgotten, so memory follows the keys seen in the last window.
    this.sweeper = setInterval(() => this.forgetEnded(Date.now()), windowMs).unref();
  }

  /** Counts one request for `key`; throws RATE_LIMITED once the key's window holds more than `max`. */
  hit(key: string, now = Date.now()): void {
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    if (++window.count > this.max) {
      const retryAfterSeconds = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
      throw new AppError("RATE_LIMITED", undefined, undefined, { "Retry-After": String(retryAfterSeconds) });
    }
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private forgetEnded(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}
