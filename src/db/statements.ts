import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import type pg from "pg";
import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { DB } from "../generated/kysely/database.js";
import { boundedMemo } from "./bounded-memo.js";
import { query, rowLimit, textOf, type Statement } from "./query.js";

/** Counts the statements sent to the database, by the ORM and by `Reads` alike (tests pin request budgets with it). */
export interface StatementCounter {
  count: number;
}

/**
 * The reads the hot paths repeat (ramp status, quote reads, history, credential lists, authentication and
 * KYC misses), as typed statements (src/db/query.ts) on statements prepared once per connection. Prisma 7 spends
 * 100 to 200 µs of JavaScript on every query whatever its size; these cost the database's own work. The ramp
 * lifecycle's transactions run on them too (`Writes.transaction`); other transactions and every other read stay
 * with the ORM. Rows come back as the ORM returns them (dates as Date, booleans as boolean).
 *
 * The SQL is PostgreSQL's, with `$1`-style placeholders and double-quoted names, which SQLite reads as well once
 * placeholders are renumbered. A row limit is written into the text (`rowLimit`), never bound.
 */
export interface Reads {
  all<Row>(statement: Statement<Row>): Promise<Row[]>;
  /** The first row, or undefined. */
  one<Row>(statement: Statement<Row>): Promise<Row | undefined>;
  close(): Promise<void>;
}

/** Statements inside one transaction: its reads see its own writes. */
export interface StatementTx extends Pick<Reads, "all" | "one"> {
  /** The number of rows the statement changed. */
  run(statement: Statement): Promise<number>;
}

/**
 * The hot writes on prepared statements: one statement on its own (quote creation, webhook claims), or the
 * ramp lifecycle's transactions, whose ORM statements cost about half a millisecond each inside a transaction
 * (measured on SQLite), while the transaction held the only writer.
 */
export interface Writes {
  /** Runs one statement on its own; the number of rows it changed. */
  run(statement: Statement): Promise<number>;
  /**
   * Runs `work` in one transaction: committed once it resolves, rolled back if it throws. `work` awaits
   * nothing but its statements (on SQLite it holds the only writer meanwhile).
   */
  transaction<T>(work: (tx: StatementTx) => Promise<T>): Promise<T>;
}

/** Prepared statements kept per connection: distinct SQL texts are few (a list of ids adds one per length). */
const MAX_PREPARED = 500;

/** Prepared statements by SQL text. */
function statementCache<T>(prepare: (sql: string) => T): (sql: string) => T {
  const prepared = boundedMemo<T>(MAX_PREPARED);
  return (sql) =>
    prepared(sql, () => {
      if (/\blimit\s+\$/i.test(sql)) throw new Error("a row limit is written with rowLimit, not bound (see there)");
      return prepare(sql);
    });
}

/** A row as the database gave it, with its dates and booleans as the ORM gives them. */
type RowOf = (row: Record<string, unknown>) => unknown;

/**
 * Prepares SQLite statements on one connection: placeholders renumbered, rows with the columns SQLite stores as
 * text and numbers (dates, booleans) turned into what their declared types say.
 */
function sqliteStatements(connection: Database.Database) {
  const prepare = statementCache((sql) => {
    // better-sqlite3 takes numbered parameters (?1) for named ones: use plain ?s, in the order they appear.
    const order = [...sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]) - 1);
    // The ORM's connection, where transactions read, gives whole numbers as BigInts: here they are numbers.
    const statement = connection.prepare(sql.replace(/\$\d+/g, "?")).safeIntegers(false);
    if (!statement.reader) return { statement, order, row: undefined };
    const columns = statement.columns();
    const dates = columns.filter(({ type }) => type === "DATETIME").map(({ name }) => name);
    const booleans = columns.filter(({ type }) => type === "BOOLEAN").map(({ name }) => name);
    const row: RowOf = (values) => {
      for (const name of dates) if (values[name] !== null) values[name] = new Date(values[name] as string);
      for (const name of booleans) if (values[name] !== null) values[name] = values[name] === 1;
      return values;
    };
    return { statement, order, row };
  });
  // As the ORM stores them: ISO dates with an explicit offset, booleans as 0 and 1.
  const value = (arg: unknown) =>
    arg instanceof Date ? arg.toISOString().replace("Z", "+00:00") : typeof arg === "boolean" ? Number(arg) : arg;
  return (sql: string, args: readonly unknown[]) => {
    const { statement, order, row } = prepare(sql);
    return { statement, row: row!, values: order.map((index) => value(args[index])) };
  };
}

