/**
 * A short-lived in-memory cache for authentication state. Each entry carries tags (the ids of what it
 * depends on: credential, profile, partner, session); `invalidate(tag)` drops every entry with that tag
 * at once, and a load that raced an invalidation is not cached, so a stale read cannot undo a revocation.
 * Stored values are frozen (their plain objects and arrays, deeply): every reader shares them.
 */
export class RevocableCache<V> {
  private readonly entries = new Map<string, { value: V; tags: string[]; expiresAt: number }>();
  private readonly keysByTag = new Map<string, Set<string>>();
  private epoch = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  /** The cached value while it is fresh, without waiting for anything (the hot paths' hit). */
  peek(key: string): V | undefined {
    const entry = this.entries.get(key);
    return entry && entry.expiresAt > Date.now() ? entry.value : undefined;
  }

  /** The cached value, or the loader's (cached unless an invalidation happened meanwhile). */
  async load(key: string, loader: () => Promise<{ value: V; tags: string[] } | undefined>): Promise<V | undefined> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > Date.now()) return entry.value;
    if (entry) this.remove(key, entry.tags);
    const epochAtStart = this.epoch;
    const loaded = await loader();
    if (loaded && this.ttlMs > 0 && this.epoch === epochAtStart) this.store(key, loaded.value, loaded.tags);
    return loaded?.value;
  }

  /**
   * The cached values of `keys`, and the others from one `loader` call for all of them (each cached unless
   * an invalidation happened meanwhile): a list's entries cost one read, not one each.
   */
  async loadMany(
    keys: readonly string[],
    loader: (missing: string[]) => Promise<Map<string, { value: V; tags: string[] }>>,
  ): Promise<Map<string, V>> {
    const found = new Map<string, V>();
    const missing: string[] = [];
    const now = Date.now();
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (entry && entry.expiresAt > now) found.set(key, entry.value);
      else {
        if (entry) this.remove(key, entry.tags);
        missing.push(key);
      }
    }
    if (missing.length === 0) return found;
    const epochAtStart = this.epoch;
    for (const [key, { value, tags }] of await loader(missing)) {
      found.set(key, value);
      if (this.ttlMs > 0 && this.epoch === epochAtStart) this.store(key, value, tags);
    }
    return found;
  }

  get size(): number {
    return this.entries.size;
  }

  invalidate(tag: string): void {
    this.epoch++;
    for (const key of this.keysByTag.get(tag) ?? []) {
      const entry = this.entries.get(key);
      if (entry) this.remove(key, entry.tags);
    }
    this.keysByTag.delete(tag);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
    this.keysByTag.clear();
  }

  private store(key: string, value: V, tags: string[]): void {
    if (this.entries.size >= this.maxEntries) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.remove(oldestKey, oldest.tags);
    }
    this.entries.set(key, { value: frozen(value), tags, expiresAt: Date.now() + this.ttlMs });
    for (const tag of tags) {
      const keys = this.keysByTag.get(tag) ?? new Set();
      keys.add(key);
      this.keysByTag.set(tag, keys);
    }
  }

  private remove(key: string, tags: string[]): void {
    this.entries.delete(key);
    for (const tag of tags) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByTag.delete(tag);
    }
  }
}

/** Freezes plain objects and arrays, deeply; other objects (dates, decimals, buffers) are left as they are. */
function frozen<V>(value: V): V {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return value;
  for (const item of Object.values(value)) frozen(item);
  return Object.freeze(value);
}
