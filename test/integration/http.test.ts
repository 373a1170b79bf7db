import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GraphQLError } from "graphql";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { formatGraphQLError } from "../../src/graphql/errors.js";
import { exampleTabs } from "../../src/graphql/graphiql.js";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { insideOneRateLimitWindow } from "../support/kit.js";
import { LOG_DIR, rememberSecret } from "../support/secrets.js";

/**
 * Cross-cutting HTTP behaviour (CONTRACT.md, Conventions and GraphQL): the one error shape, the order of
 * checks, X-Request-ID, CORS, rate limits, health, GraphQL hardening, the OpenAPI document and the logs.
 * Each configuration gets its own app; the main one serves everything that needs no special limits.
 */

const ORIGINS = ["https://app.example.com", "http://localhost:3000"];
const ALLOWED_REQUEST_HEADERS = [
  "Content-Type",
  "Authorization",
  "X-API-Key",
  "X-Public-Key",
  "X-Managed-Profile-Id",
  "X-Request-ID",
  "Idempotency-Key",
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ERROR_KEYS = ["code", "message", "status", "requestId", "details"];
/** Request id sent with the requests that carry secrets, so the log audit can prove it read their lines. */
const PROBE_REQUEST_ID = `log-probe.${randomUUID()}`;

/** Every bearer token, refresh token and secret key this file sent; none may reach a log. */
const usedSecrets = new Set<string>();
let appsStarted = 0;

async function start(env: Record<string, string> = {}): Promise<TestApp> {
  const app = await startTestApp(env);
  appsStarted++;
  return app;
}

interface CallOptions {
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  /** Client address as the server sees it (Fastify's inject), for per-IP behaviour. */
  remoteAddress?: string;
}

/** `TestApp.request`, with the headers as the assertions here read them. */
async function call(app: TestApp, method: string, url: string, options: CallOptions = {}): Promise<HttpResponse> {
  const response = await app.request(method, url, options);
  return { ...response, headers: response.headers as HttpResponse["headers"] };
}

const gqlBody = (query: string, variables?: Record<string, unknown>) => ({ query, ...(variables && { variables }) });

/** Signs in from a given client address (the harness' signIn always uses one address). */
async function signInFrom(app: TestApp, remoteAddress: string) {
  const email = `http-${randomUUID()}@example.com`;
  const requested = await call(app, "POST", "/v1/auth/request-otp", { remoteAddress, body: { email } });
  if (requested.status !== 200) throw new Error(`request-otp: ${JSON.stringify(requested.body)}`);
  const token = await app.smtp.nextCode(email);
  const verified = await call(app, "POST", "/v1/auth/verify-otp", { remoteAddress, body: { email, token } });
  if (verified.status !== 200) throw new Error(`verify-otp: ${JSON.stringify(verified.body)}`);
  const { access_token, refresh_token, user_id } = verified.body;
  rememberSecret(access_token);
  rememberSecret(refresh_token);
  usedSecrets.add(access_token).add(refresh_token);
  return { profileId: user_id as string, headers: { authorization: `Bearer ${access_token}` } };
}

async function signIn(app: TestApp) {
  const session = await app.signIn();
  usedSecrets.add(session.accessToken).add(session.refreshToken);
  return session;
}

async function createCredential(app: TestApp, sessionHeaders: Record<string, string>) {
  const credential = await app.createCredential(sessionHeaders);
  usedSecrets.add(credential.secretKey);
  return credential;
}

/** The contract's one REST error shape, with the request id of the response. */
function expectRestError(response: HttpResponse, status: number, code: string) {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  expect(Object.keys(response.body)).toEqual(["error"]);
  const { error } = response.body;
  expect(Object.keys(error).filter((key) => !ERROR_KEYS.includes(key))).toEqual([]);
  expect(error.status).toBe(status);
  expect(typeof error.message).toBe("string");
  expect(error.message.length).toBeGreaterThan(0);
  expect(typeof error.requestId).toBe("string");
  expect(error.requestId).toBe(response.headers["x-request-id"]);
  if (code === "VALIDATION_FAILED") {
    expect(Array.isArray(error.details) && error.details.length > 0).toBe(true);
    for (const issue of error.details)
      expect(issue).toEqual({ field: expect.any(String), message: expect.any(String) });
  } else {
    expect(error).not.toHaveProperty("details");
  }
  return error as {
    code: string;
    message: string;
    status: number;
    requestId: string;
    details?: { field: string; message: string }[];
  };
}

/**
 * A GraphQL error: the contract's code in extensions.code and its HTTP equivalent in extensions.status.
 * The response's own HTTP status is pinned where the contract implies it (errors before execution);
 * for errors raised while executing, 200 (GraphQL over HTTP) or the error's status are both accepted.
 */
function expectGraphQLError(response: HttpResponse, code: string, status: number, httpStatus?: number) {
  expect({
    code: response.body?.errors?.[0]?.extensions?.code,
    extensionStatus: response.body?.errors?.[0]?.extensions?.status,
  }).toEqual({ code, extensionStatus: status });
  if (httpStatus !== undefined) expect({ code, httpStatus: response.status }).toEqual({ code, httpStatus });
  else expect([200, status]).toContain(response.status);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  const [error] = response.body.errors;
  expect(typeof error.message).toBe("string");
  expect(error.extensions).not.toHaveProperty("stacktrace");
  return error as { message: string; extensions: Record<string, unknown> };
}

/** A document refused before execution: 400, VALIDATION_FAILED, nothing executed. */
function expectRefusedDocument(response: HttpResponse) {
  const error = expectGraphQLError(response, "VALIDATION_FAILED", 400, 400);
  expect(response.body.data ?? null).toBeNull();
  return error;
}

function expectRetryAfter(response: HttpResponse) {
  const retryAfter = String(response.headers["retry-after"] ?? "");
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
}

function corsHeaderNames(response: HttpResponse): string[] {
  return Object.keys(response.headers).filter((name) => name.toLowerCase().startsWith("access-control-"));
}

let t: TestApp;
beforeAll(async () => {
  t = await start({
    CORS_ORIGINS: ORIGINS.join(","),
    BODY_LIMIT_BYTES: "2048",
    RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "1000",
  });
});
afterAll(() => t?.close());

describe("error shape", () => {
  it("an unknown route -> 404 NOT_FOUND, whatever the method, without echoing the query string", async () => {
    const unknown = await t.request("GET", "/v1/no-such-route?api_key=not-echoed");
    const error = expectRestError(unknown, 404, "NOT_FOUND");
    expect(JSON.stringify(unknown.body)).not.toContain("not-echoed");
    expect(error.message.length).toBeGreaterThan(0);
    expectRestError(await t.request("DELETE", "/v1/auth/request-otp"), 404, "NOT_FOUND");
    expectRestError(await t.request("POST", "/nowhere", { body: {} }), 404, "NOT_FOUND");
  });

  it("malformed JSON -> 400 INVALID_JSON", async () => {
    expectRestError(
      await t.request("POST", "/v1/auth/refresh", { rawBody: '{"refresh_token": ' }),
      400,
      "INVALID_JSON",
    );
    expectRestError(
      await t.request("POST", "/v1/auth/request-otp", { rawBody: "{email: 'single@quotes.example'}" }),
      400,
      "INVALID_JSON",
    );
    expectRestError(await t.request("POST", "/v1/auth/refresh", { rawBody: "[1, 2,]" }), 400, "INVALID_JSON");
  });

  it("a body over BODY_LIMIT_BYTES -> 413 PAYLOAD_TOO_LARGE; one just under it is read", async () => {
    const big = await t.request("POST", "/v1/auth/refresh", { body: { refresh_token: "x".repeat(4096) } });
    expectRestError(big, 413, "PAYLOAD_TOO_LARGE");
    const underLimit = await t.request("POST", "/v1/auth/refresh", { body: { refresh_token: "x".repeat(1900) } });
    expectRestError(underLimit, 401, "AUTHENTICATION_REQUIRED");
  });

  it("a Content-Type other than application/json -> 400 VALIDATION_FAILED naming Content-Type", async () => {
    for (const contentType of ["application/xml", "application/x-www-form-urlencoded", "text/plain"]) {
      const response = await t.request("POST", "/v1/auth/refresh", {
        rawBody: contentType === "application/xml" ? "<refresh_token>x</refresh_token>" : "refresh_token=x",
        headers: { "content-type": contentType },
      });
      const error = expectRestError(response, 400, "VALIDATION_FAILED");
      expect({ contentType, fields: error.details?.map((issue) => issue.field) }).toEqual({
        contentType,
        fields: ["Content-Type"],
      });
    }
    const withCharset = await t.request("POST", "/v1/auth/refresh", {
      rawBody: JSON.stringify({ refresh_token: "not-a-real-token" }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expectRestError(withCharset, 401, "AUTHENTICATION_REQUIRED");
  });

  it("validation errors list the failing fields in details", async () => {
    const badEmail = expectRestError(
      await t.request("POST", "/v1/auth/request-otp", { body: { email: "not-an-email" } }),
      400,
      "VALIDATION_FAILED",
    );
    expect(badEmail.details?.map((issue) => issue.field)).toEqual(["email"]);
    const missing = expectRestError(
      await t.request("POST", "/v1/auth/verify-otp", { body: {} }),
      400,
      "VALIDATION_FAILED",
    );
    expect(missing.details?.map((issue) => issue.field).sort()).toEqual(["email", "token"]);
    const refresh = expectRestError(
      await t.request("POST", "/v1/auth/refresh", { body: { refresh_token: 42 } }),
      400,
      "VALIDATION_FAILED",
    );
    expect(refresh.details).toEqual([{ field: "refresh_token", message: "must be a string" }]);
    // A value of the wrong type is named as such, not as missing; JSON null is not "no body".
    const wrongType = expectRestError(
      await t.request("POST", "/v1/auth/verify-otp", { body: { email: 5, token: ["1"] } }),
      400,
      "VALIDATION_FAILED",
    );
    expect(wrongType.details).toEqual([
      { field: "email", message: "must be a string" },
      { field: "token", message: "must be a string" },
    ]);
    for (const body of ["null", "[]", '"text"']) {
      const refused = expectRestError(
        await t.request("POST", "/v1/auth/request-otp", {
          headers: { "content-type": "application/json" },
          rawBody: body,
        }),
        400,
        "VALIDATION_FAILED",
      );
      expect(refused.details, body).toEqual([{ field: "(body)", message: "must be a JSON object" }]);
    }

    const session = await signIn(t);
    const expiry = expectRestError(
      await t.request("POST", "/v1/api-credentials", { headers: session.headers, body: { expiresAt: "next week" } }),
      400,
      "VALIDATION_FAILED",
    );
    expect(expiry.details?.map((issue) => issue.field)).toEqual(["expiresAt"]);

    // GraphQL reports the same fields.
    const viaGraphQL = await t.graphql('mutation { requestOtp(email: "not-an-email") { success } }');
    const error = expectGraphQLError(viaGraphQL, "VALIDATION_FAILED", 400);
    expect(error.extensions.details).toEqual([{ field: "email", message: expect.any(String) }]);
  });
});

describe("order of checks: authentication before validation", () => {
  const badRequests: [string, { rawBody?: string; body?: unknown; headers?: Record<string, string> }][] = [
    ["malformed JSON", { rawBody: '{"name": ' }],
    ["an invalid body", { body: { name: 42, expiresAt: "tomorrow", unexpected: true } }],
    ["a body that is not an object", { body: ["name"] }],
    ["a wrong Content-Type", { rawBody: "<name>x</name>", headers: { "content-type": "application/xml" } }],
    ["an oversized body", { body: { name: "x".repeat(4096) } }],
  ];

  it.each(badRequests)(
    "an unauthenticated POST /v1/api-credentials with %s -> 401 AUTHENTICATION_REQUIRED",
    async (_label, options) => {
      expectRestError(await t.request("POST", "/v1/api-credentials", options), 401, "AUTHENTICATION_REQUIRED");
    },
  );

  it("an invalid bearer token with a bad body -> INVALID_BEARER_TOKEN, not a validation error", async () => {
    const response = await t.request("POST", "/v1/api-credentials", {
      rawBody: '{"name": ',
      headers: { authorization: "Bearer not.a.jwt" },
    });
    expectRestError(response, 401, "INVALID_BEARER_TOKEN");
    const deleted = await t.request("DELETE", "/v1/api-credentials/not-a-uuid");
    expectRestError(deleted, 401, "AUTHENTICATION_REQUIRED");
  });

  it("a credential kind the task refuses (secret key on a session-only route) -> 403 FORBIDDEN before the body is read", async () => {
    const session = await signIn(t);
    const { secretKey } = await createCredential(t, session.headers);
    const malformed = await t.request("POST", "/v1/api-credentials", {
      rawBody: '{"name": ',
      headers: { "x-api-key": secretKey },
    });
    expectRestError(malformed, 403, "FORBIDDEN");
    const invalid = await t.request("POST", "/v1/api-credentials", {
      body: { expiresAt: "tomorrow" },
      headers: { "x-api-key": secretKey },
    });
    expectRestError(invalid, 403, "FORBIDDEN");
  });
});

describe("X-Request-ID", () => {
  it("echoes a valid id (<= 128 of [A-Za-z0-9._:-]) in the header and in error.requestId", async () => {
    for (const id of ["abc", "req-2026.11.22:client_A-9", "x".repeat(128)]) {
      const notFound = await t.request("GET", "/v1/missing", { headers: { "x-request-id": id } });
      expect(notFound.headers["x-request-id"]).toBe(id);
      expect(notFound.body.error.requestId).toBe(id);
      const ok = await t.request("GET", "/healthz", { headers: { "x-request-id": id } });
      expect(ok.headers["x-request-id"]).toBe(id);
    }
  });

  it("replaces an invalid or too long id with a generated one", async () => {
    for (const id of ["x".repeat(129), "has space", "semi;colon", "slash/path", 'quote"d', "<script>", "a,b", ""]) {
      const response = await t.request("GET", "/v1/missing", { headers: { "x-request-id": id } });
      const echoed = response.headers["x-request-id"];
      expect({ id, echoed: UUID.test(String(echoed)) }).toEqual({ id, echoed: true });
      expect(response.body.error.requestId).toBe(echoed);
    }
  });

  it("generates a fresh id for a request without one", async () => {
    const first = await t.request("GET", "/healthz");
    const second = await t.request("GET", "/v1/missing");
    expect(first.headers["x-request-id"]).toMatch(UUID);
    expect(second.headers["x-request-id"]).toMatch(UUID);
    expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    expect(second.body.error.requestId).toBe(second.headers["x-request-id"]);
  });

  it("is echoed on every kind of response: errors, GraphQL, preflight, documents", async () => {
    const id = "every-response-1";
    const headers = { "x-request-id": id };
    const responses = [
      await t.request("POST", "/v1/api-credentials", { headers }),
      await t.request("POST", "/v1/auth/refresh", { rawBody: "{", headers }),
      await t.request("POST", "/v1/auth/refresh", { body: { refresh_token: "x".repeat(4096) }, headers }),
      await t.request("GET", "/readyz", { headers }),
      await t.request("GET", "/v1/openapi.json", { headers }),
      await t.graphql("{ __typename }", undefined, headers),
      await t.graphql("{ me { id } }", undefined, headers),
      await t.request("OPTIONS", "/v1/api-credentials", {
        headers: { ...headers, origin: ORIGINS[0], "access-control-request-method": "POST" },
      }),
    ];
    expect(responses.map((response) => response.headers["x-request-id"])).toEqual(responses.map(() => id));
  });
});

describe("CORS", () => {
  const preflight = (url: string, origin: string) =>
    t.request("OPTIONS", url, {
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "x-api-key" },
    });

  it.each(ORIGINS.flatMap((origin) => ["/v1/api-credentials", "/graphql"].map((url) => [origin, url])))(
    "a preflight from the listed origin %s to %s is allowed with the contract's request headers",
    async (origin, url) => {
      const response = await preflight(url, origin);
      expect(response.status).toBeGreaterThanOrEqual(200);
      expect(response.status).toBeLessThan(300);
      expect(response.headers["access-control-allow-origin"]).toBe(origin);
      const allowed = String(response.headers["access-control-allow-headers"] ?? "")
        .split(",")
        .map((name) => name.trim().toLowerCase());
      for (const name of ALLOWED_REQUEST_HEADERS) expect(allowed).toContain(name.toLowerCase());
      expect(String(response.headers["access-control-allow-methods"]).toUpperCase()).toContain("POST");
      expect(String(response.headers.vary ?? "")).toMatch(/origin/i);
    },
  );

  it("an actual request from a listed origin gets the origin back and may read X-Request-ID", async () => {
    const response = await t.request("GET", "/healthz", { headers: { origin: ORIGINS[1] } });
    expect(response.headers["access-control-allow-origin"]).toBe(ORIGINS[1]);
    expect(String(response.headers["access-control-expose-headers"]).toLowerCase()).toContain("x-request-id");
  });

  const unlisted = [
    "https://app.example.com.evil.com",
    "http://app.example.com",
    "https://app.example.com:8443",
    "https://app.example.com/",
    "https://evil.app.example.com",
    "https://evil.com",
    "http://localhost:3001",
    "http://localhost",
    "null",
  ];

  it("with no origin listed, no answer carries a CORS header or varies by origin, and a preflight is refused", async () => {
    const closed = await start({});
    try {
      const origin = ORIGINS[0];
      const headers = { origin, "access-control-request-method": "POST" };
      const answers = [
        await closed.request("OPTIONS", "/v1/api-credentials", { headers }),
        await closed.request("GET", "/healthz", { headers: { origin } }),
        await closed.graphql("{ __typename }", undefined, { origin }),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([404, 200, 200]);
      for (const answer of answers) {
        expect(corsHeaderNames(answer)).toEqual([]);
        expect(answer.headers.vary).toBeUndefined();
      }
    } finally {
      await closed.close();
    }
  });

  it.each(unlisted)("an unlisted origin (%s) gets no CORS headers, on preflight or actual requests", async (origin) => {
    for (const url of ["/v1/api-credentials", "/graphql"]) {
      const response = await preflight(url, origin);
      expect({ url, cors: corsHeaderNames(response) }).toEqual({ url, cors: [] });
    }
    const actual = await t.request("GET", "/healthz", { headers: { origin } });
    expect(corsHeaderNames(actual)).toEqual([]);
    expect(actual.status).toBe(200);
    const graphql = await t.graphql("{ __typename }", undefined, { origin });
    expect(corsHeaderNames(graphql)).toEqual([]);
  });

  it("server-to-server calls (no Origin) are unaffected", async () => {
    const response = await t.graphql("{ __typename }");
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ __typename: "Query" });
    expect(corsHeaderNames(response)).toEqual([]);
  });
});

describe("health", () => {
  it("/healthz -> 200 {status: ok}; /readyz -> 200 {status: ready}", async () => {
    const health = await t.request("GET", "/healthz");
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: "ok" });
    const ready = await t.request("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ready" });
  });
});

