import { existsSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import type { DatabaseConfig } from "./client.js";

/** The database is not one this command backs up, or the destination is taken: the message says what to do. */
export class BackupRefused extends Error {}

/**
 * Copies the SQLite database to `destination` with SQLite's online backup API: a consistent copy while the server
 * runs and writes, page by page, never a copy of a file caught mid-write. PostgreSQL is backed up with its own
 * tools (pg_dump); an existing file is never overwritten.
 */
export async function backUpSqlite(database: DatabaseConfig, destination: string) {
  if (database.engine !== "sqlite")
    throw new BackupRefused("the database is PostgreSQL: back it up with pg_dump (docs/operations.md)");
  if (existsSync(destination)) throw new BackupRefused(`${destination} exists: name a new file`);
  const source = new Database(database.file, { readonly: true, fileMustExist: true });
  try {
    const { totalPages } = await source.backup(destination);
    return { file: destination, pages: totalPages, bytes: statSync(destination).size };
  } finally {
    source.close();
  }
}
