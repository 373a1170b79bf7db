import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Agent, fetch as fetchThrough } from "undici";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { rememberSecret } from "../support/secrets.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { execute, firstError, openSocket, subscribe, type WsSocket } from "../support/ws-client.js";

/* ---------------------------------------------------------------- HTTP */

interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

async function call<T = any>(
  server: ServerProcess,
  method: string,
  path: string,
  /** `connection`: an agent whose one connection every call through it shares. */
  options: { headers?: Record<string, string>; body?: unknown; connection?: Agent } = {},
): Promise<Reply<T>> {
  const init = {
    method,
    headers: { ...(options.body !== undefined && { "content-type": "application/json" }), ...options.headers },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  };
  const url = `${server.url}${path}`;
  const response = options.connection
    ? await fetchThrough(url, { ...init, dispatcher: options.connection })
    : await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const graphql = <T = any>(
  server: ServerProcess,
  query: string,
  headers: Record<string, string> = {},
  variables?: Record<string, unknown>,
  connection?: Agent,
) => call<T>(server, "POST", "/graphql", { headers, body: { query, ...(variables && { variables }) }, connection });

interface Session {
  email: string;
  accessToken: string;
  refreshToken: string;
  profileId: string;
  headers: Record<string, string>;
}

const randomEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/** request-otp -> code from the real SMTP capture -> verify-otp, over real HTTP. */
async function signIn(server: ServerProcess, email = randomEmail("user")): Promise<Session> {
  const requested = await call(server, "POST", "/v1/auth/request-otp", { body: { email } });
  expect(requested.status, JSON.stringify(requested.body)).toBe(200);
  expect(requested.body).toMatchObject({ success: true, message: expect.any(String) });
  const token = await server.smtp.nextCode(email);
  const verified = await call(server, "POST", "/v1/auth/verify-otp", { body: { email, token } });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  const { access_token, refresh_token, user_id } = verified.body;
  rememberSecret(access_token);
  rememberSecret(refresh_token);
  expect(verified.body).toMatchObject({ success: true, token_type: "bearer", expires_in: expect.any(Number) });
  return {
    email,
    accessToken: access_token,
    refreshToken: refresh_token,
    profileId: user_id,
    headers: { authorization: `Bearer ${access_token}` },
  };
}

interface Credential {
  id: string;
  name: string;
  publicKey: string;
  secretKey: string;
}

async function createCredential(server: ServerProcess, session: Session, name: string): Promise<Credential> {
  const created = await call(server, "POST", "/v1/api-credentials", { headers: session.headers, body: { name } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  rememberSecret(created.body.secretKey);
  return created.body;
}

async function revokeCredential(server: ServerProcess, session: Session, id: string) {
  const revoked = await call(server, "DELETE", `/v1/api-credentials/${id}`, { headers: session.headers });
  expect(revoked.status, JSON.stringify(revoked.body)).toBe(204);
}

/* ----------------------------------------------------------- WebSocket */

/**
 * The server handles a socket's messages in order: once a query sent after a `subscribe` has its result
 * (a database round trip), the subscription's source stream is registered and no event can be missed.
 */
async function barrier(client: Client, profileId: string) {
  const result = await execute(client, "{ me { id } }");
  expect(result).toEqual({ data: { me: { id: profileId } } });
}

const CREDENTIAL_EVENTS = "subscription { apiCredentialEvents { action credential { id name } } }";

/* --------------------------------------------------------------- tests */

describe(`built server over real HTTP and WebSocket (${process.env.TEST_DB ?? "sqlite"})`, () => {
  let server: ServerProcess;
  const sockets: WsSocket[] = [];
  const open = (params: Record<string, unknown>) => {
    const socket = openSocket(server.wsUrl, params);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    // Many sign-ins from one address; the sign-in limit has tests of its own.
    server = await startServerProcess({ env: { RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "1000" } });
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.dispose()));
    if (server) {
      expect(await server.stop("SIGTERM")).toBe(0);
      await server.dispose();
    }
  });

  it("signs in by emailed code, issues and lists a credential, and answers GraphQL for the session and the key", async () => {
    const health = await call(server, "GET", "/healthz");
    expect(health).toMatchObject({ status: 200, body: { status: "ok" } });

    const email = `Flow-${randomUUID().slice(0, 8)}@Example.COM`;
    const session = await signIn(server, email);
    expect(session.profileId).toMatch(/^[0-9a-f-]{36}$/);
    expect(session.accessToken.split(".")).toHaveLength(3);

    const credential = await createCredential(server, session, "e2e flow");
    expect(credential).toMatchObject({
      name: "e2e flow",
      profileId: session.profileId,
      environment: "test",
      revokedAt: null,
    });
    expect(credential.publicKey).toMatch(/^pk_test_[A-Za-z0-9]{32}$/);
    expect(credential.secretKey).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);

    const listed = await call(server, "GET", "/v1/api-credentials", { headers: session.headers });
    expect(listed.status).toBe(200);
    expect(listed.body.credentials.map((c: { id: string }) => c.id)).toEqual([credential.id]);
    expect(listed.body.credentials[0]).not.toHaveProperty("secretKey");
    expect(JSON.stringify(listed.body)).not.toContain(credential.secretKey);

    const asSession = await graphql(
      server,
      "{ me { id email apiCredentials { edges { node { id } } } } }",
      session.headers,
    );
    expect(asSession.status).toBe(200);
    expect(asSession.body).toEqual({
      data: {
        me: {
          id: session.profileId,
          email: email.toLowerCase(),
          apiCredentials: { edges: [{ node: { id: credential.id } }] },
        },
      },
    });

    const asKey = await graphql(server, "{ me { id } }", { "x-api-key": credential.secretKey });
    expect(asKey.status).toBe(200);
    expect(asKey.body).toEqual({ data: { me: { id: session.profileId } } });

    // The credential lifecycle is session-only, in GraphQL as in REST.
    const keyListing = await graphql(server, "{ me { apiCredentials { edges { node { id } } } } }", {
      "x-api-key": credential.secretKey,
    });
    expect(keyListing.body.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });
    const keyRest = await call(server, "GET", "/v1/api-credentials", {
      headers: { "x-api-key": credential.secretKey },
    });
    expect(keyRest.status).toBe(403);
    expect(keyRest.body.error).toMatchObject({ code: "FORBIDDEN", status: 403 });
  });

  it("logs each request in one line: its route's pattern, its caller by ids, its status and, when refused, the error code", async () => {
    const session = await signIn(server, randomEmail("log-caller"));
    const credential = await createCredential(server, session, "log caller");
    const [refusedId, servedId] = [`log-refused-${randomUUID()}`, `log-served-${randomUUID()}`];
    const missing = await call(server, "GET", `/v1/ramp/${randomUUID()}`, {
      headers: { "x-api-key": credential.secretKey, "x-request-id": refusedId },
    });
    expect(missing.status).toBe(404);
    const listed = await call(server, "GET", "/v1/api-credentials", {
      headers: { ...session.headers, "x-request-id": servedId },
    });
    expect(listed.status).toBe(200);

    const completed = (id: string) =>
      server.logLines().find((line) => line.reqId === id && line.msg === "request completed");
    const deadline = Date.now() + 3_000;
    while (!(completed(refusedId) && completed(servedId)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(completed(refusedId)).toMatchObject({
      level: 30,
      // The pattern, not the URL: the ramp's id is not in the line.
      req: { method: "GET", route: "/v1/ramp/:id" },
      res: {
        statusCode: 404,
        caller: { kind: "secret", profileId: session.profileId, credentialId: credential.id },
        code: "NOT_FOUND",
      },
      responseTime: expect.any(Number),
    });
    expect(completed(servedId)).toMatchObject({
      req: { method: "GET", route: "/v1/api-credentials" },
      res: { statusCode: 200, caller: { kind: "session", profileId: session.profileId } },
    });
    expect(completed(servedId)?.res).not.toHaveProperty("code");
    // One line a request: Fastify's own "incoming request" lines are off.
    for (const id of [refusedId, servedId])
      expect(server.logLines().filter((line) => line.reqId === id)).toHaveLength(1);
  });

  it("echoes a valid X-Request-ID on every response and generates one otherwise", async () => {
    const requestId = `e2e:${randomUUID()}`;
    const ok = await call(server, "GET", "/healthz", { headers: { "x-request-id": requestId } });
    expect(ok.headers.get("x-request-id")).toBe(requestId);

    const failed = await call(server, "GET", "/v1/api-credentials", { headers: { "x-request-id": requestId } });
    expect(failed.status).toBe(401);
    expect(failed.headers.get("x-request-id")).toBe(requestId);
    expect(failed.body.error).toMatchObject({ code: "AUTHENTICATION_REQUIRED", status: 401, requestId });

    const gql = await graphql(server, "{ me { id } }", { "x-request-id": requestId });
    expect(gql.headers.get("x-request-id")).toBe(requestId);
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: "AUTHENTICATION_REQUIRED", status: 401 });

    const missing = await call(server, "GET", "/nowhere");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("NOT_FOUND");
    expect(missing.headers.get("x-request-id")).toBeTruthy();
    expect(missing.body.error.requestId).toBe(missing.headers.get("x-request-id"));

    const invalid = await call(server, "GET", "/healthz", { headers: { "x-request-id": "no spaces allowed" } });
    const generated = invalid.headers.get("x-request-id");
    expect(generated).toBeTruthy();
    expect(generated).not.toBe("no spaces allowed");
    const tooLong = await call(server, "GET", "/healthz", { headers: { "x-request-id": "a".repeat(129) } });
    expect(tooLong.headers.get("x-request-id")).not.toBe("a".repeat(129));
  });

  it("answers what the framework and Node refuse before routing in the envelope, without echoing the input", async () => {
    for (const [path, status, code] of [
      ["/v1/quotes/%zz", 400, "VALIDATION_FAILED"],
      ["/v1/ramp/%E0%A4%A", 400, "VALIDATION_FAILED"],
      [`/v1/ramp/${"a".repeat(10 * 1024)}`, 400, "VALIDATION_FAILED"],
      [`/v1/supported-countries?x=${"a".repeat(20 * 1024)}`, 431, "HEADERS_TOO_LARGE"],
    ] as const) {
      const response = await call(server, "GET", path);
      expect([response.status, response.body.error.code], path.slice(0, 40)).toEqual([status, code]);
      expect(response.body.error.requestId).toBe(response.headers.get("x-request-id"));
      expect(JSON.stringify(response.body)).not.toMatch(/aaaa|%zz|%A4|FST_/);
    }
  });

  it("streams the profile's own credential events over graphql-ws, and only to that profile", async () => {
    const [alice, bob] = await Promise.all([signIn(server, randomEmail("alice")), signIn(server, randomEmail("bob"))]);
    const aliceSocket = open({ Authorization: `Bearer ${alice.accessToken}` });
    const bobSocket = open({ Authorization: `Bearer ${bob.accessToken}` });
    const aliceEvents = subscribe(aliceSocket.client, CREDENTIAL_EVENTS);
    const bobEvents = subscribe(bobSocket.client, CREDENTIAL_EVENTS);
    await Promise.all([barrier(aliceSocket.client, alice.profileId), barrier(bobSocket.client, bob.profileId)]);

    const credential = await createCredential(server, alice, "watched");
    await aliceEvents.until(() => aliceEvents.results.length >= 1, "CREATED");
    await revokeCredential(server, alice, credential.id);
    await aliceEvents.until(() => aliceEvents.results.length >= 2, "REVOKED");
    expect(aliceEvents.results).toEqual([
      { data: { apiCredentialEvents: { action: "CREATED", credential: { id: credential.id, name: "watched" } } } },
      { data: { apiCredentialEvents: { action: "REVOKED", credential: { id: credential.id, name: "watched" } } } },
    ]);
    expect(aliceEvents.failures).toEqual([]);

    // Bob's own event comes after Alice's on the same bus: had any of hers reached him, it would be first.
    const bobCredential = await createCredential(server, bob, "bob's");
    await bobEvents.until(() => bobEvents.results.length >= 1, "Bob's CREATED");
    expect(bobEvents.results).toEqual([
      { data: { apiCredentialEvents: { action: "CREATED", credential: { id: bobCredential.id, name: "bob's" } } } },
    ]);
    expect(bobEvents.failures).toEqual([]);
    expect(aliceEvents.results).toHaveLength(2);
    aliceEvents.stop();
    bobEvents.stop();
  });

  it("refuses credential events to a secret key, an invalid key, a bad token and an anonymous socket", async () => {
    const owner = await signIn(server, randomEmail("owner"));
    const { secretKey } = await createCredential(server, owner, "socket key");
    const unknownKey = `sk_test_${"A".repeat(32)}`;
    const cases = [
      { params: { "X-API-Key": secretKey }, code: "FORBIDDEN", status: 403 },
      { params: { "X-API-Key": "not-a-secret-key" }, code: "INVALID_SECRET_KEY", status: 401 },
      { params: { "X-API-Key": unknownKey }, code: "INVALID_API_KEY", status: 401 },
      { params: { Authorization: "Bearer not.a.jwt" }, code: "INVALID_BEARER_TOKEN", status: 401 },
      { params: {}, code: "AUTHENTICATION_REQUIRED", status: 401 },
    ];
    const subscriptions = cases.map(({ params }) => subscribe(open(params).client, CREDENTIAL_EVENTS));
    await Promise.all(
      subscriptions.map((subscription, index) =>
        subscription.until(() => firstError(subscription) !== undefined, `${cases[index].code} error`),
      ),
    );
    expect(
      subscriptions.map((subscription) => ({ code: subscription.errorCode(), status: subscription.errorStatus() })),
    ).toEqual(cases.map(({ code, status }) => ({ code, status })));
    // None of them received an event.
    for (const subscription of subscriptions) expect(subscription.results.filter((result) => result.data)).toEqual([]);

    // The same secret key may still read its profile over the socket (the refusal is the task, not the key).
    const keySocket = open({ "X-API-Key": secretKey });
    expect(await execute(keySocket.client, "{ me { id } }")).toEqual({ data: { me: { id: owner.profileId } } });
  });

  it("applies X-Managed-Profile-Id from the connection_init payload, through the same delegation as HTTP", async () => {
    // The operator token the server generated under its data directory.
    const { operatorToken } = JSON.parse(readFileSync(join(server.database.dataDir, "secrets.json"), "utf8")) as {
      operatorToken: string;
    };
    rememberSecret(operatorToken);
    const manager = await signIn(server, randomEmail("manager"));
    const enabled = await call(server, "PUT", `/v1/admin/managers/${manager.profileId}`, {
      headers: { authorization: `Bearer ${operatorToken}` },
      body: { allowedCorridors: ["BR"], isActive: true },
    });
    expect(enabled.status).toBe(201);
    const { secretKey } = await createCredential(server, manager, "manager key");
    const created = await call(server, "POST", "/v1/managed-profiles", {
      headers: { "x-api-key": secretKey },
      body: {
        externalSubjectId: `socket-${randomUUID()}`,
        contactEmail: randomEmail("child"),
        customerType: "individual",
      },
    });
    expect(created.status).toBe(201);
    const childId = created.body.managedProfile.profileId;

    // Reading as the child: the selector arrives in connection_init, not as a header.
    const asChild = open({ "X-API-Key": secretKey, "X-Managed-Profile-Id": childId });
    expect(await execute(asChild.client, "{ me { id } }")).toEqual({ data: { me: { id: childId } } });

    // The same rules as over HTTP: a malformed selector, and a selector where delegation is unsupported.
    const malformed = await execute(
      open({ "X-API-Key": secretKey, "X-Managed-Profile-Id": "child-42" }).client,
      "{ me { id } }",
    ).catch((errors: { extensions?: Record<string, unknown> }[]) => ({ errors }));
    expect(malformed.errors?.[0]?.extensions).toMatchObject({ code: "INVALID_MANAGED_PROFILE_ID", status: 400 });
    const unsupported = subscribe(
      open({ Authorization: `Bearer ${manager.accessToken}`, "X-Managed-Profile-Id": childId }).client,
      CREDENTIAL_EVENTS,
    );
    await unsupported.until(() => firstError(unsupported) !== undefined, "MANAGED_PROFILE_UNSUPPORTED error");
    expect({ code: unsupported.errorCode(), status: unsupported.errorStatus() }).toEqual({
      code: "MANAGED_PROFILE_UNSUPPORTED",
      status: 400,
    });
  });

  it("checks authentication before variables and documents over the socket too, with the contract's codes", async () => {
    const anonymous = open({});
    const missingVariable = await execute(
      anonymous.client,
      "mutation Revoke($id: ID!) { revokeApiCredential(id: $id) { revokedCredentialId } }",
    ).catch((errors: { extensions?: Record<string, unknown> }[]) => ({ errors }));
    expect(missingVariable.errors?.[0]?.extensions).toMatchObject({ code: "AUTHENTICATION_REQUIRED", status: 401 });
    const syntax = await execute(anonymous.client, "{ me { id ").catch(
      (errors: { extensions?: Record<string, unknown> }[]) => ({ errors }),
    );
    expect(syntax.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
  });

  it("refuses a revoked key on the very next request, on the keep-alive connection it was used on too", async () => {
    const session = await signIn(server, randomEmail("revoker"));
    const credential = await createCredential(server, session, "to revoke");
    const keyHeaders = { "x-api-key": credential.secretKey };
    // The key's connection remembers its digest: the revocation must still reach it.
    const connection = new Agent({ connections: 1 });

    // Warm every cache the key passes through.
    for (let i = 0; i < 2; i++) {
      const before = await graphql(server, "{ me { id } }", keyHeaders, undefined, connection);
      expect(before.status).toBe(200);
      expect(before.body.data.me.id).toBe(session.profileId);
    }

    await revokeCredential(server, session, credential.id);

    const afterGraphql = await graphql(server, "{ me { id } }", keyHeaders, undefined, connection);
    expect(afterGraphql.status).toBe(401);
    expect(afterGraphql.body.errors?.[0]?.extensions).toMatchObject({ code: "INVALID_API_KEY", status: 401 });
    const afterRestOnConnection = await call(server, "GET", "/v1/api-credentials", { headers: keyHeaders, connection });
    expect(afterRestOnConnection.body.error).toMatchObject({ code: "INVALID_API_KEY", status: 401 });
    await connection.close();
    const afterRest = await call(server, "GET", "/v1/api-credentials", { headers: keyHeaders });
    expect(afterRest.status).toBe(401);
    expect(afterRest.body.error).toMatchObject({ code: "INVALID_API_KEY", status: 401 });
    const afterPublic = await graphql(server, "{ me { id } }", { "x-public-key": credential.publicKey });
    expect(afterPublic.status).toBe(401);
    expect(afterPublic.body.errors?.[0]?.extensions).toMatchObject({ code: "INVALID_PUBLIC_KEY", status: 401 });

    const again = await call(server, "DELETE", `/v1/api-credentials/${credential.id}`, { headers: session.headers });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("CREDENTIAL_NOT_FOUND");
    const listed = await call(server, "GET", "/v1/api-credentials", { headers: session.headers });
    expect(listed.body.credentials).toEqual([
      expect.objectContaining({ id: credential.id, revokedAt: expect.any(String) }),
    ]);
  });
});

