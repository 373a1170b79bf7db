import { writeFile } from "node:fs/promises";
import { buildGraphQLSchema, printSchemaFile } from "../src/graphql/schema.js";

// Writes schema.graphql, or the file named by the first argument (a draft to lint, say).
const target = process.argv[2] ?? new URL("../schema.graphql", import.meta.url);
await writeFile(target, printSchemaFile(await buildGraphQLSchema()));
console.log(`${String(target)} written`);