describe("rate limit per IP", () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await start({ RATE_LIMIT_PER_IP_PER_MINUTE: "5" });
    await insideOneRateLimitWindow();
  });
  afterAll(() => r?.close());

  const ip = "198.51.100.7";

  it("the 6th request in a minute -> 429 RATE_LIMITED with Retry-After; health checks are never limited", async () => {
    for (let i = 0; i < 10; i++) {
      expect((await call(r, "GET", "/healthz", { remoteAddress: ip })).status).toBe(200);
      expect((await call(r, "GET", "/readyz", { remoteAddress: ip })).status).toBe(200);
    }
    for (let i = 1; i <= 5; i++) {
      expect({ request: i, status: (await call(r, "GET", "/v1/openapi.json", { remoteAddress: ip })).status }).toEqual({
        request: i,
        status: 200,
      });
    }
    const sixth = await call(r, "GET", "/v1/openapi.json", {
      remoteAddress: ip,
      headers: { "x-request-id": "sixth-request" },
    });
    const error = expectRestError(sixth, 429, "RATE_LIMITED");
    expect(error.requestId).toBe("sixth-request");
    expectRetryAfter(sixth);
    // A forwarded-for header does not buy a new budget (no trusted proxy is configured).
    const spoofed = await call(r, "GET", "/v1/openapi.json", {
      remoteAddress: ip,
      headers: { "x-forwarded-for": "203.0.113.99" },
    });
    expectRestError(spoofed, 429, "RATE_LIMITED");

    expect((await call(r, "GET", "/healthz", { remoteAddress: ip })).body).toEqual({ status: "ok" });
    expect((await call(r, "GET", "/readyz", { remoteAddress: ip })).body).toEqual({ status: "ready" });
    // Another address has its own budget.
    expect((await call(r, "GET", "/v1/openapi.json", { remoteAddress: "198.51.100.8" })).status).toBe(200);
  });

  it("the per-IP limit covers every route, authenticated /v1 routes, /graphql and unknown paths included", async () => {
    // The address spent its budget in the previous test.
    expectRestError(await call(r, "GET", "/v1/openapi.json", { remoteAddress: ip }), 429, "RATE_LIMITED");
    const refresh = await call(r, "POST", "/v1/auth/refresh", { remoteAddress: ip, body: { refresh_token: "x" } });
    expectRestError(refresh, 429, "RATE_LIMITED");
    expectRestError(await call(r, "GET", "/v1/api-credentials", { remoteAddress: ip }), 429, "RATE_LIMITED");
    expectRestError(await call(r, "GET", "/v1/nothing-here", { remoteAddress: ip }), 429, "RATE_LIMITED");
    const graphql = await call(r, "POST", "/graphql", { remoteAddress: ip, body: gqlBody("{ __typename }") });
    expectGraphQLError(graphql, "RATE_LIMITED", 429, 429);
    expectRetryAfter(graphql);
  });
});

