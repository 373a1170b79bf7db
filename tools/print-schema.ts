import { writeFile } from "node:fs/promises";
import { buildAdminGraphQLSchema, buildGraphQLSchema, printSchemaFile } from "../src/graphql/schema.js";

// Writes schema.graphql (/graphql) and schema.admin.graphql (/admin/graphql), or, given two file names, those
// (drafts to lint, say).
const [
  target = new URL("../schema.graphql", import.meta.url),
  adminTarget = new URL("../schema.admin.graphql", import.meta.url),
] = process.argv.slice(2);
await writeFile(target, printSchemaFile(await buildGraphQLSchema()));
await writeFile(adminTarget, printSchemaFile(await buildAdminGraphQLSchema()));
console.log(`${String(target)} and ${String(adminTarget)} written`);
