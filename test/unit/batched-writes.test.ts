import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import { writeResponsesAtTurnEnd } from "../../src/rest/batched-writes.js";

let server: FastifyInstance;
afterEach(() => server.close());

async function listening(routes: (server: FastifyInstance) => void): Promise<string> {
  server = Fastify();
  writeResponsesAtTurnEnd(server);
  routes(server);
  return server.listen({ port: 0, host: "127.0.0.1" });
}

describe("responses written at the end of the turn", () => {
  it("holds a reply until the turn's end, then writes it whole", async () => {
    const written: boolean[] = [];
    const url = await listening((server) =>
      server.get("/", (_request, reply) => {
        void reply.header("x-made", "in-turn").send({ status: "ok" });
        written.push(reply.raw.headersSent);
        setImmediate(() => written.push(reply.raw.headersSent));
      }),
    );
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-made")).toBe("in-turn");
    expect(await response.json()).toEqual({ status: "ok" });
    expect(written).toEqual([false, true]);
  });

  it("writes every reply of a turn, and answers one whose head Node refuses with an error", async () => {
    const url = await listening((server) => {
      server.get("/refused", (_request, reply) => reply.header("x-broken", "line\nbreak").send("never"));
      server.get("/fine/:n", (request) => ({ n: (request.params as { n: string }).n }));
    });
    const [refused, ...fine] = await Promise.all([
      fetch(`${url}/refused`),
      ...[1, 2, 3].map((n) => fetch(`${url}/fine/${n}`)),
    ]);
    expect(refused!.status).toBe(500);
    expect(refused!.headers.get("x-broken")).toBeNull();
    expect(await Promise.all(fine.map((response) => response.json()))).toEqual([{ n: "1" }, { n: "2" }, { n: "3" }]);
  });
});

describe("a turn full of heavy requests", () => {
  it("writes what it holds once the first reply has waited a millisecond, and the rest at the turn's end", async () => {
    let onSend!: (request: unknown, reply: unknown, payload: unknown, done: () => void) => void;
    writeResponsesAtTurnEnd({ addHook: (_name: string, hook: typeof onSend) => (onSend = hook) } as never);
    const written: string[] = [];
    const reply = (name: string) => onSend({}, {}, name, () => written.push(name));

    // The clock is the test's: a preempted worker must not turn "at once" into "a millisecond later".
    let nowMs = 1000;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => nowMs);
    reply("first");
    nowMs += 0.9;
    reply("second, within the millisecond");
    expect(written).toEqual([]);
    nowMs += 0.1; // a heavy request's work, in the same turn
    reply("third, after the work");
    expect(written).toEqual(["first", "second, within the millisecond", "third, after the work"]);
    reply("fourth");
    nowMs += 5;
    expect(written).toHaveLength(3);
    clock.mockRestore();
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual(["first", "second, within the millisecond", "third, after the work", "fourth"]);
  });
});
