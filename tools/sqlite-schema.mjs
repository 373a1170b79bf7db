// Generates prisma/sqlite/schema.prisma from prisma/schema.prisma (the source of truth):
// only the datasource, the client output, the Kysely types' generator and PostgreSQL-only column types differ.
// `node tools/sqlite-schema.mjs --check` exits 1 when the checked-in file is stale.
import { readFile, writeFile } from "node:fs/promises";

const source = await readFile(new URL("../prisma/schema.prisma", import.meta.url), "utf8");
const target = new URL("../prisma/sqlite/schema.prisma", import.meta.url);

function toSqliteSchema(text) {
  return (
    text
      .replace(
        /^\/\/ The one source of truth.*\n\/\/ .*\n/m,
        "// GENERATED from prisma/schema.prisma by `npm run prisma:sqlite-schema`: do not edit.\n",
      )
      .replace('provider = "postgresql"', 'provider = "sqlite"')
      // One engine's schema types the Kysely statements: the tables and columns are the same.
      .replace(/^\/\/ The column types of the statements written with Kysely.*\ngenerator kysely \{[^}]*\}\n\n/m, "")
      .replace('output       = "../src/generated/prisma"', 'output       = "../../src/generated/prisma-sqlite"')
      .replace(/ @db\.\w+(\([^)]*\))?/g, "")
  );
}

const generated = toSqliteSchema(source);
if (process.argv.includes("--check")) {
  const current = await readFile(target, "utf8").catch(() => "");
  if (current !== generated) {
    console.error("prisma/sqlite/schema.prisma is stale: run `npm run prisma:sqlite-schema`");
    process.exit(1);
  }
} else {
  await writeFile(target, generated);
}
