import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction } from "@prisma/driver-adapter-utils";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Config } from "../config.js";
import {
  postgresStatements,
  sqliteReads,
  sqliteWrites,
  type Reads,
  type StatementCounter,
  type Writes,
} from "./statements.js";

/**
 * Both engines share one data model; code is typed against the PostgreSQL client and the SQLite client
 * (generated from the same models) stands in for it.
 */
export type Db = PrismaClient;
export type DatabaseConfig = Config["database"];

/** One database, two ways in: the ORM for transactions and most statements; prepared statements for the hot ones. */
export interface Database {
  db: Db;
  reads: Reads;
  writes: Writes;
  /** Statements sent so far through either. */
  readonly statements: StatementCounter;
  runAlone: RunAlone;
  close(): Promise<void>;
}

/**
 * Runs `work` unless another instance is running work under the same lock number; null when it skipped.
 * PostgreSQL: a session-level advisory lock on a connection held for the run (ended with it if the process
 * dies). SQLite has one process, whose workers never overlap their own passes.
 */
export type RunAlone = <T>(lock: number, work: () => Promise<T>) => Promise<T | null>;

const POOL_SIZE = 10;

/**
 * Connects (the ORM first: on SQLite, its connection creates the file and turns WAL on). Each engine's client and
 * driver are loaded when it is the one in use: the other's would only take memory.
 */
export async function openDatabase(
  database: DatabaseConfig,
  /** Told of trouble that changes no answer (on SQLite, a checkpoint that failed and will be tried again). */
  warn: (message: string) => void = (message) => process.emitWarning(message),
): Promise<Database> {
  const statements: StatementCounter = { count: 0 };
  if (database.engine === "postgresql") {
    const [{ default: pg }, { PrismaPg }, { PrismaClient }] = await Promise.all([
      import("pg"),
      import("@prisma/adapter-pg"),
      import("../generated/prisma/client.js"),
    ]);
    const pool = new pg.Pool({ connectionString: database.url, max: POOL_SIZE });
    // An idle connection the server ended leaves the pool; the next query opens another.
    pool.on("error", () => undefined);
    const db = new PrismaClient({ adapter: counted(new PrismaPg(pool), statements) });
    return {
      db,
      ...postgresStatements(pool, statements),
      statements,
      async runAlone(lock, work) {
        const connection = await pool.connect();
        let unlocked = false;
        try {
          statements.count++;
          const { rows } = await connection.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [
            lock,
          ]);
          if (!rows[0]?.locked) {
            unlocked = true;
            return null;
          }
          try {
            return await work();
          } finally {
            statements.count++;
            unlocked = await connection.query("SELECT pg_advisory_unlock($1)", [lock]).then(
              () => true,
              () => false,
            );
          }
        } finally {
          // Back to the pool only without the lock; otherwise closed, which ends its session and drops the lock.
          connection.release(!unlocked);
        }
      },
      async close() {
        await db.$disconnect();
        await pool.end();
      },
    };
  }
  mkdirSync(dirname(database.file), { recursive: true });
  const [{ sqliteAdapter, withReadsMarked }, { startCheckpointer }, { PrismaClient: SqlitePrismaClient }] =
    await Promise.all([
      import("./sqlite-adapter.js"),
      import("./sqlite-checkpointer.js"),
      import("../generated/prisma-sqlite/client.js"),
    ]);
  const { adapter, holdWriter } = sqliteAdapter(database.file);
  const db = withReadsMarked(new SqlitePrismaClient({ adapter: counted(adapter, statements) })) as unknown as Db;
  await db.$connect();
  const writes = sqliteWrites(database.file, holdWriter, statements);
  const reads = sqliteReads(database.file, statements);
  const checkpointer = startCheckpointer(database.file, holdWriter, (message) =>
    warn(`SQLite checkpoint failed: ${message}`),
  );
  return {
    db,
    reads,
    writes,
    statements,
    runAlone: (_lock, work) => work(),
    async close() {
      await checkpointer.stop();
      await reads.close();
      await writes.close();
      await db.$disconnect();
    },
  };
}

/** Counts every statement the ORM sends, in and out of transactions (a transaction's BEGIN as one). */
function counted(factory: SqlDriverAdapterFactory, counter: StatementCounter): SqlDriverAdapterFactory {
  const count =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    (...args: A) => (counter.count++, run(...args));
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect(): Promise<SqlDriverAdapter> {
      const adapter = await factory.connect();
      return {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        queryRaw: count(adapter.queryRaw.bind(adapter)),
        executeRaw: count(adapter.executeRaw.bind(adapter)),
        executeScript: count(adapter.executeScript.bind(adapter)),
        getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
        dispose: () => adapter.dispose(),
        async startTransaction(isolationLevel): Promise<Transaction> {
          counter.count++;
          const transaction = await adapter.startTransaction(isolationLevel);
          return {
            provider: transaction.provider,
            adapterName: transaction.adapterName,
            options: transaction.options,
            queryRaw: count(transaction.queryRaw.bind(transaction)),
            executeRaw: count(transaction.executeRaw.bind(transaction)),
            createSavepoint: transaction.createSavepoint?.bind(transaction),
            rollbackToSavepoint: transaction.rollbackToSavepoint?.bind(transaction),
            releaseSavepoint: transaction.releaseSavepoint?.bind(transaction),
            commit: () => transaction.commit(),
            rollback: () => transaction.rollback(),
          };
        },
      };
    },
  };
}
