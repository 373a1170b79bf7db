import { Kind } from "graphql";
import { describe, expect, it } from "vitest";
import { DateTimeScalar } from "../../src/graphql/types/scalars.js";

describe("the DateTime scalar", () => {
  it("writes an instant as REST does: UTC with milliseconds", () => {
    const instant = new Date("2026-11-25T07:15:30.120-03:00");
    expect(DateTimeScalar.serialize(instant)).toBe("2026-11-25T10:15:30.120Z");
    expect(DateTimeScalar.serialize("2026-11-25T10:15:30Z")).toBe("2026-11-25T10:15:30.000Z");
  });

  it("reads RFC 3339 date-times with a zone, from variables and from literals", () => {
    expect(DateTimeScalar.parseValue("2026-11-25T10:15:30+01:00")).toEqual(new Date("2026-11-25T09:15:30Z"));
    expect(DateTimeScalar.parseLiteral({ kind: Kind.STRING, value: "2026-11-25T10:15:30.5Z" })).toEqual(
      new Date("2026-11-25T10:15:30.500Z"),
    );
  });

  it.each([
    ["a date alone", "2026-11-25"],
    ["no zone", "2026-11-25T10:15:30"],
    ["an impossible day", "2026-02-30T10:15:30Z"],
    ["a number", 1764065730000],
    ["words", "tomorrow"],
  ])("refuses %s, naming the form it wants", (_, value) => {
    expect(() => DateTimeScalar.parseValue(value)).toThrow(/RFC 3339 date-time with a zone/);
  });

  it("refuses a literal that is not a string", () => {
    expect(() => DateTimeScalar.parseLiteral({ kind: Kind.INT, value: "1764065730000" })).toThrow(/RFC 3339/);
  });
});
