import { describe, expect, it, vi } from "vitest";
import { prepared, query } from "../../src/db/query.js";

describe("prepared statements", () => {
  it("are built and compiled once, and bind each call's values where the placeholders stood", () => {
    const build = vi.fn((quote: { id: string; now: Date }) =>
      query
        .updateTable("Quote")
        .set("consumedAt", quote.now)
        .where("id", "=", quote.id)
        .where("consumedAt", "is", null)
        .where("expiresAt", ">", quote.now),
    );
    const consume = prepared(build);
    const [first, second] = [new Date(1), new Date(2)];
    const once = consume({ id: "a", now: first });
    const again = consume({ id: "b", now: second });
    expect(build).toHaveBeenCalledTimes(1);
    expect(again.sql).toBe(once.sql);
    expect(once.sql).toBe(
      'update "Quote" set "consumedAt" = $1 where "id" = $2 and "consumedAt" is null and "expiresAt" > $3',
    );
    expect([once.parameters, again.parameters]).toEqual([
      [first, "a", first],
      [second, "b", second],
    ]);
  });

  it("keep the constants the statement was built with beside the bound values", () => {
    const find = prepared((ramp: { id: string }) =>
      query.selectFrom("Ramp").select("id").where("id", "=", ramp.id).where("retries", "<", 3),
    );
    expect(find({ id: "x" }).parameters).toEqual(["x", 3]);
  });
});
