import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type RequestListener,
  type ServerResponse,
} from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyWebhook, type RampWebhookEvent, type WebhookTestEvent } from "@ramp-gateway/webhook-receiver";

/** A throwaway CA and a certificate it signed for the receiver's names (127.0.0.1, ::1, receiver.test and its subdomains). */
export interface TestCertificates {
  /** The CA certificate (PEM): trust it to reach the receiver. */
  ca: string;
  /** Its file, for NODE_EXTRA_CA_CERTS in server processes. */
  caFile: string;
  key: string;
  cert: string;
}

let certificates: TestCertificates | undefined;

/** Made once per test process with the openssl command line. */
export function testCertificates(): TestCertificates {
  if (certificates) return certificates;
  const dir = mkdtempSync(join(tmpdir(), "webhook-tls-"));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
  openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=ramp gateway test CA",
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
  );
  openssl(
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-subj",
    "/CN=receiver.test",
    "-keyout",
    file("leaf.key"),
    "-out",
    file("leaf.csr"),
  );
  writeFileSync(
    file("leaf.ext"),
    "subjectAltName=DNS:receiver.test,DNS:*.receiver.test,IP:127.0.0.1,IP:::1\nextendedKeyUsage=serverAuth\n",
  );
  openssl(
    "x509",
    "-req",
    "-in",
    file("leaf.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca.key"),
    "-CAcreateserial",
    "-days",
    "2",
    "-extfile",
    file("leaf.ext"),
    "-out",
    file("leaf.pem"),
  );
  certificates = {
    ca: readFileSync(file("ca.pem"), "utf8"),
    caFile: file("ca.pem"),
    key: readFileSync(file("leaf.key"), "utf8"),
    cert: readFileSync(file("leaf.pem"), "utf8"),
  };
  return certificates;
}

/** One request the receiver got, and what verifying it with the public key gave. */
export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The verified ramp event; undefined when verification failed (see verificationError) or for a test event. */
  event: RampWebhookEvent | undefined;
  /** The verified test event (POST /v1/webhook/{id}/test), when it was one. */
  testEvent: WebhookTestEvent | undefined;
  verificationError: string | undefined;
  receivedAt: number;
}

/** How to answer the n-th request (0-based): a status, optional headers and body, after an optional delay. */
export type Responder = (request: { index: number; path: string }) => {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  delayMs?: number;
};

export interface WebhookReceiver {
  /** `https://127.0.0.1:<port><path>` (`http://` for a plain HTTP receiver) */
  url(path?: string): string;
  port: number;
  received: ReceivedDelivery[];
  respond: Responder;
  /** Verifies signatures with this key from now on (GET /v1/public-key). */
  publicKey: string | undefined;
  /** The time signatures' timestamps are checked against (the service's clock, when a test steps it). */
  clock: () => Date;
  /** Resolves once `count` requests arrived (optionally counting only those `which` accepts). */
  waitFor(
    count: number,
    options?: { timeoutMs?: number; which?: (delivery: ReceivedDelivery) => boolean },
  ): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

/**
 * A local HTTPS webhook receiver (plain HTTP with `plainHttp`, as `npm run -s listen` forwards to) that answers 204
 * unless told otherwise and checks every signature.
 */
export async function startWebhookReceiver(
  options: { publicKey?: string; respond?: Responder; plainHttp?: boolean } = {},
): Promise<WebhookReceiver> {
  const tls = options.plainHttp ? undefined : testCertificates();
  const waiters = new Set<() => void>();
  const receiver: WebhookReceiver = {
    url: (path = "/hook") => `${tls ? "https" : "http"}://127.0.0.1:${receiver.port}${path}`,
    port: 0,
    received: [],
    respond: options.respond ?? (() => ({ status: 204 })),
    publicKey: options.publicKey,
    clock: () => new Date(),
    async waitFor(count, { timeoutMs = 20_000, which = () => true } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = receiver.received.filter(which);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline)
          throw new Error(`receiver got ${matching.length} of ${count} expected requests within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => resolve();
          waiters.add(wake);
          setTimeout(() => waiters.delete(wake) && resolve(), 50);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const index = { next: 0 };
  const handle: RequestListener = (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let event: RampWebhookEvent | undefined;
      let testEvent: WebhookTestEvent | undefined;
      let verificationError: string | undefined;
      try {
        if (!receiver.publicKey) throw new Error("no public key to verify with");
        const verified = verifyWebhook({
          publicKey: receiver.publicKey,
          timestamp: String(request.headers["x-service-timestamp"] ?? ""),
          signature: String(request.headers["x-service-signature"] ?? ""),
          rawBody,
          now: receiver.clock(),
        });
        if (verified.eventType === "WEBHOOK_TEST") testEvent = verified;
        else event = verified;
      } catch (error) {
        verificationError = (error as Error).message;
      }
      const path = request.url ?? "/";
      receiver.received.push({
        path,
        headers: request.headers,
        rawBody,
        event,
        testEvent,
        verificationError,
        receivedAt: Date.now(),
      });
      waiters.forEach((wake) => wake());
      waiters.clear();
      answer(response, receiver.respond({ index: index.next++, path }));
    });
  };
  const server = tls ? createServer({ key: tls.key, cert: tls.cert }, handle) : createHttpServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}

function answer(response: ServerResponse, planned: ReturnType<Responder>) {
  const send = () => {
    if (response.destroyed) return;
    response.writeHead(planned.status, planned.headers);
    response.end(planned.body);
  };
  if (planned.delayMs) setTimeout(send, planned.delayMs);
  else send();
}
