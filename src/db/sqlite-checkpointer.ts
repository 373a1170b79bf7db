import { once } from "node:events";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the WAL is copied back into the database file. */
const CHECKPOINT_INTERVAL_MS = 1_000;
/** How often the length of the log is read (a NOOP checkpoint: no copy, no lock). */
const WATCH_INTERVAL_MS = 100;
/** The length of the log at which it is started over. */
export const WAL_RESET_BYTES = 16 * 1024 * 1024;
/** Pages the writer waits for a reset to copy, at most, when the checkpoints before it keep up. */
const RESET_BACKLOG_PAGES = 256;
/**
 * A log file larger than this (a burst outran the resets) is truncated to nothing by the next reset. Resets
 * otherwise write over the file from its start: truncating 16 MB held the writer 25 ms longer (discards).
 */
const WAL_FILE_LIMIT_BYTES = 2 * WAL_RESET_BYTES;

/**
 * Runs in the worker: its own connection, a PASSIVE checkpoint on a timer and a last one when told to stop.
 * Once the log reaches the reset length, it copies all but the last few pages, asks for the writer and,
 * given it, copies those and resets the log: RESTART (the next write writes from the start of the file), or
 * TRUNCATE for an oversized file. Only these two wait on locks: for 100 ms at most (a reader of another
 * process, say), then the reset is put off until the next checkpoint.
 */
const WORKER = `
const { statSync } = require("node:fs");
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const { file, checkpointIntervalMs, watchIntervalMs, resetBytes, resetBacklogPages, fileLimitBytes } = workerData;
const connection = new Database(file, { timeout: 100 });
const pageBytes = connection.pragma("page_size", { simple: true });
/** Pages in the log, pages of it copied, and whether a lock the checkpoint needed was held. */
const checkpoint = (mode) => {
  try {
    return connection.pragma("wal_checkpoint(" + mode + ")")[0];
  } catch (error) {
    parentPort.postMessage({ failed: String(error) });
    return { busy: 1, log: 0, checkpointed: 0 };
  }
};
/** The log's length, read without a copy or a lock; a failure reads as empty (the next PASSIVE reports it). */
const logLength = () => {
  try {
    return connection.pragma("wal_checkpoint(NOOP)")[0];
  } catch {
    return { busy: 0, log: 0, checkpointed: 0 };
  }
};
const fileBytes = () => {
  try {
    return statSync(file + "-wal").size;
  } catch {
    return 0;
  }
};
let copiedAt = Date.now();
let resetAsked = false;
let resetPutOffUntil = 0;
const timer = setInterval(() => {
  if (resetAsked) return;
  const now = Date.now();
  let log = logLength();
  if (log.log * pageBytes < resetBytes || now < resetPutOffUntil) {
    if (now - copiedAt < checkpointIntervalMs) return;
    checkpoint("PASSIVE");
    copiedAt = now;
    return;
  }
  // Each round copies what was written during the one before; under a burst they never catch up.
  for (let round = 0; round < 4 && log.log - log.checkpointed > resetBacklogPages; round++) {
    checkpoint("PASSIVE");
    log = logLength();
  }
  copiedAt = now;
  resetAsked = true;
  parentPort.postMessage({ resetWanted: true });
}, watchIntervalMs);
parentPort.on("message", (message) => {
  if (message === "reset") {
    const { busy } = checkpoint(fileBytes() > fileLimitBytes ? "TRUNCATE" : "RESTART");
    if (busy) resetPutOffUntil = Date.now() + checkpointIntervalMs;
    resetAsked = false;
    parentPort.postMessage({ resetEnded: true });
    return;
  }
  clearInterval(timer);
  checkpoint("PASSIVE");
  connection.close();
  parentPort.close();
});
`;

type WorkerMessage = { failed: string } | { resetWanted: true } | { resetEnded: true };

/**
 * Checkpoints the SQLite write-ahead log on a thread of its own. SQLite's automatic checkpoint runs inside the
 * COMMIT that takes the log past 1,000 pages and, with synchronous = NORMAL, syncs the log and the database
 * file there: on the event loop, a burst of quotes stalled every request for up to 70 ms, 55 times in 15 s.
 * The writing connection turns the automatic checkpoint off; this one's PASSIVE checkpoints never block the
 * writer or the readers.
 *
 * A PASSIVE checkpoint copies the log back but never starts it over: SQLite does that only when a write
 * begins after a checkpoint copied all of it, which steady writes never leave time for (the log reached
 * 19 GB in 20 minutes, and a restart then read all of it before answering). So once the log reaches
 * WAL_RESET_BYTES, `holdWriter` holds the writing connection while this thread copies the last pages and
 * resets the log: writes wait a few milliseconds (two syncs), reads go on, the event loop never blocks.
 * `onError` hears of a checkpoint that failed (the next one tries again).
 */
export function startCheckpointer(
  file: string,
  holdWriter: (work: () => Promise<void>) => Promise<void>,
  onError: (message: string) => void,
): { stop(): Promise<void> } {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      file,
      driver: createRequire(import.meta.url).resolve("better-sqlite3"),
      checkpointIntervalMs: CHECKPOINT_INTERVAL_MS,
      watchIntervalMs: WATCH_INTERVAL_MS,
      resetBytes: WAL_RESET_BYTES,
      resetBacklogPages: RESET_BACKLOG_PAGES,
      fileLimitBytes: WAL_FILE_LIMIT_BYTES,
    },
  });
  let stopping = false;
  /** Ends the hold of the writer: the worker reset the log (or gave up, or exited). */
  let endReset: (() => void) | undefined;
  const reset = () =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      // Writes wait for the reset: the worker keeps the process up until it answers.
      worker.ref();
      endReset = () => {
        endReset = undefined;
        if (!stopping) worker.unref();
        resolve();
      };
      worker.postMessage("reset");
    });
  worker.on("message", (message: WorkerMessage) => {
    if ("failed" in message) onError(message.failed);
    else if ("resetWanted" in message) void holdWriter(reset);
    else endReset?.();
  });
  worker.on("error", (error) => onError(String(error)));
  worker.unref();
  const exited = once(worker, "exit").finally(() => endReset?.());
  return {
    async stop() {
      stopping = true;
      // Held by nothing else while it runs (unref), the worker keeps the process up while it stops.
      worker.ref();
      worker.postMessage("stop");
      await exited;
    },
  };
}
