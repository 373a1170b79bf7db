import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";

/**
 * The better-sqlite3 adapter runs every query on one connection and serializes transactions with a
 * mutex, but a query outside a transaction is not serialized: it would run inside whichever interactive
 * transaction is open, and vanish if that one rolls back. This factory makes standalone queries wait for
 * the open transaction to finish, so each statement commits on its own terms.
 */
export function serializedSqliteAdapter(file: string): SqlDriverAdapterFactory {
  const inner = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 10_000 });
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    async connect() {
      const adapter = await inner.connect();
      await adapter.executeScript("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;");
      return serialized(adapter);
    },
  };
}

function serialized(adapter: SqlDriverAdapter): SqlDriverAdapter {
  let openTransaction: Promise<void> = Promise.resolve();
  const afterTransaction = async <T>(run: () => Promise<T>): Promise<T> => {
    let current: Promise<void>;
    do {
      current = openTransaction;
      await current;
    } while (current !== openTransaction);
    return run();
  };
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query: SqlQuery) => afterTransaction(() => adapter.queryRaw(query)),
    executeRaw: (query: SqlQuery) => afterTransaction(() => adapter.executeRaw(query)),
    executeScript: (script: string) => afterTransaction(() => adapter.executeScript(script)),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: () => adapter.dispose(),
    async startTransaction(isolationLevel): Promise<Transaction> {
      // The inner adapter queues transactions itself; we only mark the span in which one is open.
      const transaction = await adapter.startTransaction(isolationLevel);
      let finish!: () => void;
      const previous = openTransaction;
      openTransaction = Promise.all([previous, new Promise<void>((resolve) => (finish = resolve))]).then(() => undefined);
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
