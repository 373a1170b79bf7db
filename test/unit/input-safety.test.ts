import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../../src/errors.js";
import { MAX_INPUT_DEPTH, parseInput } from "../../src/validation.js";

/** Values nested `depth` deep, built without recursion. */
function nested(depth: number, kind: "array" | "object"): unknown {
  let value: unknown = kind === "array" ? [] : {};
  for (let level = 1; level < depth; level++) value = kind === "array" ? [value] : { a: value };
  return value;
}

const refusal = (input: unknown) => {
  try {
    parseInput(z.object({ name: z.unknown() }), input);
  } catch (error) {
    return error instanceof AppError ? error.details : error;
  }
  return "accepted";
};

describe("input checked whatever its schema (issue 40, item 1)", () => {
  it("walks input of any depth without recursion: a million levels are refused, not a stack overflow", () => {
    for (const kind of ["array", "object"] as const) {
      expect(refusal({ name: nested(1_000_000, kind) })).toEqual([
        { field: "name", message: `nests deeper than ${MAX_INPUT_DEPTH} levels` },
      ]);
    }
  });

  it(`takes input ${MAX_INPUT_DEPTH} levels deep, counting the input itself`, () => {
    expect(refusal({ name: nested(MAX_INPUT_DEPTH - 1, "object") })).toBe("accepted");
    expect(refusal({ name: nested(MAX_INPUT_DEPTH, "object") })).toEqual([
      { field: "name", message: `nests deeper than ${MAX_INPUT_DEPTH} levels` },
    ]);
  });

  it("names the first NUL character in document order, by its path, at any allowed depth", () => {
    expect(refusal({ name: { list: ["ok", "a\u0000"], other: "\u0000" } })).toEqual([
      { field: "name.list.1", message: "must not contain NUL characters" },
    ]);
    expect(refusal("\u0000")).toEqual([{ field: "(body)", message: "must not contain NUL characters" }]);
    // A file's bytes are no text.
    expect(refusal({ name: Buffer.from([0, 0, 0]) })).toBe("accepted");
  });
});
