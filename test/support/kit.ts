import { randomBytes, randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Db } from "../../src/db/client.js";
import { testEngine } from "./database.js";

/** An answer as both the in-process and the over-HTTP helpers return it. */
interface Answer<T = any> {
  status: number;
  body: T;
}

/** A BR onramp quote's body (Pix in, USDC on Polygon out), the one most tests ask for. */
export const BUY_QUOTE = {
  rampType: "BUY",
  from: "pix",
  to: "polygon",
  inputAmount: "250.00",
  inputCurrency: "BRL",
  outputCurrency: "USDC",
} as const;
let permitNonces = 0;

/**
 * What a SELL's user sends back (POST /v1/ramp/update): each unsigned transaction with a signature (65 bytes), a
 * permit with the token's nonce it was signed with, each its own (a partner spends a permit once).
 */
export function signedTxs(unsignedTxs: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return unsignedTxs.map((tx) => ({
    ...tx,
    ...(tx.phase === "permit" && { nonce: ++permitNonces }),
    signature: `0x${randomBytes(65).toString("hex")}`,
  }));
}

/** A PIX key a BR SELL pays out to (a random key, as Brazil's PIX has them). */
export const PIX_KEY = "d3f1a0b2-4c5d-4e6f-8a9b-0c1d2e3f4a5b";

/** A BR offramp quote's body (USDC on Polygon in, BRL by PIX out). */
export const SELL_QUOTE = {
  rampType: "SELL",
  from: "polygon",
  to: "pix",
  inputAmount: "50.00",
  inputCurrency: "USDC",
  outputCurrency: "BRL",
} as const;

/** A well-formed EVM destination address. */
export const EVM_ADDRESS = `0x${"2".repeat(40)}`;

/** The body of an answer with `status` (200 unless said); otherwise fails, showing the body. */
export function ok<T = any>(response: Answer<T>, status = 200): T {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  return response.body;
}

/**
 * An error answer: its status and code from the one error table, in the envelope every error carries
 * (status, message, request id), and, when `field` is given, details that name it.
 */
export function expectError(response: Answer, status: number, code: string, field?: string): void {
  expect({ status: response.status, code: response.body?.error?.code }, JSON.stringify(response.body)).toEqual({
    status,
    code,
  });
  expect(response.body.error).toMatchObject({ status, message: expect.any(String), requestId: expect.any(String) });
  if (field) expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
}

/**
 * A GraphQL answer whose first error carries `code` and `status`, and whose failed field is null: the whole
 * data when the field is required, the field alone when it is nullable (a missing lookup beside a page).
 */
export function expectGraphQLError(response: Answer, status: number, code: string): void {
  const [first] = response.body?.errors ?? [];
  expect({ code: first?.extensions?.code, status: first?.extensions?.status }, JSON.stringify(response.body)).toEqual({
    code,
    status,
  });
  const data = response.body.data ?? null;
  expect(data === null || Object.values(data).every((value) => value === null), JSON.stringify(response.body)).toBe(
    true,
  );
}

