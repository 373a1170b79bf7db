/** Every timer of one simulator, so that stopping it leaves nothing behind that would keep the process alive. */
export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();

  after(delayMs: number, task: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      task();
    }, delayMs);
    this.timers.add(timer);
  }

  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