describe("rate limit on OTP endpoints", () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await start({ RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "2", OTP_RESEND_COOLDOWN_SECONDS: "0" });
    await insideOneRateLimitWindow();
  });
  afterAll(() => r?.close());

  const email = () => `otp-${randomUUID()}@example.com`;

  it("the 3rd request-otp from one address -> 429 with Retry-After, while other routes still answer", async () => {
    const ip = "198.51.100.20";
    const first = email();
    expect((await call(r, "POST", "/v1/auth/request-otp", { remoteAddress: ip, body: { email: first } })).status).toBe(
      200,
    );
    expect(
      (await call(r, "POST", "/v1/auth/request-otp", { remoteAddress: ip, body: { email: email() } })).status,
    ).toBe(200);
    const third = await call(r, "POST", "/v1/auth/request-otp", { remoteAddress: ip, body: { email: email() } });
    expectRestError(third, 429, "RATE_LIMITED");
    expectRetryAfter(third);

    expect((await call(r, "GET", "/healthz", { remoteAddress: ip })).status).toBe(200);
    expect((await call(r, "GET", "/v1/openapi.json", { remoteAddress: ip })).status).toBe(200);
    expectRestError(
      await call(r, "POST", "/v1/auth/refresh", { remoteAddress: ip, body: { refresh_token: "unknown" } }),
      401,
      "AUTHENTICATION_REQUIRED",
    );
    const graphql = await call(r, "POST", "/graphql", { remoteAddress: ip, body: gqlBody("{ __typename }") });
    expect(graphql.body).toEqual({ data: { __typename: "Query" } });
    // The limit is per address.
    expect(
      (await call(r, "POST", "/v1/auth/request-otp", { remoteAddress: "198.51.100.21", body: { email: email() } }))
        .status,
    ).toBe(200);
    // The code mailed to the first address is still there to be used.
    await r.smtp.nextCode(first);
  });

  it("verify-otp has the same strict limit", async () => {
    const ip = "198.51.100.30";
    const target = email();
    expect(
      (await call(r, "POST", "/v1/auth/request-otp", { remoteAddress: "198.51.100.31", body: { email: target } }))
        .status,
    ).toBe(200);
    await r.smtp.nextCode(target);
    const attempts = [];
    for (let i = 0; i < 3; i++)
      attempts.push(
        await call(r, "POST", "/v1/auth/verify-otp", { remoteAddress: ip, body: { email: target, token: "wrong!" } }),
      );
    expect(attempts.slice(0, 2).map((attempt) => attempt.body.error.code)).toEqual(["INVALID_OTP", "INVALID_OTP"]);
    expectRestError(attempts[2], 429, "RATE_LIMITED");
    expectRetryAfter(attempts[2]);
  });

  it("the GraphQL requestOtp mutation cannot be used to get around the OTP limit", async () => {
    const ip = "198.51.100.40";
    const results = [];
    for (let i = 0; i < 3; i++) {
      const response = await call(r, "POST", "/graphql", {
        remoteAddress: ip,
        body: gqlBody("mutation ($email: String!) { requestOtp(email: $email) { success } }", { email: email() }),
      });
      results.push(response.body.errors?.[0]?.extensions?.code ?? "OK");
    }
    expect(results).toEqual(["OK", "OK", "RATE_LIMITED"]);
  });
});

