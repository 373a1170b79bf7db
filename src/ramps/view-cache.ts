import { busInvalidatedCache, type RevocableCache } from "../cache/revocable-cache.js";
import type { EventBus } from "../events/bus.js";
import type { RampView } from "./types.js";

/** Views are a kilobyte or two: this bounds what polling can hold in memory. */
const MAX_VIEWS = 10_000;

/**
 * Ramps as their subjects see them, for status polling: a changed ramp is dropped on every instance once its
 * change is committed (`changed`), and locally as soon as the event feed brings one of its events, so a
 * subscriber reading it for that event never gets the view from before.
 */
export class RampViewCache {
  private readonly cache: RevocableCache<RampView>;

  constructor(
    private readonly bus: EventBus,
    ttlMs: number,
  ) {
    this.cache = busInvalidatedCache(bus, ttlMs, MAX_VIEWS);
  }

  /** The subject's ramp, from memory or `read` (undefined: not the subject's, which is not remembered). */
  async load(
    subjectProfileId: string,
    rampId: string,
    read: () => Promise<RampView | undefined>,
  ): Promise<RampView | undefined> {
    const key = `${subjectProfileId} ${rampId}`;
    return (
      this.cache.peek(key) ??
      this.cache.load(key, async () => {
        const view = await read();
        return view && { value: view, tags: [rampId] };
      })
    );
  }

  /** Call after committing a change to the ramp: every instance forgets it. */
  async changed(rampId: string): Promise<void> {
    await this.bus.publish("cacheInvalidated", { tag: rampId });
  }

  /** This instance forgets the ramp (its event arrived: it changed). */
  forget(rampId: string): void {
    this.cache.invalidate(rampId);
  }
}
