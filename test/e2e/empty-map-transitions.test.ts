import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../support/e2e-http.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

/**
 * Per-request objects that start empty reach their hidden class through transitions from V8's shared
 * empty-object map, which V8 keeps weakly and at most 1536 of. Lose one and the objects are made through the
 * runtime, each with a map of its own or through a megamorphic inline cache: 2-3 µs of CPU a request.
 * - The map must keep room: a probe preloaded into the built server reports whether it still takes a transition.
 * - Node's nextTick records, several per request, must keep theirs across idle full collections
 *   (src/tick-shape.ts holds one).
 */

const TICK_SHAPE = new URL("../../dist/tick-shape.js", import.meta.url).href;
const PROBE = fileURLToPath(new URL("../support/empty-map-probe.mjs", import.meta.url));
const WITH_PROBE = { NODE_OPTIONS: `--import ${PROBE}` };

/** Signals the probe in `child` and resolves with its answer, read from what the child printed. */
async function emptyMapTakesTransitions(child: ChildProcess, printed: () => string): Promise<boolean> {
  child.kill("SIGUSR2");
  for (let waited = 0; waited < 100; waited++) {
    const answer = /\{"emptyMapTakesTransitions":(true|false)\}/.exec(printed());
    if (answer) return answer[1] === "true";
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the probe did not answer:\n${printed().slice(-2000)}`);
}

describe("V8's shared empty-object map", () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess({ env: WITH_PROBE });
  });

  afterAll(async () => {
    await server?.dispose();
  });

  it("still takes transitions in the built server, once it has answered REST and GraphQL requests", async () => {
    for (const path of ["/healthz", "/v1/ramp-info", "/v1/no-such-route"]) await call(server, "GET", path);
    await call(server, "POST", "/graphql", { body: { query: "{ __typename }" } });
    expect(await emptyMapTakesTransitions(server.child, server.output)).toBe(true);
  });

  it("is reported full in a process that gave it more distinct first keys than V8 keeps", async () => {
    // As ~800 compiled response serializers did, each keeping an object whose first key was its own.
    const filling =
      'globalThis.filled = Array.from({ length: 2000 }, (_, i) => ({ ["key" + i]: i })); console.log("ready"); ' +
      "setInterval(() => {}, 1000);";
    const child = spawn(process.execPath, ["-e", filling], { env: { ...process.env, ...WITH_PROBE } });
    let printed = "";
    child.stdout.on("data", (chunk: Buffer) => (printed += chunk.toString("utf8")));
    try {
      while (!printed.includes("ready")) await once(child.stdout, "data");
      expect(await emptyMapTakesTransitions(child, () => printed)).toBe(false);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("Node's nextTick records", () => {
  /**
   * Whether the shared empty-object map still leads to a tick record's hidden class after a full collection
   * while no record is pending (a node with V8's test syntax prints the map's transitions).
   */
  function tickTransitionSurvivesIdleCollection(holding: boolean): boolean {
    const script = `
      if (${holding}) await import(${JSON.stringify(TICK_SHAPE)});
      process.nextTick(() => {});
      await new Promise((resolve) => setTimeout(resolve, 20));
      setTimeout(() => { gc(); gc(); %DebugPrint({}); }, 10);
    `;
    const printed = execFileSync(
      process.execPath,
      ["--expose-gc", "--allow-natives-syntax", "--input-type=module", "-e", script],
      { encoding: "utf8" },
    );
    expect(printed).toMatch(/transitions #\d+/);
    return printed.includes("<Symbol: async_id_symbol>");
  }

  it("lose their hidden class's transition in a full collection while none is pending", () => {
    expect(tickTransitionSurvivesIdleCollection(false)).toBe(false);
  });

  it("keep it while dist/tick-shape.js holds one", () => {
    expect(tickTransitionSurvivesIdleCollection(true)).toBe(true);
  });

  it("are held from the start: the entry point imports tick-shape before anything else", () => {
    const main = readFileSync(new URL("../../src/main.ts", import.meta.url), "utf8");
    expect(main.match(/^import .*$/m)?.[0]).toBe('import "./tick-shape.js";');
  });
});
