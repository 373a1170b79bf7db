import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.js";
import { waitFor } from "../support/kit.js";

/*
 * Retention with two instances on one PostgreSQL database (issue 13): a pass runs on one instance at a
 * time; an instance that finds another's pass running skips its own.
 */

const expired = new Date(Date.now() - 30 * 24 * 3_600_000);
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await startTestApp();
  second = await startTestApp({}, { database: first.database });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

async function expiredSignInCodes(count: number): Promise<string[]> {
  const emails = Array.from({ length: count }, () => `${randomUUID()}@example.com`);
  await first.app.db.otpChallenge.createMany({
    data: emails.map((email) => ({ email, codeHash: "0".repeat(64), sentAt: expired, expiresAt: expired })),
  });
  return emails;
}

describe("two instances on one PostgreSQL database", () => {
  it("while one runs a pass, the other skips its own; the first prunes everything", async () => {
    const emails = await expiredSignInCodes(5);
    // Holds one of the rows, so the first instance's pass waits inside its run until the test lets it go; the
    // observer sees it wait (activity read inside the holder's transaction would stay as first read).
    const holder = new pg.Client({ connectionString: first.database.url });
    const observer = new pg.Client({ connectionString: first.database.url });
    await Promise.all([holder.connect(), observer.connect()]);
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM "OtpChallenge" WHERE "email" = $1 FOR UPDATE`, [emails[0]]);
      const running = first.app.retention.runOnce();
      await waitFor(
        async () =>
          (
            await observer.query(
              `SELECT count(*)::int AS "waiting" FROM pg_stat_activity
              WHERE "datname" = current_database() AND "wait_event_type" = 'Lock' AND "query" LIKE 'DELETE FROM "OtpChallenge"%'`,
            )
          ).rows[0].waiting,
        (waiting) => waiting === 1,
        "the first instance's pass to wait for the held row",
      );

      expect(await second.app.retention.runOnce()).toBeNull();

      await holder.query("COMMIT");
      expect(await running).toMatchObject({ signInCodes: 5 });
    } finally {
      await Promise.all([holder.end(), observer.end()]);
    }
    expect(await first.app.db.otpChallenge.count({ where: { email: { in: emails } } })).toBe(0);
  });

  it("once a pass has ended, the other instance runs the next one", async () => {
    await expiredSignInCodes(2);
    expect(await second.app.retention.runOnce()).toMatchObject({ signInCodes: 2 });
    expect(await first.app.retention.runOnce()).toMatchObject({ signInCodes: 0 });
  });
});
