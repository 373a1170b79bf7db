import type { EventBus } from "../events/bus.js";
import { RevocableCache } from "./revocable-cache.js";

/**
 * Every cache the gateway keeps, each defined once (`Caches.define`) by the module whose reads it holds. A
 * name added here must be defined, and must have its test that a write through another instance drops what
 * it holds (`test/integration/multi-instance.pg.test.ts`).
 */
export const CACHE_NAMES = [
  "apiCredentials",
  "apiCredentialPages",
  "signIns",
  "accessTokens",
  "managerPolicies",
  "delegationTargets",
  "profiles",
  "kycSubjects",
  "pricingAssignments",
  "quotes",
  "rampViews",
  "rampHistoryPages",
  "rampErrorLogs",
] as const;
export type CacheName = (typeof CACHE_NAMES)[number];
/** Caches of values no write changes (a quote is never changed once made): nothing invalidates them. */
export const UNCHANGING_CACHES: readonly CacheName[] = ["quotes"];

/**
 * The caches of one app and how they are kept honest: a write calls `invalidate` with the tags of what it
 * made stale once it has committed, and every instance drops what it cached under them (the bus's
 * cacheInvalidated notices); a reconnected bus listener, which may have missed some, drops everything.
 * Values are frozen as they are stored: one is shared by every request that reads it.
 */
export class Caches {
  private readonly byName = new Map<CacheName, RevocableCache<unknown>>();

  constructor(
    private readonly bus: EventBus,
    private readonly ttlMs: number,
  ) {
    bus.subscribe("cacheInvalidated", ({ tag }) => this.dropHere(tag));
    bus.onResync(() => this.byName.forEach((cache) => cache.clear()));
  }

  define<V>(name: CacheName, maxEntries?: number): RevocableCache<V> {
    if (this.byName.has(name)) throw new Error(`cache ${name} is defined twice`);
    const cache = new RevocableCache<V>(this.ttlMs, maxEntries);
    this.byName.set(name, cache as RevocableCache<unknown>);
    return cache;
  }

  /** Call after committing a write: every instance drops what it cached under these tags. */
  async invalidate(...tags: string[]): Promise<void> {
    await Promise.all(tags.map((tag) => this.bus.publish("cacheInvalidated", { tag })));
  }

  /** This instance drops what it cached under the tag (it learnt of the change by other means than the bus). */
  dropHere(tag: string): void {
    this.byName.forEach((cache) => cache.invalidate(tag));
  }

  /** Entries held now, by cache (read when metrics are scraped). */
  sizes(): Map<CacheName, number> {
    return new Map([...this.byName].map(([name, cache]) => [name, cache.size]));
  }
}
