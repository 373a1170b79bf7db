import { randomUUID } from "node:crypto";
import { rawSql } from "../support/raw-sql.js";
import { insertRows } from "../../src/db/query.js";
import Database from "better-sqlite3";
import { cpSync, existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { migrate, migrationsDirectory } from "../../src/db/migrate.js";
import { WAL_RESET_BYTES } from "../../src/db/sqlite-checkpointer.js";
import { inTransaction } from "../../src/db/tx.js";
import { adminPostgresUrl, freshDatabase, openDatabaseForTests, testEngine } from "../support/database.js";
import { sleep, waitFor } from "../support/kit.js";
// @ts-expect-error: a dev-only JavaScript tool without typings
import { diffMigrationsToSchema } from "../../tools/schema-engine.mjs";

const database = openDatabaseForTests();

describe(`migrations (${testEngine()})`, () => {
  it("are recorded in _prisma_migrations and applied once", async () => {
    expect(await migrate(database().config)).toEqual([]);
    const rows = await database().db.$queryRawUnsafe<{ migration_name: string; finished_at: unknown }[]>(
      'SELECT migration_name, finished_at FROM "_prisma_migrations"',
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.finished_at !== null)).toBe(true);
  });

  it("produce exactly the Prisma schema of this engine (no drift)", async () => {
    const sql = await diffMigrationsToSchema({
      engine: testEngine(),
      ...(testEngine() === "postgresql" && { shadowUrl: adminPostgresUrl() }),
    });
    expect(sql.trim()).toBe("");
  });

  it("refuse to run when an applied migration was edited", async () => {
    const fresh = await freshDatabase();
    try {
      await migrate(fresh.config);
      // Point the runner at a copy of the migrations whose first file differs.
      const copy = mkdtempSync(join(tmpdir(), "migrations-"));
      cpSync(migrationsDirectory(fresh.config.engine), copy, { recursive: true });
      const { readdirSync } = await import("node:fs");
      const first = readdirSync(copy, { withFileTypes: true }).find((entry) => entry.isDirectory())!.name;
      writeFileSync(join(copy, first, "migration.sql"), "-- edited\n");
      const { migrateFrom } = await import("../../src/db/migrate.js");
      await expect(migrateFrom(fresh.config, copy)).rejects.toThrow(/edited after it was applied/);
    } finally {
      await fresh.drop();
    }
  });
});

