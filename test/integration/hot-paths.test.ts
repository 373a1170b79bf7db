import { randomUUID } from "node:crypto";
import { query, rowLimit } from "../../src/db/query.js";
import { rawSql } from "../support/raw-sql.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROCESSING_PHASES } from "../../src/reference-data/ramp-phases.js";
import { RampRepository } from "../../src/ramps/repo.js";
import { KycRepository } from "../../src/kyc/repo.js";
import { CredentialRepository } from "../../src/credentials/repo.js";
import { inTransaction } from "../../src/db/tx.js";
import { testEngine } from "../support/database.js";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { ok } from "../support/kit.js";

/**
 * What the requests integrators and dashboards repeat cost the database (issue 11): one statement or none,
 * never one per listed item. `setup` drives ramps to their end with the background workers; `probe`, a second
 * instance on the same database without workers, serves the measured requests, so its statement count holds
 * only what those requests issued.
 */

let setup: TestApp;
let probe: TestApp;
beforeAll(async () => {
  setup = await startTestApp({}, { workers: true });
  // No last-use flush during a measurement: it is one batched write per interval, not a cost of a request.
  // Cache entries live for the longest TTL allowed, so none expires between a warming request and the counted
  // one (expiry is a bound on lost notices, tested on its own; a slow run crossed it).
  probe = await startTestApp(
    { LAST_USED_FLUSH_INTERVAL_MS: "3600000", CACHE_TTL_SECONDS: "300" },
    { database: setup.database, partners: setup.partners },
  );
});
afterAll(async () => {
  await probe?.close();
  await setup?.close();
});

type Headers = Record<string, string>;
const WALLET = "0x1111111111111111111111111111111111111111";
const BUY = { rampType: "BUY", from: "pix", to: "polygon", inputCurrency: "BRL", outputCurrency: "USDC" };

/** The statements a request costs on the probe instance. */
async function statementsOf(send: () => Promise<HttpResponse>): Promise<number> {
  const before = probe.app.statements.count;
  const response = await send();
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  expect(response.body?.errors, JSON.stringify(response.body)).toBeUndefined();
  return probe.app.statements.count - before;
}

/** The cost of a request once the caches it fills are warm (it is sent twice; the second is counted). */
async function warmStatementsOf(send: () => Promise<HttpResponse>): Promise<number> {
  await statementsOf(send);
  return statementsOf(send);
}

/** A signed-in profile with a secret key and BR KYC approved. */
async function caller() {
  const session = await setup.signIn();
  const { secretKey } = await setup.createCredential(session.headers);
  const secret = { "x-api-key": secretKey };
  await setup.completeKyc(secret, ["BR"]);
  return { session: session.headers, secret, profileId: session.profileId };
}

