import { buildSchema, specifiedRules } from "graphql";
import { describe, expect, it } from "vitest";
import { documentChecker } from "../../src/graphql/document-cache.js";

const schema = buildSchema(`
  type Query { hello: String }
  type Subscription { ticks(every: Int): Int }
`);
const TICKS = "subscription { ticks(every: 1) }";

describe("documentChecker", () => {
  it("gives every subscriber of one text the same syntax tree, and another text its own", () => {
    const check = documentChecker(schema, specifiedRules, 100);
    const first = check(TICKS);
    expect(first.document).toBeDefined();
    expect(check(TICKS).document).toBe(first.document);
    expect(check("subscription { ticks }").document).not.toBe(first.document);
  });

  it("refuses the same way each time: syntax, validation and too many tokens, quoted pieces cut short", () => {
    const check = documentChecker(schema, specifiedRules, 12);
    const longName = "x".repeat(500);
    for (let round = 0; round < 2; round++) {
      expect(check("subscription { ticks ").refusals).toEqual(["Syntax Error: Expected Name, found <EOF>."]);
      const [unknown] = check(`subscription { ${longName} }`).refusals!;
      expect(unknown).toContain(`"${"x".repeat(64)}…"`);
      expect(unknown).not.toContain("x".repeat(65));
      // graphql-js spells it "more that 12 tokens".
      const [tooLong, ...more] = check("subscription { ticks(every: 1) a: ticks b: ticks c: ticks }").refusals!;
      expect(more).toEqual([]);
      expect(tooLong).toMatch(/^Syntax Error: Document contains more th.. 12 tokens/);
    }
  });

  it("keeps a bounded amount of text: a text used again after many others is parsed anew", () => {
    const check = documentChecker(schema, specifiedRules, 100);
    const first = check(TICKS).document;
    // Each padded text is about 10 KB: a few dozen of them push the first one out.
    for (let index = 0; index < 100; index++) check(`${TICKS} # ${String(index).repeat(10_000)}`);
    const again = check(TICKS).document;
    expect(again).toBeDefined();
    expect(again).not.toBe(first);
  });
});
