import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { PrismaClient as SqlitePrismaClient } from "../generated/prisma-sqlite/client.js";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import { WRITING_CONNECTION_SETTINGS } from "./statements.js";

/**
 * The ORM's SQLite connection and the prepared writes' own, both writing. SQLite has one writer, and a statement
 * outside a transaction on a connection would run inside whichever transaction that connection has open, and
 * vanish if that one rolls back. So everything the ORM sends (a transaction, a standalone statement) and every
 * batch of prepared writes holds one first-come, first-served lock; the two connections never write at once, and
 * neither waits on SQLite's busy lock for the other. The ORM's reads outside a transaction (the operations
 * `withReadsMarked` marks) go to a connection that only reads (WAL lets it read beside an open write
 * transaction), and wait for nothing; the hot reads to one of their own (`sqliteReads`). `holdWriter` runs work
 * holding the writing lock (the checkpointer's reset of the log).
 */
export function sqliteAdapter(file: string): {
  adapter: SqlDriverAdapterFactory;
  holdWriter: ReturnType<typeof writerLock>["hold"];
} {
  const writer = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 10_000 });
  // Opened after the writer, which creates the file and turns WAL on.
  const reader = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 10_000, readonly: true });
  const lock = writerLock();
  return {
    adapter: {
      provider: writer.provider,
      adapterName: writer.adapterName,
      async connect() {
        const writing = await writer.connect();
        await writing.executeScript(`PRAGMA journal_mode = WAL; ${WRITING_CONNECTION_SETTINGS}`);
        return routed(writing, await reader.connect(), lock);
      },
    },
    holdWriter: lock.hold,
  };
}

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

/** The ORM's operations that only read, by the names its query extensions see. */
const READ_OPERATIONS = new Set([
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "findUnique",
  "findUniqueOrThrow",
  "count",
  "aggregate",
  "groupBy",
]);
/** Set while the ORM runs one of those: its statements outside a transaction may go to the reading connection. */
const runningRead = new AsyncLocalStorage<true>();

/**
 * The client, its read operations marked for the adapter (`routed`), which sees SQL only: the ORM's own name for
 * what it runs decides where it goes, not the SQL's text.
 */
export function withReadsMarked(client: SqlitePrismaClient) {
  // The ORM's promise starts its work when it is awaited: awaited here, inside the mark.
  return client.$extends({
    query: {
      $allOperations: ({ operation, args, query }) =>
        READ_OPERATIONS.has(operation) ? runningRead.run(true, async () => await query(args)) : query(args),
    },
  });
}

/**
 * The ORM's connections: a read operation's statements outside a transaction on the reading one; every other
 * statement, and every transaction, on the writing one, holding the writing lock. (A transaction's statements
 * go through its own object, whatever operation runs them.)
 */
function routed(
  writer: SqlDriverAdapter,
  reader: SqlDriverAdapter,
  lock: ReturnType<typeof writerLock>,
): SqlDriverAdapter {
  return {
    provider: writer.provider,
    adapterName: writer.adapterName,
    queryRaw: (query: SqlQuery) =>
      runningRead.getStore() ? reader.queryRaw(query) : lock.hold(() => writer.queryRaw(query)),
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
