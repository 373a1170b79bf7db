import { describe, expect, it } from "vitest";
import { corridorsOnTheSandbox } from "../../src/providers/partners.js";

/** Which corridors `live` could not serve (src/providers/partners.ts): each names what it needs instead. */

const EU = "EU: needs a partner for EUR; this gateway integrates none";

describe("corridorsOnTheSandbox", () => {
  it("lists every corridor today, in order, each with its partner: no partner has a client yet", () => {
    expect(corridorsOnTheSandbox()).toEqual([
      "AR: needs its partner Alfredpay, which this gateway has no client for yet",
      "BR: needs its partner Avenia, which this gateway has no client for yet",
      "CO: needs its partner Alfredpay, which this gateway has no client for yet",
      EU,
      "MX: needs its partner Alfredpay, which this gateway has no client for yet",
      "US: needs its partner Alfredpay, which this gateway has no client for yet",
    ]);
  });

  it("leaves out the corridors of a partner with a client", () => {
    expect(corridorsOnTheSandbox(new Set(["Avenia"] as const))).toEqual([
      "AR: needs its partner Alfredpay, which this gateway has no client for yet",
      "CO: needs its partner Alfredpay, which this gateway has no client for yet",
      EU,
      "MX: needs its partner Alfredpay, which this gateway has no client for yet",
      "US: needs its partner Alfredpay, which this gateway has no client for yet",
    ]);
  });

  it("still names EU with both partners' clients: neither serves it", () => {
    expect(corridorsOnTheSandbox(new Set(["Avenia", "Alfredpay"] as const))).toEqual([EU]);
  });
});
