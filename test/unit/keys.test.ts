import { describe, expect, it } from "vitest";
import { generateKeyPair, isWellFormedKey } from "../../src/auth/keys.js";

describe("key values", () => {
  it("are pk_/sk_<env>_ plus 32 characters of [A-Za-z0-9]", () => {
    const live = generateKeyPair("live");
    expect(live.publicKey).toMatch(/^pk_live_[A-Za-z0-9]{32}$/);
    expect(live.secretKey).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
    const test = generateKeyPair("test");
    expect(isWellFormedKey("public", test.publicKey)).toBe(true);
    expect(isWellFormedKey("secret", test.secretKey)).toBe(true);
    expect(isWellFormedKey("secret", test.publicKey)).toBe(false);
    expect(isWellFormedKey("secret", `${test.secretKey}x`)).toBe(false);
    expect(isWellFormedKey("secret", test.secretKey.replace(/.$/, "-"))).toBe(false);
  });

  it("draw every character of the alphabet, with no value repeated", () => {
    const bodies = Array.from({ length: 2000 }, () => generateKeyPair("test").secretKey.slice(8));
    expect(new Set(bodies).size).toBe(bodies.length);
    const seen = new Set(bodies.join(""));
    expect(seen.size).toBe(62);
  });
});
