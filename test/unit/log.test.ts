import Fastify from "fastify";
import { describe, expect, it, vi } from "vitest";
import { createLogger, LazyChildLogger, withRequestSerializer } from "../../src/log.js";

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const parent = createLogger(level, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { parent, lines, child: vi.spyOn(parent, "child") };
}

describe("LazyChildLogger", () => {
  it("makes no child for lines below the level, and writes nothing", () => {
    const { parent, lines, child } = capture("warn");
    const log = new LazyChildLogger(parent, { reqId: "r-1" });
    log.info({ token: "t" }, "incoming request");
    log.debug("details");
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it("binds the request id to the lines it writes, with the parent's redaction, making one child", () => {
    const { parent, lines, child } = capture("warn");
    const log = new LazyChildLogger(parent, { reqId: "r-2" });
    log.error({ session: { token: "secret-value" } }, "unhandled error");
    log.warn("slow");
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toMatchObject([
      { reqId: "r-2", msg: "unhandled error", session: { token: "[redacted]" } },
      { reqId: "r-2", msg: "slow" },
    ]);
    expect(log.level).toBe("warn");
  });

  it("passes the request id on to its own children", () => {
    const { parent, lines } = capture("info");
    new LazyChildLogger(parent, { reqId: "r-3" }).child({ plugin: "p" }).info("from a child");
    expect(lines).toMatchObject([{ reqId: "r-3", plugin: "p", msg: "from a child" }]);
  });
});

describe("redaction", () => {
  it("hides a public key presented in a query or body field (apiKey) as it hides the X-Public-Key header", () => {
    const { parent, lines } = capture("info");
    const publicKey = `pk_test_${"L".repeat(32)}`;
    parent.info({ query: { apiKey: publicKey }, req: { headers: { "x-public-key": publicKey } } }, "presented");
    expect(lines).toMatchObject([
      { query: { apiKey: "[redacted]" }, req: { headers: { "x-public-key": "[redacted]" } }, msg: "presented" },
    ]);
    expect(JSON.stringify(lines)).not.toContain(publicKey);
  });
});

describe("the request serializers Fastify's own lines go through", () => {
  it("write a response Fastify logs without its request, as it refuses a request while the server closes", () => {
    const { parent, lines } = capture("info");
    // Fastify installs the instance's serializers on the logger it is given, as the server gives it.
    const { log } = Fastify({ loggerInstance: withRequestSerializer(parent) });
    // What Fastify's log controller writes for a request refused with 503 as the server closes.
    log.info({ res: { statusCode: 503 } }, "request aborted - refusing to accept new requests as server is closing");
    expect(lines).toMatchObject([{ res: { statusCode: 503 }, msg: expect.stringContaining("server is closing") }]);
  });
});
