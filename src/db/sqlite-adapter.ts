import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import type BetterSqlite3 from "better-sqlite3";
import { sqliteWrites, type StatementCounter, type Writes } from "./statements.js";

/**
 * The ORM's SQLite connections, one that writes and one that only reads (WAL lets it read beside an open
 * write transaction), and the prepared writes, which share the writing one (SQLite has one writer). The
 * better-sqlite3 adapter serializes transactions with a mutex, but a statement outside a transaction is not
 * serialized: on the writing connection it would run inside whichever interactive transaction is open, and
 * vanish if that one rolls back. So standalone writes wait for the open transaction to finish, and
 * standalone reads go to the reading connection and wait for nothing.
 */
export function sqliteAdapter(
  file: string,
  counter: StatementCounter,
): { adapter: SqlDriverAdapterFactory; writes: Writes } {
  const writer = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 10_000 });
  // Opened after the writer, which creates the file and turns WAL on.
  const reader = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 10_000, readonly: true });
  const gate = transactionGate();
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
        return routed(writing, await reader.connect(), gate);
      },
    },
    writes: sqliteWrites(() => connected, gate.after, counter),
  };
}

/** Prisma reads with SELECT; it writes with INSERT/UPDATE/DELETE (RETURNING rows through queryRaw). */
const isRead = (query: SqlQuery) => /^\s*SELECT\b/i.test(query.sql);

/** Marks the spans in which an ORM transaction is open; `after` runs a statement once none is. */
function transactionGate() {
  let openTransaction: Promise<void> = Promise.resolve();
  return {
    async after<T>(run: () => T | Promise<T>): Promise<T> {
      let current: Promise<void>;
      do {
        current = openTransaction;
        await current;
      } while (current !== openTransaction);
      return run();
    },
    /** Opens a span; the returned function closes it. */
    open(): () => void {
      let finish!: () => void;
      const previous = openTransaction;
      openTransaction = Promise.all([previous, new Promise<void>((resolve) => (finish = resolve))]).then(
        () => undefined,
      );
      return finish;
    },
  };
}

function routed(
  writer: SqlDriverAdapter,
  reader: SqlDriverAdapter,
  gate: ReturnType<typeof transactionGate>,
): SqlDriverAdapter {
  const afterTransaction = gate.after;
  return {
    provider: writer.provider,
    adapterName: writer.adapterName,
    queryRaw: (query: SqlQuery) =>
      isRead(query) ? reader.queryRaw(query) : afterTransaction(() => writer.queryRaw(query)),
    executeRaw: (query: SqlQuery) => afterTransaction(() => writer.executeRaw(query)),
    executeScript: (script: string) => afterTransaction(() => writer.executeScript(script)),
    getConnectionInfo: writer.getConnectionInfo?.bind(writer),
    async dispose() {
      await reader.dispose();
      await writer.dispose();
    },
    async startTransaction(isolationLevel): Promise<Transaction> {
      // The inner adapter queues transactions itself; we only mark the span in which one is open.
      const transaction = await writer.startTransaction(isolationLevel);
      const finish = gate.open();
      const end = <T>(result: Promise<T>) => result.finally(finish);
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
