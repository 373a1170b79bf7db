import { describe, expect, it, vi } from "vitest";
import pino from "pino";
import { Caches } from "../../src/cache/caches.js";
import { RevocableCache } from "../../src/cache/revocable-cache.js";
import { createInProcessBus } from "../../src/events/bus.js";

describe("RevocableCache", () => {
  it("serves a loaded value until it expires, then loads again", async () => {
    vi.useFakeTimers();
    try {
      const cache = new RevocableCache<number>(1000);
      const loader = vi.fn(async () => ({ value: 1, tags: ["t"] }));
      expect(await cache.load("k", loader)).toBe(1);
      expect(await cache.load("k", loader)).toBe(1);
      expect(loader).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1001);
      await cache.load("k", loader);
      expect(loader).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("drops every entry of a tag at once, and only those", async () => {
    const cache = new RevocableCache<string>(60_000);
    await cache.load("a1", async () => ({ value: "a1", tags: ["a"] }));
    await cache.load("a2", async () => ({ value: "a2", tags: ["a"] }));
    await cache.load("b1", async () => ({ value: "b1", tags: ["b"] }));
    cache.invalidate("a");
    const reload = vi.fn(async () => ({ value: "fresh", tags: ["a"] }));
    expect(await cache.load("a1", reload)).toBe("fresh");
    expect(await cache.load("a2", reload)).toBe("fresh");
    expect(await cache.load("b1", reload)).toBe("b1");
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it("does not cache a load that raced an invalidation (a stale read cannot undo a revocation)", async () => {
    const cache = new RevocableCache<string>(60_000);
    let finish!: (value: { value: string; tags: string[] }) => void;
    const slow = cache.load("k", () => new Promise((resolve) => (finish = resolve)));
    cache.invalidate("t");
    finish({ value: "read before the revocation", tags: ["t"] });
    expect(await slow).toBe("read before the revocation");
    expect(await cache.load("k", async () => ({ value: "after", tags: ["t"] }))).toBe("after");
  });

  it("does not cache misses, nor anything with a zero TTL", async () => {
    const miss = vi.fn(async () => undefined);
    const cache = new RevocableCache<string>(60_000);
    await cache.load("k", miss);
    await cache.load("k", miss);
    expect(miss).toHaveBeenCalledTimes(2);
    const uncached = new RevocableCache<string>(0);
    const loader = vi.fn(async () => ({ value: "v", tags: ["t"] }));
    await uncached.load("k", loader);
    await uncached.load("k", loader);
    expect(loader).toHaveBeenCalledTimes(2);
  });

  it("drops an entry through any of its tags", async () => {
    const cache = new RevocableCache<string>(60_000);
    await cache.load("k", async () => ({ value: "cached", tags: ["credential", "partner"] }));
    cache.invalidate("partner");
    expect(await cache.load("k", async () => ({ value: "fresh", tags: ["credential", "partner"] }))).toBe("fresh");
  });

  it("stays within its size bound by evicting the oldest entry", async () => {
    const cache = new RevocableCache<number>(60_000, 2);
    for (const key of ["a", "b", "c"]) await cache.load(key, async () => ({ value: 0, tags: [key] }));
    const loader = vi.fn(async () => ({ value: 1, tags: ["a"] }));
    expect(await cache.load("a", loader)).toBe(1);
    expect(await cache.load("c", loader)).toBe(0);
  });

  it("loads the missing entries of a list in one call, and caches none a concurrent invalidation raced", async () => {
    const cache = new RevocableCache<string>(60_000);
    await cache.load("a", async () => ({ value: "a1", tags: ["a"] }));
    const loader = vi.fn(
      async (missing: string[]) => new Map(missing.map((key) => [key, { value: `${key}1`, tags: [key] }])),
    );
    expect(await cache.loadMany(["a", "b", "c"], loader)).toEqual(
      new Map([
        ["a", "a1"],
        ["b", "b1"],
        ["c", "c1"],
      ]),
    );
    expect(loader).toHaveBeenCalledTimes(1);
    expect(loader).toHaveBeenCalledWith(["b", "c"]);
    expect(await cache.loadMany(["b", "c"], loader)).toEqual(
      new Map([
        ["b", "b1"],
        ["c", "c1"],
      ]),
    );
    expect(loader).toHaveBeenCalledTimes(1);

    const racing = vi.fn(async (missing: string[]) => {
      cache.invalidate("unrelated");
      return new Map(missing.map((key) => [key, { value: `${key}2`, tags: [key] }]));
    });
    expect(await cache.loadMany(["d"], racing)).toEqual(new Map([["d", "d2"]]));
    expect(await cache.loadMany(["d"], racing)).toEqual(new Map([["d", "d2"]]));
    expect(racing).toHaveBeenCalledTimes(2);
  });

  it("freezes what it stores, deeply, so no reader can change what the others read; dates and other objects are left as they are", async () => {
    const cache = new RevocableCache<{ status: string; fees: { amount: string }[]; at: Date; raw: Uint8Array }>(60_000);
    const view = { status: "PENDING", fees: [{ amount: "1.00" }], at: new Date(0), raw: new Uint8Array([1]) };
    const cached = (await cache.load("k", async () => ({ value: view, tags: [] })))!;
    expect(cache.peek("k")).toBe(cached);
    expect(() => Object.assign(cached, { status: "COMPLETE" })).toThrow(TypeError);
    expect(() => cached.fees.push({ amount: "2.00" })).toThrow(TypeError);
    expect(() => Object.assign(cached.fees[0]!, { amount: "0" })).toThrow(TypeError);
    expect(cached).toEqual({
      status: "PENDING",
      fees: [{ amount: "1.00" }],
      at: new Date(0),
      raw: new Uint8Array([1]),
    });
    expect(Object.isFrozen(cached.at) || Object.isFrozen(cached.raw)).toBe(false);
  });
});

describe("Caches", () => {
  const bus = () => createInProcessBus(pino({ level: "silent" }));

  it("drops a tag's entries from every cache it names once a write invalidates it, and refuses a name defined twice", async () => {
    const caches = new Caches(bus(), 60_000);
    const views = caches.define<string>("rampViews");
    const pages = caches.define<string>("rampHistoryPages");
    await views.load("view", async () => ({ value: "view", tags: ["ramp-1"] }));
    await pages.load("page", async () => ({ value: "page", tags: ["ramp-1", "history"] }));
    await pages.load("other", async () => ({ value: "other", tags: ["ramp-2"] }));
    expect(caches.sizes()).toEqual(
      new Map([
        ["rampViews", 1],
        ["rampHistoryPages", 2],
      ]),
    );

    await caches.invalidate("ramp-1");
    expect([views.peek("view"), pages.peek("page"), pages.peek("other")]).toEqual([undefined, undefined, "other"]);
    expect(() => caches.define("rampViews")).toThrow("cache rampViews is defined twice");
  });

  it("drops everything when the bus may have missed notices (its listener reconnected)", async () => {
    const resyncs: (() => void)[] = [];
    const caches = new Caches({ ...bus(), onResync: (handler) => (resyncs.push(handler), () => undefined) }, 60_000);
    const views = caches.define<string>("rampViews");
    await views.load("view", async () => ({ value: "view", tags: ["ramp-1"] }));
    resyncs.forEach((resync) => resync());
    expect(views.peek("view")).toBeUndefined();
  });
});
