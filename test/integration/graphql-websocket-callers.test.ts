import jwt from "jsonwebtoken";
import WebSocket from "ws";
import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEngine } from "../support/database.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { BUY_QUOTE, insideOneRateLimitWindow } from "../support/kit.js";
import { rememberSecret } from "../support/secrets.js";
import { openSocket, subscribe, type WsSocket } from "../support/ws-client.js";

/*
 * An operation over graphql-ws is a request like any other: it spends its caller's and its address's budgets,
 * shared with HTTP, and its caller is checked again each time; a connection whose credentials stop holding has
 * its subscriptions ended at once, not at their next event.
 */

const EVENTS = "subscription ($quoteId: ID) { rampEvents(quoteId: $quoteId) { eventId } }";
const sockets: WsSocket[] = [];
const apps: TestApp[] = [];

afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.dispose()));
  await Promise.all(apps.map((app) => app.close()));
});

async function start(env: Record<string, string>): Promise<{ t: TestApp; wsUrl: string }> {
  const t = await startTestApp(env);
  apps.push(t);
  const address = await t.server.listen({ port: 0, host: "127.0.0.1" });
  return { t, wsUrl: `${address.replace(/^http/, "ws")}/graphql` };
}

function client(wsUrl: string, params: Record<string, unknown>): Client {
  const opened = openSocket(wsUrl, params);
  sockets.push(opened);
  return opened.client;
}

interface Outcome {
  data?: unknown;
  code?: string;
  message?: string;
  retryAfterSeconds?: number;
}

/** Runs one operation over the socket: its data, or its first error's code and message. */
function run(socket: Client, query: string): Promise<Outcome> {
  return new Promise((resolve) => {
    let outcome: Outcome = {};
    const failed = (errors: readonly { message: string; extensions?: Record<string, unknown> }[]) => {
      const [first] = errors;
      outcome = {
        code: first?.extensions?.code as string,
        message: first?.message,
        retryAfterSeconds: first?.extensions?.retryAfterSeconds as number | undefined,
      };
    };
    socket.subscribe(
      { query },
      {
        next: (result) => (result.errors ? failed(result.errors) : (outcome = { data: result.data })),
        error: (error) => (failed(error as never), resolve(outcome)),
        complete: () => resolve(outcome),
      },
    );
  });
}

/** The status and headers a WebSocket upgrade is answered with when it is refused. */
function refusedUpgrade(wsUrl: string): Promise<{ status: number; retryAfter?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl, "graphql-transport-ws");
    socket.once("open", () => (socket.close(), reject(new Error("the upgrade was accepted"))));
    socket.once("unexpected-response", (_request, response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode!, retryAfter: response.headers["retry-after"], body }),
      );
    });
    socket.once("error", () => undefined);
  });
}

describe(`rate limits over WebSocket (${testEngine()})`, () => {
  it("a caller's operations over one socket spend the caller's budget, shared with HTTP", async () => {
    const { t, wsUrl } = await start({ RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "40" });
    await insideOneRateLimitWindow(10_000);
    const session = await t.signIn();
    const { secretKey } = await t.createCredential(session.headers);
    const socket = client(wsUrl, { "X-API-Key": secretKey });
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 120; i++) outcomes.push(await run(socket, "{ me { id } }"));
    const answered = outcomes.filter((outcome) => outcome.data);
    const refused = outcomes.filter((outcome) => outcome.code === "RATE_LIMITED");
    // Sign-in and the credential's creation spent some of the 40 already.
    expect(answered.length).toBeGreaterThan(30);
    expect(answered.length).toBeLessThan(40);
    expect(answered.length + refused.length).toBe(120);
    expect(refused[0]!.retryAfterSeconds).toBeGreaterThan(0);
    // The same budget over HTTP.
    const overHttp = await t.graphql("{ me { id } }", undefined, { "x-api-key": secretKey });
    expect(overHttp.status).toBe(429);
  });

  it("a client address's operations and upgrades spend its budget, shared with HTTP", async () => {
    const { t, wsUrl } = await start({ RATE_LIMIT_PER_IP_PER_MINUTE: "40" });
    await insideOneRateLimitWindow(10_000);
    const socket = client(wsUrl, {});
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 60; i++) outcomes.push(await run(socket, "{ supportedFiatCurrencies { symbol } }"));
    const answered = outcomes.filter((outcome) => outcome.data).length;
    // The upgrade was one of the address's 40 requests.
    expect(answered).toBe(39);
    expect(outcomes.slice(answered).every((outcome) => outcome.code === "RATE_LIMITED")).toBe(true);
    const upgrade = await refusedUpgrade(wsUrl);
    expect(upgrade.status).toBe(429);
    expect(Number(upgrade.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(upgrade.body).error.code).toBe("RATE_LIMITED");
    expect((await t.request("GET", "/v1/supported-fiat-currencies")).status).toBe(429);
  });
});