describe("rate limit per profile", () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await start({ RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "3", RATE_LIMIT_PER_IP_PER_MINUTE: "1000" });
    await insideOneRateLimitWindow();
  });
  afterAll(() => r?.close());

  it("a session's 4th request in a minute -> 429, from any address, while another session still passes", async () => {
    // Each sign-in from its own address: anonymous calls count against the limit by address.
    const a = await signInFrom(r, "192.0.2.1");
    const b = await signInFrom(r, "192.0.2.2");
    for (let i = 1; i <= 3; i++) {
      const listed = await call(r, "GET", "/v1/api-credentials", {
        headers: a.headers,
        remoteAddress: `192.0.2.${10 + i}`,
      });
      expect({ request: i, status: listed.status }).toEqual({ request: i, status: 200 });
    }
    const fourth = await call(r, "GET", "/v1/api-credentials", { headers: a.headers, remoteAddress: "192.0.2.20" });
    expectRestError(fourth, 429, "RATE_LIMITED");
    expectRetryAfter(fourth);
    const viaGraphQL = await call(r, "POST", "/graphql", {
      headers: a.headers,
      body: gqlBody("{ me { id } }"),
      remoteAddress: "192.0.2.21",
    });
    expectGraphQLError(viaGraphQL, "RATE_LIMITED", 429, 429);

    // Same address as the refused request, other session: passes.
    const other = await call(r, "GET", "/v1/api-credentials", { headers: b.headers, remoteAddress: "192.0.2.20" });
    expect(other.status).toBe(200);
    expect(other.body.credentials).toEqual([]);
  });

  it("a profile's keys and sign-ins share its budget: the requests of all of them count together", async () => {
    const owner = await signInFrom(r, "192.0.2.30");
    // Creating its two keys is two of the profile's three requests.
    const secretKeys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const created = await call(r, "POST", "/v1/api-credentials", {
        headers: owner.headers,
        body: {},
        remoteAddress: "192.0.2.30",
      });
      expect(created.status).toBe(201);
      secretKeys.push(rememberSecret(created.body.secretKey as string));
      usedSecrets.add(created.body.secretKey as string);
    }
    const me = (secretKey: string) =>
      call(r, "POST", "/graphql", {
        headers: { "x-api-key": secretKey },
        body: gqlBody("{ me { id } }"),
        remoteAddress: "192.0.2.31",
      });
    expect((await me(secretKeys[0]!)).body).toEqual({ data: { me: { id: owner.profileId } } });
    // The other key, and the session, find the budget spent.
    const otherKey = await me(secretKeys[1]!);
    expectGraphQLError(otherKey, "RATE_LIMITED", 429, 429);
    expectRetryAfter(otherKey);
    const session = await call(r, "GET", "/v1/api-credentials", {
      headers: owner.headers,
      remoteAddress: "192.0.2.32",
    });
    expectRestError(session, 429, "RATE_LIMITED");
  });
});

