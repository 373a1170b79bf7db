import { writeFile } from "node:fs/promises";
import { buildGraphQLSchema, printSchemaFile } from "../src/graphql/schema.js";

await writeFile(new URL("../schema.graphql", import.meta.url), printSchemaFile(await buildGraphQLSchema()));
console.log("schema.graphql written");
