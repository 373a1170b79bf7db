import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import type pg from "pg";
import { StartupError } from "../config.js";
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

/** How long start-up waits for PostgreSQL, and who hears about each retry. */
export interface ConnectPatience {
  timeoutMs: number;
  onRetry(retry: { attempt: number; delayMs: number; reason: string }): void;
}

const IMPATIENT: ConnectPatience = { timeoutMs: 0, onRetry: () => undefined };

/** Applies the checked-in SQL migrations that have not run yet, each in its own transaction. Returns their names. */
export function migrate(database: DatabaseConfig, patience: ConnectPatience = IMPATIENT): Promise<string[]> {
  return migrateFrom(database, migrationsDirectory(database.engine), patience);
}

export async function migrateFrom(
  database: DatabaseConfig,
  directory: string,
  patience: ConnectPatience = IMPATIENT,
): Promise<string[]> {
  const all = readMigrations(directory);
  return database.engine === "postgresql"
    ? migratePostgres(database.url, all, patience)
    : migrateSqlite(database.file, all);
}

/**
 * Whether the database holds the gateway's tables (a migration has run on it), creating nothing: neither a
 * SQLite file nor the migrations table. What the operator CLI checks before it opens a database.
 */
export async function holdsGatewayTables(database: DatabaseConfig): Promise<boolean> {
  if (database.engine === "sqlite") {
    if (!existsSync(database.file)) return false;
    const db = new Database(database.file, { readonly: true, fileMustExist: true });
    try {
      return (
        db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(MIGRATIONS_TABLE) !== undefined
      );
    } finally {
      db.close();
    }
  }
  const { default: driver } = await import("pg");
  const client = await connectPatiently(driver.Client, database.url, IMPATIENT);
  try {
    const { rows } = await client.query("SELECT to_regclass($1) IS NOT NULL AS present", [`"${MIGRATIONS_TABLE}"`]);
    return (rows[0] as { present: boolean }).present;
  } finally {
    await client.end();
  }
}

/** Errors of a server that is not (yet) there or not ready: a database starting beside us, say. */
const TRANSIENT = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P03",
]);

/**
 * The first connection of a start-up: retried with backoff while the server is unreachable, up to the
 * patience's timeout, then refused with an error that names the server (never the URL's credentials).
 */
async function connectPatiently(Client: typeof pg.Client, url: string, patience: ConnectPatience) {
  const deadline = Date.now() + patience.timeoutMs;
  for (let attempt = 1, delayMs = 250; ; attempt++, delayMs = Math.min(delayMs * 2, 5_000)) {
    const client = new Client({ connectionString: url });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      const reason = (error as { code?: string }).code ?? (error as Error).message;
      if (!TRANSIENT.has(reason) || Date.now() + delayMs > deadline) {
        const { hostname, port, pathname } = new URL(url);
        const waited = TRANSIENT.has(reason) ? ` within ${patience.timeoutMs / 1000} s` : "";
        throw new StartupError(
          `PostgreSQL at ${hostname}:${port || 5432}${pathname} did not accept a connection${waited} (${reason}): check DATABASE_URL and that the server is up.`,
        );
      }
      patience.onRetry({ attempt, delayMs, reason });
      await sleep(delayMs);
    }
  }
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
      // A migration may rebuild a table others refer to (SQLite alters a table by copying it): foreign keys
      // are off while it runs, which only takes effect outside a transaction, and checked before it commits.
      db.pragma("foreign_keys = OFF");
      try {
        db.transaction(() => {
          const startedAt = new Date().toISOString();
          db.exec(migration.sql);
          const broken = db.pragma("foreign_key_check") as { table: string; parent: string }[];
          if (broken.length)
            throw new Error(
              `Migration ${migration.name} leaves ${broken.length} row(s) referring to missing rows (first: ${broken[0]!.table} -> ${broken[0]!.parent}); nothing of it was applied.`,
            );
          record.run(randomUUID(), migration.checksum, new Date().toISOString(), migration.name, startedAt);
        })();
      } finally {
        db.pragma("foreign_keys = ON");
      }
    }
    return toApply.map((migration) => migration.name);
  } finally {
    db.close();
  }
}

async function migratePostgres(url: string, all: Migration[], patience: ConnectPatience): Promise<string[]> {
  // The PostgreSQL driver is loaded in distributed mode only (see openDatabase).
  const { default: driver } = await import("pg");
  const client = await connectPatiently(driver.Client, url, patience);
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
