import { describe, expect, it } from "vitest";
import { listen, USAGE } from "../../src/cli/forward-events.js";

/**
 * `npm run -s listen`'s arguments: what is wrong is said plainly, with the usage, and the exit code is 2, before
 * anything is connected to. The secret key is never printed.
 */

const KEY = "sk_test_never_printed_0123456789";
const QUOTE = "6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f";

async function run(args: string[], env: Record<string, string> = { RAMP_API_KEY: KEY }) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await listen(
    args,
    env,
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    AbortSignal.abort(),
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("listen's arguments", () => {
  it.each([
    ["no RAMP_API_KEY", ["--forward-to", "http://localhost:4000/hooks", "--quote", QUOTE], {}, "set RAMP_API_KEY"],
    [
      "a blank RAMP_API_KEY",
      ["--forward-to", "http://localhost:4000/hooks", "--quote", QUOTE],
      { RAMP_API_KEY: "  " },
      "set RAMP_API_KEY",
    ],
    ["no --forward-to", ["--quote", QUOTE], undefined, "--forward-to <URL> is required"],
    [
      "a --forward-to that is no URL",
      ["--forward-to", "localhost:4000", "--quote", QUOTE],
      undefined,
      "--forward-to must be an http:// or https:// URL (got localhost)",
    ],
    [
      "a --forward-to of another scheme",
      ["--forward-to", "ftp://localhost/hooks", "--quote", QUOTE],
      undefined,
      "--forward-to must be an http:// or https:// URL (got ftp)",
    ],
    [
      "an unparsable --forward-to",
      ["--forward-to", "http://", "--quote", QUOTE],
      undefined,
      '--forward-to must be an http:// or https:// URL (got "http://")',
    ],
    [
      "a --gateway of another scheme",
      ["--forward-to", "http://localhost:4000/hooks", "--quote", QUOTE, "--gateway", "ws://localhost:8080"],
      undefined,
      "--gateway must be an http:// or https:// URL (got ws)",
    ],
    [
      "nothing to follow",
      ["--forward-to", "http://localhost:4000/hooks"],
      undefined,
      "give exactly one of --quote, --session or --ramp",
    ],
    [
      "two things to follow",
      ["--forward-to", "http://localhost:4000/hooks", "--quote", QUOTE, "--ramp", QUOTE],
      undefined,
      "give exactly one of --quote, --session or --ramp",
    ],
    [
      "an unknown option",
      ["--forward-to", "http://localhost:4000/hooks", "--quote", QUOTE, "--api-key", KEY],
      undefined,
      "Unknown option '--api-key'",
    ],
    ["a positional argument", ["listen", "--quote", QUOTE], undefined, "Unexpected argument 'listen'"],
  ] as const)("%s: exit 2, the reason and the usage", async (_case, args, env, reason) => {
    const result = await run([...args], env);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`usage error: ${reason}`);
    expect(result.err).toContain(USAGE);
    expect(result.out).toBe("");
    expect(result.err).not.toContain(KEY);
  });

  it("--help prints the usage and exits 0", async () => {
    expect(await run(["--help"], {})).toEqual({ code: 0, out: USAGE, err: "" });
  });
});
