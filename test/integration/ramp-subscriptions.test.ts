import { verifyWebhook } from "@ramp-gateway/webhook-receiver";
import type { Client } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readOutbox } from "../../src/events/outbox.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { execute, openSocket, subscribe, type Subscription, type WsSocket } from "../support/ws-client.js";
import { BUY_QUOTE, EVM_ADDRESS } from "../support/kit.js";

/*
 * GraphQL subscriptions over graphql-ws (CONTRACT.md, GraphQL): rampEvents yields exactly the webhook bodies
 * of the outbox, rampProgress the ramp on every phase change; authorized on subscribe and on every event.
 */

const EVENTS =
  "subscription ($quoteId: ID, $sessionId: ID, $rampId: ID) { rampEvents(quoteId: $quoteId, sessionId: $sessionId, rampId: $rampId) { eventId eventType timestamp payload { quoteId transactionId sessionId transactionStatus transactionType } } }";
const DELIVERIES =
  "subscription ($quoteId: ID) { rampEvents(quoteId: $quoteId) { eventId delivery { headers { name value } body } } }";
const PROGRESS = "subscription ($rampId: ID!) { rampProgress(rampId: $rampId) { id currentPhase status type } }";

let t: TestApp;
let wsUrl: string;
const sockets: WsSocket[] = [];

beforeAll(async () => {
  // Steps slow enough that a subscriber set up after the start still sees every later phase.
  t = await startTestApp({ SANDBOX_STEP_DELAY_MS: "60", RAMP_EVENT_POLL_MS: "10" }, { workers: true });
  const address = await t.server.listen({ port: 0, host: "127.0.0.1" });
  wsUrl = `${address.replace(/^http/, "ws")}/graphql`;
});
afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.dispose()));
  await t?.close();
});

interface Caller {
  profileId: string;
  session: Record<string, string>;
  secret: Record<string, string>;
  /** connection_init payloads */
  ws: { secret: Record<string, string>; session: Record<string, string>; publicKey: Record<string, string> };
}

/** A signed-in profile with a secret key, KYC approved in BR (the corridor of every ramp here). */
async function newCaller(): Promise<Caller> {
  const signedIn = await t.signIn();
  const credential = await t.createCredential(signedIn.headers);
  await t.completeKyc(signedIn.headers);
  return {
    profileId: signedIn.profileId,
    session: signedIn.headers,
    secret: { "x-api-key": credential.secretKey },
    ws: {
      secret: { "X-API-Key": credential.secretKey },
      session: { Authorization: signedIn.headers.authorization },
      publicKey: { "X-Public-Key": credential.publicKey },
    },
  };
}

function client(params: Record<string, unknown>): Client {
  const opened = openSocket(wsUrl, params);
  sockets.push(opened);
  return opened.client;
}

/** Subscribes, then runs a query needing a database round trip on the same socket: once it answers, the subscription listens. */
async function listening(socket: Client, query: string, variables: Record<string, unknown>): Promise<Subscription> {
  const subscription = subscribe(socket, query, variables);
  await execute(socket, "{ supportedFiatCurrencies { symbol } }");
  return subscription;
}