describe("start-up", () => {
  /** The start-up left the database as it found it: no table created, no SQLite file. */
  async function expectUntouched(database: TestDatabase) {
    if (database.url) {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const { rows } = await client.query(
        "SELECT count(*)::int AS tables FROM information_schema.tables WHERE table_schema = 'public'",
      );
      await client.end();
      expect(rows[0].tables).toBe(0);
    } else {
      // The data directory holds the generated secrets at most, no database file.
      expect(readdirSync(database.dataDir).filter((name) => name.startsWith("ramp-gateway"))).toEqual([]);
    }
  }

  it("says plainly that the port is taken and exits before touching the database", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    const database = await freshDatabase();
    try {
      await expect(startServerProcess({ database, env: { PORT: String(port) } })).rejects.toThrow(
        new RegExp(`exited \\(code 1[\\s\\S]*Port ${port} on 127\\.0\\.0\\.1 is already in use`),
      );
      await expectUntouched(database);
    } finally {
      taken.close();
      await database.drop();
    }
  });

  it("refuses RAMP_ENVIRONMENT=live in production while partners lack settings or a corridor would run on the sandbox, naming each", async () => {
    const database = await freshDatabase();
    const secret = () => rememberSecret(randomUUID() + randomUUID());
    const env = {
      NODE_ENV: "production",
      RAMP_ENVIRONMENT: "live",
      JWT_SECRET: secret(),
      OPERATOR_TOKEN: secret(),
      SIGNING_KEY_ENCRYPTION_KEY: secret(),
      PUBLIC_BASE_URL: "https://gateway.example",
    };
    try {
      const refused = startServerProcess({ database, env });
      // EX_CONFIG, with the configuration's own message and no stack trace.
      await expect(refused).rejects.toThrow(
        /exited \(code 78, signal null\) before listening:\nRefusing to start with RAMP_ENVIRONMENT=live:\n {2}these corridors' partners are not set up:\n/,
      );
      const message = await refused.catch((error: Error) => error.message);
      expect(message).toContain("\n    BR (Avenia): set AVENIA_BASE_URL, AVENIA_API_KEY, AVENIA_PRIVATE_KEY\n");
      expect(message).toContain(
        "\n  ramps in these corridors would run on the in-process sandbox (close them with CORRIDOR_PARTNERS, e.g. EU=none):\n",
      );
      // Both partners' corridors' ramps go to them: only EU's, which neither serves, would run on the sandbox.
      expect(message).toContain("\n    EU: no partner for EUR is integrated\n");
      expect(message).not.toMatch(/\n {4}(AR|BR|CO|MX|US): /);
      expect(message).not.toMatch(/\bat \S+\.js:\d+/);
      for (const value of Object.values(env)) if (value.length >= 32) expect(message).not.toContain(value);
      await expectUntouched(database);
    } finally {
      await database.drop();
    }
  });
});

