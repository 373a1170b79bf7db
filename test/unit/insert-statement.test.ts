import { describe, expect, it } from "vitest";
import { insert } from "../../src/db/statements.js";

describe("insert", () => {
  it("names the first row's columns and numbers the placeholders across rows", () => {
    const at = new Date("2026-11-29T12:00:00.000Z");
    expect(
      insert("Quote", [
        { id: "a", createdAt: at },
        { id: "b", createdAt: at },
      ]),
    ).toEqual(['INSERT INTO "Quote" ("id", "createdAt") VALUES ($1, $2), ($3, $4)', ["a", at, "b", at]]);
  });

  // The text is kept per table, columns and row count: each of them must lead to its own.
  it("gives each table, column list and row count its own text", () => {
    const texts = [
      insert("Quote", { id: "a", rampType: "BUY" })[0],
      insert("Ramp", { id: "a", rampType: "BUY" })[0],
      insert("Quote", { rampType: "BUY", id: "a" })[0],
      insert("Quote", { id: "a" })[0],
      insert("Quote", [
        { id: "a", rampType: "BUY" },
        { id: "b", rampType: "SELL" },
      ])[0],
    ];
    expect(new Set(texts).size).toBe(texts.length);
    expect(insert("Quote", { id: "c", rampType: "SELL" })).toEqual([texts[0], ["c", "SELL"]]);
  });
});