describe("GraphQL", () => {
  it("errors carry extensions.code and extensions.status, from resolvers and from the HTTP layer", async () => {
    expectGraphQLError(await t.graphql("{ me { id } }"), "AUTHENTICATION_REQUIRED", 401);
    expectGraphQLError(
      await t.graphql("{ me { id } }", undefined, { authorization: "Bearer not.a.jwt" }),
      "INVALID_BEARER_TOKEN",
      401,
      401,
    );
    expectGraphQLError(await t.request("POST", "/graphql", { rawBody: '{"query": ' }), "INVALID_JSON", 400, 400);
    const tooLarge = await t.graphql("{ __typename }", { padding: "x".repeat(4096) });
    expectGraphQLError(tooLarge, "PAYLOAD_TOO_LARGE", 413, 413);
  });

  it("a syntax error -> 400 VALIDATION_FAILED", async () => {
    const response = await t.graphql("{ me { id }");
    expectRefusedDocument(response);
    expectRefusedDocument(await t.graphql("query {"));
  });

  it("a subscription sent over HTTP -> 400 VALIDATION_FAILED, pointing at WebSocket", async () => {
    const session = await signIn(t);
    const response = await t.graphql(
      'subscription { rampEvents(quoteId: "00000000-0000-4000-8000-000000000000") { eventId } }',
      undefined,
      session.headers,
    );
    expectGraphQLError(response, "VALIDATION_FAILED", 400, 400);
    expect(response.body.errors[0].message).toMatch(/WebSocket/);
  });

  it("a null variable for a non-null argument with a default -> VALIDATION_FAILED naming the argument", async () => {
    // Validation lets it through (the argument has a default); graphql-js refuses it while executing.
    const session = await signIn(t);
    const response = await t.graphql(
      "query ($status: ManagedProfileFilter) { managedProfiles(status: $status) { count } }",
      { status: null },
      session.headers,
    );
    const error = expectGraphQLError(response, "VALIDATION_FAILED", 400);
    expect(error.message).toMatch(/"status"/);
  });

  it("an unknown field -> 400 VALIDATION_FAILED", async () => {
    expectRefusedDocument(await t.graphql("{ noSuchField }"));
  });

  it("a page size above the documented maximum (or below 0) is refused, not cut down", async () => {
    const session = await signIn(t);
    const secret = { "x-api-key": (await t.createCredential(session.headers)).secretKey };
    for (const [query, headers] of [
      ["{ ramps(first: 500) { count } }", secret],
      ["{ ramps(first: -1) { count } }", secret],
      ["{ webhooks(first: 101) { count } }", secret],
      ["{ me { apiCredentials(first: 101) { count } } }", session.headers],
    ] as const) {
      const error = expectGraphQLError(await t.graphql(query, undefined, headers), "VALIDATION_FAILED", 400);
      expect(error.extensions.details, query).toEqual([{ field: "first", message: "must be between 0 and 100" }]);
    }
    for (const [query, headers] of [
      ["{ ramps(first: 100) { count } }", secret],
      ["{ me { apiCredentials(first: 0) { count } } }", session.headers],
    ] as const) {
      expect((await t.graphql(query, undefined, headers)).body.errors, query).toBeUndefined();
    }
  });

  it("a batched request (JSON array body) is refused", async () => {
    for (const batch of [[gqlBody("{ __typename }"), gqlBody("{ __typename }")], [gqlBody("{ __typename }")]]) {
      const response = await t.request("POST", "/graphql", { body: batch });
      expect(Array.isArray(response.body)).toBe(false);
      expectRefusedDocument(response);
    }
  });

  it("introspection works outside production", async () => {
    const schema = await t.graphql("{ __schema { queryType { name } mutationType { name } } }");
    expect(schema.status).toBe(200);
    expect(schema.body.data.__schema).toEqual({ queryType: { name: "Query" }, mutationType: { name: "Mutation" } });
    const type = await t.graphql('{ __type(name: "Query") { name } }');
    expect(type.body.data).toEqual({ __type: { name: "Query" } });
  });

  it("the default limits let a moderately deep, aliased query through (the limits come from configuration)", async () => {
    const session = await signIn(t);
    const deep = await t.graphql("{ me { apiCredentials { pageInfo { hasNextPage } } } }", undefined, session.headers);
    expect(deep.body).toEqual({ data: { me: { apiCredentials: { pageInfo: { hasNextPage: false } } } } });
    const aliased = await t.graphql("{ a: me { id } b: me { id } c: me { id } }", undefined, session.headers);
    expect(aliased.body.data).toEqual({
      a: { id: session.profileId },
      b: { id: session.profileId },
      c: { id: session.profileId },
    });
    const costly = await t.graphql("{ apiCredentials(first: 30) { count } }", undefined, session.headers);
    expect(costly.body).toEqual({ data: { apiCredentials: { count: 0 } } });
  });

  it("unknown errors become INTERNAL with no internals (formatGraphQLError)", () => {
    const logged: string[] = [];
    const format = formatGraphQLError(pino({ level: "info" }, { write: (line: string) => void logged.push(line) }));
    const internals = "connect ECONNREFUSED 10.0.0.5:5432 user=ramp password=hunter2 at /srv/app/src/db/client.ts:12";
    const plain = new Error(internals);
    const fromPlain = format(
      { message: internals, extensions: { code: "INTERNAL_SERVER_ERROR", stacktrace: plain.stack?.split("\n") } },
      plain,
    );
    expect(fromPlain).toEqual({ message: "Internal server error.", extensions: { code: "INTERNAL", status: 500 } });

    const wrapped = new GraphQLError(internals, { originalError: plain, path: ["me"] });
    const fromResolver = format(
      {
        message: internals,
        path: ["me"],
        extensions: { code: "INTERNAL_SERVER_ERROR", stacktrace: ["Error", "at x"] },
      },
      wrapped,
    );
    expect(fromResolver).toMatchObject({
      message: "Internal server error.",
      path: ["me"],
      extensions: { code: "INTERNAL", status: 500 },
    });
    expect(fromResolver.extensions).toEqual({ code: "INTERNAL", status: 500 });

    const foreign = new GraphQLError(internals, { extensions: { code: "DOWNSTREAM_SERVICE_ERROR" } });
    expect(
      format({ message: internals, extensions: { code: "DOWNSTREAM_SERVICE_ERROR" } }, foreign).extensions,
    ).toEqual({ code: "INTERNAL", status: 500 });

    for (const formatted of [fromPlain, fromResolver]) {
      const text = JSON.stringify(formatted);
      for (const leak of ["hunter2", "ECONNREFUSED", "client.ts", "stacktrace", "at "])
        expect(text).not.toContain(leak);
    }
    // The details go to the server's log instead.
    expect(logged.join("")).toContain("ECONNREFUSED");

    // Known errors keep their code, status and message.
    const known = format({ message: "x" }, new AppError("CREDENTIAL_NOT_FOUND"));
    expect(known).toMatchObject({
      message: "Credential not found.",
      extensions: { code: "CREDENTIAL_NOT_FOUND", status: 404 },
    });
  });
});

