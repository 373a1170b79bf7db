import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActingContext } from "../../src/auth/delegation.js";
import { AppError } from "../../src/errors.js";
import { OutboxSignal } from "../../src/events/outbox-signal.js";
import { WebhookService } from "../../src/webhooks/service.js";
import type { HostResolver } from "../../src/webhooks/url-policy.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { BUY_QUOTE, expectError, expectPagedList, newestFirst, ok, seedTimes } from "../support/kit.js";

/**
 * Webhook registrations over REST (CONTRACT.md, Webhooks; capability matrix; Managed profiles and
 * delegation): who may register, list and delete, which quotes and widget sessions a key may follow, body
 * validation and the URL rules, on the project's engine. Deliveries are not part of this file.
 *
 * The app runs with WEBHOOK_ALLOW_PRIVATE_NETWORKS=10.0.0.0/8, so the operator setting is exercised too.
 * URLs through the API are IP literals (and `localhost`), so no test needs DNS; names that resolve to a mix
 * of addresses, or not at all, go through a WebhookService on the same database with an injected resolver.
 */

type Headers = Record<string, string>;

interface Caller {
  profileId: string;
  session: Headers;
  secret: Headers;
  publicKey: Headers;
  credentialId: string;
}

/** A public address (no DNS needed) and a path. */
const HOOK_URL = "https://93.184.215.14/hook";

let t: TestApp;
let alice: Caller;
let bob: Caller;

beforeAll(async () => {
  t = await startTestApp({
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "10.0.0.0/8",
    RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
    RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000",
  });
  alice = await newCaller();
  bob = await newCaller();
});
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------------------
// Helpers

async function newCaller(): Promise<Caller> {
  const session = await t.signIn();
  const credential = await t.createCredential(session.headers, { name: "webhooks test" });
  return {
    profileId: session.profileId,
    session: session.headers,
    secret: { "x-api-key": credential.secretKey },
    publicKey: { "x-public-key": credential.publicKey },
    credentialId: credential.id,
  };
}

/** Another credential of the same profile. */
async function secondKey(caller: Caller): Promise<Caller> {
  const credential = await t.createCredential(caller.session, { name: "webhooks test: second key" });
  return {
    ...caller,
    secret: { "x-api-key": credential.secretKey },
    publicKey: { "x-public-key": credential.publicKey },
    credentialId: credential.id,
  };
}

async function newQuote(headers: Headers): Promise<string> {
  const response = await t.request("POST", "/v1/quotes", { headers, body: BUY_QUOTE });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id;
}

