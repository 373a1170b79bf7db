import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client.js";
import { PrismaClient as SqlitePrismaClient } from "../generated/prisma-sqlite/client.js";
import type { Config } from "../config.js";
import { serializedSqliteAdapter } from "./sqlite-adapter.js";

/**
 * Both engines share one data model; code is typed against the PostgreSQL client and the SQLite client
 * (generated from the same models) stands in for it.
 */
export type Db = PrismaClient;
export type DatabaseConfig = Config["database"];

export function openDatabase(database: DatabaseConfig): Db {
  if (database.engine === "postgresql") {
    return new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max: 10 }) });
  }
  mkdirSync(dirname(database.file), { recursive: true });
  return new SqlitePrismaClient({ adapter: serializedSqliteAdapter(database.file) }) as unknown as Db;
}
