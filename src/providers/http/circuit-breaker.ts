export type BreakerState = "closed" | "open" | "half-open";

export interface BreakerOptions {
  /** Consecutive failures (transport, timeout, 5xx) that open the breaker. */
  failureThreshold: number;
  /** How long the breaker stays open before one trial call is let through. */
  cooldownMs: number;
}

/**
 * One partner's breaker: while the partner keeps failing, calls fail at once instead of each waiting for its own
 * timeout. Half-open admits a single trial; its outcome closes the breaker or opens it for another cooldown.
 */
export class CircuitBreaker {
  private consecutiveFailures = 0;
  private openedAt: number | null = null;
  private trialInFlight = false;

  constructor(
    private readonly options: BreakerOptions,
    private readonly now: () => number = Date.now,
  ) {}

  get state(): BreakerState {
    if (this.openedAt === null) return "closed";
    return this.now() - this.openedAt >= this.options.cooldownMs ? "half-open" : "open";
  }

  /** Whether a call may go out now; in half-open, only the first caller gets the trial. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === "closed") return true;
    if (state === "open" || this.trialInFlight) return false;
    this.trialInFlight = true;
    return true;
  }

  recordSuccess(): void {
    this.consecutiveFailures = 0;
    this.openedAt = null;
    this.trialInFlight = false;
  }

  /** A failed half-open trial opens the breaker again: its count is still past the threshold. */
  recordFailure(): void {
    this.consecutiveFailures += 1;
    if (this.consecutiveFailures >= this.options.failureThreshold) this.openedAt = this.now();
    this.trialInFlight = false;
  }

  /** A call that ended saying nothing about the partner's health (the caller aborted it) frees the trial. */
  releaseTrial(): void {
    this.trialInFlight = false;
  }
}