/** Reads on one SQLite connection's prepared statements. */
function sqliteQueries(
  bound: ReturnType<typeof sqliteStatements>,
  counter: StatementCounter,
): Pick<Reads, "all" | "one"> {
  return {
    async all<Row>(statement: Statement<Row>) {
      counter.count++;
      const { statement: prepared, row, values } = bound(...textOf(statement));
      return (prepared.all(...values) as Record<string, unknown>[]).map(row) as Row[];
    },
    async one<Row>(statement: Statement<Row>) {
      counter.count++;
      const { statement: prepared, row, values } = bound(...textOf(statement));
      const found = prepared.get(...values) as Record<string, unknown> | undefined;
      return (found && row(found)) as Row | undefined;
    },
  };
}

/** SQLite reads: a connection of their own that never writes, so they run beside an open write transaction (WAL). */
export function sqliteReads(file: string, counter: StatementCounter): Reads {
  const connection = new Database(file, { timeout: 10_000 });
  connection.pragma("query_only = ON");
  return {
    ...sqliteQueries(sqliteStatements(connection), counter),
    async close() {
      connection.close();
    },
  };
}

/**
 * SQLite writes on the ORM's own writing connection (SQLite has one writer), each batch holding its lock
 * (`holdWriter`, see sqlite-adapter.ts), so none is swallowed by an ORM transaction. Writes asked for in the
 * same turn of the event loop commit together (group commit): one WAL append for all of them halves each
 * insert's cost under load. A statement that fails is undone alone (SQLite's statement rollback) and fails
 * only its own caller; each caller hears back after the commit, so what it was told is stored. The batch's
 * BEGIN and COMMIT are not counted: they are in-process calls, one pair for every write of the batch.
 */
export function sqliteWrites(
  file: string,
  holdWriter: <T>(work: () => T | Promise<T>) => Promise<T>,
  counter: StatementCounter,
): Writes & { close(): Promise<void> } {
  // A connection of their own, opened once the ORM's has created the file and turned WAL on (a setting of the file).
  const db = new Database(file, { timeout: 10_000 });
  db.exec(WRITING_CONNECTION_SETTINGS);
  const bound = sqliteStatements(db);
  /** Runs one statement on the writer (its caller holds the lock); the rows it changed. */
  const runOn = (on: ReturnType<typeof sqliteStatements>, sql: string, args: readonly unknown[]) => {
    counter.count++;
    const { statement, values } = on(sql, args);
    return statement.run(...values).changes;
  };
  let queued: {
    sql: string;
    args: readonly unknown[];
    done: (outcome: { changes: number } | { error: unknown }) => void;
  }[] = [];

  const commitQueued = async () => {
    const batch = queued;
    queued = [];
    const outcomes = await holdWriter(() => {
      db.exec("BEGIN");
      try {
        const results = batch.map(({ sql, args }) => {
          try {
            return { changes: runOn(bound, sql, args) };
          } catch (error) {
            return { error };
          }
        });
        db.exec("COMMIT");
        return results;
      } catch (error) {
        if (db.inTransaction) db.exec("ROLLBACK");
        throw error;
      }
    }).catch((error: unknown) => batch.map(() => ({ error })));
    batch.forEach(({ done }, index) => done(outcomes[index]!));
  };

  return {
    /** Commits what is queued, then closes once no batch holds the writing lock. */
    async close() {
      if (queued.length) await commitQueued();
      await holdWriter(() => db.close());
    },
    run(statement: Statement) {
      const [sql, args] = textOf(statement);
      return new Promise<number>((resolve, reject) => {
        if (queued.length === 0) setImmediate(() => void commitQueued());
        queued.push({
          sql,
          args,
          done: (outcome) => ("error" in outcome ? reject(outcome.error) : resolve(outcome.changes)),
        });
      });
    },
    async transaction(work) {
      const tx: StatementTx = {
        ...sqliteQueries(bound, counter),
        run: async (statement: Statement) => runOn(bound, ...textOf(statement)),
      };
      return holdWriter(async () => {
        // Counted, unlike a batch's: statement budgets count a transaction's BEGIN and COMMIT on either layer.
        counter.count++;
        db.exec("BEGIN");
        try {
          const result = await work(tx);
          counter.count++;
          db.exec("COMMIT");
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec("ROLLBACK");
          throw error;
        }
      });
    },
  };
}

