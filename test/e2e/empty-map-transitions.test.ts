import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../support/e2e-http.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

/**
 * V8 keeps at most 1536 transitions from its shared empty-object map. Once a process has them all, a per-request
 * shape whose transition a full collection dropped (Node's nextTick record, say) cannot get it back, and each such
 * object is then made with a map of its own, through the runtime: 2-3 µs of CPU a request. The probe preloaded
 * into the process reports whether the map can still take a transition.
 */

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
