/** Every timer of one simulator, so that stopping it leaves nothing behind that would keep the process alive. */
export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  /** `ran` hears of every task that ran: what the partners hold may have changed. */
  constructor(private readonly ran: () => void = () => undefined) {}

  after(delayMs: number, task: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      task();
      this.ran();
    }, delayMs);
    this.timers.add(timer);
  }

  /** Clears every timer, and sets none after: a stopped simulator's last callbacks in flight schedule no retry. */
  close(): void {
    this.closed = true;
    this.clear();
  }

  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
