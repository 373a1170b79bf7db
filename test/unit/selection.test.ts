import { buildSchema, execute, parse, type GraphQLResolveInfo } from "graphql";
import { describe, expect, it } from "vitest";
import { selects } from "../../src/graphql/selection.js";

const schema = buildSchema(`
  type Error { phase: String }
  type Ramp { id: ID errors: [Error] }
  type Edge { node: Ramp }
  type Page { edges: [Edge] }
  type Query { ramps: Page }
`);

/** Whether `ramps` saw `edges.node.errors` asked for in `query`. */
function asked(query: string): boolean {
  let answer: boolean | undefined;
  const rootValue = {
    ramps: (_args: unknown, _context: unknown, info: GraphQLResolveInfo) => {
      answer = selects(info, ["edges", "node", "errors"]);
      return { edges: [] };
    },
  };
  const result = execute({ schema, document: parse(query), rootValue });
  expect(result).not.toHaveProperty("errors");
  return answer!;
}

describe("selects", () => {
  it("finds a path asked for directly, through fragments and inline fragments, under an alias", () => {
    expect(asked("{ ramps { edges { node { errors { phase } } } } }")).toBe(true);
    expect(
      asked(
        "{ ramps { ...page } } fragment page on Page { edges { node { ...ramp } } } fragment ramp on Ramp { errors { phase } }",
      ),
    ).toBe(true);
    expect(asked("{ ramps { edges { ... on Edge { node { ... { errors { phase } } } } } } }")).toBe(true);
    expect(asked("{ ramps { edges { node { log: errors { phase } } } } }")).toBe(true);
  });

  it("does not find a path the query does not ask for", () => {
    expect(asked("{ ramps { edges { node { id } } } }")).toBe(false);
    expect(asked("{ ramps { ...page } } fragment page on Page { edges { node { id } } }")).toBe(false);
  });
});
