import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { DatabaseConfig } from "./client.js";

const MIGRATIONS_TABLE = "_prisma_migrations";
/** Serializes concurrent start-ups of several instances against one PostgreSQL database. */
const MIGRATION_LOCK_ID = 72707369;

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function migrationsDirectory(engine: DatabaseConfig["engine"]): string {
  const root = new URL("../../prisma/", import.meta.url).pathname;
  return engine === "postgresql" ? join(root, "migrations") : join(root, "sqlite", "migrations");
}

function readMigrations(directory: string): Migration[] {
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(directory, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** Returns which migrations are already applied, refusing to go on if one was edited after it ran. */
function pending(all: Migration[], applied: { migration_name: string; checksum: string }[]): Migration[] {
  const appliedByName = new Map(applied.map((row) => [row.migration_name, row.checksum]));
  for (const migration of all) {
    const checksum = appliedByName.get(migration.name);
    if (checksum !== undefined && checksum !== migration.checksum) {
      throw new Error(`Migration ${migration.name} was edited after it was applied (checksum differs)`);
    }
  }
  return all.filter((migration) => !appliedByName.has(migration.name));
}

const CREATE_TABLE = (timestamp: string) => `CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" ${timestamp},
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" ${timestamp},
  "started_at" ${timestamp} NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;
const INSERT_APPLIED = `INSERT INTO "${MIGRATIONS_TABLE}" ("id", "checksum", "finished_at", "migration_name", "applied_steps_count", "started_at")`;

/** Applies the checked-in SQL migrations that have not run yet, each in its own transaction. Returns their names. */
export function migrate(database: DatabaseConfig): Promise<string[]> {
  return migrateFrom(database, migrationsDirectory(database.engine));
}

export async function migrateFrom(database: DatabaseConfig, directory: string): Promise<string[]> {
  const all = readMigrations(directory);
  return database.engine === "postgresql" ? migratePostgres(database.url, all) : migrateSqlite(database.file, all);
}

function migrateSqlite(file: string, all: Migration[]): string[] {
  const db = new Database(file);
  try {
    db.exec(CREATE_TABLE("DATETIME"));
    const applied = db
      .prepare(`SELECT migration_name, checksum FROM "${MIGRATIONS_TABLE}" WHERE rolled_back_at IS NULL`)
      .all() as {
      migration_name: string;
      checksum: string;
    }[];
    const toApply = pending(all, applied);
    const record = db.prepare(`${INSERT_APPLIED} VALUES (?, ?, ?, ?, 1, ?)`);
    for (const migration of toApply) {
      db.transaction(() => {
        const startedAt = new Date().toISOString();
        db.exec(migration.sql);
        record.run(randomUUID(), migration.checksum, new Date().toISOString(), migration.name, startedAt);
      })();
    }
    return toApply.map((migration) => migration.name);
  } finally {
    db.close();
  }
}

async function migratePostgres(url: string, all: Migration[]): Promise<string[]> {
  // The PostgreSQL driver is loaded in distributed mode only (see openDatabase).
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await client.query(CREATE_TABLE("TIMESTAMPTZ"));
    const { rows } = await client.query(
      `SELECT migration_name, checksum FROM "${MIGRATIONS_TABLE}" WHERE rolled_back_at IS NULL`,
    );
    const toApply = pending(all, rows);
    for (const migration of toApply) {
      const startedAt = new Date();
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(`${INSERT_APPLIED} VALUES ($1, $2, now(), $3, 1, $4)`, [
          randomUUID(),
          migration.checksum,
          migration.name,
          startedAt,
        ]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    }
    return toApply.map((migration) => migration.name);
  } finally {
    await client.end();
  }
}