async function quote(headers: Record<string, string>, body: Record<string, unknown> = BUY_QUOTE) {
  const response = await t.request("POST", "/v1/quotes", { headers, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as string;
}

async function register(headers: Record<string, string>, quoteId: string, extra: Record<string, unknown> = {}) {
  const response = await t.request("POST", "/v1/ramp/register", {
    headers,
    body: { quoteId, destinationAddress: EVM_ADDRESS, ...extra },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as string;
}

async function start(headers: Record<string, string>, rampId: string) {
  const response = await t.request("POST", "/v1/ramp/start", { headers, body: { rampId } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

const webhookBodies = async (rampId: string) =>
  (await readOutbox(t.app.reads, 0, 10_000)).entries
    .filter((entry) => entry.rampId === rampId && entry.body.eventType !== "PHASE_CHANGE")
    .map((entry) => entry.body);
const data = (subscription: Subscription, field: string) =>
  subscription.results.filter((result) => result.data).map((result) => (result.data as Record<string, any>)[field]);

describe("rampEvents", () => {
  it("yields exactly the webhook bodies of the outbox, for a quote, a widget session and a ramp", async () => {
    const caller = await newCaller();
    const session = await t.request("POST", "/v1/session/create", {
      headers: caller.secret,
      body: { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "ext-1" },
    });
    expect(session.status).toBe(201);
    const sessionId = session.body.sessionId as string;
    const quoteId = await quote(caller.secret);

    const socket = client(caller.ws.secret);
    const byQuote = await listening(socket, EVENTS, { quoteId });
    const bySession = await listening(socket, EVENTS, { sessionId });
    const rampId = await register(caller.secret, quoteId, { sessionId });
    const byRamp = await listening(client(caller.ws.session), EVENTS, { rampId });
    await start(caller.secret, rampId);

    for (const subscription of [byQuote, bySession])
      await subscription.until(() => data(subscription, "rampEvents").length === 2, "two events");
    await byRamp.until(
      () => data(byRamp, "rampEvents").some((event) => event.eventType === "STATUS_CHANGE"),
      "STATUS_CHANGE",
    );
    const outbox = await webhookBodies(rampId);
    expect(outbox.map((body) => [body.eventType, body.payload.transactionStatus])).toEqual([
      ["TRANSACTION_CREATED", "PENDING"],
      ["STATUS_CHANGE", "COMPLETE"],
    ]);
    expect(data(byQuote, "rampEvents")).toEqual(outbox);
    expect(data(bySession, "rampEvents")).toEqual(outbox);
    // Subscribed after the registration: it gets what the feed emits from then on (TRANSACTION_CREATED if not yet emitted).
    const followedByRamp = data(byRamp, "rampEvents");
    expect(followedByRamp).toEqual(outbox.slice(outbox.length - followedByRamp.length));
    expect(outbox[0].payload).toEqual({
      quoteId,
      transactionId: rampId,
      sessionId,
      transactionStatus: "PENDING",
      transactionType: "BUY",
    });
  });

  it("delivery: the event as its webhook delivery is sent, signed; a session is refused it", async () => {
    const caller = await newCaller();
    const quoteId = await quote(caller.secret);
    const signed = await listening(client(caller.ws.secret), DELIVERIES, { quoteId });
    const bySession = await listening(client(caller.ws.session), DELIVERIES, { quoteId });
    const rampId = await register(caller.secret, quoteId);
    await signed.until(() => data(signed, "rampEvents").length === 1, "TRANSACTION_CREATED");

    const [{ eventId, delivery }] = data(signed, "rampEvents");
    const stored = await t.app.db.rampEvent.findUniqueOrThrow({ where: { eventId } });
    expect(delivery.body).toBe(stored.body);
    const headers = new Map<string, string>(
      delivery.headers.map(({ name, value }: { name: string; value: string }) => [name, value]),
    );
    expect([...headers.keys()]).toEqual(["content-type", "user-agent", "x-service-timestamp", "x-service-signature"]);
    const verified = verifyWebhook({
      publicKey: t.app.signingKeys.publicKey(),
      timestamp: headers.get("x-service-timestamp")!,
      signature: headers.get("x-service-signature")!,
      rawBody: delivery.body,
    });
    expect(verified).toMatchObject({ eventId, eventType: "TRANSACTION_CREATED", payload: { transactionId: rampId } });

    // Webhooks are a secret key's alone: the matrix answers any other credential as it answers a session on REST.
    await bySession.until(() => bySession.errorCode() !== undefined, "the session's refusal");
    expect(bySession.errorCode()).toBe("AUTHENTICATION_REQUIRED");
  });

  it("a FAILED ramp's STATUS_CHANGE arrives too", async () => {
    const caller = await newCaller();
    const quoteId = await quote(caller.secret, { ...BUY_QUOTE, inputAmount: "250.66" });
    const events = await listening(client(caller.ws.secret), EVENTS, { quoteId });
    await start(caller.secret, await register(caller.secret, quoteId));
    await events.until(() => data(events, "rampEvents").length === 2, "two events");
    expect(data(events, "rampEvents")[1]).toMatchObject({
      eventType: "STATUS_CHANGE",
      payload: { transactionStatus: "FAILED" },
    });
  });

  it("needs exactly one of quoteId, sessionId, rampId; another profile's objects are NOT_FOUND", async () => {
    const owner = await newCaller();
    const stranger = await newCaller();
    const quoteId = await quote(owner.secret);
    const rampId = await register(owner.secret, quoteId);
    const socket = client(stranger.ws.secret);
    for (const [variables, code] of [
      [{}, "VALIDATION_FAILED"],
      [{ quoteId, rampId }, "VALIDATION_FAILED"],
      [{ rampId }, "NOT_FOUND"],
      [{ quoteId }, "NOT_FOUND"],
      [{ sessionId: quoteId }, "NOT_FOUND"],
      [{ rampId: "not-a-uuid" }, "NOT_FOUND"],
    ] as const) {
      const refused = subscribe(socket, EVENTS, variables);
      await refused.until(() => refused.errorCode() !== undefined, `error for ${JSON.stringify(variables)}`);
      expect(refused.errorCode(), JSON.stringify(variables)).toBe(code);
    }
  });

  it("a variable graphql-js refuses is 400 VALIDATION_FAILED, never an internal error, and the connection goes on", async () => {
    const caller = await newCaller();
    const socket = client(caller.ws.secret);
    for (const [query, variables] of [
      [PROGRESS, {}],
      [PROGRESS, { rampId: { id: "x" } }],
      [PROGRESS, { rampId: null }],
      ["query ($id: ID!) { ramp(id: $id) { id } }", { id: [] }],
      ["mutation ($input: RegisterRampInput!) { registerRamp(input: $input) { ramp { id } } }", { input: "x" }],
    ] as const) {
      const refused = subscribe(socket, query, variables);
      await refused.until(() => refused.errorCode() !== undefined, `error for ${JSON.stringify(variables)}`);
      expect([refused.errorCode(), refused.errorStatus()], `${query} ${JSON.stringify(variables)}`).toEqual([
        "VALIDATION_FAILED",
        400,
      ]);
    }
    expect((await execute(socket, "{ supportedFiatCurrencies { symbol } }")).errors).toBeUndefined();
  });

  it("a subscriber never receives events of another profile's ramp, even on an unowned quote", async () => {
    const owner = await newCaller();
    const watcher = await newCaller();
    // A public key only attributes: the quote is unowned and anyone may follow it, but not others' ramps.
    const quoteId = await quote({ "x-public-key": owner.ws.publicKey["X-Public-Key"] });
    const watched = await listening(client(watcher.ws.secret), EVENTS, { quoteId });
    const own = await listening(client(owner.ws.secret), EVENTS, { quoteId });
    await start(owner.secret, await register(owner.secret, quoteId));
    await own.until(() => data(own, "rampEvents").length === 2, "the owner's events");
    // One feed serves every subscriber of this instance in the same pass: the watcher saw both events go by.
    expect(watched.results).toEqual([]);
  });

  it("the key that made a quote or widget session follows every ramp on it, whoever registered it, as its webhooks do", async () => {
    const partner = await newCaller();
    const user = await newCaller();
    // Made with the partner's public key: unowned, so the user may register on them, but the partner's.
    const attribution = { "x-public-key": partner.ws.publicKey["X-Public-Key"] };
    const quoteId = await quote(attribution);
    const session = await t.request("POST", "/v1/session/create", {
      headers: attribution,
      body: { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "ext-partner" },
    });
    expect(session.status).toBe(201);
    const sessionId = session.body.sessionId as string;
    // The partner's key may follow them with webhooks (the same rule decides both).
    for (const target of [{ quoteId }, { sessionId }]) {
      const webhook = await t.request("POST", "/v1/webhook", {
        headers: partner.secret,
        body: { url: "https://receiver.example/hook", ...target },
      });
      expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
    }
    const socket = client(partner.ws.secret);
    const byQuote = await listening(socket, EVENTS, { quoteId });
    const bySession = await listening(socket, EVENTS, { sessionId });
    // The partner's dashboard session is not the key that made them: its own ramps only.
    const bySignIn = await listening(client(partner.ws.session), EVENTS, { quoteId });

    const rampId = await register(user.secret, quoteId, { sessionId });
    await start(user.secret, rampId);
    for (const subscription of [byQuote, bySession])
      await subscription.until(() => data(subscription, "rampEvents").length === 2, "two events");
    const outbox = await webhookBodies(rampId);
    expect(data(byQuote, "rampEvents")).toEqual(outbox);
    expect(data(bySession, "rampEvents")).toEqual(outbox);
    const deliveries = await t.app.db.webhookDelivery.findMany({
      where: { subscription: { ownerProfileId: partner.profileId } },
    });
    expect(deliveries).toHaveLength(2 * outbox.length);
    expect(bySignIn.results).toEqual([]);
  });

  it("public keys cannot follow ramps; anonymous callers must authenticate", async () => {
    const caller = await newCaller();
    const quoteId = await quote(caller.secret);
    for (const [params, code] of [
      [caller.ws.publicKey, "FORBIDDEN"],
      [{}, "AUTHENTICATION_REQUIRED"],
    ] as const) {
      const refused = subscribe(client(params), EVENTS, { quoteId });
      await refused.until(() => refused.errorCode() !== undefined, code);
      expect(refused.errorCode()).toBe(code);
    }
  });
});

describe("rampProgress", () => {
  it("yields the ramp as of every phase it enters", async () => {
    const caller = await newCaller();
    const rampId = await register(caller.secret, await quote(caller.secret));
    const progress = await listening(client(caller.ws.secret), PROGRESS, { rampId });
    await start(caller.secret, rampId);
    await progress.until(() => data(progress, "rampProgress").at(-1)?.status === "COMPLETE", "COMPLETE");
    expect(data(progress, "rampProgress")).toEqual(
      ["AWAITING_PAYMENT", "PAYMENT_CONFIRMED", "EXCHANGING", "PAYING_OUT", "COMPLETE"].map((currentPhase) => ({
        id: rampId,
        currentPhase,
        status: currentPhase === "COMPLETE" ? "COMPLETE" : "PENDING",
        type: "BUY",
      })),
    );
  });

  it("reads the ramp once per event for all the subject's subscribers, not once each", async () => {
    const caller = await newCaller();
    const rampId = await register(caller.secret, await quote(caller.secret));
    const subscriptions = [];
    for (let index = 0; index < 4; index++)
      subscriptions.push(
        await listening(client(index % 2 ? caller.ws.secret : caller.ws.session), PROGRESS, { rampId }),
      );
    const reads = vi.spyOn(t.app.ramps, "get");
    try {
      await start(caller.secret, rampId);
      for (const progress of subscriptions)
        await progress.until(() => data(progress, "rampProgress").at(-1)?.status === "COMPLETE", "COMPLETE");
      const phases = data(subscriptions[0]!, "rampProgress").length;
      expect(phases).toBe(5);
      for (const progress of subscriptions)
        expect(data(progress, "rampProgress")).toEqual(data(subscriptions[0]!, "rampProgress"));
      expect(reads.mock.calls.filter(([, id]) => id === rampId)).toHaveLength(phases);
    } finally {
      reads.mockRestore();
    }
  });
});

describe("delegation and re-authorization per event", () => {
  async function managerWithChild() {
    const manager = await newCaller();
    const enabled = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
      headers: t.operatorHeaders,
      body: { allowedCorridors: ["BR"], allowedCustomerTypes: null, isActive: true },
    });
    expect(enabled.status).toBe(201);
    const created = await t.request("POST", "/v1/managed-profiles", {
      headers: manager.secret,
      body: {
        externalSubjectId: `sub-${Math.random()}`,
        contactEmail: `child-${Math.random().toString(36).slice(2)}@example.com`,
        customerType: "individual",
      },
    });
    expect(created.status).toBe(201);
    const childId = created.body.managedProfile.profileId as string;
    await t.completeKyc({ ...manager.secret, "x-managed-profile-id": childId });
    return { manager, childId };
  }

  it("a manager follows its child's ramp through the selector in connection_init; deleting the child ends the stream", async () => {
    const { manager, childId } = await managerWithChild();
    const asChild = { ...manager.secret, "x-managed-profile-id": childId };
    const firstRamp = await register(asChild, await quote(asChild));
    const params = { ...manager.ws.secret, "X-Managed-Profile-Id": childId };
    const progress = await listening(client(params), PROGRESS, { rampId: firstRamp });
    await start(asChild, firstRamp);
    await progress.until(
      () => data(progress, "rampProgress").at(-1)?.status === "COMPLETE",
      "the child's ramp completing",
    );

    // The manager itself cannot follow its child's ramp without the selector.
    const without = subscribe(client(manager.ws.secret), PROGRESS, { rampId: firstRamp });
    await without.until(() => without.errorCode() !== undefined, "NOT_FOUND");
    expect(without.errorCode()).toBe("NOT_FOUND");

    const secondQuote = await quote(asChild);
    const events = await listening(client(params), EVENTS, { quoteId: secondQuote });
    const secondRamp = await register(asChild, secondQuote);
    await events.until(() => data(events, "rampEvents").length === 1, "TRANSACTION_CREATED");
    expect((await t.request("DELETE", `/v1/managed-profiles/${childId}`, { headers: manager.secret })).status).toBe(
      204,
    );
    // The ramp was registered before the deletion and completes; its next event must not reach the manager.
    await t.app.db.ramp.update({
      where: { id: secondRamp },
      data: { currentPhase: "awaitingPayment", nextStepAt: new Date() },
    });
    await events.until(() => events.errorCode() !== undefined, "the stream ending");
    expect(events.errorCode()).toBe("MANAGED_PROFILE_ACCESS_DENIED");
    expect(data(events, "rampEvents")).toHaveLength(1);
  });

  it("a manager's selector is refused the signed delivery, as webhooks are refused it", async () => {
    const { manager, childId } = await managerWithChild();
    const asChild = { ...manager.secret, "x-managed-profile-id": childId };
    const quoteId = await quote(asChild);
    const events = await listening(client({ ...manager.ws.secret, "X-Managed-Profile-Id": childId }), DELIVERIES, {
      quoteId,
    });
    await register(asChild, quoteId);
    await events.until(() => events.errorCode() !== undefined, "the refusal");
    expect(events.errorCode()).toBe("MANAGED_PROFILE_UNSUPPORTED");
  });

  it("a revoked secret key stops receiving", async () => {
    const caller = await newCaller();
    const credential = await t.createCredential(caller.session);
    const quoteId = await quote(caller.session);
    const events = await listening(client({ "X-API-Key": credential.secretKey }), EVENTS, { quoteId });
    const rampId = await register(caller.session, quoteId);
    await events.until(() => data(events, "rampEvents").length === 1, "TRANSACTION_CREATED");
    expect(
      (await t.request("DELETE", `/v1/api-credentials/${credential.id}`, { headers: caller.session })).status,
    ).toBe(204);
    await start(caller.session, rampId);
    await events.until(() => events.errorCode() !== undefined, "the stream ending");
    expect(events.errorCode()).toBe("AUTHENTICATION_REQUIRED");
    expect(data(events, "rampEvents")).toHaveLength(1);
  });
});

describe("bounds of a connection", () => {
  it("closes a socket whose message is over 64 KiB (1009), connection_init included", async () => {
    const socket = new WebSocket(wsUrl, "graphql-transport-ws");
    await new Promise((resolve, reject) => (socket.once("open", resolve), socket.once("error", reject)));
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
    socket.send(JSON.stringify({ type: "connection_init", payload: { padding: "x".repeat(65 * 1024) } }));
    expect(await closed).toBe(1009);
  });

  it("refuses a connection's 51st subscription held at once, and takes one again when another ends", async () => {
    const caller = await newCaller();
    const quoteId = await quote(caller.secret);
    const socket = client(caller.ws.secret);
    // A connection's messages are taken in order: the 51st arrives with 50 held.
    const held = Array.from({ length: 50 }, () => subscribe(socket, EVENTS, { quoteId }));
    const refused = subscribe(socket, EVENTS, { quoteId });
    await refused.until(() => refused.failures.length > 0, "the refusal of the 51st subscription");
    expect(refused.errorCode()).toBe("VALIDATION_FAILED");
    expect(held.every((subscription) => subscription.failures.length === 0)).toBe(true);
    // Two end: a subscription and the query `listening` runs beside it fit again.
    held.pop()!.stop();
    held.pop()!.stop();
    const again = await listening(socket, EVENTS, { quoteId });
    expect(again.failures).toEqual([]);
  });
});
