import {
  DummyDriver,
  Kysely,
  sql,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  CompiledQuery,
  type Compilable,
  type Insertable,
} from "kysely";
import type { DB } from "../generated/kysely/database.js";
import { boundedMemo } from "./bounded-memo.js";

/**
 * The hot statements, written with Kysely's builder and typed from prisma/schema.prisma (the table types
 * prisma-kysely generates beside the ORM's client): a misspelt column, or a row read as the wrong type, does not
 * compile. The builder compiles PostgreSQL's SQL, which statements.ts runs on either engine, and never connects.
 */
export const query = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** What the statements' runners take: a query built with `query`, or one compiled already (`insertRows`). */
export type Statement<Row = unknown> = Compilable<Row> | CompiledQuery<Row>;

/** A statement's SQL text and its arguments. */
export function textOf(statement: Statement): [string, readonly unknown[]] {
  const { sql, parameters } = "compile" in statement ? statement.compile() : statement;
  return [sql, parameters];
}

/**
 * INSERT texts by table, columns and row count: a hot insert builds its text once. Distinct ones are few (a
 * table's columns, a batch's length); the bound is for a mistake.
 */
const insertTexts = boundedMemo<string>(500);

/**
 * `INSERT INTO "<table>" (<the first row's keys>) VALUES (...), ...` with the rows' values as parameters; every
 * row has the first one's keys. Typed as Kysely's `insertInto(table).values(rows)` is, without compiling its
 * builder on every call: quote creation is a hot write of 40 columns.
 */
export function insertRows<Table extends keyof DB & string>(
  table: Table,
  rows: Insertable<DB[Table]> | readonly Insertable<DB[Table]>[],
): CompiledQuery {
  const list: readonly Record<string, unknown>[] = Array.isArray(rows) ? rows : [rows];
  const names = Object.keys(list[0]!);
  const key = `${table} ${list.length} ${names.join(" ")}`;
  const text = insertTexts(key, () => {
    const values = list.map((_, index) => `(${placeholders(names.length, index * names.length + 1)})`);
    return `insert into "${table}" (${names.map((name) => `"${name}"`).join(", ")}) values ${values.join(", ")}`;
  });
  const parameters: unknown[] = [];
  for (const row of list) for (const name of names) parameters.push(row[name]);
  return CompiledQuery.raw(text, parameters);
}

/** `$from, $from+1, ...`: placeholders for `count` values. */
function placeholders(count: number, from: number): string {
  return Array.from({ length: count }, (_, index) => `$${from + index}`).join(", ");
}

/**
 * A row limit written into the SQL text (`.limit(rowLimit(n))`), never bound. SQLite (built with STAT4, as
 * better-sqlite3 is) plans for the limit it is given, so a bound LIMIT marks the statement stale at every bind and
 * it is prepared again on every run: measured, 25 µs instead of 7 for the credential list, 340 instead of 80 for a
 * history page. Distinct limits are few, so each keeps its own prepared statement.
 */
export function rowLimit(limit: number) {
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new RangeError(`a row limit must be a whole number, not ${limit}`);
  return sql.lit(limit);
}

/** A prepared statement's parameter while it is built: its value is bound at each call. */
class Parameter {
  constructor(readonly name: string) {}
}

/**
 * A statement built and compiled once, its parameters bound at each call: `build` gets placeholders for them. For
 * the statements status polling and the ramp lifecycle repeat: building and compiling a select of a ramp with its
 * quote (70 columns) costs 30 to 45 µs every time, more than SQLite takes to run it. Only for statements whose
 * shape does not depend on their parameters' values (no lists of them, no filters left out by them).
 */
export function prepared<Params extends Record<string, unknown>, Row>(
  build: (params: Params) => Compilable<Row>,
): (params: Params) => CompiledQuery<Row> {
  let statement: CompiledQuery<Row> | undefined;
  return (params) => {
    statement ??= build(
      // Each name read from the placeholders stands for the value the call gives under that name.
      new Proxy({}, { get: (_, name) => new Parameter(String(name)) }) as Params,
    ).compile();
    return {
      ...statement,
      parameters: statement.parameters.map((value) => (value instanceof Parameter ? params[value.name] : value)),
    };
  };
}
