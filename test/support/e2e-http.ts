import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { recordHttpOperation } from "./graphql-documents.js";
import type { Send } from "./kyc.js";
import { rememberSecret } from "./secrets.js";
import type { ServerProcess } from "./server-process.js";

/* Calls to a server process over real HTTP, for the end-to-end tests. */

export type Headers = Record<string, string>;

export interface Reply<T = any> {
  status: number;
  body: T;
  /** The response headers, names in lower case. */
  headers: Headers;
}

export async function call<T = any>(
  server: ServerProcess,
  method: string,
  path: string,
  options: { headers?: Headers; body?: unknown } = {},
): Promise<Reply<T>> {
  recordHttpOperation(method, path, options.body);
  // A file's bytes go as they are, under the caller's Content-Type; anything else as JSON.
  const file = Buffer.isBuffer(options.body) ? options.body : undefined;
  const json = options.body !== undefined && !file;
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(json && { "content-type": "application/json" }), ...options.headers },
    ...(options.body !== undefined && { body: file ?? JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    headers: Object.fromEntries(response.headers),
  };
}

/** `call` as the `send` of completeKyc (test/support/kyc.ts): KYC through a server process, over real HTTP. */
export const httpSend =
  (server: ServerProcess): Send =>
  (method, path, headers, body) =>
    call(server, method, path, { headers, body });

/** Calls and insists on `status`, showing the body when it is not. */
export async function expectCall<T = any>(
  status: number,
  server: ServerProcess,
  method: string,
  path: string,
  options?: { headers?: Headers; body?: unknown },
): Promise<T> {
  const reply = await call<T>(server, method, path, options);
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBe(status);
  return reply.body;
}

/** request-otp -> the code from the server's SMTP capture -> verify-otp; the server needs RATE_LIMIT_OTP_PER_IP_PER_MINUTE raised when tests sign in often. */
export async function signIn(server: ServerProcess, label: string): Promise<{ profileId: string; headers: Headers }> {
  const email = `${label}-${randomUUID().slice(0, 8)}@example.com`;
  await expectCall(200, server, "POST", "/v1/auth/request-otp", { body: { email } });
  const token = await server.smtp.nextCode(email);
  const verified = await expectCall(200, server, "POST", "/v1/auth/verify-otp", { body: { email, token } });
  rememberSecret(verified.access_token);
  rememberSecret(verified.refresh_token);
  return { profileId: verified.user_id, headers: { authorization: `Bearer ${verified.access_token}` } };
}

/**
 * A secret key of a freshly signed-in profile: the key itself (for graphql-ws connection_init), its request
 * headers, and the profile's id.
 */
export async function newSecretKey(
  server: ServerProcess,
  label: string,
): Promise<{ secretKey: string; headers: Headers; profileId: string }> {
  const session = await signIn(server, label);
  const created = await expectCall(201, server, "POST", "/v1/api-credentials", {
    headers: session.headers,
    body: { name: `e2e ${label}` },
  });
  rememberSecret(created.secretKey);
  return { secretKey: created.secretKey, headers: { "x-api-key": created.secretKey }, profileId: session.profileId };
}

/** Runs `task` for each item, at most `width` at a time. */
export async function inBatches<T, R>(
  items: T[],
  width: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += width) {
    results.push(
      ...(await Promise.all(items.slice(start, start + width).map((item, offset) => task(item, start + offset)))),
    );
  }
  return results;
}

export interface DeliveryLogEntry {
  id: string;
  eventId: string;
  eventType: string;
  status: "pending" | "delivered" | "failed";
  attempts: { startedAt: string; durationMs: number; statusCode: number | null; error: string | null }[];
}

/** A subscription's whole delivery log, read page by page (the endpoint gives at most 100 at a time). */
export async function deliveryLog(
  server: ServerProcess,
  headers: Headers,
  webhookId: string,
): Promise<DeliveryLogEntry[]> {
  const entries: DeliveryLogEntry[] = [];
  for (;;) {
    const page = await expectCall<{ totalCount: number; deliveries: DeliveryLogEntry[] }>(
      200,
      server,
      "GET",
      `/v1/webhook/${webhookId}/deliveries?limit=100&offset=${entries.length}`,
      { headers },
    );
    entries.push(...page.deliveries);
    if (page.deliveries.length === 0 || entries.length >= page.totalCount) return entries;
  }
}