describe("graceful shutdown and restart", () => {
  const SHUTDOWN_TIMEOUT_MS = 5_000;
  let first: ServerProcess | undefined;
  let second: ServerProcess | undefined;
  let socket: WsSocket | undefined;

  afterAll(async () => {
    await socket?.dispose();
    await second?.dispose();
    await first?.dispose();
  });

  it("drains an open subscription on SIGTERM, exits 0, and a restart on the same data keeps the session and key", async () => {
    first = await startServerProcess({ env: { SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) } });
    const session = await signIn(first, randomEmail("restart"));
    const credential = await createCredential(first, session, "survives restart");

    socket = openSocket(first.wsUrl, { Authorization: `Bearer ${session.accessToken}` });
    const events = subscribe(socket.client, CREDENTIAL_EVENTS);
    await barrier(socket.client, session.profileId);
    expect(socket.closes).toEqual([]);

    const startedAt = Date.now();
    const code = await first.stop("SIGTERM", SHUTDOWN_TIMEOUT_MS + 5_000);
    const elapsed = Date.now() - startedAt;
    expect(code).toBe(0);
    expect(elapsed).toBeLessThan(SHUTDOWN_TIMEOUT_MS);

    // The socket was closed by the server, cleanly (not dropped), and the subscription ended.
    await events.until(() => events.completed || events.failures.length > 0, "the subscription to end", 3_000);
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 3_000;
      const poll = () =>
        socket!.closes.length
          ? resolve()
          : Date.now() > deadline
            ? reject(new Error("socket not closed"))
            : setTimeout(poll, 20);
      poll();
    });
    expect([1000, 1001]).toContain(socket.closes[0].code);

    const messages = first.logLines().map((line) => line.msg);
    expect(messages).toContain("shutdown complete");
    expect(messages).not.toContain("shutdown timed out; exiting");
    expect(readFileSync(first.logFile, "utf8")).toContain('"msg":"shutdown complete"');

    second = await startServerProcess({ database: first.database, smtp: first.smtp });
    const listed = await call(second, "GET", "/v1/api-credentials", { headers: session.headers });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.credentials.map((c: { id: string }) => c.id)).toEqual([credential.id]);
    const asKey = await graphql(second, "{ me { id } }", { "x-api-key": credential.secretKey });
    expect(asKey.body).toEqual({ data: { me: { id: session.profileId } } });
    // The pre-restart token still opens a socket too.
    const resumed = openSocket(second.wsUrl, { Authorization: `Bearer ${session.accessToken}` });
    try {
      expect(await execute(resumed.client, "{ me { id } }")).toEqual({ data: { me: { id: session.profileId } } });
    } finally {
      await resumed.dispose();
    }

    // SIGINT drains the same way.
    expect(await second.stop("SIGINT")).toBe(0);
    expect(second.logLines().map((line) => line.msg)).toContain("shutdown complete");
  });
});
