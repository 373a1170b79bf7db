import { describe, expect, it } from "vitest";
import { generateKeyPair, isWellFormedKey, KeyDigests, sha256Hex } from "../../src/auth/keys.js";

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

describe("key digests", () => {
  it("hash a value a connection presents again once, another value or connection anew, no connection always", () => {
    const hashed: string[] = [];
    const digests = new KeyDigests((value) => (hashed.push(value), sha256Hex(value)));
    const [first, second] = [generateKeyPair("test").secretKey, generateKeyPair("test").secretKey];
    const [connection, other] = [{}, {}];

    expect(digests.of(first, connection)).toBe(sha256Hex(first));
    expect(digests.of(first, connection)).toBe(sha256Hex(first));
    expect(hashed).toEqual([first]);
    // A value differing in its last character only is another value.
    const almost = `${first.slice(0, -1)}${first.endsWith("a") ? "b" : "a"}`;
    expect(digests.of(almost, connection)).toBe(sha256Hex(almost));
    expect(digests.of(second, connection)).toBe(sha256Hex(second));
    expect(digests.of(second, other)).toBe(sha256Hex(second));
    expect(digests.of(second, undefined)).toBe(sha256Hex(second));
    expect(digests.of(second, undefined)).toBe(sha256Hex(second));
    expect(hashed).toEqual([first, almost, second, second, second, second]);
  });
});
