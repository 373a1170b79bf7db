import { randomUUID } from "node:crypto";
import { rawSql } from "../support/raw-sql.js";
import { insertRows } from "../../src/db/query.js";
import { describe, expect, it } from "vitest";
import { openDatabaseForTests } from "../support/database.js";

/* Transactions on prepared statements (Writes.transaction) where PostgreSQL can make them lose a race. */

const database = openDatabaseForTests("postgresql");

describe("prepared-statement transactions on PostgreSQL", () => {
  it("the one a deadlock aborts runs again, so both land", async () => {
    const opened = database();
    const [a, b] = [randomUUID(), randomUUID()];
    for (const id of [a, b])
      await opened.writes.run(insertRows("Profile", { id, email: `${id}@deadlock.test`, updatedAt: new Date() }));
    const setEmail = `UPDATE "Profile" SET "email" = $1 WHERE "id" = $2`;
    // Each first attempt locks one row, waits until the other has locked the other row, then wants it too.
    let locked = 0;
    let bothLockedNow!: () => void;
    const bothLocked = new Promise<void>((resolve) => (bothLockedNow = resolve));
    const attempts = { first: 0, second: 0 };
    const crosswise = (name: "first" | "second", [one, other]: string[]) =>
      opened.writes.transaction(async (tx) => {
        const attempt = ++attempts[name];
        await tx.run(rawSql(setEmail, [`${one}@${name}.test`, one]));
        if (attempt === 1) {
          if (++locked === 2) bothLockedNow();
          await bothLocked;
        }
        await tx.run(rawSql(setEmail, [`${other}@${name}.test`, other]));
      });
    await Promise.all([crosswise("first", [a, b]), crosswise("second", [b, a])]);
    expect(attempts.first + attempts.second).toBe(3);
    const rows = await opened.reads.all(
      rawSql<{ id: string; email: string }>(`SELECT "id", "email" FROM "Profile" WHERE "id" IN ($1, $2)`, [a, b]),
    );
    // Whichever ran again ran whole, after the other: both rows carry its name.
    const again = attempts.first === 2 ? "first" : "second";
    expect(Object.fromEntries(rows.map((row) => [row.id, row.email]))).toEqual({
      [a]: `${a}@${again}.test`,
      [b]: `${b}@${again}.test`,
    });
  });
});
