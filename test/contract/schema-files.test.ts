import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { getDirective } from "@graphql-tools/utils";
import { describe, expect, it } from "vitest";
import { buildGraphQLSchema, printSchemaFile } from "../../src/graphql/schema.js";

describe("generated files are fresh", () => {
  it("schema.graphql matches the resolvers, printed with directive usages (npm run schema:print)", async () => {
    const expected = printSchemaFile(await buildGraphQLSchema());
    expect(readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8")).toBe(expected);
    expect(expected).toContain("@auth(requires: [");
  });

  it("prisma/sqlite/schema.prisma is generated from prisma/schema.prisma (npm run prisma:sqlite-schema)", () => {
    expect(() =>
      execFileSync(process.execPath, ["tools/sqlite-schema.mjs", "--check"], { stdio: "pipe" }),
    ).not.toThrow();
  });
});

describe("GraphQL authorization is declared", () => {
  it("every root operation states its rule with @auth", async () => {
    const schema = await buildGraphQLSchema();
    const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
    const undeclared = roots.flatMap((root) =>
      Object.values(root?.getFields() ?? {})
        .filter((field) => !getDirective(schema, field, "auth")?.[0])
        .map((field) => `${root!.name}.${field.name}`),
    );
    expect(undeclared).toEqual([]);
  });
});
