import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, type Database, type DatabaseConfig } from "../../src/db/client.js";
import { migrate } from "../../src/db/migrate.js";

export type Engine = "sqlite" | "postgresql";

/** The engine this test project runs on (vitest.config.ts sets TEST_DB per project). */
export function testEngine(): Engine {
  const engine = process.env.TEST_DB ?? "sqlite";
  if (engine !== "sqlite" && engine !== "postgresql")
    throw new Error(`TEST_DB must be sqlite or postgresql, not ${engine}`);
  return engine;
}

export function adminPostgresUrl(): string {
  const url = process.env.TEST_PG_URL;
  if (!url)
    throw new Error("TEST_PG_URL is not set: run the suite with `npm test`, which starts a throwaway PostgreSQL");
  return url;
}

export interface TestDatabase {
  config: DatabaseConfig;
  /** DATABASE_URL for a server process, or undefined for SQLite under its DATA_DIR. */
  url?: string;
  dataDir: string;
  drop(): Promise<void>;
}

/** A fresh, empty database of the project's engine, with its own data directory. */
export async function freshDatabase(engine: Engine = testEngine()): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), "ramp-gateway-test-"));
  if (engine === "sqlite") {
    return {
      config: { engine, file: join(dataDir, "ramp-gateway.db") },
      dataDir,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminPostgresUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminPostgresUrl());
  url.pathname = `/${name}`;
  return {
    config: { engine, url: url.toString() },
    url: url.toString(),
    dataDir,
    drop: async () => {
      const client = new pg.Client({ connectionString: adminPostgresUrl() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An open test database with the configuration it was opened with (a SQLite file's path, say). */
export type OpenTestDatabase = Database & { config: DatabaseConfig };

/**
 * A fresh, migrated database of `engine`, opened before the tests around the call and closed and dropped after
 * them (call it in a describe block or at a file's top). The returned function answers the open database.
 */
export function openDatabaseForTests(engine: Engine = testEngine()): () => OpenTestDatabase {
  let database: TestDatabase | undefined;
  let opened: OpenTestDatabase | undefined;
  beforeAll(async () => {
    database = await freshDatabase(engine);
    await migrate(database.config);
    opened = { ...(await openDatabase(database.config)), config: database.config };
  });
  afterAll(async () => {
    await opened?.close();
    await database?.drop();
  });
  return () => opened!;
}