describe(`a socket's caller, checked again (${testEngine()})`, () => {
  let t: TestApp;
  let wsUrl: string;
  beforeAll(async () => {
    ({ t, wsUrl } = await start({}));
  });

  async function quoteOf(headers: Record<string, string>) {
    const response = await t.request("POST", "/v1/quotes", { headers, body: BUY_QUOTE });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.id as string;
  }

  /** A subscription that holds (its query on the same socket answered after it), with no event to come. */
  async function following(socket: Client, quoteId: string) {
    const events = subscribe(socket, EVENTS, { quoteId });
    expect(await run(socket, "{ me { id } }")).toHaveProperty("data");
    expect(events.failures).toEqual([]);
    return events;
  }

  async function expectEndedAtOnce(socket: Client, events: ReturnType<typeof subscribe>) {
    await events.until(() => events.failures.length > 0, "the subscription ending", 3_000);
    expect(events.errorCode()).toBe("AUTHENTICATION_REQUIRED");
    expect(events.results).toEqual([]);
    expect(await run(socket, "{ supportedFiatCurrencies { symbol } }")).toMatchObject({
      code: "AUTHENTICATION_REQUIRED",
      message: "The credential of this connection is no longer valid.",
    });
  }

  it("a revoked key: its subscriptions end at once, and its next operation is refused", async () => {
    const session = await t.signIn();
    const credential = await t.createCredential(session.headers);
    const socket = client(wsUrl, { "X-API-Key": credential.secretKey });
    const events = await following(socket, await quoteOf({ "x-api-key": credential.secretKey }));
    const revoked = await t.request("DELETE", `/v1/api-credentials/${credential.id}`, { headers: session.headers });
    expect(revoked.status).toBe(204);
    await expectEndedAtOnce(socket, events);
  });

  it("a signed-out session: the same", async () => {
    const session = await t.signIn();
    const socket = client(wsUrl, { Authorization: session.headers.authorization });
    const events = await following(socket, await quoteOf(session.headers));
    const loggedOut = await t.request("POST", "/v1/auth/logout", {
      headers: session.headers,
      body: { refresh_token: session.refreshToken },
    });
    expect(loggedOut.status).toBe(204);
    await expectEndedAtOnce(socket, events);
  });

  it("an access token that expires: the same, at its expiry", async () => {
    const session = await t.signIn();
    const { sid, sub } = jwt.decode(session.accessToken) as { sid: string; sub: string };
    const { secret, issuer, audience } = t.app.config.jwt;
    const shortLived = rememberSecret(
      jwt.sign({ sid }, secret, { subject: sub, issuer, audience, expiresIn: 2, jwtid: crypto.randomUUID() }),
    );
    const socket = client(wsUrl, { Authorization: `Bearer ${shortLived}` });
    const events = await following(socket, await quoteOf(session.headers));
    await events.until(() => events.failures.length > 0, "the subscription ending at the token's expiry", 4_000);
    await expectEndedAtOnce(socket, events);
  });
});
