import { sql, type SelectQueryBuilder } from "kysely";
import type { DB } from "../generated/kysely/database.js";
import { query, type Statement } from "./query.js";
import type { Reads } from "./statements.js";

/** One owner's page of a list nested in another list, and how many rows the owner's whole list holds. */
export interface OwnerPage<Row> {
  rows: Row[];
  total: number;
}

/** Where a row of an owner's list stands: its owner, its position in the owner's list, the list's length. */
interface PagePosition {
  id: string;
  owner: string;
  position: number;
  total: number;
}

/** The tables a list may be of: its rows are picked by their ids. */
type ListedTable = { [Table in keyof DB]: DB[Table] extends { id: string } ? Table : never }[keyof DB];

/** The statement reading the page's rows: `page` (each row's PagePosition), to join the listed table on. */
export type PagesQuery = SelectQueryBuilder<
  DB & { page: PagePosition },
  "page",
  { pageOwner: string; pageTotal: number }
>;

/**
 * The same page of several owners' lists (a manager's children's ramps, say), in one statement whatever the
 * number of owners: rows are numbered and counted per owner with window functions, and only the page's are
 * read in full (`read`, on `page` joined to the table). An owner paged past its end has no row to carry its
 * count, so those counts take a second statement, as a single list's do.
 */
export async function listPagesPerOwner<
  Table extends ListedTable,
  Selected extends { pageOwner: string; pageTotal: number },
  Row,
>(
  reads: Reads,
  list: {
    /** The listed table with its conditions (FROM and WHERE); the owners' condition is added here. */
    rows: () => SelectQueryBuilder<DB, Table, object>;
    /** The column naming each row's owner. */
    owner: keyof DB[Table] & string;
    owners: readonly string[];
    /** The order within an owner's list, on the table's own columns. */
    order: readonly (readonly [column: keyof DB[Table] & string, direction: "asc" | "desc"])[];
    /** A page's rows read in full: what to join to `page` and select. */
    read: (pages: PagesQuery) => Statement<Selected>;
    /** A row as the caller wants it, from what `read` selected (pageOwner and pageTotal are the page's, not the row's). */
    rowOf: (selected: NoInfer<Selected>) => Row;
    page: { limit: number; offset: number };
  },
): Promise<Map<string, OwnerPage<Row>>> {
  const { rows: listed, owner, owners, order, read, rowOf, page } = list;
  const pages = new Map<string, OwnerPage<Row>>(owners.map((id) => [id, { rows: [], total: 0 }]));
  if (owners.length === 0) return pages;
  const ownerColumn = sql.ref<string>(owner);
  const rowsOf = (some: readonly string[]) => listed().where(ownerColumn, "in", some);
  const ordering = sql.join(order.map(([column, direction]) => sql`${sql.ref(column)} ${sql.raw(direction)}`));
  const numbered = rowsOf(owners).select([
    sql.ref<string>("id").as("id"),
    ownerColumn.as("owner"),
    sql<number>`ROW_NUMBER() OVER (PARTITION BY ${ownerColumn} ORDER BY ${ordering})`.as("position"),
    sql<number>`CAST(COUNT(*) OVER (PARTITION BY ${ownerColumn}) AS INTEGER)`.as("total"),
  ]);
  const selected = await reads.all(
    read(
      query
        .selectFrom(numbered.as("page"))
        .select(["page.owner as pageOwner", "page.total as pageTotal"])
        .where("page.position", ">", page.offset)
        .where("page.position", "<=", page.offset + page.limit)
        .orderBy("page.owner")
        .orderBy("page.position"),
    ),
  );
  for (const row of selected) {
    const ownerPage = pages.get(row.pageOwner)!;
    ownerPage.rows.push(rowOf(row));
    ownerPage.total = row.pageTotal;
  }
  const pastTheEnd = page.offset > 0 ? owners.filter((id) => pages.get(id)!.rows.length === 0) : [];
  if (pastTheEnd.length > 0) {
    const counted = await reads.all(
      rowsOf(pastTheEnd)
        .select([ownerColumn.as("owner"), sql<number>`CAST(COUNT(*) AS INTEGER)`.as("total")])
        .groupBy(ownerColumn),
    );
    for (const { owner: id, total } of counted) pages.get(id)!.total = total;
  }
  return pages;
}
