import type { Db } from "../db/client.js";
import { deleteBatch, type Writes } from "../db/statements.js";
import type { SharedWindowCounts, WindowCount } from "./limiter.js";

/** The instances' rate-limit counts in the `RateLimitWindow` table (PostgreSQL: SQLite runs one instance). */
export function postgresWindowCounts(db: Db, writes: Writes): SharedWindowCounts {
  return {
    async add(counts) {
      // In one order on every instance, so two flushes that lock the same rows never wait on each other in a cycle.
      const sorted = [...counts].sort(
        (a, b) => a.windowStart.getTime() - b.windowStart.getTime() || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
      );
      return db.$queryRaw<WindowCount[]>`
        INSERT INTO "RateLimitWindow" ("key", "windowStart", "count")
        SELECT * FROM unnest(
          ${sorted.map(({ key }) => key)}::text[],
          ${sorted.map(({ windowStart }) => windowStart.toISOString())}::timestamptz[],
          ${sorted.map(({ count }) => count)}::int[])
        ON CONFLICT ("key", "windowStart") DO UPDATE SET "count" = "RateLimitWindow"."count" + EXCLUDED."count"
        RETURNING "key", "windowStart", "count"`;
    },
    pruneStartedBefore: (before, limit) =>
      deleteBatch(writes, {
        table: "RateLimitWindow",
        key: "key",
        where: (row) => row("windowStart", "<", before),
        limit,
      }),
  };
}
