import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.js";
import { expectError, expectPagedList, ok, seedCredentials } from "../support/kit.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LAST_USED_FLUSH_INTERVAL_MS: "200" });
});
afterAll(() => t?.close());

describe("API credentials", () => {
  it("creates a credential: 201, both values in the contract's formats, secret shown once", async () => {
    const session = await t.signIn();
    const created = await t.request("POST", "/v1/api-credentials", {
      headers: session.headers,
      body: { name: "server" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "server",
      profileId: session.profileId,
      partnerId: null,
      environment: "test",
      publicLastUsedAt: null,
      secretLastUsedAt: null,
      revokedAt: null,
    });
    expect(created.body.publicKey).toMatch(/^pk_test_[A-Za-z0-9]{32}$/);
    expect(created.body.secretKey).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    expect(created.body.secretKeyPrefix).toBe(created.body.secretKey.slice(0, 16));
    const listed = await t.request("GET", "/v1/api-credentials", { headers: session.headers });
    expect(listed.status).toBe(200);
    expect(listed.body.credentials).toHaveLength(1);
    expect(listed.body.credentials[0]).not.toHaveProperty("secretKey");
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secretKey);
  });

  it("stores only the public value, the 16-character prefix and the SHA-256 digest of the secret", async () => {
    const session = await t.signIn();
    const { id, secretKey } = await t.createCredential(session.headers);
    const row = await t.app.db.apiCredential.findUniqueOrThrow({ where: { id } });
    const { createHash } = await import("node:crypto");
    expect(row.secretKeyHash).toBe(createHash("sha256").update(secretKey).digest("hex"));
    expect(row.secretKeyPrefix).toBe(secretKey.slice(0, 16));
    expect(JSON.stringify(row)).not.toContain(secretKey.slice(16));
  });

  it("applies the name and expiry defaults and rules", async () => {
    const session = await t.signIn();
    const before = Date.now();
    const created = await t.request("POST", "/v1/api-credentials", { headers: session.headers });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.name).toBe("API Credential");
    const expiry = new Date(created.body.expiresAt).getTime();
    expect(expiry).toBeGreaterThan(before + 364 * 86_400_000);
    expect(expiry).toBeLessThan(before + 367 * 86_400_000);

    const tooLong = await t.request("POST", "/v1/api-credentials", {
      headers: session.headers,
      body: { name: "x".repeat(101) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.code).toBe("INVALID_CREDENTIAL_NAME");
    const past = await t.request("POST", "/v1/api-credentials", {
      headers: session.headers,
      body: { expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past.body.error.code).toBe("INVALID_CREDENTIAL_EXPIRY");
    const tooFar = await t.request("POST", "/v1/api-credentials", {
      headers: session.headers,
      body: { expiresAt: new Date(Date.now() + 2 * 366 * 86_400_000).toISOString() },
    });
    expect(tooFar.body.error.code).toBe("INVALID_CREDENTIAL_EXPIRY");
    const notADate = await t.request("POST", "/v1/api-credentials", {
      headers: session.headers,
      body: { expiresAt: "tomorrow" },
    });
    expect(notADate.status).toBe(400);
    expect(notADate.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: [{ field: "expiresAt" }] });
    const listed = await t.request("GET", "/v1/api-credentials", { headers: session.headers });
    expect(listed.body.credentials).toHaveLength(1);
  });

  it("lists newest first, revoked and expired included", async () => {
    const session = await t.signIn();
    const first = await t.createCredential(session.headers, { name: "first" });
    const second = await t.createCredential(session.headers, { name: "second" });
    await t.request("DELETE", `/v1/api-credentials/${first.id}`, { headers: session.headers });
    const listed = await t.request("GET", "/v1/api-credentials", { headers: session.headers });
    expect(listed.body.credentials.map((c: { id: string }) => c.id)).toEqual([second.id, first.id]);
    expect(listed.body.credentials[1].revokedAt).not.toBeNull();
  });

  it("lists a page at a time: 50 by default, then by limit and offset, newest first across pages; a limit over 100 is 400", async () => {
    const session = await t.signIn();
    const seeded = await seedCredentials(t.app.db, session.profileId, 55);
    const ids = (credentials: { id: string }[]) => credentials.map((credential) => credential.id);
    const read = (query: string) => t.request("GET", `/v1/api-credentials?${query}`, { headers: session.headers });
    expect(Object.keys(ok(await read(""))).sort()).toEqual(["credentials", "pagination"]);
    await expectPagedList(
      {
        read,
        ids: (body) => ids(body.credentials),
        connection: async (first, after) => {
          const { apiCredentials } = ok(
            await t.graphql(
              "query ($first: Int!, $after: String) { apiCredentials(first: $first, after: $after) { count totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }",
              { first, after },
              session.headers,
            ),
          ).data;
          return {
            ids: ids(apiCredentials.edges.map((edge: { node: { id: string } }) => edge.node)),
            ...apiCredentials.pageInfo,
            count: apiCredentials.count,
            totalCount: apiCredentials.totalCount,
          };
        },
      },
      seeded,
    );
  });

  it("revokes both values at once: the very next request with either is refused; again -> 404", async () => {
    const session = await t.signIn();
    const { id, secretKey, publicKey } = await t.createCredential(session.headers);
    const me = () => t.graphql("{ me { id } }", undefined, { "x-api-key": secretKey });
    expect((await me()).body.data.me.id).toBe(session.profileId);
    const revoked = await t.request("DELETE", `/v1/api-credentials/${id}`, { headers: session.headers });
    expect(revoked.status).toBe(204);
    const afterwards = await me();
    expect(afterwards.status).toBe(401);
    expect(afterwards.body.errors[0].extensions.code).toBe("INVALID_API_KEY");
    const withPublic = await t.graphql("{ me { id } }", undefined, { "x-public-key": publicKey });
    expect(withPublic.body.errors[0].extensions.code).toBe("INVALID_PUBLIC_KEY");
    const again = await t.request("DELETE", `/v1/api-credentials/${id}`, { headers: session.headers });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("CREDENTIAL_NOT_FOUND");
  });

  it("another profile's credential is not found, and not revoked; an id that is no UUID is refused", async () => {
    const owner = await t.signIn();
    const stranger = await t.signIn();
    const { id } = await t.createCredential(owner.headers);
    const attempt = await t.request("DELETE", `/v1/api-credentials/${id}`, { headers: stranger.headers });
    expect(attempt.status).toBe(404);
    expect(attempt.body.error.code).toBe("CREDENTIAL_NOT_FOUND");
    const malformed = await t.request("DELETE", "/v1/api-credentials/not-a-uuid", { headers: owner.headers });
    expectError(malformed, 400, "VALIDATION_FAILED", "credentialId");
    const listed = await t.request("GET", "/v1/api-credentials", { headers: owner.headers });
    expect(listed.body.credentials[0].revokedAt).toBeNull();
  });

  it("holds the cap of 5 active credentials exactly under 50 concurrent creations", async () => {
    const session = await t.signIn();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => t.request("POST", "/v1/api-credentials", { headers: session.headers })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(45);
    expect(results.find((r) => r.status === 409)?.body.error.code).toBe("CREDENTIAL_LIMIT_REACHED");
    const active = await t.app.db.apiCredential.count({ where: { profileId: session.profileId, revokedAt: null } });
    expect(active).toBe(5);
    // Revoking one frees exactly one slot.
    const listed = await t.request("GET", "/v1/api-credentials", { headers: session.headers });
    await t.request("DELETE", `/v1/api-credentials/${listed.body.credentials[0].id}`, { headers: session.headers });
    const more = await Promise.all(
      Array.from({ length: 5 }, () => t.request("POST", "/v1/api-credentials", { headers: session.headers })),
    );
    expect(more.filter((r) => r.status === 201)).toHaveLength(1);
  });

  it("does not count expired credentials toward the cap", async () => {
    const session = await t.signIn();
    for (let i = 0; i < 5; i++) await t.createCredential(session.headers);
    await t.app.db.apiCredential.updateMany({
      where: { profileId: session.profileId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const created = await t.request("POST", "/v1/api-credentials", { headers: session.headers });
    expect(created.status).toBe(201);
  });

  it("records last-use times in coalesced batches, not one write per request", async () => {
    const session = await t.signIn();
    const { id, secretKey, publicKey } = await t.createCredential(session.headers);
    for (let i = 0; i < 5; i++) await t.graphql("{ me { id } }", undefined, { "x-api-key": secretKey });
    const immediately = await t.app.db.apiCredential.findUniqueOrThrow({ where: { id } });
    expect(immediately.secretLastUsedAt).toBeNull();
    await t.graphql("{ me { id } }", undefined, { "x-public-key": publicKey, "x-api-key": secretKey });
    await expect
      .poll(async () => (await t.app.db.apiCredential.findUniqueOrThrow({ where: { id } })).secretLastUsedAt, {
        timeout: 3000,
      })
      .not.toBeNull();
    const row = await t.app.db.apiCredential.findUniqueOrThrow({ where: { id } });
    expect(row.publicLastUsedAt).not.toBeNull();
  });

  it("the list is read once, then shows each credential issued, used or revoked as soon as the change is written", async () => {
    const session = await t.signIn();
    const list = async () => {
      const before = t.app.statements.count;
      const { credentials } = ok(await t.request("GET", "/v1/api-credentials", { headers: session.headers }));
      return { credentials, statements: t.app.statements.count - before };
    };
    const { id, secretKey } = await t.createCredential(session.headers);
    expect((await list()).statements).toBe(1);
    expect(await list()).toMatchObject({ credentials: [{ id, secretLastUsedAt: null }], statements: 0 });

    const second = await t.createCredential(session.headers);
    expect((await list()).credentials.map((credential: { id: string }) => credential.id)).toEqual([second.id, id]);
    ok(await t.graphql("{ me { id } }", undefined, { "x-api-key": secretKey }));
    // The last use is written by the next batch (LAST_USED_FLUSH_INTERVAL_MS), and the list shows it then.
    await expect
      .poll(async () => (await list()).credentials[1].secretLastUsedAt, { timeout: 3000, interval: 20 })
      .not.toBeNull();
    expect((await list()).statements).toBe(0);
    expect((await t.request("DELETE", `/v1/api-credentials/${id}`, { headers: session.headers })).status).toBe(204);
    expect((await list()).credentials[1].revokedAt).not.toBeNull();
  });
});
