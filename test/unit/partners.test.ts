import { describe, expect, it } from "vitest";
import { corridorsOnTheSandbox } from "../../src/providers/partners.js";

/** Which corridors `live` could not serve (src/providers/partners.ts): each names what it needs instead. */

const EU = "EU: no partner for EUR is integrated";

describe("corridorsOnTheSandbox", () => {
  it("lists the corridors today, in order: Avenia's, and EU's, with Alfredpay wired into ramps", () => {
    expect(corridorsOnTheSandbox()).toEqual(["BR: its partner Avenia is not wired into ramps yet", EU]);
  });

  it("leaves out the corridors of a partner wired in", () => {
    expect(corridorsOnTheSandbox(new Set(["Avenia"] as const))).toEqual([
      "AR: its partner Alfredpay is not wired into ramps yet",
      "CO: its partner Alfredpay is not wired into ramps yet",
      EU,
      "MX: its partner Alfredpay is not wired into ramps yet",
      "US: its partner Alfredpay is not wired into ramps yet",
    ]);
  });

  it("still names EU with both partners wired in: neither serves it", () => {
    expect(corridorsOnTheSandbox(new Set(["Avenia", "Alfredpay"] as const))).toEqual([EU]);
  });
});
