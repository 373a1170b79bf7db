import { Kind } from "graphql";
import { describe, expect, it } from "vitest";
import { DateTimeScalar, DecimalScalar } from "../../src/graphql/types/scalars.js";

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

describe("the Decimal scalar", () => {
  it("writes an amount as the string REST writes, digit for digit", () => {
    expect(DecimalScalar.serialize("100.50")).toBe("100.50");
    expect(DecimalScalar.serialize("0.000001234567890123456789")).toBe("0.000001234567890123456789");
    expect(DecimalScalar.serialize("123456789012345678901234567890.12")).toBe("123456789012345678901234567890.12");
  });

  it("writes a whole-unit bound counted in integers as its digits", () => {
    expect(DecimalScalar.serialize(50000)).toBe("50000");
  });

  it("never writes a JS number, nor text that is not a decimal", () => {
    expect(() => DecimalScalar.serialize(100.5)).toThrow(/Decimal cannot represent number/);
    expect(() => DecimalScalar.serialize(2 ** 53)).toThrow(/Decimal cannot represent number/);
    expect(() => DecimalScalar.serialize("1e5")).toThrow(/Decimal cannot represent "1e5"/);
  });

  it("reads plain decimal strings, from variables and from literals, unchanged", () => {
    expect(DecimalScalar.parseValue("100")).toBe("100");
    expect(DecimalScalar.parseValue("0.1")).toBe("0.1");
    expect(DecimalScalar.parseLiteral({ kind: Kind.STRING, value: "99999999999999999999.000000000000000001" })).toBe(
      "99999999999999999999.000000000000000001",
    );
  });

  it.each([
    ["a JSON number", 100.5],
    ["an exponent", "1e5"],
    ["a sign", "-1"],
    ["a plus sign", "+1"],
    ["grouping", "1,000.00"],
    ["a bare point", "1."],
    ["a leading zero", "007"],
    ["spaces", " 100 "],
    ["an empty string", ""],
    ["31 integer digits", "1".repeat(31)],
    ["null", null],
  ])("refuses %s, naming the form it wants", (_, value) => {
    expect(() => DecimalScalar.parseValue(value)).toThrow(/Decimal must be a string in plain decimal notation/);
  });

  it("refuses a numeric literal: amounts are quoted", () => {
    expect(() => DecimalScalar.parseLiteral({ kind: Kind.FLOAT, value: "100.5" })).toThrow(/plain decimal notation/);
    expect(() => DecimalScalar.parseLiteral({ kind: Kind.INT, value: "100" })).toThrow(/plain decimal notation/);
  });
});
