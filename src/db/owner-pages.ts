import { placeholders, type Reads } from "./statements.js";

/** One owner's page of a list nested in another list, and how many rows the owner's whole list holds. */
export interface OwnerPage<Row> {
  rows: Row[];
  total: number;
}

/** A filter on the listed table's own columns: SQL with one `?` for its value. */
export type Filter = [condition: string, value: unknown];

/**
 * The same page of several owners' lists (a manager's children's ramps, say), in one statement whatever the
 * number of owners: rows are numbered and counted per owner with window functions, and only the page's are
 * read in full. An owner paged past its end has no row to carry its count, so those counts take a second
 * statement, as a single list's do.
 */
export async function pagesPerOwner<Row>(
  reads: Reads,
  list: {
    /** The listed table and the column naming each row's owner. */
    table: string;
    owner: string;
    owners: readonly string[];
    /** Conditions on the table's own columns written out whole, and those with a value. */
    condition?: string;
    filters: readonly Filter[];
    /** The order within an owner's list, on the table's own columns (`"createdAt" DESC, "id" DESC`). */
    order: string;
    /** The select list of a page's rows, on the table as it is named and on `joins`. */
    select: string;
    joins?: string;
    page: { limit: number; offset: number };
  },
): Promise<Map<string, OwnerPage<Row>>> {
  const { table, owner, owners, condition, filters, order, select, joins = "", page } = list;
  const pages = new Map<string, OwnerPage<Row>>(owners.map((id) => [id, { rows: [], total: 0 }]));
  if (owners.length === 0) return pages;
  const filterValues = filters.map(([, value]) => value);
  /** The rows of `count` owners, bound first, then the filters' values. */
  const conditionOf = (count: number) =>
    [
      `"${owner}" IN (${placeholders(count)})`,
      ...(condition ? [condition] : []),
      ...filters.map(([sql], index) => sql.replace("?", `$${count + 1 + index}`)),
    ].join(" AND ");
  const bounds = owners.length + filters.length + 1;
  const rows = await reads.all<Row & { pageOwner: string; pageTotal: number }>(
    `SELECT ${select}, "page"."owner" AS "pageOwner", "page"."total" AS "pageTotal"
    FROM (
      SELECT "id", "${owner}" AS "owner", ROW_NUMBER() OVER (PARTITION BY "${owner}" ORDER BY ${order}) AS "position",
        CAST(COUNT(*) OVER (PARTITION BY "${owner}") AS INTEGER) AS "total"
      FROM "${table}" WHERE ${conditionOf(owners.length)}
    ) AS "page" JOIN "${table}" ON "${table}"."id" = "page"."id" ${joins}
    WHERE "page"."position" > $${bounds} AND "page"."position" <= $${bounds + 1}
    ORDER BY "page"."owner", "page"."position"`,
    [...owners, ...filterValues, page.offset, page.offset + page.limit],
  );
  for (const { pageOwner, pageTotal, ...row } of rows) {
    const ownerPage = pages.get(pageOwner)!;
    ownerPage.rows.push(row as unknown as Row);
    ownerPage.total = pageTotal;
  }
  const pastTheEnd = page.offset > 0 ? owners.filter((id) => pages.get(id)!.rows.length === 0) : [];
  if (pastTheEnd.length > 0) {
    const counted = await reads.all<{ owner: string; total: number }>(
      `SELECT "${owner}" AS "owner", CAST(COUNT(*) AS INTEGER) AS "total" FROM "${table}"
      WHERE ${conditionOf(pastTheEnd.length)} GROUP BY "${owner}"`,
      [...pastTheEnd, ...filterValues],
    );
    for (const { owner: id, total } of counted) pages.get(id)!.total = total;
  }
  return pages;
}
