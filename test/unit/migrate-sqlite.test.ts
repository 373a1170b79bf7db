import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { migrateFrom } from "../../src/db/migrate.js";

/*
 * The SQLite migration runner and a migration that rebuilds a table others refer to, as Prisma writes one
 * (SQLite alters a table by copying it): foreign keys are off while it runs and checked before it commits.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A database file and a migrations directory holding `migrations` (name -> SQL), in order. */
function setUp(migrations: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "migrate-sqlite-"));
  dirs.push(dir);
  for (const [name, sql] of Object.entries(migrations)) {
    mkdirSync(join(dir, "migrations", name), { recursive: true });
    writeFileSync(join(dir, "migrations", name, "migration.sql"), sql);
  }
  return {
    config: { engine: "sqlite" as const, file: join(dir, "test.db") },
    directory: join(dir, "migrations"),
    open: () => new Database(join(dir, "test.db")),
  };
}

const PARENT_AND_CHILD = `
CREATE TABLE "Account" ("id" TEXT NOT NULL PRIMARY KEY);
CREATE TABLE "Ramp" ("id" TEXT NOT NULL PRIMARY KEY, "accountId" TEXT);
CREATE TABLE "Event" ("id" TEXT NOT NULL PRIMARY KEY, "rampId" TEXT NOT NULL REFERENCES "Ramp" ("id") ON DELETE CASCADE);
INSERT INTO "Account" VALUES ('a1');
INSERT INTO "Ramp" VALUES ('r1', 'a1'), ('r2', NULL);
INSERT INTO "Event" VALUES ('e1', 'r1'), ('e2', 'r2');
`;

/** Adds a foreign key to "Ramp" the only way SQLite can: a new table, the rows copied, the old one dropped. */
const REBUILD_RAMP = `
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Ramp" ("id" TEXT NOT NULL PRIMARY KEY, "accountId" TEXT REFERENCES "Account" ("id"));
INSERT INTO "new_Ramp" ("id", "accountId") SELECT "id", "accountId" FROM "Ramp";
DROP TABLE "Ramp";
ALTER TABLE "new_Ramp" RENAME TO "Ramp";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
`;

describe("SQLite migrations that rebuild a table", () => {
  // With foreign keys on, dropping the old table would first delete its rows, and with them, by cascade, its referrers'.
  it("apply with the rows kept, the table's referrers intact, and foreign keys enforced again after", async () => {
    const { config, directory, open } = setUp({ "1_tables": PARENT_AND_CHILD, "2_rebuild": REBUILD_RAMP });
    expect(await migrateFrom(config, directory)).toEqual(["1_tables", "2_rebuild"]);
    const db = open();
    try {
      expect(db.prepare('SELECT "id", "accountId" FROM "Ramp" ORDER BY "id"').all()).toEqual([
        { id: "r1", accountId: "a1" },
        { id: "r2", accountId: null },
      ]);
      expect(db.prepare('SELECT count(*) AS n FROM "Event"').get()).toEqual({ n: 2 });
      expect(db.pragma("foreign_key_check")).toEqual([]);
      // The new foreign key holds.
      expect(() => db.prepare(`INSERT INTO "Ramp" VALUES ('r3', 'missing')`).run()).toThrow(/FOREIGN KEY/);
    } finally {
      db.close();
    }
  });

  it("refuse one that leaves rows referring to missing rows, applying nothing of it", async () => {
    const orphaned = `${PARENT_AND_CHILD}\nINSERT INTO "Ramp" VALUES ('r9', 'no-such-account');`;
    const { config, directory, open } = setUp({ "1_tables": orphaned, "2_rebuild": REBUILD_RAMP });
    await expect(migrateFrom(config, directory)).rejects.toThrow(
      /Migration 2_rebuild leaves 1 row\(s\) referring to missing rows \(first: Ramp -> Account\)/,
    );
    const db = open();
    try {
      // The first migration stands; the rebuild was rolled back whole (the table has no foreign key).
      const applied = db.prepare('SELECT "migration_name" FROM "_prisma_migrations"').all();
      expect(applied).toEqual([{ migration_name: "1_tables" }]);
      expect(db.prepare(`SELECT count(*) AS n FROM pragma_foreign_key_list('Ramp')`).get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
