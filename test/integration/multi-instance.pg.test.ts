import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.js";

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  // A long cache TTL: only the NOTIFY from the other instance can make the second one forget the key.
  first = await startTestApp({ CREDENTIAL_CACHE_TTL_SECONDS: "300" });
  second = await startTestApp({ CREDENTIAL_CACHE_TTL_SECONDS: "300" }, { database: first.database });
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

  it("sessions issued by one instance are accepted by the other (shared JWT secret)", async () => {
    const session = await first.signIn();
    const listed = await second.request("GET", "/v1/api-credentials", { headers: session.headers });
    expect(listed.status).toBe(200);
  });
});
