import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { AlfredpayState } from "./alfredpay.js";
import type { AveniaState } from "./avenia.js";

/** What the state file keeps: both partners' holdings. */
export interface SimulatorState {
  version: 1;
  avenia: AveniaState;
  alfredpay: AlfredpayState;
}

/** A change is written this long after it, with every other change made meanwhile. */
const SAVE_DELAY_MS = 1000;

/**
 * The simulator's state in a file, so that a restart keeps the partners' customers, documents and orders (the
 * gateway's embedded simulator stops and starts with the gateway). Written at most once a second after a change,
 * and at stop; whole, to a temporary file renamed over the last, so a crash leaves the last whole state.
 */
export class StateFile {
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly snapshot: () => SimulatorState,
  ) {}

  /** The state last written, or nothing when there is none yet. */
  load(): SimulatorState | undefined {
    if (!existsSync(this.path)) return undefined;
    const state = JSON.parse(readFileSync(this.path, "utf8")) as SimulatorState;
    if (state.version !== 1) throw new Error(`${this.path} holds a state of another version (${state.version})`);
    return state;
  }

  changed(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, SAVE_DELAY_MS);
    this.timer.unref();
  }

  /**
   * Writes what is pending now, and nothing after (at stop): a callback still in flight as the simulator stops may
   * run on, and the file is its owner's to remove once the simulator has stopped.
   */
  close(): void {
    this.closed = true;
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.write();
  }

  /**
   * A state that cannot be written (its directory removed under a stopping simulator, a full disk) is reported and
   * the simulator goes on: the file is a convenience of restarts, never a reason to stop serving.
   */
  private write(): void {
    const written = `${this.path}.tmp`;
    try {
      writeFileSync(written, JSON.stringify(this.snapshot()), { mode: 0o600 });
      renameSync(written, this.path);
    } catch (error) {
      process.stderr.write(`partner simulator: state not written to ${this.path}: ${(error as Error).message}\n`);
    }
  }
}
