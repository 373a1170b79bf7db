import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { corridorsOnTheSandbox, DEFAULT_CORRIDOR_PARTNERS, servingPartner } from "../../src/providers/partners.js";

/** Which corridors `live` could not serve (src/providers/partners.ts): each names what it needs instead. */

describe("corridorsOnTheSandbox", () => {
  it("names EU only: both partners are wired into ramps, and neither serves EU", () => {
    expect(corridorsOnTheSandbox(DEFAULT_CORRIDOR_PARTNERS, [])).toEqual(["EU"]);
  });

  it("names no closed corridor: one a partner's absence leaves without any is closed too", () => {
    expect(corridorsOnTheSandbox(DEFAULT_CORRIDOR_PARTNERS, ["EU"])).toEqual([]);
    expect(corridorsOnTheSandbox({ ...DEFAULT_CORRIDOR_PARTNERS, BR: null }, ["EU", "BR"])).toEqual([]);
  });
});

describe("servingPartner", () => {
  const refusal = (call: () => unknown) => {
    try {
      call();
    } catch (error) {
      return error instanceof AppError ? `${error.code} ${error.message}` : String(error);
    }
    return "no refusal";
  };

  it("finds the corridor's partner among those wired, and refuses a corridor without one, another partner's call, or one not configured", () => {
    const alfredpay = { name: "alfredpay" };
    expect(servingPartner(DEFAULT_CORRIDOR_PARTNERS, "MX", { Avenia: undefined, Alfredpay: alfredpay })).toBe(
      alfredpay,
    );
    expect(refusal(() => servingPartner(DEFAULT_CORRIDOR_PARTNERS, "EU", { Alfredpay: alfredpay }))).toBe(
      "PROVIDER_UNAVAILABLE No partner serves this in EU here.",
    );
    expect(refusal(() => servingPartner(DEFAULT_CORRIDOR_PARTNERS, "BR", { Alfredpay: alfredpay }))).toBe(
      "PROVIDER_UNAVAILABLE No partner serves this in BR here.",
    );
    expect(refusal(() => servingPartner(DEFAULT_CORRIDOR_PARTNERS, "MX", { Alfredpay: undefined }))).toBe(
      "PROVIDER_UNAVAILABLE Alfredpay is not configured.",
    );
  });
});
