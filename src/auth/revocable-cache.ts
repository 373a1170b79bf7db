/**
 * A short-lived in-memory cache for authentication state. Each entry carries a tag (the id of the
 * credential or session it describes); `invalidate(tag)` drops every entry of that tag at once, and a
 * load that raced an invalidation is not cached, so a revocation can never be undone by a stale read.
 */
export class RevocableCache<V> {
  private readonly entries = new Map<string, { value: V; tag: string; expiresAt: number }>();
  private readonly keysByTag = new Map<string, Set<string>>();
  private epoch = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  /** The cached value, or the loader's (cached unless an invalidation happened meanwhile). */
  async load(key: string, loader: () => Promise<{ value: V; tag: string } | undefined>): Promise<V | undefined> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > Date.now()) return entry.value;
    if (entry) this.remove(key, entry.tag);
    const epochAtStart = this.epoch;
    const loaded = await loader();
    if (loaded && this.ttlMs > 0 && this.epoch === epochAtStart) this.store(key, loaded.value, loaded.tag);
    return loaded?.value;
  }

  invalidate(tag: string): void {
    this.epoch++;
    for (const key of this.keysByTag.get(tag) ?? []) this.entries.delete(key);
    this.keysByTag.delete(tag);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
    this.keysByTag.clear();
  }

  private store(key: string, value: V, tag: string): void {
    if (this.entries.size >= this.maxEntries) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.remove(oldestKey, oldest.tag);
    }
    this.entries.set(key, { value, tag, expiresAt: Date.now() + this.ttlMs });
    const keys = this.keysByTag.get(tag) ?? new Set();
    keys.add(key);
    this.keysByTag.set(tag, keys);
  }

  private remove(key: string, tag: string): void {
    this.entries.delete(key);
    const keys = this.keysByTag.get(tag);
    keys?.delete(key);
    if (keys?.size === 0) this.keysByTag.delete(tag);
  }
}
