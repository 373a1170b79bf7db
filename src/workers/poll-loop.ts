import type { Logger } from "pino";

/**
 * Runs one pass, waits `intervalMs` after it ends, runs the next, until stopped. Passes never overlap, a
 * failing pass is logged and the loop goes on, `wake()` brings the next pass forward, and `stop()` waits
 * for the pass in progress.
 */
export class PollLoop {
  /** Cancels the scheduled pass. */
  private cancel: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** A wake-up arrived during a pass: the next pass follows at once. */
  private woken = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly log: Logger,
    /** Logged when a pass fails. */
    private readonly failure: string,
  ) {}

  get active(): boolean {
    return !this.stopped;
  }

  start(firstDelayMs = this.intervalMs): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(firstDelayMs);
  }

  /** Runs the next pass now rather than after the interval (right after the pass in progress, if any). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.woken = true;
      return;
    }
    this.cancel?.();
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    await this.running;
  }

  private schedule(delayMs: number) {
    if (this.stopped) return;
    const run = () => {
      this.running = this.pass()
        .catch((error: unknown) => this.log.error({ err: error }, this.failure))
        .finally(() => {
          this.running = undefined;
          const next = this.woken ? 0 : this.intervalMs;
          this.woken = false;
          this.schedule(next);
        });
    };
    // A pass asked for now runs in this turn's check phase, not a timer's millisecond later.
    if (delayMs === 0) {
      const immediate = setImmediate(run);
      this.cancel = () => clearImmediate(immediate);
    } else {
      const timer = setTimeout(run, delayMs);
      this.cancel = () => clearTimeout(timer);
    }
  }
}
