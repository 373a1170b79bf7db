import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { RateLimiter } from "../../src/rate-limiter.js";

const limiters: RateLimiter[] = [];
const limiter = (max: number, windowMs = 60_000) => {
  const created = new RateLimiter(max, windowMs);
  limiters.push(created);
  return created;
};
afterEach(() => limiters.splice(0).forEach((created) => created.close()));

function refusal(run: () => void): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("RateLimiter", () => {
  it("lets `max` requests of a key through per window, then answers RATE_LIMITED until the window ends", () => {
    const limits = limiter(3);
    for (let i = 0; i < 3; i++) limits.hit("ip:1", 1_000);
    const refused = refusal(() => limits.hit("ip:1", 21_000));
    expect(refused.code).toBe("RATE_LIMITED");
    expect(refused.headers).toEqual({ "Retry-After": "40" });
    // Other keys count apart; a new window starts afresh.
    limits.hit("ip:2", 21_000);
    limits.hit("ip:1", 61_000);
  });

  it("never answers Retry-After 0", () => {
    const limits = limiter(1, 1_000);
    limits.hit("key", 0);
    expect(refusal(() => limits.hit("key", 999)).headers).toEqual({ "Retry-After": "1" });
  });
});
