import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { corridorsOnTheSandbox, DEFAULT_CORRIDOR_PARTNERS, servingPartner } from "../../src/providers/partners.js";

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