/**
 * Each writing SQLite connection's own settings (the ORM's and the prepared writes'). Checkpoints run on their own
 * thread (sqlite-checkpointer.ts), never inside a commit on the event loop.
 */
export const WRITING_CONNECTION_SETTINGS =
  "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 0;";

const MAX_TRANSACTION_ATTEMPTS = 5;

/**
 * Runs a transaction again, after a short random wait and up to MAX_TRANSACTION_ATTEMPTS times, while
 * `lostRace` says it lost to a concurrent one (a write conflict, a deadlock) and may simply run again.
 */
export async function retryingLostRaces<T>(
  transaction: () => Promise<T>,
  lostRace: (error: unknown) => boolean,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= MAX_TRANSACTION_ATTEMPTS || !lostRace(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt * Math.random()));
    }
  }
}

/** PostgreSQL's word that a transaction lost a race: a serialization failure (40001) or a deadlock (40P01). */
const lostPostgresRace = (error: unknown) =>
  ["40001", "40P01"].includes((error as { code?: string } | null)?.code ?? "");

/** PostgreSQL: named statements on the shared pool, so each connection parses and plans a statement once. */
export function postgresStatements(pool: pg.Pool, counter: StatementCounter): { reads: Reads; writes: Writes } {
  // The driver converts dates and booleans itself.
  const prepare = statementCache((sql) => `stmt_${createHash("sha256").update(sql).digest("hex").slice(0, 24)}`);
  /** Statements on the pool, or on one client (a transaction's). */
  const on = (runner: pg.Pool | pg.PoolClient): StatementTx => {
    const query = (sql: string, args: readonly unknown[]) => {
      counter.count++;
      return runner.query({ name: prepare(sql), text: sql, values: [...args] });
    };
    return {
      all: async <Row>(statement: Statement<Row>) => (await query(...textOf(statement))).rows as Row[],
      one: async <Row>(statement: Statement<Row>) => (await query(...textOf(statement))).rows[0] as Row | undefined,
      run: async (statement: Statement) => (await query(...textOf(statement))).rowCount ?? 0,
    };
  };
  const { all, one, run } = on(pool);
  return {
    // The pool is the ORM's too: whoever opened it closes it.
    reads: { all, one, async close() {} },
    writes: {
      run,
      transaction: (work) =>
        retryingLostRaces(async () => {
          const client = await pool.connect();
          try {
            counter.count++;
            await client.query("BEGIN");
            const result = await work(on(client));
            counter.count++;
            await client.query("COMMIT");
            return result;
          } catch (error) {
            await client.query("ROLLBACK").catch(() => undefined);
            throw error;
          } finally {
            client.release();
          }
        }, lostPostgresRace),
    },
  };
}

/** A condition on the rows of one table, written with Kysely's expression builder. */
export type RowCondition<Table extends keyof DB> = (row: ExpressionBuilder<DB, Table>) => Expression<SqlBool>;

/**
 * Deletes at most `limit` rows of `table` that meet `where` (a condition on the table's own columns), in one
 * statement; how many it deleted. Neither engine takes `DELETE ... LIMIT`, so the rows are picked by `key` in a
 * subquery, and deleted by key. The condition is checked again on each row deleted, so a row that changed after
 * it was picked (PostgreSQL) stays; wrapped, so that SQLite, which keeps no statistics, does not take it for the
 * better index and read the whole backlog for every batch. Batches keep each statement short: on SQLite it holds
 * the only write lock while it runs.
 */
export function deleteBatch<Table extends keyof DB & string>(
  writes: Writes,
  batch: {
    table: Table;
    key: keyof DB[Table] & string;
    where: RowCondition<Table>;
    limit: number;
  },
): Promise<number> {
  const { table, key, where, limit } = batch;
  const condition = where(expressionBuilder<DB, Table>());
  // Written as a template of typed parts: the builder's types do not follow a table its caller chooses.
  return writes.run(
    sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(key)} IN
      (SELECT ${sql.ref(key)} FROM ${sql.table(table)} WHERE ${condition} LIMIT ${rowLimit(limit)})
    AND COALESCE(${condition}, FALSE)`.compile(query),
  );
}