/** `count` BUY ramps of the caller, started and finished (a fifth of them failed, with an error logged). */
async function finishedRamps(headers: Headers, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const quote = ok(
      await setup.request("POST", "/v1/quotes", {
        headers,
        // The partner fails these: each ramp has an error in its log.
        body: { ...BUY, inputAmount: "100.66" },
      }),
      201,
    );
    const ramp = ok(
      await setup.request("POST", "/v1/ramp/register", {
        headers,
        body: { quoteId: quote.id, destinationAddress: WALLET },
      }),
      201,
    );
    ok(await setup.request("POST", "/v1/ramp/start", { headers, body: { rampId: ramp.id } }));
    ids.push(ramp.id);
  }
  for (const id of ids) {
    for (let waited = 0; ok(await setup.request("GET", `/v1/ramp/${id}`, { headers })).status === "PENDING"; waited++) {
      if (waited > 500) throw new Error(`ramp ${id} did not finish`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  return ids;
}

/**
 * Waits until the probe has issued no statement for 300 ms. A ramp reads as finished before the setup's
 * workers write its last events; on PostgreSQL those reach the probe's feed by NOTIFY, and the feed's read
 * would otherwise be counted against whatever request is measured at that moment.
 */
async function quiet(): Promise<void> {
  for (let last = -1; probe.app.statements.count !== last;) {
    last = probe.app.statements.count;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const DASHBOARD_PAGE =
  "{ ramps(first: 20) { edges { node { id status currentPhase inputAmount errors { phase error } } } pageInfo { hasNextPage } } }";

describe(`statements per hot request (${testEngine()})`, () => {
  let few: Awaited<ReturnType<typeof caller>>;
  let many: Awaited<ReturnType<typeof caller>>;
  let rampIds: string[];
  beforeAll(async () => {
    [few, many] = [await caller(), await caller()];
    rampIds = await finishedRamps(few.secret, 2);
    await finishedRamps(many.secret, 7);
    await quiet();
  });

  it("ramp-info costs none once its caller's key and KYC state are cached", async () => {
    expect(await warmStatementsOf(() => probe.request("GET", "/v1/ramp-info", { headers: few.secret }))).toBe(0);
    expect(
      await warmStatementsOf(() => probe.graphql("{ rampInfo { corridors { corridor kycStatus } } }", {}, few.secret)),
    ).toBe(0);
  });

  it("a key seen for the first time costs its one lookup", async () => {
    const { secretKey } = await setup.createCredential(few.session);
    const secret = { "x-api-key": secretKey };
    expect(await warmStatementsOf(() => probe.request("GET", "/v1/ramp-info", { headers: few.secret }))).toBe(0);
    expect(await statementsOf(() => probe.request("GET", "/v1/ramp-info", { headers: secret }))).toBe(1);
  });

  it("ramp status, quote reads and the credential list cost one statement the first time, none after (until they change)", async () => {
    const quote = ok(
      await setup.request("POST", "/v1/quotes", { headers: few.secret, body: { ...BUY, inputAmount: "100" } }),
      201,
    );
    expect(await statementsOf(() => probe.request("GET", `/v1/ramp/${rampIds[0]}`, { headers: few.secret }))).toBe(1);
    expect(await statementsOf(() => probe.request("GET", `/v1/ramp/${rampIds[0]}`, { headers: few.secret }))).toBe(0);
    expect(
      await statementsOf(() =>
        probe.graphql(`query ($id: ID!) { ramp(id: $id) { id status } }`, { id: rampIds[0] }, few.secret),
      ),
    ).toBe(0);
    expect(await statementsOf(() => probe.request("GET", `/v1/quotes/${quote.id}`, { headers: few.secret }))).toBe(1);
    expect(await statementsOf(() => probe.request("GET", `/v1/quotes/${quote.id}`, { headers: few.secret }))).toBe(0);
    // The session is verified (and cached) first, so the list's own statement is counted alone.
    ok(await probe.graphql("{ me { id } }", {}, few.session));
    expect(await statementsOf(() => probe.request("GET", "/v1/api-credentials", { headers: few.session }))).toBe(1);
    expect(await statementsOf(() => probe.request("GET", "/v1/api-credentials", { headers: few.session }))).toBe(0);
    expect(
      await warmStatementsOf(() =>
        probe.graphql("{ me { apiCredentials(first: 5) { edges { node { id name } } } } }", {}, few.session),
      ),
    ).toBe(0);
    // The profile's own fields come from memory too.
    expect(
      await warmStatementsOf(() =>
        probe.graphql(
          "{ me { id email createdAt updatedAt apiCredentials(first: 5) { edges { node { id } } } } }",
          {},
          few.session,
        ),
      ),
    ).toBe(0);
  });

  it("the profile's own fields cost one statement the first time, none after, with a session or a key", async () => {
    // Signed in through the probe itself: the invalidations the sign-in and the key cause are heard before they
    // return, not by a NOTIFY that could land in a measured load and keep it from being cached.
    const session = (await probe.signIn()).headers;
    const secret = { "x-api-key": (await probe.createCredential(session)).secretKey };
    const me = (headers: Headers, fields: string) => () => probe.graphql(`{ me { ${fields} } }`, {}, headers);
    // The session's sign-in was looked up (and cached) when it issued the key; the key is looked up once.
    expect(await statementsOf(me(session, "id"))).toBe(0);
    expect(await statementsOf(me(session, "id email createdAt updatedAt"))).toBe(1);
    expect(await statementsOf(me(session, "id email createdAt updatedAt"))).toBe(0);
    expect(await statementsOf(me(secret, "id"))).toBe(1);
    expect(await statementsOf(me(secret, "id email createdAt updatedAt"))).toBe(0);
  });

  it("a history page costs one statement the first time, none after (until one of its ramps changes); its ramps' errors one more the first time, whatever its length", async () => {
    for (const subject of [few, many]) {
      const history = (limit: number) => () =>
        probe.request("GET", `/v1/ramp/history?limit=${limit}`, { headers: subject.secret });
      expect(await warmStatementsOf(history(20))).toBe(0);
      // Another page, not cached yet, with the caller's key cached by now: its one statement.
      expect(await statementsOf(history(19))).toBe(1);
      // The page's error logs are cached too, per ramp: none once warm.
      expect(await warmStatementsOf(() => probe.graphql(DASHBOARD_PAGE, {}, subject.session))).toBe(0);
    }
    const page = ok(await probe.graphql(DASHBOARD_PAGE, {}, many.session)).data.ramps.edges;
    expect(page).toHaveLength(7);
    expect(page.filter((edge: { node: { errors: unknown[] } }) => edge.node.errors.length > 0)).toHaveLength(7);
  });

  it("onboarding status reads the entities alone; KYC state comes from memory", async () => {
    expect(await warmStatementsOf(() => probe.request("GET", "/v1/onboarding/status", { headers: few.secret }))).toBe(
      1,
    );
  });

  it("registering a ramp costs its quote read and one transaction, which does not read the quote back", async () => {
    const register = async () => {
      const quote = ok(
        await setup.request("POST", "/v1/quotes", { headers: few.secret, body: { ...BUY, inputAmount: "100" } }),
        201,
      );
      const body = { quoteId: quote.id, destinationAddress: WALLET };
      return () => probe.request("POST", "/v1/ramp/register", { headers: few.secret, body });
    };
    await statementsOf(await register());
    // The quote read; in the transaction its consumption, the ramp, its event, the webhook subscriptions that
    // follow it, and the ORM's own. Reading the quote back with the ramp cost two more.
    expect(await statementsOf(await register())).toBe(7);
  });

  it("quote creation costs its one insert (the pricing assignment is cached)", async () => {
    const create = () =>
      probe.request("POST", "/v1/quotes", { headers: few.secret, body: { ...BUY, inputAmount: "100" } });
    expect(await warmStatementsOf(create)).toBe(1);
  });
});

/** A ramp the subject registered on a fresh BUY quote of `inputAmount` (the partner fails amounts ending in .66). */
async function registered(subject: { secret: Record<string, string> }, inputAmount: string): Promise<{ id: string }> {
  const quote = ok(
    await setup.request("POST", "/v1/quotes", { headers: subject.secret, body: { ...BUY, inputAmount } }),
    201,
  );
  const body = { quoteId: quote.id, destinationAddress: WALLET };
  return ok(await setup.request("POST", "/v1/ramp/register", { headers: subject.secret, body }), 201);
}

describe(`cached state follows each change on the next request (${testEngine()})`, () => {
  it("a ramp's status polling shows each phase it moves to, though the previous one was cached: the caller's start and the processor's steps", async () => {
    const subject = await caller();
    const ramp = await registered(subject, "100");
    const phase = async () =>
      ok(await setup.request("GET", `/v1/ramp/${ramp.id}`, { headers: subject.secret })).currentPhase;
    // The history page is cached too: it shows the ramp once it leaves its initial phase, then each step.
    const inHistory = async () =>
      ok(await setup.request("GET", "/v1/ramp/history", { headers: subject.secret })).transactions.map(
        (entry: { id: string; currentPhase: string }) => [entry.id, entry.currentPhase],
      );
    expect(await phase()).toBe("initial");
    expect(await inHistory()).toEqual([]);
    ok(await setup.request("POST", "/v1/ramp/start", { headers: subject.secret, body: { rampId: ramp.id } }));
    // Steps are 20 ms apart here, so the processor may have moved on already: neither read is the cached initial one.
    const [[listed, listedPhase]] = await inHistory();
    expect(listed).toBe(ramp.id);
    expect(PROCESSING_PHASES).toContain(listedPhase);
    expect(PROCESSING_PHASES).toContain(await phase());
    // The cache lives 30 s here: only the processor's invalidations can show its steps within the poll's 10 s.
    const seen: string[] = [];
    await expect
      .poll(async () => (seen.push(await phase()), seen.at(-1)), { timeout: 10_000, interval: 5 })
      .toBe("complete");
    expect(seen.filter((value, index) => value !== seen[index - 1])).toEqual(
      PROCESSING_PHASES.filter((value) => seen.includes(value)),
    );
    expect(await inHistory()).toEqual([[ramp.id, "complete"]]);
  });

  it("a ramp's error log shows the error of its failing step, though the log was cached empty just before", async () => {
    const subject = await caller();
    const ramp = await registered(subject, "100.66");
    ok(await setup.request("POST", "/v1/ramp/start", { headers: subject.secret, body: { rampId: ramp.id } }));
    // Each poll reads (and caches) the log, then the status: the failing step comes after an empty log was cached.
    const polls: { errors: number; status: string }[] = [];
    await expect
      .poll(
        async () => {
          const errors = ok(await setup.request("GET", `/v1/ramp/${ramp.id}/errors`, { headers: subject.secret }));
          const { status } = ok(await setup.request("GET", `/v1/ramp/${ramp.id}`, { headers: subject.secret }));
          polls.push({ errors: errors.length, status });
          return status;
        },
        { timeout: 10_000, interval: 5 },
      )
      .toBe("FAILED");
    expect(polls[0]).toEqual({ errors: 0, status: "PENDING" });
    const logged = ok(await setup.request("GET", `/v1/ramp/${ramp.id}/errors`, { headers: subject.secret }));
    expect(logged).toMatchObject([{ error: "The partner failed the order", recoverable: false }]);
  });

  it("a KYC decision shows in ramp-info, which had the subject's state cached", async () => {
    const session = await probe.signIn();
    const key = { "x-api-key": (await probe.createCredential(session.headers)).secretKey };
    const mexico = async () => ok(await probe.request("GET", "/v1/ramp-info", { headers: key })).corridors.MX.kycStatus;
    expect(await mexico()).toBe("not_started");
    await probe.completeKyc(key, ["MX"]);
    expect(await mexico()).toBe("approved");
  });

  it("a profile's updatedAt moves with each credential issued for it, and with a managed child's deletion, though the profile was cached", async () => {
    const email = `${randomUUID()}@manager.test`;
    const manager = await probe.signIn(email);
    const key = { "x-api-key": (await probe.createCredential(manager.headers)).secretKey };
    ok(
      await probe.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
        headers: probe.operatorHeaders,
        body: { allowedCorridors: ["BR"], isActive: true },
      }),
      201,
    );
    const childBody = {
      externalSubjectId: randomUUID(),
      contactEmail: `${randomUUID()}@child.test`,
      customerType: "individual",
    };
    const childId = ok(await probe.request("POST", "/v1/managed-profiles", { headers: key, body: childBody }), 201)
      .managedProfile.profileId;
    const stored = async (profileId: string) =>
      (await probe.app.db.profile.findUniqueOrThrow({ where: { id: profileId } })).updatedAt.toISOString();
    const shown = async (headers: Headers) =>
      ok(await probe.graphql("{ me { updatedAt } }", {}, headers)).data.me.updatedAt;
    /** The profile as `headers` see it, cached, then `change`: the next read shows the stored row's new time. */
    const followsChange = async (profileId: string, headers: Headers, change: () => Promise<unknown>) => {
      const cached = await shown(headers);
      await change();
      expect(await stored(profileId)).not.toBe(cached);
      expect(await shown(headers)).toBe(await stored(profileId));
    };

    await followsChange(manager.profileId, manager.headers, () => probe.createCredential(manager.headers));
    // Signing in again leaves the row as it is (hence no notice): the cached view is still the stored one.
    const again = await probe.signIn(email);
    expect(await shown(again.headers)).toBe(await stored(manager.profileId));
    const asChild = { ...key, "x-managed-profile-id": childId };
    await followsChange(childId, asChild, async () =>
      ok(
        await probe.request("POST", `/v1/managed-profiles/${childId}/api-credentials`, { headers: key, body: {} }),
        201,
      ),
    );
    // A deleted child can no longer be selected: its profile is read through the service, which `me` uses.
    const cached = (await probe.app.profiles.getMany([childId]))[0]!.updatedAt.toISOString();
    ok(await probe.request("DELETE", `/v1/managed-profiles/${childId}`, { headers: key }), 204);
    expect(await stored(childId)).not.toBe(cached);
    expect((await probe.app.profiles.getMany([childId]))[0]!.updatedAt.toISOString()).toBe(await stored(childId));
  });

  it("a pricing profile assigned prices the next quote, though the previous one had it cached", async () => {
    const session = await probe.signIn();
    const serviceFee = async () =>
      Number(
        ok(
          await probe.request("POST", "/v1/quotes", {
            headers: session.headers,
            body: { ...BUY, inputAmount: "1000" },
          }),
          201,
        ).vortexFeeFiat,
      );
    expect(await serviceFee()).toBeGreaterThan(0);
    ok(
      await probe.request("PUT", `/v1/admin/pricing-assignments/${session.profileId}`, {
        headers: probe.operatorHeaders,
        body: { pricingProfile: "zero-fee" },
      }),
    );
    expect(await serviceFee()).toBe(0);
  });
});

describe(`prepared reads (${testEngine()})`, () => {
  it("return rows exactly as the ORM does: dates, booleans, nulls, a joined row", async () => {
    const subject = await caller();
    const [rampId] = await finishedRamps(subject.secret, 1);
    const { db } = probe.app;
    const kycCases = new KycRepository(probe.app);
    expect(await new RampRepository(probe.app).findRamp(rampId!, subject.profileId)).toEqual(
      await db.ramp.findFirst({ where: { id: rampId! }, include: { quote: true } }),
    );
    expect((await kycCases.findSubjectKyc(subject.profileId)).cases).toEqual(
      await db.kycCase.findMany({ where: { profileId: subject.profileId }, orderBy: { createdAt: "asc" } }),
    );
    expect(
      await new CredentialRepository(probe.app).listCredentials(subject.profileId, { limit: 50, offset: 0 }),
    ).toEqual({
      rows: await db.apiCredential.findMany({
        where: { profileId: subject.profileId },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      }),
      total: await db.apiCredential.count({ where: { profileId: subject.profileId } }),
    });
    expect(await kycCases.findSubjectKyc(randomUUID())).toEqual({
      cases: [],
      hasLoginEmail: false,
      activeCustomerType: null,
    });
  });

  it("refuse a bound row limit, which SQLite would prepare again on every run", async () => {
    await expect(probe.app.reads.all(rawSql(`SELECT "id" FROM "Profile" LIMIT $1`, [1]))).rejects.toThrow(/rowLimit/);
    expect(await probe.app.reads.all(query.selectFrom("Profile").select("id").limit(rowLimit(1)))).toHaveLength(1);
  });

  it("run beside an open write transaction without waiting for it, and see what it committed once it has", async () => {
    const { reads, db } = probe.app;
    const id = randomUUID();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let created!: () => void;
    const inserted = new Promise<void>((resolve) => (created = resolve));
    const transaction = inTransaction(db, async (tx) => {
      await tx.profile.create({ data: { id, email: `${id}@open.test` } });
      created();
      await held;
    });
    await inserted;
    const readProfile = () => reads.one(rawSql<{ id: string }>(`SELECT "id" FROM "Profile" WHERE "id" = $1`, [id]));
    // Neither the prepared read nor the ORM's own read outside the transaction waits for it, nor sees its write.
    const during = await Promise.race([
      Promise.all([readProfile(), db.profile.findUnique({ where: { id } })]),
      new Promise((resolve) => setTimeout(() => resolve("waited"), 2000)),
    ]);
    expect(during).toEqual([undefined, null]);
    release();
    await transaction;
    expect(await readProfile()).toEqual({ id });
  });
});
