import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.js";

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  // A long cache TTL: only the NOTIFY from the other instance can make the second one forget a key or sign-in.
  first = await startTestApp({ CACHE_TTL_SECONDS: "300" });
  second = await startTestApp({ CACHE_TTL_SECONDS: "300" }, { database: first.database });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

describe("two instances on one PostgreSQL database", () => {
  it("a key revoked through one instance is refused at once by the other, which had it cached", async () => {
    const session = await first.signIn();
    const { id, secretKey } = await first.createCredential(session.headers);
    const me = () => second.graphql("{ me { id } }", undefined, { "x-api-key": secretKey });
    expect((await me()).body.data.me.id).toBe(session.profileId);

    const revoked = await first.request("DELETE", `/v1/api-credentials/${id}`, { headers: session.headers });
    expect(revoked.status).toBe(204);
    await expect.poll(async () => (await me()).status, { timeout: 2000, interval: 20 }).toBe(401);
    expect((await me()).body.errors[0].extensions.code).toBe("INVALID_API_KEY");
  });

  it("a sign-in ended through one instance ends its access tokens on the other, which had them cached", async () => {
    const session = await first.signIn();
    const list = () => second.request("GET", "/v1/api-credentials", { headers: session.headers });
    expect((await list()).status).toBe(200);
    const loggedOut = await first.request("POST", "/v1/auth/logout", { body: { refresh_token: session.refreshToken } });
    expect(loggedOut.status).toBe(204);
    await expect.poll(async () => (await list()).status, { timeout: 2000, interval: 20 }).toBe(401);
    expect((await list()).body.error.code).toBe("INVALID_BEARER_TOKEN");
  });

  it("sessions issued by one instance are accepted by the other (shared JWT secret)", async () => {
    const session = await first.signIn();
    const listed = await second.request("GET", "/v1/api-credentials", { headers: session.headers });
    expect(listed.status).toBe(200);
  });
});
