import { CompiledQuery } from "kysely";

/**
 * SQL as a test writes it, for what typed statements do not reach: the runners' own behaviour, query plans, tables
 * a test makes for itself. Its rows are typed as the test says.
 */
export function rawSql<Row = unknown>(text: string, args: readonly unknown[] = []): CompiledQuery<Row> {
  return CompiledQuery.raw(text, [...args]) as CompiledQuery<Row>;
}
