import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import type BetterSqlite3 from "better-sqlite3";
import { sqliteWrites, type StatementCounter, type Writes } from "./statements.js";

/**
 * The ORM's SQLite connections, one that writes and one that only reads (WAL lets it read beside an open
 * write transaction), and the prepared writes, which share the writing one (SQLite has one writer). A
 * statement outside a transaction on the writing connection would run inside whichever interactive
 * transaction is open, and vanish if that one rolls back. So everything that writes (an ORM transaction,
 * a standalone ORM write, a batch of prepared writes) holds one first-come, first-served lock on the writing
 * connection, and standalone reads go to the reading connection and wait for nothing. `holdWriter` runs work
 * holding that lock (the checkpointer's reset of the log).
 */
export function sqliteAdapter(
  file: string,
  counter: StatementCounter,
): { adapter: SqlDriverAdapterFactory; writes: Writes; holdWriter: ReturnType<typeof writerLock>["hold"] } {
  const writer = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 10_000 });
  // Opened after the writer, which creates the file and turns WAL on.
  const reader = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 10_000, readonly: true });
  const lock = writerLock();
  let writingConnection!: (connection: BetterSqlite3.Database) => void;
  const connected = new Promise<BetterSqlite3.Database>((resolve) => (writingConnection = resolve));
  return {
    adapter: {
      provider: writer.provider,
      adapterName: writer.adapterName,
      async connect() {
        const writing = await writer.connect();
        await writing.executeScript(
          // Checkpoints run on their own thread (sqlite-checkpointer.ts), never inside a commit on the event loop.
          "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 0;",
        );
        // The adapter's own better-sqlite3 handle (a plain field of its class): prepared writes share the one writer.
        writingConnection((writing as unknown as { client: BetterSqlite3.Database }).client);
        return routed(writing, await reader.connect(), lock);
      },
    },
    writes: sqliteWrites(() => connected, lock.hold, counter),
    holdWriter: lock.hold,
  };
}

/** Prisma reads with SELECT; it writes with INSERT/UPDATE/DELETE (RETURNING rows through queryRaw). */
const isRead = (query: SqlQuery) => /^\s*SELECT\b/i.test(query.sql);

/**
 * The writing connection's lock, granted in the order asked for: a transaction's BEGIN runs only once the
 * lock is held, so no other write can slip in between, and a write waits only for those asked for before it.
 */
function writerLock() {
  let last: Promise<void> = Promise.resolve();
  const acquire = async (): Promise<() => void> => {
    let release!: () => void;
    const previous = last;
    last = new Promise<void>((resolve) => (release = resolve));
    await previous;
    return release;
  };
  return {
    acquire,
    /** Runs `work` holding the lock. */
    async hold<T>(work: () => T | Promise<T>): Promise<T> {
      const release = await acquire();
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}

function routed(
  writer: SqlDriverAdapter,
  reader: SqlDriverAdapter,
  lock: ReturnType<typeof writerLock>,
): SqlDriverAdapter {
  return {
    provider: writer.provider,
    adapterName: writer.adapterName,
    queryRaw: (query: SqlQuery) => (isRead(query) ? reader.queryRaw(query) : lock.hold(() => writer.queryRaw(query))),
    executeRaw: (query: SqlQuery) => lock.hold(() => writer.executeRaw(query)),
    executeScript: (script: string) => lock.hold(() => writer.executeScript(script)),
    getConnectionInfo: writer.getConnectionInfo?.bind(writer),
    async dispose() {
      await reader.dispose();
      await writer.dispose();
    },
    async startTransaction(isolationLevel): Promise<Transaction> {
      const release = await lock.acquire();
      let transaction: Transaction;
      try {
        transaction = await writer.startTransaction(isolationLevel);
      } catch (error) {
        release();
        throw error;
      }
      const end = <T>(result: Promise<T>) => result.finally(release);
      return {
        provider: transaction.provider,
        adapterName: transaction.adapterName,
        options: transaction.options,
        queryRaw: (query: SqlQuery) => transaction.queryRaw(query),
        executeRaw: (query: SqlQuery) => transaction.executeRaw(query),
        createSavepoint: transaction.createSavepoint?.bind(transaction),
        rollbackToSavepoint: transaction.rollbackToSavepoint?.bind(transaction),
        releaseSavepoint: transaction.releaseSavepoint?.bind(transaction),
        commit: () => end(transaction.commit()),
        rollback: () => end(transaction.rollback()),
      };
    },
  };
}
