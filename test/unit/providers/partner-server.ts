import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { expect } from "vitest";
import { PartnerError } from "../../../src/providers/http/partner-http.js";

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  receivedAt: number;
}

type Handler = (request: RecordedRequest, response: ServerResponse) => void;

/** A local partner stand-in: it records every request and answers with the handler the test sets. */
export async function startPartnerServer() {
  const requests: RecordedRequest[] = [];
  let handler: Handler = (_, response) => response.end("{}");
  const sockets = new Set<Socket>();
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const recorded: RecordedRequest = {
        method: incoming.method ?? "",
        url: incoming.url ?? "",
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now(),
      };
      requests.push(recorded);
      handler(recorded, response);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next: Handler) {
      handler = next;
    },
    reset() {
      requests.length = 0;
      handler = (_, response) => response.end("{}");
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}

export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** A pino logger whose lines the test reads. */
export function capturedLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString("utf8"));
      done();
    },
  });
  return { logger: pino({ level: "debug" }, sink), lines };
}

/** The PartnerError a call failed with (the test fails if it succeeded or failed otherwise). */
export async function failure(promise: Promise<unknown>): Promise<PartnerError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PartnerError);
  return error as PartnerError;
}
