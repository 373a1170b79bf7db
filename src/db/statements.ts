import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import type pg from "pg";
import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { DB } from "../generated/kysely/database.js";
import { query, rowLimit, textOf, type Statement } from "./query.js";

/** Counts the statements sent to the database, by the ORM and by `Reads` alike (tests pin request budgets with it). */
export interface StatementCounter {
  count: number;
}

/**
 * The reads the hot paths repeat (ramp status, quote reads, history, credential lists, authentication and
 * KYC misses), as hand-written SQL on statements prepared once per connection. Prisma 7 spends 100 to 200 µs
 * of JavaScript on every query whatever its size; these cost the database's own work. The ramp lifecycle's
 * transactions run on them too (`Writes.transaction`); other transactions and every other read stay with the
 * ORM. Rows come back as the ORM returns them (dates as Date, booleans as boolean), a column named `a.b` as
 * field `b` of an object `a` (a joined table's row).
 *
 * SQL is written for PostgreSQL, with `$1`-style placeholders and double-quoted names, which SQLite reads as
 * well once placeholders are renumbered. A row limit is written into the text (`limitClause`), never bound.
 */
export interface Reads {
  all<Row>(statement: Statement<Row>): Promise<Row[]>;
  all<Row>(sql: string, args?: readonly unknown[]): Promise<Row[]>;
  /** The first row, or undefined. */
  one<Row>(statement: Statement<Row>): Promise<Row | undefined>;
  one<Row>(sql: string, args?: readonly unknown[]): Promise<Row | undefined>;
  close(): Promise<void>;
}

/** Statements inside one transaction: its reads see its own writes. */
export interface StatementTx extends Pick<Reads, "all" | "one"> {
  /** The number of rows the statement changed. */
  run(statement: Statement): Promise<number>;
  run(sql: string, args?: readonly unknown[]): Promise<number>;
}

/**
 * The hot writes on prepared statements: one statement on its own (quote creation, webhook claims), or the
 * ramp lifecycle's transactions, whose ORM statements cost about half a millisecond each inside a transaction
 * (measured on SQLite), while the transaction held the only writer.
 */
export interface Writes {
  /** Runs one statement on its own; the number of rows it changed. */
  run(statement: Statement): Promise<number>;
  run(sql: string, args?: readonly unknown[]): Promise<number>;
  /**
   * Runs `work` in one transaction: committed once it resolves, rolled back if it throws. `work` awaits
   * nothing but its statements (on SQLite it holds the only writer meanwhile).
   */
  transaction<T>(work: (tx: StatementTx) => Promise<T>): Promise<T>;
}

/** Prepared statements kept per connection: distinct SQL texts are few (a list of ids adds one per length). */
const MAX_PREPARED = 500;

type Conversion = "date" | "boolean" | undefined;
type RowOf = (values: unknown[]) => Record<string, unknown>;

/**
 * Builds a function turning a row's values (in column order) into an object, nesting `a.b` columns. It is
 * compiled once per statement, so every row of it shares one object shape: rows of 50 columns or more
 * built field by field cost several times as much (measured on SQLite).
 */
function rowBuilder(names: readonly string[], conversions: readonly Conversion[]): RowOf {
  const convert = (index: number) => {
    const value = `values[${index}]`;
    if (conversions[index] === "date") return `${value} === null ? null : new Date(${value})`;
    if (conversions[index] === "boolean") return `${value} === null ? null : ${value} === 1`;
    return value;
  };
  const groups = new Map<string, string[]>();
  const fields: string[] = [];
  names.forEach((name, index) => {
    const dot = name.indexOf(".");
    if (dot < 0) return fields.push(`${JSON.stringify(name)}: ${convert(index)}`);
    const group = name.slice(0, dot);
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group)!.push(`${JSON.stringify(name.slice(dot + 1))}: ${convert(index)}`);
  });
  for (const [group, members] of groups) fields.push(`${JSON.stringify(group)}: { ${members.join(", ")} }`);
  return new Function("values", `return { ${fields.join(", ")} };`) as RowOf;
}

/** Values by text, at most `max` of them (the oldest goes first): prepared statements, INSERT texts. */
function boundedMemo<T>(max: number): (key: string, build: () => T) => T {
  const entries = new Map<string, T>();
  return (key, build) => {
    let entry = entries.get(key);
    if (entry === undefined) {
      if (entries.size >= max) entries.delete(entries.keys().next().value!);
      entry = build();
      entries.set(key, entry);
    }
    return entry;
  };
}

/** Prepared statements by SQL text. */
function statementCache<T>(prepare: (sql: string) => T): (sql: string) => T {
  const prepared = boundedMemo<T>(MAX_PREPARED);
  return (sql) =>
    prepared(sql, () => {
      if (/\bLIMIT\s+\$/i.test(sql)) throw new Error("a row limit is written with limitClause, not bound (see there)");
      return prepare(sql);
    });
}

