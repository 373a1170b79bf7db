import { createServer } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  DEFAULT_MAX_ANSWER_BYTES,
  PartnerTransport,
  type PartnerTransportOptions,
} from "../../../src/providers/http/partner-http.js";
import { capturedLogger, failure, json, startPartnerServer } from "./partner-server.js";

type PartnerServer = Awaited<ReturnType<typeof startPartnerServer>>;

const ticketSchema = z.object({ id: z.string() });
const transports: PartnerTransport[] = [];
let server: PartnerServer;
let otherServer: PartnerServer;

beforeAll(async () => {
  server = await startPartnerServer();
  otherServer = await startPartnerServer();
});
afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
  server.reset();
  otherServer.reset();
});
afterAll(async () => {
  await server.close();
  await otherServer.close();
});

function transportFor(options: Partial<PartnerTransportOptions> = {}) {
  const transport = new PartnerTransport({
    partner: "TestPartner",
    baseUrl: server.url,
    logger: capturedLogger().logger,
    authHeaders: () => ({ "x-secret": "s3cr3t-credential" }),
    describeError: (_, body) => ({ code: body.includes("code-7") ? "code-7" : null }),
    retryBaseDelayMs: 5,
    timeoutMs: 2_000,
    ...options,
  });
  transports.push(transport);
  return transport;
}

const getTicket = { method: "GET", route: "/tickets/{id}", pathParams: { id: "t 1" }, idempotent: true } as const;
const createTicket = { method: "POST", route: "/tickets", body: { amount: "10" }, idempotent: false } as const;

