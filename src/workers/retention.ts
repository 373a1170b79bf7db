import type { Logger } from "pino";
import type { RunAlone } from "../db/client.js";
import { PollLoop } from "./poll-loop.js";

/** One kind of row that stops mattering some time after an event of its own (settled, expired, finished). */
export interface RetentionTask {
  /** Names the kind in the pass's log line and result. */
  kind: string;
  /** How long after that event its rows are kept. */
  retentionMs: number;
  /** Deletes up to `limit` rows of the kind whose event came before `before`; how many it deleted. */
  pruneBatch(before: Date, limit: number): Promise<number>;
}

export interface RetentionSettings {
  /** Time between the end of a pass and the next one; 0 turns the schedule off. */
  intervalMs: number;
  /** Rows one statement deletes at most (default 1,000): on SQLite a statement holds the only write lock while it runs. */
  batchSize?: number;
}

const BATCH_SIZE = 1_000;

/** Rows pruned by a pass, by kind. */
export type PrunedCounts = Record<string, number>;

/** Instances on one PostgreSQL database run a pass one at a time under this advisory lock. */
const RETENTION_LOCK = 0x72657465; // "rete"

/**
 * Prunes rows that can no longer matter, on a schedule, off every request path: each kind in turn, in
 * batches until fewer than a batch are left, yielding to other work between batches, so a large backlog
 * never holds the database for long. Kinds go in the given order (refresh tokens before the sign-ins they
 * leave empty). One kind failing is logged and the others still run.
 */
export class RetentionWorker {
  private readonly loop: PollLoop;
  private readonly intervalMs: number;
  private readonly batchSize: number;
  /** Set by `stop`: a pass ends after the batch in progress, so shutdown never waits for a backlog. */
  private stopping = false;

  constructor(
    private readonly tasks: readonly RetentionTask[],
    private readonly runAlone: RunAlone,
    settings: RetentionSettings,
    private readonly log: Logger,
    /** The time cut-offs are measured from; tests step it by hand. */
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.intervalMs = settings.intervalMs;
    this.batchSize = settings.batchSize ?? BATCH_SIZE;
    this.loop = new PollLoop(
      async () => void (await this.runOnce()),
      settings.intervalMs,
      log,
      "retention pass failed",
    );
  }

  /** Runs a pass at once, then one an interval after each ends; nothing when the interval is 0. */
  start(): void {
    this.stopping = false;
    if (this.intervalMs === 0) return;
    this.loop.start(0);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
  }

  /** One pass; null when another instance is running one (PostgreSQL), which this one then skips. */
  async runOnce(): Promise<PrunedCounts | null> {
    const pruned = await this.runAlone(RETENTION_LOCK, () => this.prune());
    if (pruned === null) this.log.debug("retention pass skipped: another instance is running one");
    return pruned;
  }

  private async prune(): Promise<PrunedCounts> {
    const startedAt = Date.now();
    const pruned: PrunedCounts = {};
    for (const task of this.tasks) {
      if (this.stopping) break;
      const before = new Date(this.clock().getTime() - task.retentionMs);
      let count = 0;
      try {
        for (;;) {
          const deleted = await task.pruneBatch(before, this.batchSize);
          count += deleted;
          if (deleted < this.batchSize || this.stopping) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
      } catch (error) {
        this.log.error({ err: error, kind: task.kind }, "retention of one kind failed; the others go on");
      }
      pruned[task.kind] = count;
    }
    this.log.info({ pruned, durationMs: Date.now() - startedAt }, "retention pass");
    return pruned;
  }
}