/** Prepares SQLite statements on one connection: placeholders renumbered, rows built by `rowBuilder`. */
function sqliteStatements(connection: Database.Database) {
  const prepare = statementCache((sql) => {
    // better-sqlite3 takes numbered parameters (?1) for named ones: use plain ?s, in the order they appear.
    const order = [...sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]) - 1);
    // The ORM's connection, where transactions read, gives whole numbers as BigInts: here they are numbers.
    const statement = connection.prepare(sql.replace(/\$\d+/g, "?")).safeIntegers(false);
    if (!statement.reader) return { statement, order, row: undefined };
    const columns = statement.raw(true).columns();
    const conversions = columns.map(({ type }) =>
      type === "DATETIME" ? "date" : type === "BOOLEAN" ? "boolean" : undefined,
    );
    return {
      statement,
      order,
      row: rowBuilder(
        columns.map(({ name }) => name),
        conversions,
      ),
    };
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
    async all<Row>(statement: Statement<Row> | string, args?: readonly unknown[]) {
      counter.count++;
      const { statement: prepared, row, values } = bound(...textOf(statement, args));
      return (prepared.all(...values) as unknown[][]).map(row) as Row[];
    },
    async one<Row>(statement: Statement<Row> | string, args?: readonly unknown[]) {
      counter.count++;
      const { statement: prepared, row, values } = bound(...textOf(statement, args));
      const found = prepared.get(...values) as unknown[] | undefined;
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
    run(statement: Statement | string, statementArgs?: readonly unknown[]) {
      const [sql, args] = textOf(statement, statementArgs);
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
        run: async (statement: Statement | string, args?: readonly unknown[]) =>
          runOn(bound, ...textOf(statement, args)),
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
  // The driver already converts dates and booleans; rows only need their shape.
  const prepare = statementCache((sql) => ({
    name: `stmt_${createHash("sha256").update(sql).digest("hex").slice(0, 24)}`,
    row: undefined as RowOf | undefined,
  }));
  /** Statements on the pool, or on one client (a transaction's). */
  const on = (runner: pg.Pool | pg.PoolClient): StatementTx => {
    const query = (sql: string, args: readonly unknown[]) => {
      counter.count++;
      return runner.query({ name: prepare(sql).name, text: sql, values: [...args], rowMode: "array" });
    };
    const rows = async (sql: string, args: readonly unknown[]) => {
      const result = await query(sql, args);
      const entry = prepare(sql);
      entry.row ??= rowBuilder(
        result.fields.map(({ name }) => name),
        [],
      );
      return (result.rows as unknown[][]).map(entry.row);
    };
    return {
      all: async <Row>(statement: Statement<Row> | string, args?: readonly unknown[]) =>
        (await rows(...textOf(statement, args))) as Row[],
      one: async <Row>(statement: Statement<Row> | string, args?: readonly unknown[]) =>
        (await rows(...textOf(statement, args)))[0] as Row | undefined,
      run: async (statement: Statement | string, args?: readonly unknown[]) =>
        (await query(...textOf(statement, args))).rowCount ?? 0,
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

/**
 * INSERT texts by table, columns and row count: a hot insert builds its text once, and the statement cache then
 * finds the same string, whose hash V8 keeps.
 */
const insertTexts = boundedMemo<string>(MAX_PREPARED);

/**
 * `INSERT INTO "<table>" (<the first row's keys>) VALUES (...), ...` with the rows' values as arguments; every row
 * has the first one's keys.
 */
export function insert(
  table: string,
  rows: Record<string, unknown> | readonly Record<string, unknown>[],
): [string, unknown[]] {
  const list = Array.isArray(rows) ? rows : [rows];
  const names = Object.keys(list[0]!);
  const sql = insertTexts(`${table} ${list.length} ${names.join(" ")}`, () => {
    const values = list.map((_, index) => `(${placeholders(names.length, index * names.length + 1)})`);
    return `INSERT INTO "${table}" (${names.map((name) => `"${name}"`).join(", ")}) VALUES ${values.join(", ")}`;
  });
  const args: unknown[] = [];
  for (const row of list) for (const name of names) args.push(row[name]);
  return [sql, args];
}

/**
 * A select list naming each column `<prefix><field>`; with a prefix `quote.`, a joined table's columns come
 * back as the object `quote`: `columns("Quote", ["id"], "quote.")` is `"Quote"."id" AS "quote.id"`.
 */
export function columns(table: string, fields: readonly string[], prefix = ""): string {
  return fields.map((field) => `"${table}"."${field}" AS "${prefix}${field}"`).join(", ");
}

/**
 * `LIMIT <n>` with the number in the SQL text. SQLite (built with STAT4, as better-sqlite3 is) plans for the
 * limit it is given, so a bound LIMIT marks the statement stale at every bind and it is prepared again on
 * every run: measured, 25 µs instead of 7 for the credential list, 340 instead of 80 for a history page.
 * Distinct limits are few, so each keeps its own prepared statement.
 */
export function limitClause(limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new RangeError(`a row limit must be a whole number, not ${limit}`);
  return `LIMIT ${limit}`;
}

/** `$from, $from+1, ...`: placeholders for a list of `count` values (SQL `IN (...)`). */
export function placeholders(count: number, from = 1): string {
  return Array.from({ length: count }, (_, index) => `$${from + index}`).join(", ");
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
