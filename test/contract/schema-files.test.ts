import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { buildSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { enforceAuth } from "../../src/graphql/auth-directive.js";
import { buildAdminGraphQLSchema, buildGraphQLSchema, printSchemaFile } from "../../src/graphql/schema.js";

describe("generated files are fresh", () => {
  it("schema.graphql matches the resolvers, printed with directive usages (npm run schema:print)", async () => {
    const expected = printSchemaFile(await buildGraphQLSchema());
    expect(readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8")).toBe(expected);
    expect(expected).toContain("@auth(requires: [");
  });

  it("schema.admin.graphql matches the operator's resolvers, printed likewise (npm run schema:print)", async () => {
    const expected = printSchemaFile(await buildAdminGraphQLSchema());
    expect(readFileSync(new URL("../../schema.admin.graphql", import.meta.url), "utf8")).toBe(expected);
    expect(expected).toContain("@auth(requires: [OPERATOR]");
  });

  it("prisma/sqlite/schema.prisma is generated from prisma/schema.prisma (npm run prisma:sqlite-schema)", () => {
    expect(() =>
      execFileSync(process.execPath, ["tools/sqlite-schema.mjs", "--check"], { stdio: "pipe" }),
    ).not.toThrow();
  });
});

describe("GraphQL authorization is declared", () => {
  it("a root field whose @auth is deleted stops the schema from being built, so the server does not start", () => {
    const printed = readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8");
    expect(() => enforceAuth(buildSchema(printed))).not.toThrow();
    const declared = "me: Profile! @auth(requires: [PROFILE_READ], delegation: DELEGATED)";
    expect(printed).toContain(declared);
    expect(() => enforceAuth(buildSchema(printed.replace(declared, "me: Profile!")))).toThrow(
      "GraphQL Query.me declares no @auth rule",
    );
    // The delegation rule cannot be left out either: no field falls back to a default.
    expect(() =>
      enforceAuth(buildSchema(printed.replace(declared, "me: Profile! @auth(requires: [PROFILE_READ])"))),
    ).toThrow(/argument "delegation" of type "Delegation!" is required/);
  });
});
