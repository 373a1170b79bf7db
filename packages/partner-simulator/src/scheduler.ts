/** Every timer of one simulator, so that stopping it leaves nothing behind that would keep the process alive. */
export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();

  /** `ran` hears of every task that ran: what the partners hold may have changed. */
  constructor(private readonly ran: () => void = () => undefined) {}

  after(delayMs: number, task: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      task();
      this.ran();
    }, delayMs);
    this.timers.add(timer);
  }

  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