describe(`transactions (${testEngine()})`, () => {
  it("a write outside a transaction that rolls back is kept (it is not swallowed by the open transaction)", async () => {
    const outsider = randomUUID();
    let releaseTransaction!: () => void;
    const held = new Promise<void>((resolve) => (releaseTransaction = resolve));
    const failing = inTransaction(database().db, async (tx) => {
      await tx.profile.create({ data: { id: randomUUID(), email: `${randomUUID()}@rollback.test` } });
      await held;
      throw new Error("roll back");
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Prisma queries are lazy: `then` sends this one while the transaction is still open.
    const standalone = database()
      .db.profile.create({ data: { id: outsider, email: `${outsider}@kept.test` } })
      .then((row) => row);
    await new Promise((resolve) => setTimeout(resolve, 50));
    releaseTransaction();
    await expect(failing).rejects.toThrow("roll back");
    await standalone;
    expect(await database().db.profile.findUnique({ where: { id: outsider } })).not.toBeNull();
    expect(await database().db.profile.count({ where: { email: { endsWith: "@rollback.test" } } })).toBe(0);
  });
});

describe(`prepared writes (${testEngine()})`, () => {
  it("writes asked for together all land, and one that fails fails alone", async () => {
    const [first, second] = [randomUUID(), randomUUID()];
    const profile = (id: string, email: string) => insertRows("Profile", { id, email, updatedAt: new Date() });
    // Two writes of one id (the primary key refuses whichever comes second: SQLite runs them in order,
    // PostgreSQL on pooled connections in either order) beside an unrelated one.
    const outcomes = await Promise.allSettled([
      database().writes.run(profile(first, `${first}@batch.test`)),
      database().writes.run(profile(first, `${first}@other.test`)),
      database().writes.run(profile(second, `${second}@batch.test`)),
    ]);
    const [one, other, unrelated] = outcomes.map((outcome) => outcome.status);
    expect([one, other].sort()).toEqual(["fulfilled", "rejected"]);
    expect(unrelated).toBe("fulfilled");
    const winner = one === "fulfilled" ? `${first}@batch.test` : `${first}@other.test`;
    const stored = await database().db.profile.findMany({ where: { id: { in: [first, second] } } });
    expect(stored.map((row) => row.email).sort()).toEqual([winner, `${second}@batch.test`].sort());
  });

  it("a transaction's statements land together when it resolves, and none of them when it throws", async () => {
    const [kept, rolledBack] = [randomUUID(), randomUUID()];
    const profile = (id: string) => insertRows("Profile", { id, email: `${id}@tx.test`, updatedAt: new Date() });
    const seen = await database().writes.transaction(async (tx) => {
      await tx.run(profile(kept));
      await tx.run(rawSql(`UPDATE "Profile" SET "email" = $1 WHERE "id" = $2`, [`${kept}@changed.test`, kept]));
      // Its own reads see its writes.
      return tx.one(rawSql<{ email: string }>(`SELECT "email" FROM "Profile" WHERE "id" = $1`, [kept]));
    });
    expect(seen).toEqual({ email: `${kept}@changed.test` });
    await expect(
      database().writes.transaction(async (tx) => {
        await tx.run(profile(rolledBack));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const stored = await database().db.profile.findMany({ where: { id: { in: [kept, rolledBack] } } });
    expect(stored.map((row) => row.email)).toEqual([`${kept}@changed.test`]);
  });

  it("a transaction's reads give whole numbers as numbers, as reads outside one do", async () => {
    // On SQLite a transaction reads on the ORM's connection, which gives BigInts unless told otherwise.
    const sql = rawSql(`SELECT 2 + 3 AS "sum"`);
    expect(await database().reads.one(sql)).toEqual({ sum: 5 });
    expect(await database().writes.transaction((tx) => tx.one(sql))).toEqual({ sum: 5 });
  });
});

describe("the SQLite writing connection", () => {
  // The same whatever the project's engine: checked on a SQLite database of its own.
  const sqlite = openDatabaseForTests("sqlite");

  const newProfile = (id: string) => insertRows("Profile", { id, email: `${id}@writer.test`, updatedAt: new Date() });
  /**
   * A transaction that writes a profile (`wrote` resolves then), then waits until told to end; told to fail,
   * it rolls back.
   */
  const heldTransaction = (id: string) => {
    let end!: (outcome: "commit" | "fail") => void;
    const told = new Promise<"commit" | "fail">((resolve) => (end = resolve));
    let signalWrote!: () => void;
    const wrote = new Promise<void>((resolve) => (signalWrote = resolve));
    const done = inTransaction(sqlite().db, async (tx) => {
      await tx.profile.create({ data: { id, email: `${id}@writer.test` } });
      signalWrote();
      if ((await told) === "fail") throw new Error("roll back");
    });
    return { wrote, end, done };
  };
  const stored = async (id: string) => (await sqlite().db.profile.findUnique({ where: { id } })) !== null;

  it("is granted in the order asked for: a prepared write waits for the transactions asked for before it only", async () => {
    const [first, written] = [randomUUID(), randomUUID()];
    const open = heldTransaction(first);
    await open.wrote;
    const write = sqlite().writes.run(newProfile(written));
    // Prepared writes asked for in one turn of the event loop queue for the connection together, at its end.
    await new Promise((resolve) => setImmediate(resolve));
    // Asked for after the write while the first transaction still holds the connection: it sees the write.
    const later = inTransaction(sqlite().db, (tx) => tx.profile.findUnique({ where: { id: written } }));
    open.end("commit");
    await Promise.all([open.done, write]);
    expect(await later).not.toBeNull();
  });

  it("a transaction queued behind another keeps its work atomic while prepared writes wait for it", async () => {
    for (let round = 0; round < 20; round++) {
      const [first, rolledBack, written] = [randomUUID(), randomUUID(), randomUUID()];
      const open = heldTransaction(first);
      await open.wrote;
      // Queued while the first is open: it writes, then fails; the prepared write is asked for after it.
      const failing = heldTransaction(rolledBack);
      const write = sqlite().writes.run(newProfile(written));
      failing.end("fail");
      open.end("commit");
      await open.done;
      await expect(failing.done).rejects.toThrow("roll back");
      await write;
      expect([await stored(first), await stored(rolledBack), await stored(written)]).toEqual([true, false, true]);
    }
  });
});

describe("SQLite checkpoints", () => {
  // The same whatever the project's engine: checked on a SQLite database of its own.
  const sqlite = openDatabaseForTests("sqlite");

  it("run on their own thread: commits never copy the log into the database file, and the log is copied within seconds", async () => {
    const { db: sqliteDb, writes, config } = sqlite();
    const file = config.engine === "sqlite" ? config.file : "";
    expect(await sqliteDb.$queryRawUnsafe("PRAGMA wal_autocheckpoint")).toEqual([{ wal_autocheckpoint: 0n }]);
    await writes.run(rawSql('CREATE TABLE "Scratch" ("value" TEXT NOT NULL)'));
    const before = statSync(file).size;
    // About 2,000 pages of 4 KiB: past the 1,000 at which a commit would checkpoint by itself.
    await Promise.all(
      Array.from({ length: 2_000 }, () =>
        writes.run(rawSql('INSERT INTO "Scratch" ("value") VALUES ($1)', ["x".repeat(4_000)])),
      ),
    );
    await waitFor(
      async () => statSync(file).size,
      (size) => size >= before + 2_000 * 4_000,
      "the log copied into the database file",
      5_000,
    );
  });

  const logBytes = () => {
    const { config } = sqlite();
    const log = `${config.engine === "sqlite" ? config.file : ""}-wal`;
    return existsSync(log) ? statSync(log).size : 0;
  };
  /** Commits fifty rows of a page each. */
  const writeRows = (table: string) =>
    Promise.all(
      Array.from({ length: 50 }, () =>
        sqlite().writes.run(rawSql(`INSERT INTO "${table}" ("value") VALUES ($1)`, ["x".repeat(4_000)])),
      ),
    );

  it("keep the log file under four times its reset size while writes and reads go on without a pause", async () => {
    const { writes, reads } = sqlite();
    await writes.run(rawSql('CREATE TABLE "Steady" ("value" TEXT NOT NULL)'));
    let largest = 0;
    const watch = () => (largest = Math.max(largest, logBytes()));
    let writing = true;
    const reading = (async () => {
      while (writing) {
        await reads.one(rawSql('SELECT "value" FROM "Steady" ORDER BY rowid DESC LIMIT 1'));
        watch();
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    // 32 MB of log a second, twice what the soak's traffic writes (bench/soak.mjs), for four seconds: without
    // resets the log would hold all of it, as a PASSIVE checkpoint never catches up with steady writes.
    const bytesPerMs = (2 * WAL_RESET_BYTES) / 1_000;
    const started = performance.now();
    for (let written = 0; written < 8 * WAL_RESET_BYTES; written += 50 * 4_096) {
      await writeRows("Steady");
      watch();
      await sleep(started + written / bytesPerMs - performance.now());
    }
    writing = false;
    await reading;
    expect(largest).toBeGreaterThanOrEqual(WAL_RESET_BYTES);
    expect(largest).toBeLessThan(4 * WAL_RESET_BYTES);
  });

  it("start over a log written to its reset size, though the writes never pause", async () => {
    const { db } = sqlite();
    await sqlite().writes.run(rawSql('CREATE TABLE "Burst" ("value" TEXT NOT NULL)'));
    const [{ page_size: pageBytes }] = await db.$queryRawUnsafe<{ page_size: bigint }[]>("PRAGMA page_size");
    const bytesInLog = async () =>
      Number((await db.$queryRawUnsafe<{ log: bigint }[]>("PRAGMA wal_checkpoint(NOOP)"))[0]!.log * pageBytes!);
    while ((await bytesInLog()) < WAL_RESET_BYTES) await writeRows("Burst");
    // The next write after the reset starts the log over (SQLite's RESTART).
    const deadline = Date.now() + 5_000;
    while ((await bytesInLog()) >= 1024 * 1024) {
      expect(Date.now(), "the log started over").toBeLessThan(deadline);
      await writeRows("Burst");
    }
  });

  it("empty a log file that grew past twice the reset size while a reader held the log", async () => {
    const { config } = sqlite();
    await sqlite().writes.run(rawSql('CREATE TABLE "Held" ("value" TEXT NOT NULL)'));
    // A reader of another process, say, in the middle of a read: the log cannot start over meanwhile.
    const reader = new Database(config.engine === "sqlite" ? config.file : "", { readonly: true });
    reader.exec("BEGIN");
    reader.prepare('SELECT count(*) FROM "Held"').get();
    try {
      while (logBytes() <= 2 * WAL_RESET_BYTES) await writeRows("Held");
    } finally {
      reader.exec("COMMIT");
      reader.close();
    }
    await waitFor(
      async () => logBytes(),
      (size) => size === 0,
      "the log file emptied",
      5_000,
    );
  });
});
