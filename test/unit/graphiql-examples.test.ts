import { readdirSync, readFileSync } from "node:fs";
import { parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { buildGraphQLSchema } from "../../src/graphql/schema.js";

/** GraphiQL's example documents (static/graphiql/*.graphql), which the page opens one tab each. */
const FOLDER = new URL("../../static/graphiql/", import.meta.url);
const documents = readdirSync(FOLDER).filter((name) => name.endsWith(".graphql"));

describe("GraphiQL's examples", () => {
  it("are operations the schema validates, every one", async () => {
    const schema = await buildGraphQLSchema();
    expect(documents.length).toBeGreaterThan(0);
    for (const name of documents)
      expect(validate(schema, parse(readFileSync(new URL(name, FOLDER), "utf8"))), name).toEqual([]);
  });

  it("are each opened in a tab: examples.json lists every document once", () => {
    const listed = JSON.parse(readFileSync(new URL("examples.json", FOLDER), "utf8")) as { document: string }[];
    expect(listed.map(({ document }) => document).sort()).toEqual(documents.sort());
  });
});