async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("PartnerTransport answers", () => {
  it("sends the encoded path, query, JSON body and auth headers, and validates the answer leniently", async () => {
    server.handle((_, response) => json(response, 200, { id: "t1", extra: true }));
    const answer = await transportFor().request(
      { ...createTicket, query: { subAccountId: "sub/1", skipped: undefined } },
      ticketSchema,
    );
    expect(answer).toEqual({ id: "t1" });
    const [sent] = server.requests;
    expect(sent.url).toBe("/tickets?subAccountId=sub%2F1");
    expect(sent.body).toBe('{"amount":"10"}');
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.headers["x-secret"]).toBe("s3cr3t-credential");
  });

  it("makes a 4xx a rejection that carries the status and short code, never the partner's words", async () => {
    server.handle((_, response) => json(response, 400, { error: "code-7: the PIX key joe@example.com is bad" }));
    const error = await failure(transportFor().request(getTicket, ticketSchema));
    expect(error).toMatchObject({ kind: "rejected", code: "PROVIDER_REJECTED", status: 422, partnerStatus: 400 });
    expect(error.partnerCode).toBe("code-7");
    expect(error.message).not.toContain("joe@example.com");
    expect(server.requests).toHaveLength(1);
  });

  it("makes a 409 an unknown outcome, mapped to PROVIDER_UNAVAILABLE, and does not retry it", async () => {
    server.handle((_, response) => json(response, 409, { error: "conflict" }));
    const error = await failure(transportFor().request(getTicket, ticketSchema));
    expect(error).toMatchObject({ kind: "unknown", code: "PROVIDER_UNAVAILABLE", status: 502, partnerStatus: 409 });
    expect(server.requests).toHaveLength(1);
  });

  it("makes an unparsable or ill-shaped 2xx an unknown outcome", async () => {
    server.handle((_, response) => response.end("<html>"));
    expect(await failure(transportFor().request(getTicket, ticketSchema))).toMatchObject({
      kind: "unknown",
      partnerCode: "unparsable-body",
    });
    server.handle((_, response) => json(response, 200, { ticket: "t1" }));
    expect(await failure(transportFor().request(getTicket, ticketSchema))).toMatchObject({
      kind: "unknown",
      partnerCode: "unexpected-body",
    });
  });

  it("makes a reset connection an unknown outcome", async () => {
    server.handle((_, response) => response.socket?.destroy());
    const error = await failure(transportFor().request(createTicket, ticketSchema));
    expect(error.kind).toBe("unknown");
    expect(server.requests).toHaveLength(1);
  });

  it("makes a refused connection unavailable", async () => {
    const port = await unusedPort();
    const error = await failure(
      transportFor({ baseUrl: `http://127.0.0.1:${port}` }).request(createTicket, ticketSchema),
    );
    expect(error).toMatchObject({ kind: "unavailable", partnerCode: "ECONNREFUSED", code: "PROVIDER_UNAVAILABLE" });
  });

  it("makes an unknown host unavailable", async () => {
    const error = await failure(
      transportFor({ baseUrl: "http://partner.does-not-exist.invalid" }).request(createTicket, ticketSchema),
    );
    expect(error.kind).toBe("unavailable");
    expect(["ENOTFOUND", "EAI_AGAIN"]).toContain(error.partnerCode);
  });

  it("gives every call the transport's default timeout when the call names none", async () => {
    server.handle(() => undefined);
    const started = Date.now();
    const error = await failure(transportFor({ timeoutMs: 150 }).request(createTicket, ticketSchema));
    expect(error).toMatchObject({ kind: "unknown", partnerCode: "timeout" });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe("PartnerTransport retries", () => {
  it("retries an idempotent call on 5xx at most twice", async () => {
    server.handle((_, response) => json(response, 503, {}));
    const error = await failure(transportFor().request(getTicket, ticketSchema));
    expect(error).toMatchObject({ kind: "unknown", partnerStatus: 503 });
    expect(server.requests).toHaveLength(3);
  });

  it("retries an idempotent call on 408 and 429, not on other 4xx", async () => {
    for (const status of [408, 429]) {
      server.reset();
      server.handle((_, response) => json(response, status, {}));
      await failure(transportFor().request(getTicket, ticketSchema));
      expect(server.requests).toHaveLength(3);
    }
    server.reset();
    server.handle((_, response) => json(response, 404, {}));
    await failure(transportFor().request(getTicket, ticketSchema));
    expect(server.requests).toHaveLength(1);
  });

  it("succeeds when a retry of an idempotent call does", async () => {
    server.handle((_, response) =>
      server.requests.length === 1 ? json(response, 500, {}) : json(response, 200, { id: "t1" }),
    );
    expect(await transportFor().request(getTicket, ticketSchema)).toEqual({ id: "t1" });
    expect(server.requests).toHaveLength(2);
  });

  it("never sends a non-idempotent call twice, neither on 5xx nor on a timeout", async () => {
    server.handle((_, response) => json(response, 503, {}));
    await failure(transportFor().request(createTicket, ticketSchema));
    expect(server.requests).toHaveLength(1);

    server.reset();
    server.handle(() => undefined);
    const error = await failure(transportFor().request({ ...createTicket, timeoutMs: 100 }, ticketSchema));
    expect(error).toMatchObject({ kind: "unknown", partnerCode: "timeout" });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.requests).toHaveLength(1);
  });

  it("retries an idempotent call that timed out", async () => {
    server.handle(() => undefined);
    const error = await failure(transportFor().request({ ...getTicket, timeoutMs: 100 }, ticketSchema));
    expect(error.partnerCode).toBe("timeout");
    expect(server.requests).toHaveLength(3);
  });

  it("waits as long as Retry-After says, and fails at once when it says more than the bound", async () => {
    server.handle((_, response) =>
      server.requests.length === 1
        ? json(response, 429, {}, { "retry-after": "1" })
        : json(response, 200, { id: "t1" }),
    );
    await transportFor().request(getTicket, ticketSchema);
    const [first, second] = server.requests;
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(950);

    server.reset();
    server.handle((_, response) => json(response, 503, {}, { "retry-after": "120" }));
    await failure(transportFor({ maxRetryAfterMs: 2_000 }).request(getTicket, ticketSchema));
    expect(server.requests).toHaveLength(1);
  });

  it("stops at once, without retrying, when the caller aborts", async () => {
    server.handle(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await failure(transportFor().request({ ...getTicket, signal: controller.signal }, ticketSchema));
    expect(error.partnerCode).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });
});

describe("PartnerTransport breaker", () => {
  const breaker = { failureThreshold: 2, cooldownMs: 200 };

  it("opens after consecutive failures, fails fast without network, then lets one trial through", async () => {
    const transport = transportFor({ breaker });
    server.handle((_, response) => json(response, 500, {}));
    await failure(transport.request(createTicket, ticketSchema));
    await failure(transport.request(createTicket, ticketSchema));
    expect(transport.breakerState).toBe("open");

    const fastFailure = await failure(transport.request(getTicket, ticketSchema));
    expect(fastFailure).toMatchObject({ kind: "unavailable", partnerCode: "breaker-open" });
    expect(server.requests).toHaveLength(2);

    await new Promise((resolve) => setTimeout(resolve, 220));
    expect(transport.breakerState).toBe("half-open");
    let releaseTrial = () => {};
    server.handle((_, response) => {
      releaseTrial = () => json(response, 200, { id: "t1" });
    });
    const trial = transport.request(createTicket, ticketSchema);
    await vi.waitFor(() => expect(server.requests).toHaveLength(3));
    const concurrent = await failure(transport.request(createTicket, ticketSchema));
    expect(concurrent.partnerCode).toBe("breaker-open");
    releaseTrial();
    expect(await trial).toEqual({ id: "t1" });
    expect(transport.breakerState).toBe("closed");
    expect(server.requests).toHaveLength(3);
  });

  it("opens again for a cooldown when the half-open trial fails", async () => {
    const transport = transportFor({ breaker });
    server.handle((_, response) => json(response, 502, {}));
    await failure(transport.request(createTicket, ticketSchema));
    await failure(transport.request(createTicket, ticketSchema));
    await new Promise((resolve) => setTimeout(resolve, 220));
    await failure(transport.request(createTicket, ticketSchema));
    expect(transport.breakerState).toBe("open");
    expect(server.requests).toHaveLength(3);
  });

  it("does not count rejections as failures", async () => {
    const transport = transportFor({ breaker });
    server.handle((_, response) => json(response, 400, {}));
    for (let call = 0; call < 3; call += 1) await failure(transport.request(createTicket, ticketSchema));
    expect(transport.breakerState).toBe("closed");
  });

  it("keeps another partner's calls flowing while one partner's breaker is open", async () => {
    const failing = transportFor({ breaker });
    const healthy = transportFor({ breaker, partner: "OtherPartner", baseUrl: otherServer.url });
    server.handle((_, response) => json(response, 500, {}));
    otherServer.handle((_, response) => json(response, 200, { id: "o1" }));
    await failure(failing.request(createTicket, ticketSchema));
    await failure(failing.request(createTicket, ticketSchema));
    expect(failing.breakerState).toBe("open");
    expect(await healthy.request(createTicket, ticketSchema)).toEqual({ id: "o1" });
    expect(healthy.breakerState).toBe("closed");
  });
});

describe("PartnerTransport answer bounds", () => {
  /** Answers 200 and sends `chunk` forever, as fast as the connection takes it; resolves when the gateway hangs up. */
  function sendForever(chunk: Buffer) {
    return new Promise<void>((hungUp) =>
      server.handle((_, response) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.on("close", hungUp);
        const pump = () => {
          while (!response.destroyed && response.write(chunk));
        };
        response.on("drain", pump);
        pump();
      }),
    );
  }

  it(`reads at most ${DEFAULT_MAX_ANSWER_BYTES} bytes of an answer, then hangs up: an unknown outcome, sent once, logged without the body`, async () => {
    const { logger, lines } = capturedLogger();
    const hungUp = sendForever(Buffer.from(`"pixKey joe@example.com" `.repeat(2_000)));
    const started = Date.now();
    const error = await failure(transportFor({ logger, timeoutMs: 5_000 }).request(createTicket, ticketSchema));
    expect(error).toMatchObject({
      kind: "unknown",
      code: "PROVIDER_UNAVAILABLE",
      partnerStatus: 200,
      partnerCode: "answer-too-large",
    });
    await hungUp;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
    const [record] = lines.map((line) => JSON.parse(line));
    expect(record).toMatchObject({ errorKind: "unknown", partnerCode: "answer-too-large", status: 200 });
    expect(lines.join("")).not.toContain("joe@example.com");
  });

  it("does not read an answer whose declared length is past the bound, error answers included", async () => {
    server.handle((_, response) => {
      // The headers promise more than the bound; the body never comes, so only not reading it ends the call.
      response.writeHead(500, { "content-length": String(DEFAULT_MAX_ANSWER_BYTES + 1) });
      response.flushHeaders();
    });
    const started = Date.now();
    const error = await failure(transportFor({ timeoutMs: 5_000 }).request(createTicket, ticketSchema));
    expect(error).toMatchObject({ kind: "unknown", partnerStatus: 500, partnerCode: "answer-too-large" });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("takes an answer of exactly a call's bound and refuses one byte more, and never retries that, idempotent or not", async () => {
    const answer = (bytes: number) => JSON.stringify({ id: "t1" }).padEnd(bytes, " ");
    server.handle((_, response) => response.end(answer(100)));
    expect(await transportFor().request({ ...getTicket, maxAnswerBytes: 100 }, ticketSchema)).toEqual({ id: "t1" });

    server.reset();
    server.handle((_, response) => response.end(answer(101)));
    const error = await failure(transportFor().request({ ...getTicket, maxAnswerBytes: 100 }, ticketSchema));
    expect(error.partnerCode).toBe("answer-too-large");
    expect(server.requests).toHaveLength(1);
  });

  it("counts an answer past the bound as a failure of the partner for its breaker", async () => {
    const transport = transportFor({ breaker: { failureThreshold: 2, cooldownMs: 60_000 } });
    server.handle((_, response) => response.end(JSON.stringify({ id: "t1" }).padEnd(101, " ")));
    await failure(transport.request({ ...createTicket, maxAnswerBytes: 100 }, ticketSchema));
    expect(transport.breakerState).toBe("closed");
    await failure(transport.request({ ...createTicket, maxAnswerBytes: 100 }, ticketSchema));
    expect(transport.breakerState).toBe("open");
  });

  it("bounds an answer that trickles (headers at once, a byte at a time after) by the call's timeout", async () => {
    let trickling: NodeJS.Timeout | undefined;
    server.handle((_, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write("{");
      trickling = setInterval(() => response.write(" "), 20);
      response.on("close", () => clearInterval(trickling));
    });
    const started = Date.now();
    const error = await failure(transportFor().request({ ...createTicket, timeoutMs: 300 }, ticketSchema));
    clearInterval(trickling);
    expect(error).toMatchObject({ kind: "unknown", partnerCode: "timeout" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });
});

describe("PartnerTransport logs", () => {
  it("log the route template, status, attempt and breaker, never the path values, query, body or credentials", async () => {
    const { logger, lines } = capturedLogger();
    server.handle((request, response) =>
      request.method === "GET" ? json(response, 500, {}) : json(response, 200, { id: "t1", pixKey: "joe@example.com" }),
    );
    const transport = transportFor({ logger });
    await transport.request(
      { ...createTicket, query: { email: "joe@example.com" }, body: { pixKey: "joe@example.com" } },
      ticketSchema,
    );
    await failure(transport.request({ ...getTicket, pathParams: { id: "cpf-12345678900" } }, ticketSchema));
    const records = lines.map((line) => JSON.parse(line));
    expect(records).toHaveLength(4);
    expect(records[0]).toMatchObject({ route: "POST /tickets", status: 200, attempt: 1, breaker: "closed" });
    expect(records[0].durationMs).toEqual(expect.any(Number));
    expect(records.slice(1).map((record) => [record.route, record.attempt, record.status])).toEqual([
      ["GET /tickets/{id}", 1, 500],
      ["GET /tickets/{id}", 2, 500],
      ["GET /tickets/{id}", 3, 500],
    ]);
    const everything = lines.join("");
    for (const secret of ["joe@example.com", "cpf-12345678900", "s3cr3t-credential", "amount"])
      expect(everything).not.toContain(secret);
  });
});
