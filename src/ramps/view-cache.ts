import type { Caches } from "../cache/caches.js";
import type { RevocableCache } from "../cache/revocable-cache.js";
import type { HistoryPage, RampErrorView, RampView } from "./types.js";

/** Views are a kilobyte or two: this bounds what polling can hold in memory. */
const MAX_VIEWS = 10_000;
/** A page holds up to a hundred views. */
const MAX_PAGES = 1_000;

export interface RampHistory {
  totalCount: number;
  ramps: RampView[];
}

/** Drops every cached history page of a subject: a ramp entered its history (it started, or timed out). */
const historyTag = (subjectProfileId: string) => `ramp-history:${subjectProfileId}`;

/**
 * Ramps as their subjects see them, for status polling and history pages: a changed ramp (and each page
 * showing it) is dropped on every instance once its change is committed (`changed`), and locally as soon as
 * the event feed brings one of its events, so a subscriber reading it for that event never gets the view
 * from before. A ramp entering the history drops its subject's pages (`enteredHistory`).
 */
export class RampViewCache {
  private readonly cache: RevocableCache<RampView>;
  private readonly pages: RevocableCache<RampHistory>;
  private readonly errorLogs: RevocableCache<RampErrorView[]>;

  constructor(private readonly caches: Caches) {
    this.cache = caches.define("rampViews", MAX_VIEWS);
    this.pages = caches.define("rampHistoryPages", MAX_PAGES);
    this.errorLogs = caches.define("rampErrorLogs", MAX_VIEWS);
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

  /**
   * A page of the subject's history, from memory or `read`; tagged with its ramps and the subject's history.
   * What a page holds changes only when a ramp enters the history, except under a status filter: a ramp that
   * completes joins the COMPLETE pages without being on them, so those are read each time.
   */
  async loadHistory(
    subjectProfileId: string,
    page: HistoryPage,
    read: () => Promise<RampHistory>,
  ): Promise<RampHistory> {
    if (page.status) return read();
    const { limit, offset, walletAddress, type, corridor, createdFrom, createdBefore, order } = page;
    const key = JSON.stringify([
      subjectProfileId,
      limit,
      offset,
      walletAddress,
      type,
      corridor,
      createdFrom,
      createdBefore,
      order,
    ]);
    return (
      this.pages.peek(key) ??
      (await this.pages.load(key, async () => {
        const history = await read();
        return { value: history, tags: [historyTag(subjectProfileId), ...history.ramps.map(({ id }) => id)] };
      }))!
    );
  }

  /**
   * The error logs of ramps the caller already read as its own, from memory, the rest from one `read`. A
   * ramp's log grows only with a change to the ramp, which drops it with the ramp's view.
   */
  async errorLogsOf(
    rampIds: readonly string[],
    read: (missing: string[]) => Promise<Map<string, RampErrorView[]>>,
  ): Promise<Map<string, RampErrorView[]>> {
    return this.errorLogs.loadMany(rampIds, async (missing) => {
      const logs = await read(missing);
      return new Map(missing.map((id) => [id, { value: logs.get(id) ?? [], tags: [id] }]));
    });
  }

  /** Call after committing a change to the ramp: every instance forgets it. */
  async changed(rampId: string): Promise<void> {
    await this.caches.invalidate(rampId);
  }

  /** Call after committing a ramp's move out of its initial phase: every instance forgets it and its subject's pages. */
  async enteredHistory(ramp: { id: string; profileId: string }): Promise<void> {
    await this.caches.invalidate(ramp.id, historyTag(ramp.profileId));
  }

  /** This instance forgets the ramp (its event arrived: it changed). */
  forget(rampId: string): void {
    this.caches.dropHere(rampId);
  }
}
