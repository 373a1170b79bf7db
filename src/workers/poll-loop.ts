import type { Logger } from "pino";

/**
 * Runs one pass, waits `intervalMs` after it ends, runs the next, until stopped. Passes never overlap, a
 * failing pass is logged and the loop goes on, and `stop()` waits for the pass in progress.
 */
export class PollLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

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

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.pass()
        .catch((error: unknown) => this.log.error({ err: error }, this.failure))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.intervalMs);
        });
    }, delayMs);
  }
}