async function newWidgetSession(headers: Headers): Promise<string> {
  const quoteId = await newQuote(headers);
  const response = await t.request("POST", "/v1/session/create", {
    headers,
    body: { quoteId, externalSessionId: `webhooks-${randomUUID()}` },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.sessionId;
}

const register = (headers: Headers, body: unknown) => t.request("POST", "/v1/webhook", { headers, body });

async function registered(
  caller: Caller,
  body: Record<string, unknown> = {},
): Promise<{ id: string; [field: string]: unknown }> {
  const response = await register(caller.secret, { url: HOOK_URL, quoteId: await newQuote(caller.secret), ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const subscriptionCount = () => t.app.db.webhookSubscription.count();

// ---------------------------------------------------------------------------------------------------------

describe("POST /v1/webhook: registration", () => {
  it("registers for a quote created with the caller's key: 201, the contract's shape, both events by default", async () => {
    const quoteId = await newQuote(alice.secret);
    const response = await register(alice.secret, { url: HOOK_URL, quoteId });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      url: HOOK_URL,
      quoteId,
      sessionId: null,
      events: ["TRANSACTION_CREATED", "STATUS_CHANGE"],
      isActive: true,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const row = await t.app.db.webhookSubscription.findUniqueOrThrow({ where: { id: response.body.id } });
    expect(row).toMatchObject({
      ownerProfileId: alice.profileId,
      credentialId: alice.credentialId,
      quoteId,
      sessionId: null,
      isActive: true,
      consecutiveFailures: 0,
    });
  });

  it("registers for a widget session created with the caller's key, with the events asked for", async () => {
    const sessionId = await newWidgetSession(alice.secret);
    const response = await register(alice.secret, {
      url: "https://[2606:4700:4700::1111]:8443/hooks/ramp?tenant=1",
      sessionId,
      events: ["STATUS_CHANGE"],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({
      url: "https://[2606:4700:4700::1111]:8443/hooks/ramp?tenant=1",
      quoteId: null,
      sessionId,
      events: ["STATUS_CHANGE"],
      isActive: true,
    });
  });

  it("lists the events in one order and treats null as an absent id", async () => {
    const quoteId = await newQuote(alice.secret);
    const response = await register(alice.secret, {
      url: HOOK_URL,
      quoteId,
      sessionId: null,
      events: ["STATUS_CHANGE", "TRANSACTION_CREATED"],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.events).toEqual(["TRANSACTION_CREATED", "STATUS_CHANGE"]);
  });

  it("accepts a quote created with the same credential's public value (unowned, but that key's)", async () => {
    const quoteId = await newQuote(alice.publicKey);
    const response = await register(alice.secret, { url: HOOK_URL, quoteId });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  });

  it.each([
    ["neither quoteId nor sessionId", () => ({ url: HOOK_URL }), ["quoteId", "sessionId"]],
    [
      "both quoteId and sessionId",
      (q: string, s: string) => ({ url: HOOK_URL, quoteId: q, sessionId: s }),
      ["quoteId", "sessionId"],
    ],
    ["both null", () => ({ url: HOOK_URL, quoteId: null, sessionId: null }), ["quoteId", "sessionId"]],
    ["no url", (q: string) => ({ quoteId: q }), ["url"]],
    ["url not a string", (q: string) => ({ url: 42, quoteId: q }), ["url"]],
    ["quoteId not a string", () => ({ url: HOOK_URL, quoteId: 7 }), ["quoteId"]],
    ["empty events", (q: string) => ({ url: HOOK_URL, quoteId: q, events: [] }), ["events"]],
    [
      "unknown event",
      (q: string) => ({ url: HOOK_URL, quoteId: q, events: ["TRANSACTION_CREATED", "PHASE_CHANGE"] }),
      ["events.1"],
    ],
    [
      "repeated event",
      (q: string) => ({ url: HOOK_URL, quoteId: q, events: ["STATUS_CHANGE", "STATUS_CHANGE"] }),
      ["events"],
    ],
    ["events not a list", (q: string) => ({ url: HOOK_URL, quoteId: q, events: "STATUS_CHANGE" }), ["events"]],
    ["an unknown field", (q: string) => ({ url: HOOK_URL, quoteId: q, secret: "x" }), ["(body)"]],
  ])("refuses %s: 400 VALIDATION_FAILED naming the fields, nothing stored", async (_name, body, fields) => {
    const before = await subscriptionCount();
    const response = await register(
      alice.secret,
      body(await newQuote(alice.secret), await newWidgetSession(alice.secret)),
    );
    expectError(response, 400, "VALIDATION_FAILED");
    expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toEqual(fields);
    expect(await subscriptionCount()).toBe(before);
  });

  it("refuses a body that is not an object", async () => {
    expectError(await register(alice.secret, ["https://93.184.215.14/hook"]), 400, "VALIDATION_FAILED");
    expectError(
      await t.request("POST", "/v1/webhook", { headers: alice.secret, rawBody: '{"url": ' }),
      400,
      "INVALID_JSON",
    );
  });
});

describe("POST /v1/webhook: only quotes and widget sessions created with the caller's key (else 404)", () => {
  it.each([
    ["another key of the same profile", async () => newQuote((await secondKey(alice)).secret)],
    ["the same profile's session", () => newQuote(alice.session)],
    ["another profile's key", () => newQuote(bob.secret)],
    ["nobody (no credential)", () => newQuote({})],
    ["an unknown id", async () => randomUUID()],
  ])("a quote created with %s -> 404 NOT_FOUND", async (_name, quote) => {
    const before = await subscriptionCount();
    expectError(await register(alice.secret, { url: HOOK_URL, quoteId: await quote() }), 404, "NOT_FOUND");
    expect(await subscriptionCount()).toBe(before);
  });

  it("a quote or widget session id that is no UUID -> 400 VALIDATION_FAILED", async () => {
    const before = await subscriptionCount();
    for (const [field, id] of [
      ["quoteId", "not-a-uuid"],
      ["sessionId", "12345"],
    ])
      expectError(await register(alice.secret, { url: HOOK_URL, [field]: id }), 400, "VALIDATION_FAILED", field);
    expect(await subscriptionCount()).toBe(before);
  });

  it.each([
    ["another key of the same profile", async () => newWidgetSession((await secondKey(alice)).secret)],
    ["the same profile's session", () => newWidgetSession(alice.session)],
    ["another profile's key", () => newWidgetSession(bob.secret)],
    ["an unknown id", async () => randomUUID()],
  ])("a widget session created with %s -> 404 NOT_FOUND", async (_name, session) => {
    const before = await subscriptionCount();
    expectError(await register(alice.secret, { url: HOOK_URL, sessionId: await session() }), 404, "NOT_FOUND");
    expect(await subscriptionCount()).toBe(before);
  });

  it("a manager's key cannot follow a quote it created for a managed child (the child's quote)", async () => {
    const manager = await newCaller();
    const enabled = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
      headers: t.operatorHeaders,
      body: { allowedCorridors: ["BR"], isActive: true },
    });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(201);
    const child = await t.request("POST", "/v1/managed-profiles", {
      headers: manager.secret,
      body: {
        externalSubjectId: `webhooks-${randomUUID()}`,
        contactEmail: `webhooks-${randomUUID()}@example.com`,
        customerType: "individual",
      },
    });
    expect(child.status, JSON.stringify(child.body)).toBe(201);
    const childQuote = await newQuote({
      ...manager.secret,
      "x-managed-profile-id": child.body.managedProfile.profileId,
    });
    expectError(await register(manager.secret, { url: HOOK_URL, quoteId: childQuote }), 404, "NOT_FOUND");
    // Its own quote is fine.
    expect((await register(manager.secret, { url: HOOK_URL, quoteId: await newQuote(manager.secret) })).status).toBe(
      201,
    );
  });
});

describe("webhook routes: who may call them", () => {
  let manager: Caller;
  let childId: string;
  let childKey: Headers;
  let webhookId: string;

  beforeAll(async () => {
    manager = await newCaller();
    const enabled = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
      headers: t.operatorHeaders,
      body: { allowedCorridors: ["BR", "MX"], isActive: true },
    });
    expect(enabled.status).toBe(201);
    const child = await t.request("POST", "/v1/managed-profiles", {
      headers: manager.secret,
      body: {
        externalSubjectId: `webhooks-${randomUUID()}`,
        contactEmail: `webhooks-${randomUUID()}@example.com`,
        customerType: "individual",
      },
    });
    childId = child.body.managedProfile.profileId;
    const issued = await t.request("POST", `/v1/managed-profiles/${childId}/api-credentials`, {
      headers: manager.secret,
      body: { name: "child's own" },
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    childKey = { "x-api-key": issued.body.secretKey };
    webhookId = (await registered(manager)).id;
  });

  const routes = [
    ["POST /v1/webhook", (headers: Headers) => register(headers, { url: HOOK_URL, quoteId: randomUUID() })],
    ["GET /v1/webhook", (headers: Headers) => t.request("GET", "/v1/webhook", { headers })],
    ["DELETE /v1/webhook/{id}", (headers: Headers) => t.request("DELETE", `/v1/webhook/${webhookId}`, { headers })],
  ] as const;

  it.each(routes)("%s: a selector -> 400 MANAGED_PROFILE_UNSUPPORTED", async (_route, call) => {
    expectError(await call({ ...manager.secret, "x-managed-profile-id": childId }), 400, "MANAGED_PROFILE_UNSUPPORTED");
  });

  it.each(routes)("%s: a managed child's own key -> 403 MANAGED_PROFILE_ACCESS_DENIED", async (_route, call) => {
    expectError(await call(childKey), 403, "MANAGED_PROFILE_ACCESS_DENIED");
  });

  // Only a secret key authenticates webhook management: any other credential is an authentication failure.
  it.each(routes)("%s: a session -> 401 AUTHENTICATION_REQUIRED", async (_route, call) => {
    expectError(await call(manager.session), 401, "AUTHENTICATION_REQUIRED");
  });

  it.each(routes)("%s: a public key -> 401 AUTHENTICATION_REQUIRED", async (_route, call) => {
    expectError(await call(manager.publicKey), 401, "AUTHENTICATION_REQUIRED");
  });

  it.each(routes)("%s: no credential -> 401 AUTHENTICATION_REQUIRED", async (_route, call) => {
    expectError(await call({}), 401, "AUTHENTICATION_REQUIRED");
  });

  it("none of the refusals removed or added a subscription", async () => {
    const rows = await t.app.db.webhookSubscription.findMany({
      where: { ownerProfileId: { in: [manager.profileId, childId] } },
    });
    expect(rows.map((row) => row.id)).toEqual([webhookId]);
  });
});

describe("URL rules through the API (INVALID_WEBHOOK_URL)", () => {
  it.each([
    ["http://93.184.215.14/hook", /only https/],
    ["https://user:pass@93.184.215.14/hook", /credentials/],
    ["not a url", /not an absolute URL/],
    [`https://93.184.215.14/${"x".repeat(2030)}`, /longer than 2048/],
    ["https://127.0.0.1/hook", /not a publicly routable/],
    ["https://192.168.1.20/hook", /not a publicly routable/],
    ["https://169.254.169.254/latest/meta-data/", /not a publicly routable/],
    ["https://100.64.0.1/hook", /not a publicly routable/],
    ["https://203.0.113.10/hook", /not a publicly routable/],
    ["https://[::1]/hook", /not a publicly routable/],
    ["https://[fd00::1]/hook", /not a publicly routable/],
    ["https://[::ffff:127.0.0.1]/hook", /not a publicly routable/],
    ["https://[64:ff9b::7f00:1]/hook", /not a publicly routable/],
    ["https://[2002:7f00:1::1]/hook", /not a publicly routable/],
    ["https://localhost:8443/hook", /local host name/],
  ])("refuses %s: 400, nothing stored", async (url: string, reason: RegExp) => {
    const before = await subscriptionCount();
    const response = await register(alice.secret, { url, quoteId: await newQuote(alice.secret) });
    expectError(response, 400, "INVALID_WEBHOOK_URL");
    expect(response.body.error.message).toMatch(reason);
    expect(await subscriptionCount()).toBe(before);
  });

  it("accepts an address in the operator's allowed private ranges (10.0.0.0/8 here), and only those", async () => {
    const accepted = await register(alice.secret, {
      url: "https://10.20.30.40/hook",
      quoteId: await newQuote(alice.secret),
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    const mapped = await register(alice.secret, {
      url: "https://[::ffff:10.20.30.40]/hook",
      quoteId: await newQuote(alice.secret),
    });
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(201);
    expectError(
      await register(alice.secret, { url: "https://172.16.0.1/hook", quoteId: await newQuote(alice.secret) }),
      400,
      "INVALID_WEBHOOK_URL",
    );
  });

  it("a quote that is not the caller's is not found, whatever the URL", async () => {
    expectError(
      await register(alice.secret, { url: "http://127.0.0.1/", quoteId: await newQuote(bob.secret) }),
      404,
      "NOT_FOUND",
    );
  });
});

describe("URL rules for names (WebhookService on this database with an injected resolver)", () => {
  const answers: Record<string, string[]> = {
    "public.example.com": ["93.184.215.14", "2606:4700:4700::1111"],
    "mixed.example.com": ["93.184.215.14", "10.0.0.7"],
    "rebind.example.com": ["2606:4700:4700::1111", "::ffff:169.254.169.254"],
    "private.example.com": ["192.168.0.10"],
  };
  const resolver: HostResolver = async (hostname) => {
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  let service: WebhookService;
  let acting: ActingContext;

  beforeAll(() => {
    service = new WebhookService(t.app.db, new OutboxSignal(t.app.bus, t.app.log), {
      allowPrivateNetworks: [],
      resolve: resolver,
    });
    acting = {
      actorProfileId: alice.profileId,
      subjectProfileId: alice.profileId,
      controllingManagerId: null,
      credentialId: alice.credentialId,
      partnerId: null,
      principalKind: "secret",
    };
  });

  const outcome = async (url: string) => {
    try {
      return (await service.register(acting, { url, quoteId: await newQuote(alice.secret) })).url;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return `${error.status} ${error.code}: ${error.message}`;
    }
  };

  it("accepts a name whose every address is public, and a name that does not resolve yet", async () => {
    expect(await outcome("https://public.example.com/hook")).toBe("https://public.example.com/hook");
    expect(await outcome("https://not-yet.example.com/hook")).toBe("https://not-yet.example.com/hook");
  });

  it("refuses a name with any address that is not public", async () => {
    expect(await outcome("https://mixed.example.com/hook")).toMatch(
      /^400 INVALID_WEBHOOK_URL: .*resolves to 10\.0\.0\.7/,
    );
    expect(await outcome("https://rebind.example.com/hook")).toMatch(
      /^400 INVALID_WEBHOOK_URL: .*resolves to ::ffff:169\.254\.169\.254/,
    );
    expect(await outcome("https://private.example.com/hook")).toMatch(
      /^400 INVALID_WEBHOOK_URL: .*resolves to 192\.168\.0\.10/,
    );
  });
});

describe("GET /v1/webhook and DELETE /v1/webhook/{id}", () => {
  it("lists the caller's profile's subscriptions, newest first, in a `webhooks` envelope; not other profiles'", async () => {
    const carol = await newCaller();
    const carolsOtherKey = await secondKey(carol);
    const first = await registered(carol);
    const second = await registered(carolsOtherKey, { events: ["TRANSACTION_CREATED"] });
    const bobs = await registered(bob);

    const response = await t.request("GET", "/v1/webhook", { headers: carol.secret });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(["webhooks", "pagination"]);
    const listed = response.body.webhooks as { id: string; createdAt: string }[];
    expect(listed.map((webhook) => webhook.id).sort()).toEqual([first.id, second.id].sort());
    expect(listed.map((webhook) => webhook.id)).not.toContain(bobs.id);
    expect(listed.find((webhook) => webhook.id === second.id)).toEqual(second);
    expect(listed.find((webhook) => webhook.id === first.id)).toEqual(first);
    const times = listed.map((webhook) => Date.parse(webhook.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The same profile's other key sees the same list.
    expect((await t.request("GET", "/v1/webhook", { headers: carolsOtherKey.secret })).body).toEqual(response.body);

    const nobody = await newCaller();
    expect((await t.request("GET", "/v1/webhook", { headers: nobody.secret })).body).toEqual({
      webhooks: [],
      pagination: { limit: 50, offset: 0, total: 0 },
    });
  });

  it("lists a page at a time: 50 by default, then by limit and offset, newest first across pages; a limit over 100 is 400", async () => {
    const grace = await newCaller();
    // More than a page, stored directly (registering each through the API would need a quote each).
    const rows = seedTimes(55).map((createdAt, index) => ({
      id: randomUUID(),
      ownerProfileId: grace.profileId,
      credentialId: grace.credentialId,
      url: `${HOOK_URL}/${index}`,
      quoteId: randomUUID(),
      events: "TRANSACTION_CREATED,STATUS_CHANGE",
      isActive: index % 4 !== 0,
      createdAt,
    }));
    await t.app.db.webhookSubscription.createMany({ data: rows });
    const ids = (webhooks: { id: string }[]) => webhooks.map((webhook) => webhook.id);
    const read = (query: string) => t.request("GET", `/v1/webhook?${query}`, { headers: grace.secret });
    expect(Object.keys(ok(await read(""))).sort()).toEqual(["pagination", "webhooks"]);
    await expectPagedList(
      {
        read,
        ids: (body) => ids(body.webhooks),
        connection: async (first, after) => {
          const { webhooks } = ok(
            await t.graphql(
              "query ($first: Int!, $after: String) { webhooks(first: $first, after: $after) { count totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }",
              { first, after },
              grace.secret,
            ),
          ).data;
          return {
            ids: ids(webhooks.edges.map((edge: { node: { id: string } }) => edge.node)),
            ...webhooks.pageInfo,
            count: webhooks.count,
            totalCount: webhooks.totalCount,
          };
        },
      },
      newestFirst(rows, (row) => row.createdAt),
    );
  });

  it("shows a disabled subscription as inactive", async () => {
    const dave = await newCaller();
    const created = await registered(dave);
    await t.app.db.webhookSubscription.update({
      where: { id: created.id },
      data: { isActive: false, disabledAt: new Date(), consecutiveFailures: 5 },
    });
    const listed = (await t.request("GET", "/v1/webhook", { headers: dave.secret })).body.webhooks;
    expect(listed).toEqual([{ ...created, isActive: false }]);
  });

  it("deletes the caller's own subscription (200 with the reference's body); a second delete is 404", async () => {
    const erin = await newCaller();
    const kept = await registered(erin);
    const removed = await registered(erin);
    const response = await t.request("DELETE", `/v1/webhook/${removed.id}`, { headers: erin.secret });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: "Webhook deleted." });
    expect(await t.app.db.webhookSubscription.findUnique({ where: { id: removed.id } })).toBeNull();
    expect(
      (await t.request("GET", "/v1/webhook", { headers: erin.secret })).body.webhooks.map(
        (webhook: { id: string }) => webhook.id,
      ),
    ).toEqual([kept.id]);
    expectError(await t.request("DELETE", `/v1/webhook/${removed.id}`, { headers: erin.secret }), 404, "NOT_FOUND");
  });

  it("another key of the same profile may delete it (the profile owns it); upper-case ids name the same one", async () => {
    const frank = await newCaller();
    const created = await registered(frank);
    const other = await secondKey(frank);
    expect(
      (await t.request("DELETE", `/v1/webhook/${created.id.toUpperCase()}`, { headers: other.secret })).status,
    ).toBe(200);
  });

  it("another profile's subscription and an unknown id are 404 NOT_FOUND, a malformed id 400, and nothing is deleted", async () => {
    const bobs = await registered(bob);
    const before = await subscriptionCount();
    for (const id of [bobs.id, randomUUID()]) {
      expectError(await t.request("DELETE", `/v1/webhook/${id}`, { headers: alice.secret }), 404, "NOT_FOUND");
    }
    expectError(
      await t.request("DELETE", "/v1/webhook/not-a-uuid", { headers: alice.secret }),
      400,
      "VALIDATION_FAILED",
      "id",
    );
    expect(await subscriptionCount()).toBe(before);
    expect(await t.app.db.webhookSubscription.findUnique({ where: { id: bobs.id } })).not.toBeNull();
  });
});
