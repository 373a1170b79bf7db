import { ArgsType, Field, Int } from "type-graphql";
import { z } from "zod";
import { AppError } from "../../errors.js";
import { graphqlNames, outputObject, type Pagination } from "../../output.js";
import { outputType } from "./output-type.js";

const pageInfo = outputObject("PageInfo", "Relay page information.", {
  hasNextPage: z.boolean().describe("True when more nodes follow this page."),
  hasPreviousPage: z.boolean().describe("True when the page was read with `after`, so nodes precede it."),
  startCursor: z.string().nullable().describe("The first edge's cursor; null when the page is empty."),
  endCursor: z
    .string()
    .nullable()
    .describe("The last edge's cursor, to pass as `after` for the next page; null when the page is empty."),
});

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

/** Relay forward-pagination arguments of every connection field. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, {
    defaultValue: DEFAULT_PAGE_SIZE,
    description: `How many nodes: from 0 to ${MAX_PAGE_SIZE} (more is refused, not cut down).`,
  })
  first!: number;

  @Field(() => String, { nullable: true, description: "The endCursor of the previous page." })
  after?: string | null;
}

/** The connection types built, by their node's name. */
const connections = new Map<string, ReturnType<typeof outputType>>();

/**
 * The Relay connection type of an output object (edges with opaque cursors, plus pageInfo): `<Node>Connection`,
 * built once.
 */
export function connectionType(node: z.ZodObject) {
  const name = graphqlNames.get(node)?.name;
  if (!name) throw new Error("A connection's node needs its GraphQL name (outputObject)");
  const existing = connections.get(name);
  if (existing) return existing;
  const article = /^[AEIOU]/.test(name) ? "An" : "A";
  const edge = outputObject(`${name}Edge`, `${article} ${name} in a ${name}Connection page, with its cursor.`, {
    cursor: z.string().describe("Opaque position of this node; pass it as `after` to read the nodes that follow it."),
    node: node.describe(`The ${name} at this position.`),
  });
  const type = outputType(
    outputObject(`${name}Connection`, `One page of ${name} nodes (a Relay connection).`, {
      edges: z.array(edge).describe(`The page's ${name} nodes in list order, each with its cursor.`),
      pageInfo: pageInfo.describe("Whether other pages follow or precede, and the cursors of this page's ends."),
      count: z.number().int().describe("Number of nodes in this page."),
      totalCount: z
        .number()
        .int()
        .describe(
          `Number of ${name} nodes in the whole list (all pages, with the same arguments apart from first and after), as the REST lists report their total.`,
        ),
    }),
  );
  connections.set(name, type);
  return type;
}

const encodeCursor = (position: string) => Buffer.from(position).toString("base64url");
const decodeCursor = (cursor: string) => Buffer.from(cursor, "base64url").toString();

/**
 * `first` and `after` of a list paged by offset, whose cursors are positions in the list. A `first` outside 0 to
 * MAX_PAGE_SIZE is refused: a caller is told, not cut short.
 */
export function offsetPage({ first, after }: PageArgs): { limit: number; offset: number } {
  if (first < 0 || first > MAX_PAGE_SIZE)
    throw new AppError("VALIDATION_FAILED", `first must be between 0 and ${MAX_PAGE_SIZE}`, [
      { field: "first", message: `must be between 0 and ${MAX_PAGE_SIZE}` },
    ]);
  const limit = Math.max(first, 1);
  if (after == null) return { limit, offset: 0 };
  const position = decodeCursor(after);
  if (!/^\d{1,9}$/.test(position))
    throw new AppError("VALIDATION_FAILED", "after is not a cursor of this list", [
      { field: "after", message: "is not a cursor of this list" },
    ]);
  return { limit, offset: Number(position) + 1 };
}

/**
 * A Relay connection over one page of an offset-paged list and where it lies (the list's services answer both):
 * each cursor is the node's position, opaque to callers, and more follow while the page ends before the total.
 * `first: 0` reads the smallest page a list serves, of one node, and shows none of it.
 */
export function pageConnection<Node>(nodes: Node[], { offset, total }: Pagination, { first }: PageArgs) {
  const edges = nodes.slice(0, first).map((node, index) => ({ cursor: encodeCursor(String(offset + index)), node }));
  return {
    edges,
    count: edges.length,
    totalCount: total,
    pageInfo: {
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
      hasNextPage: offset + edges.length < total,
      hasPreviousPage: offset > 0,
    },
  };
}