/** Reads until `done` holds for the value read; fails after `timeoutMs`, naming `what` and the last value. */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what = "a condition",
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)?.slice(0, 2000)}`);
    await sleep(25);
  }
}

/** Reads until the value is defined, and returns it. */
export async function waitForDefined<T>(read: () => Promise<T | undefined>, what?: string): Promise<T> {
  return (await waitFor(read, (value) => value !== undefined, what)) as T;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * On PostgreSQL, waits for the next minute of the clock when this one ends within `needMs`: rate-limit windows
 * there are minutes of the clock, shared by every instance, and a test that straddles two gets two budgets.
 * (On SQLite a window starts with its key's first request.)
 */
export async function insideOneRateLimitWindow(needMs = 5_000): Promise<void> {
  const leftMs = 60_000 - (Date.now() % 60_000);
  if (testEngine() === "postgresql" && leftMs < needMs) await sleep(leftMs + 100);
}

/**
 * A GraphQL connection as a page of it is read: its nodes' ids, in order, and where the next page starts;
 * with `count` and `totalCount` when the caller selected them (then checked on every page).
 */
interface ConnectionPage {
  ids: string[];
  hasNextPage: boolean;
  endCursor: string | null;
  count?: number;
  totalCount?: number;
}

/** A list REST pages by `limit` (1 to 100, default 50) and `offset` (default 0), and its GraphQL connection. */
interface PagedList {
  /** Requests the list with a query string (`limit=7&offset=14`, or "" for the defaults). */
  read(query: string): Promise<Answer>;
  /** The ids of the items an answer holds, in order. */
  ids(body: any): string[];
  /** False for a list answered as a bare array (the reference's shape), which has no room for `pagination`. */
  pagination?: false;
  /** The same list as a GraphQL connection: one page of `first` nodes after the cursor `after`. */
  connection(first: number, after?: string): Promise<ConnectionPage>;
}

/**
 * Checks a paged list against every id it holds, newest first (more than a default page of them): the
 * default page of 50, small pages that add up to the whole list in the same order, an offset past the end,
 * limits outside 1 to 100 and malformed offsets refused with 400 VALIDATION_FAILED (never cut down), and the
 * GraphQL connection giving the same order a page at a time, from its smallest page (none) to its largest (100).
 */
export async function expectPagedList(list: PagedList, expected: readonly string[]): Promise<void> {
  const total = expected.length;
  expect(total).toBeGreaterThan(50);
  const pagination = (body: any, limit: number, offset: number) => {
    if (list.pagination !== false) expect(body.pagination).toEqual({ limit, offset, total });
  };
  const page = async (query: string) => ok(await list.read(query));

  const first = await page("");
  expect(list.ids(first)).toEqual(expected.slice(0, 50));
  pagination(first, 50, 0);
  const walked: string[] = [];
  for (let offset = 0; offset < total; offset += 7) {
    const body = await page(`limit=7&offset=${offset}`);
    pagination(body, 7, offset);
    walked.push(...list.ids(body));
  }
  expect(walked).toEqual(expected);
  expect(list.ids(await page("limit=100"))).toEqual(expected.slice(0, 100));
  const beyond = await page(`limit=10&offset=${total + 5}`);
  expect(list.ids(beyond)).toEqual([]);
  pagination(beyond, 10, total + 5);

  for (const [query, field] of [
    ["limit=101", "limit"],
    ["limit=0", "limit"],
    ["limit=2.5", "limit"],
    ["limit=abc", "limit"],
    ["offset=-1", "offset"],
  ] as const) {
    expectError(await list.read(query), 400, "VALIDATION_FAILED", field);
  }

  // Each page's count is its own size, and totalCount the whole list's, on every page (when selected).
  const connectionPage = async (first: number, after?: string) => {
    const { count, totalCount, ...page } = await list.connection(first, after);
    if (totalCount !== undefined) expect({ count, totalCount }).toEqual({ count: page.ids.length, totalCount: total });
    return page;
  };
  const nodes: string[] = [];
  for (let cursor: string | undefined, more = true; more;) {
    const connection = await connectionPage(20, cursor);
    nodes.push(...connection.ids);
    [more, cursor] = [connection.hasNextPage, connection.endCursor ?? undefined];
  }
  expect(nodes).toEqual(expected);
  expect(await connectionPage(0)).toEqual({ ids: [], hasNextPage: true, endCursor: null });
  expect(await connectionPage(100)).toEqual({
    ids: expected.slice(0, 100),
    hasNextPage: total > 100,
    endCursor: expect.any(String),
  });
}

/** Ids newest first, as every list orders them: by time, then by id (both descending) where times are equal. */
export function newestFirst<Row extends { id: string }>(rows: readonly Row[], at: (row: Row) => Date): string[] {
  return [...rows]
    .sort((a, b) => at(b).getTime() - at(a).getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((row) => row.id);
}

/** `count` times a few seconds apart, three at a time equal (so the order of equal times is tested too). */
export function seedTimes(count: number): Date[] {
  const start = Date.now() - 24 * 3600_000;
  return Array.from({ length: count }, (_, index) => new Date(start + Math.floor(index / 3) * 1000));
}

/**
 * `count` credentials of `profileId` stored directly (the API lets a profile hold 5 active at most), revoked
 * and expired ones among them, at `seedTimes`; their ids newest first.
 */
export async function seedCredentials(db: Db, profileId: string, count: number): Promise<string[]> {
  const rows = seedTimes(count).map((createdAt, index) => ({
    id: randomUUID(),
    name: `seeded ${index}`,
    profileId,
    environment: "test",
    publicKey: `pk_test_${randomBytes(16).toString("hex")}`,
    secretKeyPrefix: "sk_test_seeded00",
    secretKeyHash: randomBytes(32).toString("hex"),
    expiresAt: new Date(createdAt.getTime() + (index % 3 ? 365 : -1) * 86_400_000),
    revokedAt: index % 2 ? createdAt : null,
    createdAt,
  }));
  await db.apiCredential.createMany({ data: rows });
  return newestFirst(rows, (row) => row.createdAt);
}

/**
 * Every kind of caller but the operator, each with the code the operator's surface refuses it with (all 401):
 * none, a bearer token one character off the operator's, a session, and the secret and public keys of `key`.
 */
export function callersOtherThanTheOperator(
  session: Record<string, string>,
  key: { secretKey: string; publicKey: string },
  operatorToken: string,
): [label: string, headers: Record<string, string>, code: string][] {
  return [
    ["no credential", {}, "AUTHENTICATION_REQUIRED"],
    ["a wrong bearer token", { authorization: `Bearer ${operatorToken}x` }, "INVALID_BEARER_TOKEN"],
    ["a session JWT", session, "AUTHENTICATION_REQUIRED"],
    ["a secret API key", { "x-api-key": key.secretKey }, "AUTHENTICATION_REQUIRED"],
    ["a public API key", { "x-public-key": key.publicKey }, "AUTHENTICATION_REQUIRED"],
  ];
}
