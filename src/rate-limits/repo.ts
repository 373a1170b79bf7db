import { sql, type InferResult } from "kysely";
import type { Db } from "../db/client.js";
import { query } from "../db/query.js";
import { deleteBatch, type Writes } from "../db/statements.js";
import type { SharedWindowCounts } from "./limiter.js";

/** The instances' rate-limit counts in the `RateLimitWindow` table (PostgreSQL: SQLite runs one instance). */
export function postgresWindowCounts(db: Db, writes: Writes): SharedWindowCounts {
  return {
    async add(counts) {
      // In one order on every instance, so two flushes that lock the same rows never wait on each other in a cycle.
      const sorted = [...counts].sort(
        (a, b) => a.windowStart.getTime() - b.windowStart.getTime() || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
      );
      const adding = query
        .insertInto("RateLimitWindow")
        .columns(["key", "windowStart", "count"])
        // One text whatever the number of windows: the columns' values as arrays, unnested into rows.
        .expression(
          sql`SELECT * FROM unnest(
            CAST(${sorted.map(({ key }) => key)} AS text[]),
            CAST(${sorted.map(({ windowStart }) => windowStart.toISOString())} AS timestamptz[]),
            CAST(${sorted.map(({ count }) => count)} AS int[]))`,
        )
        .onConflict((conflict) =>
          conflict
            .columns(["key", "windowStart"])
            .doUpdateSet((window) => ({ count: window("RateLimitWindow.count", "+", window.ref("excluded.count")) })),
        )
        .returning(["key", "windowStart", "count"])
        .compile();
      // On the ORM's connection, as before: the prepared writes give back no rows.
      return db.$queryRawUnsafe<InferResult<typeof adding>>(adding.sql, ...adding.parameters);
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
