import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresBus } from "../../src/events/bus.js";
import { CACHE_NAMES, UNCHANGING_CACHES, type CacheName } from "../../src/cache/caches.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { BUY_QUOTE } from "../support/kit.js";
import { execute as wsExecute, openSocket, subscribe } from "../support/ws-client.js";

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  // A long cache TTL: only the NOTIFY from the other instance can make the second one forget what it cached.
  first = await startTestApp({ CACHE_TTL_SECONDS: "300", LAST_USED_FLUSH_INTERVAL_MS: "200" });
  second = await startTestApp({ CACHE_TTL_SECONDS: "300" }, { database: first.database });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

/** The caches each test below shows a write through the first instance dropping on the second. */
const covered = new Set<CacheName>();
const invalidates = (caches: CacheName[], title: string) => (caches.forEach((name) => covered.add(name)), title);

/** A new subject's BRL to USDC ramp of `inputAmount`, registered through the first instance. */
async function brazilianBuyRegisteredOnFirst(inputAmount: string) {
  const session = await first.signIn();
  const key = { "x-api-key": (await first.createCredential(session.headers)).secretKey };
  await first.completeKyc(key, ["BR"]);
  const quote = await first.request("POST", "/v1/quotes", {
    headers: key,
    body: { rampType: "BUY", from: "pix", to: "polygon", inputAmount, inputCurrency: "BRL", outputCurrency: "USDC" },
  });
  const ramp = await first.request("POST", "/v1/ramp/register", {
    headers: key,
    body: { quoteId: quote.body.id, destinationAddress: `0x${"1".repeat(40)}` },
  });
  expect(ramp.status).toBe(201);
  return { key, ramp };
}