describe("GraphQL limits", () => {
  let g: TestApp;
  let session: Record<string, string>;
  beforeAll(async () => {
    g = await start({ GRAPHQL_MAX_DEPTH: "3", GRAPHQL_MAX_ALIASES: "2", GRAPHQL_MAX_COST: "100" });
    session = (await signIn(g)).headers;
  });
  afterAll(() => g?.close());

  it("a query deeper than GRAPHQL_MAX_DEPTH is refused; one at the limit runs", async () => {
    expect((await g.graphql("{ me { apiCredentials { count } } }", undefined, session)).body).toEqual({
      data: { me: { apiCredentials: { count: 0 } } },
    });
    expectRefusedDocument(
      await g.graphql("{ me { apiCredentials { pageInfo { hasNextPage } } } }", undefined, session),
    );
    // Fragments do not hide depth.
    expectRefusedDocument(
      await g.graphql(
        "query { ...Deep } fragment Deep on Query { me { apiCredentials { edges { node { id } } } } }",
        undefined,
        session,
      ),
    );
  });

  it("more aliases than GRAPHQL_MAX_ALIASES are refused", async () => {
    expect((await g.graphql("{ a: me { id } b: me { id } }", undefined, session)).body.data).toEqual({
      a: { id: expect.any(String) },
      b: { id: expect.any(String) },
    });
    expectRefusedDocument(await g.graphql("{ a: me { id } b: me { id } c: me { id } }", undefined, session));
    expectRefusedDocument(await g.graphql("{ a: __typename b: __typename c: __typename }", undefined, session));
  });

  it("a document error repeats at most 64 characters of a quoted token, however long the token", async () => {
    const name = "a".repeat(300_000);
    for (const query of [`{ me { id } } ${name}`, `{ ${name} }`]) {
      const response = await g.graphql(query);
      const error = expectGraphQLError(response, "VALIDATION_FAILED", 400);
      expect(error.message).toContain(`"${"a".repeat(64)}…"`);
      expect(JSON.stringify(response.body).length).toBeLessThan(1_000);
    }
  });

  it("a string holding graphql-jit's markers is refused before it is compiled: it could have run as code", async () => {
    const probe = "gatewayRanInjectedCode";
    const after = `__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d(globalThis.${probe} = true)`;
    const response = await g.graphql(
      `{ apiCredentials(first: 1, after: ${JSON.stringify(after)}) { count } }`,
      undefined,
      session,
    );
    expect(expectGraphQLError(response, "VALIDATION_FAILED", 400).message).toBe(
      "A string or name in the document holds a sequence this server reserves.",
    );
    expect(probe in globalThis).toBe(false);
  });

  it("a query costing more than GRAPHQL_MAX_COST is refused", async () => {
    expect((await g.graphql("{ apiCredentials(first: 5) { count } }", undefined, session)).body).toEqual({
      data: { apiCredentials: { count: 0 } },
    });
    expectRefusedDocument(await g.graphql("{ apiCredentials(first: 1000) { count } }", undefined, session));
  });
});

