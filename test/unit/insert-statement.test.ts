import { describe, expect, it } from "vitest";
import { insertRows } from "../../src/db/query.js";

const textAndParameters = ({ sql, parameters }: { sql: string; parameters: readonly unknown[] }) => [sql, parameters];

describe("insertRows", () => {
  it("names the first row's columns and numbers the placeholders across rows", () => {
    const at = new Date("2026-11-29T12:00:00.000Z");
    expect(
      textAndParameters(
        insertRows("Profile", [
          { id: "a", updatedAt: at },
          { id: "b", updatedAt: at },
        ]),
      ),
    ).toEqual(['insert into "Profile" ("id", "updatedAt") values ($1, $2), ($3, $4)', ["a", at, "b", at]]);
  });

  // The text is kept per table, columns and row count: each of them must lead to its own.
  it("gives each table, column list and row count its own text", () => {
    const at = new Date(0);
    const texts = [
      insertRows("Profile", { id: "a", updatedAt: at }).sql,
      insertRows("SessionFamily", { id: "a", profileId: "p" }).sql,
      insertRows("Profile", { updatedAt: at, id: "a" }).sql,
      insertRows("Profile", { id: "a", updatedAt: at, email: null }).sql,
      insertRows("Profile", [
        { id: "a", updatedAt: at },
        { id: "b", updatedAt: at },
      ]).sql,
    ];
    expect(new Set(texts).size).toBe(texts.length);
    expect(textAndParameters(insertRows("Profile", { id: "c", updatedAt: at }))).toEqual([texts[0], ["c", at]]);
  });
});