describe("two instances on one PostgreSQL database", () => {
  it(
    invalidates(
      ["apiCredentials"],
      "a key revoked through one instance is refused at once by the other, which had it cached",
    ),
    async () => {
      const session = await first.signIn();
      const { id, secretKey } = await first.createCredential(session.headers);
      const me = () => second.graphql("{ me { id } }", undefined, { "x-api-key": secretKey });
      expect((await me()).body.data.me.id).toBe(session.profileId);

      const revoked = await first.request("DELETE", `/v1/api-credentials/${id}`, { headers: session.headers });
      expect(revoked.status).toBe(204);
      await expect.poll(async () => (await me()).status, { timeout: 2000, interval: 20 }).toBe(401);
      expect((await me()).body.errors[0].extensions.code).toBe("INVALID_API_KEY");
    },
  );

  it("a notification on the bus channel that is not ours is ignored; the instances go on hearing each other", async () => {
    const session = await first.signIn();
    const { id, secretKey } = await first.createCredential(session.headers);
    const me = () => second.graphql("{ me { id } }", undefined, { "x-api-key": secretKey });
    expect((await me()).body.data.me.id).toBe(session.profileId);

    const stranger = new pg.Client({ connectionString: first.database.url });
    await stranger.connect();
    for (const payload of ["not json", "null", "[]", '{"topic":7}', '{"origin":"x","topic":"unknown","message":{}}'])
      await stranger.query("SELECT pg_notify('ramp_gateway_bus', $1)", [payload]);
    await stranger.end();

    expect((await first.request("DELETE", `/v1/api-credentials/${id}`, { headers: session.headers })).status).toBe(204);
    await expect.poll(async () => (await me()).status, { timeout: 2000, interval: 20 }).toBe(401);
  });

  it("a notice that cannot be sent fails no one: the change was committed and this instance applies it; the bus goes on", async () => {
    const lines: { level: number; msg: string }[] = [];
    const log = pino({ level: "warn" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const bus = await createPostgresBus(first.database.url!, log);
    try {
      const heard: string[] = [];
      bus.subscribe("cacheInvalidated", ({ tag }) => heard.push(tag));
      // PostgreSQL refuses a notice over 8000 bytes: the NOTIFY fails after the change it announces.
      const oversized = "x".repeat(9_000);
      await expect(bus.publish("cacheInvalidated", { tag: oversized })).resolves.toBeUndefined();
      expect(heard).toEqual([oversized]);
      expect(lines.map((line) => line.msg)).toContain(
        "event bus notify failed; other instances catch up when their caches expire",
      );
      // The bus goes on: the next notice reaches the other instances.
      const heardThere: string[] = [];
      const unsubscribe = second.app.bus.subscribe("cacheInvalidated", ({ tag }) => heardThere.push(tag));
      await bus.publish("cacheInvalidated", { tag: "after-a-lost-notice" });
      await expect.poll(() => heardThere, { timeout: 2000, interval: 20 }).toContain("after-a-lost-notice");
      unsubscribe();
    } finally {
      await bus.close();
    }
  });

  it(
    invalidates(
      ["accessTokens", "signIns"],
      "a sign-in ended through one instance ends its access tokens on the other, which had them cached",
    ),
    async () => {
      const session = await first.signIn();
      const list = () => second.request("GET", "/v1/api-credentials", { headers: session.headers });
      expect((await list()).status).toBe(200);
      const loggedOut = await first.request("POST", "/v1/auth/logout", {
        body: { refresh_token: session.refreshToken },
      });
      expect(loggedOut.status).toBe(204);
      await expect.poll(async () => (await list()).status, { timeout: 2000, interval: 20 }).toBe(401);
      expect((await list()).body.error.code).toBe("INVALID_BEARER_TOKEN");
    },
  );

  it("a key revoked, or a sign-in ended, through one instance ends the other's WebSocket subscriptions at once", async () => {
    const address = await second.server.listen({ port: 0, host: "127.0.0.1" });
    const wsUrl = `${address.replace(/^http/, "ws")}/graphql`;
    const session = await first.signIn();
    const credential = await first.createCredential(session.headers);
    const quote = await first.request("POST", "/v1/quotes", { headers: session.headers, body: BUY_QUOTE });
    expect(quote.status).toBe(201);
    const sockets = [
      openSocket(wsUrl, { "X-API-Key": credential.secretKey }),
      openSocket(wsUrl, { Authorization: session.headers.authorization }),
    ];
    try {
      const [byKey, bySession] = sockets.map((socket) => {
        const events = subscribe(socket.client, "subscription ($id: ID) { rampEvents(quoteId: $id) { eventId } }", {
          id: quote.body.id,
        });
        return { socket, events };
      });
      for (const { socket } of [byKey!, bySession!])
        expect((await wsExecute(socket.client, "{ me { id } }")).data).toEqual({ me: { id: session.profileId } });

      const revoked = await first.request("DELETE", `/v1/api-credentials/${credential.id}`, {
        headers: session.headers,
      });
      expect(revoked.status).toBe(204);
      await byKey!.events.until(() => byKey!.events.failures.length > 0, "the key's subscription ending", 3_000);
      expect(byKey!.events.errorCode()).toBe("AUTHENTICATION_REQUIRED");
      expect(bySession!.events.failures).toEqual([]);

      const loggedOut = await first.request("POST", "/v1/auth/logout", {
        body: { refresh_token: session.refreshToken },
      });
      expect(loggedOut.status).toBe(204);
      await bySession!.events.until(
        () => bySession!.events.failures.length > 0,
        "the session's subscription ending",
        3_000,
      );
      expect(bySession!.events.errorCode()).toBe("AUTHENTICATION_REQUIRED");
    } finally {
      await Promise.all(sockets.map((socket) => socket.dispose()));
    }
  });

  it(
    invalidates(
      ["kycSubjects"],
      "a KYC decision made through one instance shows in the other's ramp-info at once, though it had the subject's state cached",
    ),
    async () => {
      const session = await first.signIn();
      const { secretKey } = await first.createCredential(session.headers);
      const key = { "x-api-key": secretKey };
      const mexico = async () =>
        (await second.request("GET", "/v1/ramp-info", { headers: key })).body.corridors.MX.kycStatus;
      expect(await mexico()).toBe("not_started");
      await first.completeKyc(key, ["MX"]);
      await expect.poll(mexico, { timeout: 2000, interval: 20 }).toBe("approved");
    },
  );

  it(
    invalidates(
      ["pricingAssignments"],
      "a pricing profile assigned through one instance prices the other's next quote",
    ),
    async () => {
      const session = await first.signIn();
      const serviceFee = async () => {
        const quote = await second.request("POST", "/v1/quotes", {
          headers: session.headers,
          body: {
            rampType: "BUY",
            from: "pix",
            to: "polygon",
            inputAmount: "1000",
            inputCurrency: "BRL",
            outputCurrency: "USDC",
          },
        });
        expect(quote.status).toBe(201);
        return Number(quote.body.vortexFeeFiat);
      };
      expect(await serviceFee()).toBeGreaterThan(0);
      const assigned = await first.request("PUT", `/v1/admin/pricing-assignments/${session.profileId}`, {
        headers: first.operatorHeaders,
        body: { pricingProfile: "zero-fee" },
      });
      expect(assigned.status).toBe(200);
      await expect.poll(serviceFee, { timeout: 2000, interval: 20 }).toBe(0);
    },
  );

  it(
    invalidates(
      ["managerPolicies", "delegationTargets"],
      "a manager's policy tightened, then its child deleted, through one instance: the other refuses at once",
    ),
    async () => {
      const manager = await first.signIn();
      const { secretKey } = await first.createCredential(manager.headers);
      const policy = (allowedCorridors: string[]) =>
        first.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
          headers: first.operatorHeaders,
          body: { allowedCorridors, isActive: true },
        });
      expect((await policy(["MX", "BR"])).status).toBeLessThan(300);
      const child = await first.request("POST", "/v1/managed-profiles", {
        headers: { "x-api-key": secretKey },
        body: {
          externalSubjectId: `subject-${Date.now()}`,
          contactEmail: `child-${Date.now()}@example.com`,
          customerType: "individual",
        },
      });
      expect(child.status).toBe(201);
      const childId = child.body.managedProfile.profileId;
      const limits = async (corridor: string) =>
        (
          await second.request("POST", "/v1/limits", {
            headers: { "x-api-key": secretKey, "x-managed-profile-id": childId },
            body: { corridors: [corridor] },
          })
        ).status;
      expect(await limits("MX")).toBe(200);
      expect(await limits("BR")).toBe(200);

      expect((await policy(["BR"])).status).toBe(200);
      await expect.poll(() => limits("MX"), { timeout: 2000, interval: 20 }).toBe(403);
      expect(await limits("BR")).toBe(200);

      expect(
        (await first.request("DELETE", `/v1/managed-profiles/${childId}`, { headers: { "x-api-key": secretKey } }))
          .status,
      ).toBeLessThan(300);
      await expect.poll(() => limits("BR"), { timeout: 2000, interval: 20 }).toBe(403);
    },
  );

  it(
    invalidates(
      ["rampViews", "rampHistoryPages"],
      "a ramp started through one instance shows its new phase in the other's status polling and history at once, though it had both cached",
    ),
    async () => {
      const { key, ramp } = await brazilianBuyRegisteredOnFirst("100");
      const phase = async () =>
        (await second.request("GET", `/v1/ramp/${ramp.body.id}`, { headers: key })).body.currentPhase;
      const historyIds = async () =>
        (await second.request("GET", "/v1/ramp/history", { headers: key })).body.transactions.map(
          (entry: { id: string }) => entry.id,
        );
      expect(await phase()).toBe("initial");
      expect(await historyIds()).toEqual([]);
      expect(
        (await first.request("POST", "/v1/ramp/start", { headers: key, body: { rampId: ramp.body.id } })).status,
      ).toBe(200);
      await expect.poll(phase, { timeout: 2000, interval: 20 }).toBe("awaitingPayment");
      await expect.poll(historyIds, { timeout: 2000, interval: 20 }).toEqual([ramp.body.id]);
    },
  );

  it("sessions issued by one instance are accepted by the other (shared JWT secret)", async () => {
    const session = await first.signIn();
    const listed = await second.request("GET", "/v1/api-credentials", { headers: session.headers });
    expect(listed.status).toBe(200);
  });

  it(
    invalidates(
      ["profiles"],
      "a credential issued, and a managed child deleted, through one instance move the profile's updatedAt in the other's reads at once, though it had the profile cached",
    ),
    async () => {
      const manager = await first.signIn();
      const { secretKey } = await first.createCredential(manager.headers);
      const key = { "x-api-key": secretKey };
      const stored = async (profileId: string) =>
        (await first.app.db.profile.findUniqueOrThrow({ where: { id: profileId } })).updatedAt.toISOString();
      const shown = async () =>
        (await second.graphql("{ me { updatedAt } }", undefined, manager.headers)).body.data.me.updatedAt;
      const cached = await shown();
      await first.createCredential(manager.headers);
      expect(await stored(manager.profileId)).not.toBe(cached);
      await expect.poll(shown, { timeout: 2000, interval: 20 }).toBe(await stored(manager.profileId));

      const enabled = await first.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
        headers: first.operatorHeaders,
        body: { allowedCorridors: ["BR"], isActive: true },
      });
      expect(enabled.status).toBe(201);
      const child = await first.request("POST", "/v1/managed-profiles", {
        headers: key,
        body: {
          externalSubjectId: `subject-${Date.now()}`,
          contactEmail: `child-${Date.now()}@example.com`,
          customerType: "individual",
        },
      });
      expect(child.status).toBe(201);
      const childId: string = child.body.managedProfile.profileId;
      // A deleted child can no longer be selected in `me`: its profile is read through the service `me` uses.
      const childShown = async () => (await second.app.profiles.getMany([childId]))[0]!.updatedAt.toISOString();
      const childCached = await childShown();
      expect((await first.request("DELETE", `/v1/managed-profiles/${childId}`, { headers: key })).status).toBe(204);
      expect(await stored(childId)).not.toBe(childCached);
      await expect.poll(childShown, { timeout: 2000, interval: 20 }).toBe(await stored(childId));
    },
  );

  it(
    invalidates(
      ["apiCredentialPages"],
      "a credential issued, used or revoked through one instance shows in the other's credential list at once, though it had the list cached",
    ),
    async () => {
      const session = await first.signIn();
      const listed = async () =>
        (await second.request("GET", "/v1/api-credentials", { headers: session.headers })).body.credentials;
      expect(await listed()).toEqual([]);
      const { id, secretKey } = await first.createCredential(session.headers);
      await expect
        .poll(async () => (await listed()).map((credential: { id: string }) => credential.id), {
          timeout: 2000,
          interval: 20,
        })
        .toEqual([id]);
      expect((await first.graphql("{ me { id } }", undefined, { "x-api-key": secretKey })).status).toBe(200);
      await expect
        .poll(async () => (await listed())[0].secretLastUsedAt, { timeout: 3000, interval: 20 })
        .not.toBeNull();
      expect((await first.request("DELETE", `/v1/api-credentials/${id}`, { headers: session.headers })).status).toBe(
        204,
      );
      await expect.poll(async () => (await listed())[0].revokedAt, { timeout: 2000, interval: 20 }).not.toBeNull();
    },
  );

  it(
    invalidates(
      ["rampErrorLogs"],
      "a ramp's failure processed by one instance shows in the other's error log at once, though it had the empty log cached",
    ),
    async () => {
      // The sandbox's partner refuses the exchange of an amount ending in .66.
      const { key, ramp } = await brazilianBuyRegisteredOnFirst("100.66");
      const errors = async () =>
        (await second.request("GET", `/v1/ramp/${ramp.body.id}/errors`, { headers: key })).body.map(
          (entry: { error: string }) => entry.error,
        );
      expect(await errors()).toEqual([]);
      expect(
        (await first.request("POST", "/v1/ramp/start", { headers: key, body: { rampId: ramp.body.id } })).status,
      ).toBe(200);
      await expect
        .poll(async () => (await first.app.rampProcessor.tick(), errors()), { timeout: 5000, interval: 50 })
        .toEqual(["The partner failed the order"]);
    },
  );

  it("every cache has its test above, but those whose values no write changes", () => {
    expect([...covered, ...UNCHANGING_CACHES].sort()).toEqual([...CACHE_NAMES].sort());
    expect(first.app.caches.sizes().size).toBe(CACHE_NAMES.length);
  });
});