describe("GraphQL pages within pages", () => {
  let g: TestApp;
  let secret: Record<string, string>;
  const NESTED = `query ($outer: Int!, $inner: Int!) {
    webhooks(first: $outer) { edges { node { id deliveries(first: $inner) { count edges { node { attempts { statusCode } } } } } } }
  }`;
  beforeAll(async () => {
    // A cost limit high enough to leave the pages' count to decide.
    g = await start({ GRAPHQL_MAX_LIST_ITEMS: "500", GRAPHQL_MAX_COST: "1000000" });
    const session = (await signIn(g)).headers;
    secret = { "x-api-key": (await g.createCredential(session)).secretKey };
  });
  afterAll(() => g?.close());

  it("count every page's items, nested pages multiplied: over GRAPHQL_MAX_LIST_ITEMS is refused before anything runs", async () => {
    await g.graphql("{ __typename }", undefined, secret); // the key is verified and cached
    const statements = g.app.statements.count;
    const refused = await g.graphql(NESTED, { outer: 100, inner: 100 }, secret);
    const error = expectGraphQLError(refused, "VALIDATION_FAILED", 400);
    expect(error.message).toContain("10100 items");
    expect(g.app.statements.count).toBe(statements);
    // Literal sizes, defaults (20 a page) and fragments count the same way.
    for (const query of [
      "{ webhooks(first: 30) { edges { node { deliveries(first: 20) { count } } } } }",
      "{ webhooks(first: 30) { edges { node { deliveries { count } } } } }",
      "{ webhooks(first: 30) { ...Pages } } fragment Pages on WebhookConnection { edges { node { deliveries { count } } } }",
    ])
      expect(expectGraphQLError(await g.graphql(query, undefined, secret), "VALIDATION_FAILED", 400).message).toContain(
        "630 items",
      );
    // An operation without variables is counted once, and its count kept: asked again, it is refused again.
    const again = await g.graphql(
      "{ webhooks(first: 30) { ...Pages } } fragment Pages on WebhookConnection { edges { node { deliveries { count } } } }",
      undefined,
      secret,
    );
    expect(expectGraphQLError(again, "VALIDATION_FAILED", 400).message).toContain("630 items");

    const within = await g.graphql(NESTED, { outer: 20, inner: 20 }, secret);
    expect(within.body).toEqual({ data: { webhooks: { edges: [] } } });
  });
});

