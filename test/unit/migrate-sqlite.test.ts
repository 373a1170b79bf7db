import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { migrateFrom, migrationsDirectory } from "../../src/db/migrate.js";

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

/** The project's SQLite migrations up to and including `through`, copied into the test's directory. */
function projectMigrations(directory: string, through: string) {
  for (const name of readdirSync(migrationsDirectory("sqlite")).filter((entry) => /^\d{14}_/.test(entry)))
    if (name <= through) cpSync(join(migrationsDirectory("sqlite"), name), join(directory, name), { recursive: true });
}

describe("the migration that registers fiat accounts at the partner", () => {
  const ADDING = "20261207130000_fiat_account_partner_ids";

  // Such accounts exist only here: no partner payout can name them, so none may stay usable.
  it("retires the accounts from before (deleted now, in the ORM's date format), leaving deleted ones as they were", async () => {
    const { config, directory, open } = setUp({});
    projectMigrations(directory, "20261207120000_kyc_partner_attempts");
    await migrateFrom(config, directory);
    const db = open();
    try {
      const insert = db.prepare(
        `INSERT INTO "FiatAccount" ("id", "profileId", "actorProfileId", "country", "type", "details", "createdAt", "deletedAt")
         VALUES (?, 'p', 'p', 'MX', 'SPEI', '{}', '2026-01-01T00:00:00.000+00:00', ?)`,
      );
      insert.run("usable", null);
      insert.run("deleted", "2026-02-01T00:00:00.000+00:00");
      projectMigrations(directory, ADDING);
      const before = Date.now();
      expect(await migrateFrom(config, directory)).toEqual([ADDING]);
      const rows = db
        .prepare(`SELECT "id", "deletedAt", "partnerAccountId" FROM "FiatAccount" ORDER BY "id"`)
        .all() as {
        id: string;
        deletedAt: string;
        partnerAccountId: string | null;
      }[];
      expect(rows.map(({ id, partnerAccountId }) => [id, partnerAccountId])).toEqual([
        ["deleted", null],
        ["usable", null],
      ]);
      expect(rows[0]!.deletedAt).toBe("2026-02-01T00:00:00.000+00:00");
      expect(rows[1]!.deletedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
      expect(Date.parse(rows[1]!.deletedAt)).toBeGreaterThanOrEqual(before - 1000);
    } finally {
      db.close();
    }
  });
});

describe("the migration that keeps only attempts' request headers", () => {
  const DROPPING = "20261208000803_webhook_attempt_headers_only";

  // The table is rebuilt without the body columns: the headers logged before must come across.
  it("keeps every attempt and its headers, and drops the body the event already holds", async () => {
    const { config, directory, open } = setUp({});
    projectMigrations(directory, "20261207224427_webhook_test_events");
    await migrateFrom(config, directory);
    const db = open();
    try {
      const at = "2026-12-07T00:00:00.000+00:00";
      db.prepare(`INSERT INTO "RampEvent" ("eventId", "eventType", "body") VALUES ('e1', 'WEBHOOK_TEST', '{}')`).run();
      db.prepare(
        `INSERT INTO "WebhookSubscription" ("id", "ownerProfileId", "credentialId", "url", "events", "updatedAt")
         VALUES ('s1', 'p', 'c', 'https://example.com', 'STATUS_CHANGE', ?)`,
      ).run(at);
      db.prepare(
        `INSERT INTO "WebhookDelivery" ("id", "subscriptionId", "eventId", "status", "updatedAt")
         VALUES ('d1', 's1', 'e1', 'delivered', ?)`,
      ).run(at);
      const insert = db.prepare(
        `INSERT INTO "WebhookDeliveryAttempt" ("id", "deliveryId", "startedAt", "durationMs", "statusCode", "requestHeaders", "requestBody")
         VALUES (?, 'd1', ?, 5, 204, ?, ?)`,
      );
      insert.run("a1", at, '{"x-service-timestamp":"1"}', "{}");
      insert.run("a2", at, null, null);
      projectMigrations(directory, DROPPING);
      expect(await migrateFrom(config, directory)).toEqual([DROPPING]);
      expect(db.prepare(`SELECT * FROM "WebhookDeliveryAttempt" ORDER BY "id"`).all()).toEqual([
        {
          id: "a1",
          deliveryId: "d1",
          startedAt: at,
          durationMs: 5,
          statusCode: 204,
          error: null,
          requestHeaders: '{"x-service-timestamp":"1"}',
        },
        {
          id: "a2",
          deliveryId: "d1",
          startedAt: at,
          durationMs: 5,
          statusCode: 204,
          error: null,
          requestHeaders: null,
        },
      ]);
    } finally {
      db.close();
    }
  });
});
