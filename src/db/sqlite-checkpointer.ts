import { once } from "node:events";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the WAL is copied back into the database file. */
const CHECKPOINT_INTERVAL_MS = 1_000;

/** Runs in the worker: its own connection, a PASSIVE checkpoint on a timer, a last one when told to stop. */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const connection = new Database(workerData.file, { timeout: 10000 });
const checkpoint = () => {
  try {
    connection.pragma("wal_checkpoint(PASSIVE)");
  } catch (error) {
    parentPort.postMessage(String(error));
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once("message", () => {
  clearInterval(timer);
  checkpoint();
  connection.close();
  parentPort.close();
});
`;

/**
 * Checkpoints the SQLite write-ahead log on a thread of its own. SQLite's automatic checkpoint runs inside the
 * COMMIT that takes the log past 1,000 pages and, with synchronous = NORMAL, syncs the log and the database
 * file there: on the event loop, a burst of quotes stalled every request for up to 70 ms, 55 times in 15 s.
 * The writing connection turns the automatic checkpoint off; this one's PASSIVE checkpoints never block the
 * writer or the readers. `onError` hears of a checkpoint that failed (the next one tries again).
 */
export function startCheckpointer(file: string, onError: (message: string) => void): { stop(): Promise<void> } {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      file,
      driver: createRequire(import.meta.url).resolve("better-sqlite3"),
      intervalMs: CHECKPOINT_INTERVAL_MS,
    },
  });
  worker.on("message", onError);
  worker.on("error", (error) => onError(String(error)));
  worker.unref();
  const exited = once(worker, "exit");
  return {
    async stop() {
      // Held by nothing else while it runs (unref), the worker keeps the process up while it stops.
      worker.ref();
      worker.postMessage("stop");
      await exited;
    },
  };
}