describe("GraphiQL in development", () => {
  let d: TestApp;
  beforeAll(async () => {
    d = await start();
  });
  afterAll(() => d?.close());

  it("a browser's GET /graphql is GraphiQL, its every file served here (nothing from the internet)", async () => {
    const page = await d.request("GET", "/graphql", { headers: { accept: "text/html,application/xhtml+xml" } });
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const sources = [...String(page.body).matchAll(/(?:src|href)="([^"]+)"/g)].map(([, source]) => source!);
    expect(sources.sort()).toEqual([
      "/graphiql/graphiql.css",
      "/graphiql/graphiql.js",
      "/graphiql/react-dom.js",
      "/graphiql/react.js",
      "/graphiql/start.js",
      // No icon: the browser asks for none.
      "data:,",
    ]);
    for (const source of sources.filter((source) => source.startsWith("/"))) {
      const file = await d.request("GET", source);
      expect(file.status, source).toBe(200);
      expect(file.headers["content-type"], source).toMatch(
        source.endsWith(".css") ? /^text\/css/ : /^text\/javascript/,
      );
      expect(String(file.body).length, source).toBeGreaterThan(source.endsWith("start.js") ? 100 : 10_000);
    }
    // Subscriptions go through graphql-ws on this server; the headers editor starts empty, and the header helper
    // writes each way of signing in.
    const start = String((await d.request("GET", "/graphiql/start.js")).body);
    expect(start).toContain('socket.protocol = location.protocol === "https:" ? "wss:" : "ws:"');
    expect(start).not.toContain("defaultHeaders");
    for (const header of ["X-API-Key", "Authorization"]) expect(start).toContain(`header: "${header}"`);
    expect(start).not.toMatch(/https?:\/\//);
    // The example tabs, which the script asks for: read from their files.
    expect((await d.request("GET", "/graphiql/examples.json")).body).toEqual(exampleTabs());
    expect((await d.request("GET", "/graphiql/other.js")).status).toBe(404);
  });

  it("GET /graphql with a query, or without HTML, is still GraphQL", async () => {
    const answered = await d.request("GET", "/graphql?query=%7B__typename%7D", {
      headers: { accept: "text/html,application/json", "apollo-require-preflight": "true" },
    });
    expect(answered.body).toEqual({ data: { __typename: "Query" } });
    expect((await d.graphql("{ __typename }")).body).toEqual({ data: { __typename: "Query" } });
  });
});

describe("GraphQL in production", () => {
  let p: TestApp;
  beforeAll(async () => {
    const jwtSecret = rememberSecret(randomBytes(32).toString("base64url"));
    usedSecrets.add(jwtSecret);
    p = await start({
      NODE_ENV: "production",
      JWT_SECRET: jwtSecret,
      OPERATOR_TOKEN: `operator-${jwtSecret}`,
      SIGNING_KEY_ENCRYPTION_KEY: `signing-${jwtSecret}`,
      PUBLIC_BASE_URL: "https://gateway.example",
    });
  });
  afterAll(() => p?.close());

  it("refuses introspection (and field suggestions) but serves ordinary operations", async () => {
    expect(p.app.config.production).toBe(true);
    expectRefusedDocument(await p.graphql("{ __schema { queryType { name } } }"));
    expectRefusedDocument(await p.graphql('{ __type(name: "Query") { name } }'));
    const suggestion = expectRefusedDocument(await p.graphql("{ mee { id } }"));
    expect(suggestion.message).not.toMatch(/did you mean/i);
    expect((await p.graphql("{ __typename }")).body).toEqual({ data: { __typename: "Query" } });
    expectGraphQLError(await p.graphql("{ me { id } }"), "AUTHENTICATION_REQUIRED", 401);
  });

  it("refuses introspection on /admin/graphql too, to the operator, and serves its operations", async () => {
    expectRefusedDocument(await p.adminGraphql("{ __schema { queryType { name } } }"));
    expect((await p.adminGraphql("{ __typename }")).body).toEqual({ data: { __typename: "Query" } });
  });

  it("serves no IDE: a browser's GET /graphql is no page, and /graphiql/ holds no files", async () => {
    const page = await p.request("GET", "/graphql", { headers: { accept: "text/html" } });
    expect(page.headers["content-type"]).not.toMatch(/html/);
    expect(String(JSON.stringify(page.body))).not.toContain("graphiql");
    expect((await p.request("GET", "/graphiql/graphiql.js")).status).toBe(404);
  });
});

describe("unknown failures", () => {
  let b: TestApp;
  beforeAll(async () => {
    b = await start();
  });
  afterAll(() => b?.close());

  it("a failing database query -> 500 INTERNAL with no internals, on REST and GraphQL", async () => {
    const session = await signIn(b);
    await b.app.db.$executeRawUnsafe('ALTER TABLE "ApiCredential" RENAME TO "ApiCredentialGone"');
    const rest = await b.request("GET", "/v1/api-credentials", { headers: session.headers });
    const error = expectRestError(rest, 500, "INTERNAL");
    expect(error.message).toBe("Internal server error.");
    const graphql = await b.graphql("{ apiCredentials { count } }", undefined, session.headers);
    expectGraphQLError(graphql, "INTERNAL", 500);
    expect(graphql.body.errors[0].message).toBe("Internal server error.");
    for (const text of [JSON.stringify(rest.body), JSON.stringify(graphql.body)]) {
      for (const leak of ["ApiCredential", "prisma", "Prisma", "SQL", "table", "stack", ".ts:"])
        expect(text).not.toContain(leak);
    }
  });
});

/** Fastify's route tree as `METHOD /path` (OpenAPI `{param}` form), read from printRoutes. */
function registeredRoutes(server: TestApp["server"]): { method: string; url: string; path: string }[] {
  const routes: { method: string; url: string; path: string }[] = [];
  const stack: string[] = [];
  for (const line of server.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    stack.length = depth;
    stack.push(match[2]);
    const url = stack.join("");
    for (const method of match[3]?.split(",").map((name) => name.trim()) ?? []) {
      routes.push({ method, url, path: url.replace(/:([A-Za-z0-9_]+)/g, "{$1}") });
    }
  }
  return routes;
}

describe("OpenAPI", () => {
  it("GET /v1/openapi.json is an OpenAPI 3.1 document listing every /v1 route the server has", async () => {
    const response = await t.request("GET", "/v1/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    const document = response.body;
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(typeof document.paths).toBe("object");

    const routes = registeredRoutes(t.server);
    // The parser read the real tree: every route it found exists, and the known ones are among them.
    for (const route of routes.filter((candidate) => candidate.url.startsWith("/")))
      expect({ route, exists: t.server.hasRoute({ method: route.method as "GET", url: route.url }) }).toEqual({
        route,
        exists: true,
      });
    const found = routes.map((route) => `${route.method} ${route.path}`);
    for (const known of [
      "POST /v1/auth/request-otp",
      "POST /v1/auth/verify-otp",
      "POST /v1/auth/refresh",
      "POST /v1/auth/logout",
      "POST /v1/api-credentials",
      "GET /v1/api-credentials",
      "DELETE /v1/api-credentials/{credentialId}",
    ]) {
      expect(found).toContain(known);
    }

    // HEAD routes are Fastify's automatic twins of GET; the document does not describe itself.
    const v1 = routes.filter(
      (route) =>
        route.url.startsWith("/v1/") && !["HEAD", "OPTIONS"].includes(route.method) && route.url !== "/v1/openapi.json",
    );
    const missing = v1
      .filter((route) => !document.paths[route.path]?.[route.method.toLowerCase()])
      .map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);

    // And nothing is documented that the server does not serve.
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const phantom = documented.filter((operation) => !found.includes(operation));
    expect(phantom).toEqual([]);
  });
});

describe("logs", () => {
  it("secrets sent in headers and bodies, on success and error paths", async () => {
    const headers = { "x-request-id": PROBE_REQUEST_ID };
    const session = await signIn(t);
    const { secretKey, publicKey } = await createCredential(t, session.headers);
    const withSession = { ...headers, ...session.headers };
    expect((await t.request("GET", "/v1/api-credentials", { headers: withSession })).status).toBe(200);
    expect(
      (await t.graphql("{ me { id } }", undefined, { ...headers, "x-api-key": secretKey, "x-public-key": publicKey }))
        .status,
    ).toBe(200);
    await t.request("POST", "/v1/api-credentials", { headers: { ...headers, "x-api-key": secretKey }, rawBody: "{" });
    await t.request("GET", "/v1/missing", { headers: { ...withSession, "x-api-key": secretKey } });
    await t.request("POST", "/v1/api-credentials", {
      headers: { ...headers, authorization: `Token ${session.accessToken}` },
    });
    await t.request("POST", "/v1/auth/refresh", { headers, rawBody: `{"refresh_token": "${session.refreshToken}"` });
    await t.request("POST", "/v1/auth/refresh", {
      headers,
      body: { refresh_token: session.refreshToken, extra: secretKey.repeat(80) },
    });
    await t.graphql(
      "mutation ($token: String!) { logout(refreshToken: $token) { loggedOut } }",
      { token: session.refreshToken },
      headers,
    );
    const rotated = await t.request("POST", "/v1/auth/refresh", {
      headers,
      body: { refresh_token: session.refreshToken },
    });
    if (rotated.body?.access_token) {
      usedSecrets.add(rememberSecret(rotated.body.access_token)).add(rememberSecret(rotated.body.refresh_token));
    }
  });

  it("the log files of this file's apps never contain a bearer token or secret key used here", () => {
    const files = readdirSync(LOG_DIR).filter((name) => name.startsWith(`integration-${process.pid}-`));
    expect(files.length).toBeGreaterThanOrEqual(appsStarted);
    const text = files.map((name) => readFileSync(join(LOG_DIR, name), "utf8")).join("\n");
    // The audit reads the lines the probe requests wrote.
    expect(text).toContain(PROBE_REQUEST_ID);
    expect(usedSecrets.size).toBeGreaterThanOrEqual(10);
    const leaked = [...usedSecrets]
      .filter((secret) => text.includes(secret))
      .map((secret) => `${secret.slice(0, 12)}… (${secret.length} chars)`);
    expect(leaked).toEqual([]);
  });
});
