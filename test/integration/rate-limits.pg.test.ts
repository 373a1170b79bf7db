import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { insideOneRateLimitWindow, sleep } from "../support/kit.js";

/*
 * Two instances on one PostgreSQL database share every rate limit: each counts locally and adds its counts to
 * the shared ones every flush interval (src/rate-limits/limiter.ts). Requests go in rounds, the same number to
 * each instance, with a pause after each round long enough for both to flush and learn the sums. So a window
 * passes a budget by what the other instance admits in one round at most: the documented overshoot, what the
 * others admit before this instance's next flush.
 */

const PROFILE_BUDGET = 20;
const IP_BUDGET = 10;
const SIGN_IN_BUDGET = 4;
const FLUSH_MS = 100;

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  const env = {
    RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: String(PROFILE_BUDGET),
    RATE_LIMIT_PER_IP_PER_MINUTE: String(IP_BUDGET),
    RATE_LIMIT_OTP_PER_IP_PER_MINUTE: String(SIGN_IN_BUDGET),
  };
  first = await startTestApp(env, { seams: { rateLimitFlushMs: FLUSH_MS } });
  second = await startTestApp(env, { database: first.database, seams: { rateLimitFlushMs: FLUSH_MS } });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

/**
 * `rounds` rounds of `send` to each instance `perInstance` times, both flushed after each round; how many
 * were admitted, and the refusals.
 */
async function inRounds(
  rounds: number,
  perInstance: number,
  send: (instance: TestApp, index: number) => Promise<HttpResponse>,
): Promise<{ admitted: number; refused: HttpResponse[] }> {
  let admitted = 0;
  const refused: HttpResponse[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const instance of [first, second])
      for (let index = 0; index < perInstance; index++) {
        const response = await send(instance, index);
        if (response.status === 429) refused.push(response);
        else {
          expect(response.status, JSON.stringify(response.body)).toBe(200);
          admitted++;
        }
      }
    await sleep(FLUSH_MS * 3);
  }
  return { admitted, refused };
}

function expectRefusal(response: HttpResponse | undefined) {
  const code = response?.body?.error?.code ?? response?.body?.errors?.[0]?.extensions?.code;
  expect({ status: response?.status, code }).toEqual({ status: 429, code: "RATE_LIMITED" });
  expect(Number(response!.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  expect(Number(response!.headers["retry-after"])).toBeLessThanOrEqual(60);
}

describe("rate limits across two instances on one PostgreSQL database", () => {
  it(
    "one profile's budget holds over both instances and both its keys: about the budget in all, not four budgets",
    {
      timeout: 60_000,
    },
    async () => {
      await insideOneRateLimitWindow(20_000);
      const session = await first.signIn();
      // Two of the profile's requests: each creation is counted against its budget.
      const keys = [await first.createCredential(session.headers), await first.createCredential(session.headers)];
      let address = 0;
      // Each request from an address of its own, so the per-IP limit stays out of it.
      const { admitted, refused } = await inRounds(10, keys.length, (instance, index) =>
        instance.request("POST", "/graphql", {
          headers: { "x-api-key": keys[index]!.secretKey },
          body: { query: "{ me { id } }" },
          remoteAddress: `192.0.2.${++address}`,
        }),
      );
      const profileAdmitted = admitted + 2;
      // Counted per key and instance, 4 x 20 would pass; per profile but per instance, 2 x 20.
      expect(profileAdmitted).toBeGreaterThanOrEqual(PROFILE_BUDGET);
      expect(profileAdmitted).toBeLessThanOrEqual(PROFILE_BUDGET + keys.length);
      expectRefusal(refused[0]);
      // Both instances refuse the profile now, with either key or its session.
      for (const instance of [first, second])
        for (const headers of [session.headers, { "x-api-key": keys[1]!.secretKey }])
          expectRefusal(
            await instance.request("GET", "/v1/api-credentials", { headers, remoteAddress: "192.0.2.100" }),
          );
    },
  );

  it("a client address's budget holds over both instances", { timeout: 60_000 }, async () => {
    await insideOneRateLimitWindow(20_000);
    const { admitted, refused } = await inRounds(8, 2, (instance) =>
      instance.request("GET", "/v1/openapi.json", { remoteAddress: "198.51.100.7" }),
    );
    expect(admitted).toBeGreaterThanOrEqual(IP_BUDGET);
    expect(admitted).toBeLessThanOrEqual(IP_BUDGET + 2);
    expectRefusal(refused[0]);
    // Another address has its own.
    expect((await second.request("GET", "/v1/openapi.json", { remoteAddress: "198.51.100.8" })).status).toBe(200);
  });

  it("the sign-in budget of a client address holds over both instances", { timeout: 60_000 }, async () => {
    await insideOneRateLimitWindow(20_000);
    const { admitted, refused } = await inRounds(6, 1, (instance) =>
      instance.request("POST", "/v1/auth/request-otp", {
        body: { email: `limits-${randomUUID()}@example.com` },
        remoteAddress: "198.51.100.20",
      }),
    );
    expect(admitted).toBeGreaterThanOrEqual(SIGN_IN_BUDGET);
    expect(admitted).toBeLessThanOrEqual(SIGN_IN_BUDGET + 1);
    expectRefusal(refused[0]);
  });
});
