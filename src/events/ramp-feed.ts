import type { Logger } from "pino";
import type { Reads } from "../db/statements.js";
import { PollLoop } from "../workers/poll-loop.js";
import { lastOutboxSequence, readOutbox, type OutboxEntry } from "./outbox.js";

const BATCH = 500;
/**
 * How long a missing sequence number is waited for. PostgreSQL hands out sequence numbers at insert, so a
 * transaction committing late can leave a lower number visible after higher ones; once it is this old it
 * was rolled back (or is long gone) and the feed moves past it.
 */
const GAP_PATIENCE_MS = 5_000;

type Listener = (entry: OutboxEntry) => void;

/** What a subscriber follows: one ramp, or the ramps registered on one quote or one widget session. */
export type FeedTopic = { rampId: string } | { quoteId: string } | { sessionId: string };

const topicKey = (topic: FeedTopic | { everything: true }) =>
  "everything" in topic
    ? "*"
    : "rampId" in topic
      ? `ramp ${topic.rampId}`
      : "quoteId" in topic
        ? `quote ${topic.quoteId}`
        : `session ${topic.sessionId}`;

/**
 * The outbox as a live feed for this instance's subscribers. Every instance reads the shared outbox, so
 * an event written by any instance reaches subscribers connected to any instance; a sequence seen once is
 * never emitted twice, and a late-committing lower sequence is still emitted when it appears.
 */
export class RampEventFeed {
  /** Listeners by topic key: an event reaches only the subscribers of its ramp, quote and session. */
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Every sequence up to here was emitted (or given up on). */
  private floor = 0;
  /** The highest sequence read so far (or the newest when the feed started). */
  private newestRead = 0;
  /** Sequences above the floor already emitted. */
  private readonly emitted = new Set<number>();
  /** When each missing sequence above the floor was first noticed. */
  private readonly gaps = new Map<number, number>();
  private readonly loop: PollLoop;

  constructor(
    private readonly reads: Reads,
    intervalMs: number,
    private readonly log: Logger,
  ) {
    this.loop = new PollLoop(() => this.poll(), intervalMs, log, "reading the ramp event outbox failed");
  }

  /** Starts after the newest event written so far: subscribers get what happens from now on. */
  async start(): Promise<void> {
    if (this.loop.active) return;
    this.floor = await lastOutboxSequence(this.reads);
    this.newestRead = Math.max(this.newestRead, this.floor);
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Reads now: an instance committed events (OutboxSignal). */
  wake(): void {
    this.loop.wake();
  }

  /** Outbox events written that this feed has not read yet (one statement). */
  async unread(): Promise<number> {
    return Math.max(0, (await lastOutboxSequence(this.reads)) - this.newestRead);
  }

  /** Listeners across every topic. */
  listenerCount(): number {
    let count = 0;
    for (const listeners of this.listeners.values()) count += listeners.size;
    return count;
  }

  /** Listens to every event, ahead of the topics' subscribers. */
  listenToAll(listener: Listener): () => void {
    return this.listen({ everything: true }, listener);
  }

  listen(topic: FeedTopic | { everything: true }, listener: Listener): () => void {
    const key = topicKey(topic);
    let listeners = this.listeners.get(key);
    if (!listeners) this.listeners.set(key, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.listeners.get(key) === listeners) this.listeners.delete(key);
    };
  }

  private emit(key: string, entry: OutboxEntry): void {
    for (const listener of this.listeners.get(key) ?? []) {
      try {
        listener(entry);
      } catch (error) {
        this.log.error({ err: error }, "ramp event listener failed");
      }
    }
  }

  /** One read of the outbox: emits what is new, then moves the floor over what is settled. */
  async poll(now = Date.now()): Promise<void> {
    const { entries, passedOver } = await readOutbox(this.reads, this.floor, BATCH);
    // A webhook's test event is no ramp's: read, it is done with, as an emitted event is.
    for (const sequence of passedOver) {
      this.emitted.add(sequence);
      this.gaps.delete(sequence);
    }
    for (const entry of entries) {
      if (this.emitted.has(entry.sequence)) continue;
      this.emitted.add(entry.sequence);
      this.gaps.delete(entry.sequence);
      const { quoteId, sessionId } = entry.body.payload;
      this.emit("*", entry);
      this.emit(topicKey({ rampId: entry.rampId }), entry);
      this.emit(topicKey({ quoteId }), entry);
      if (sessionId) this.emit(topicKey({ sessionId }), entry);
    }
    const highest = Math.max(entries.at(-1)?.sequence ?? this.floor, passedOver.at(-1) ?? this.floor);
    this.newestRead = Math.max(this.newestRead, highest);
    for (let sequence = this.floor + 1; sequence < highest; sequence++) {
      if (!this.emitted.has(sequence) && !this.gaps.has(sequence)) this.gaps.set(sequence, now);
    }
    while (
      this.emitted.has(this.floor + 1) ||
      (this.gaps.has(this.floor + 1) && now - this.gaps.get(this.floor + 1)! >= GAP_PATIENCE_MS)
    ) {
      this.floor++;
      this.emitted.delete(this.floor);
      this.gaps.delete(this.floor);
    }
  }
}
