import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type pg from "pg";
import { AppError } from "../errors.js";
import { isObject } from "../validation.js";

/** Messages every instance must see. Small payloads: ids, never secrets (PostgreSQL NOTIFY caps at 8 kB). */
export interface BusTopics {
  apiCredential: { profileId: string; credentialId: string; action: "created" | "revoked" };
  /**
   * Cached state tagged with this id is stale: a credential revoked, a sign-in ended, a partner
   * deactivated, a child deleted, a manager's policy changed, a subject's KYC case or pricing changed, a
   * profile's row written.
   */
  cacheInvalidated: { tag: string };
  /** The webhook signing key was rotated: every instance reloads the active key. */
  signingKeyRotated: { keyId: string };
  /** Ramp events or webhook deliveries were committed: outbox readers look now, not at their next poll. */
  outboxWritten: Record<string, never>;
}
export type Topic = keyof BusTopics;
type Handler<T extends Topic> = (message: BusTopics[T]) => void;

/**
 * Publish reaches this instance's handlers synchronously (before publish returns), then every other
 * instance: in-process only on SQLite, through PostgreSQL LISTEN/NOTIFY in distributed mode. It never
 * fails: what is published was committed, and a lost notice only delays the others until their caches expire.
 */
export interface EventBus {
  publish<T extends Topic>(topic: T, message: BusTopics[T]): Promise<void>;
  subscribe<T extends Topic>(topic: T, handler: Handler<T>): () => void;
  /** Called when messages from other instances may have been missed (listener reconnected). */
  onResync(handler: () => void): () => void;
  close(): Promise<void>;
}

class LocalHandlers {
  private readonly byTopic = new Map<Topic, Set<Handler<Topic>>>();
  private readonly resyncHandlers = new Set<() => void>();

  add<T extends Topic>(topic: T, handler: Handler<T>): () => void {
    const set = this.byTopic.get(topic) ?? new Set();
    this.byTopic.set(topic, set);
    set.add(handler as Handler<Topic>);
    return () => set.delete(handler as Handler<Topic>);
  }

  addResync(handler: () => void): () => void {
    this.resyncHandlers.add(handler);
    return () => this.resyncHandlers.delete(handler);
  }

  resync(): void {
    this.resyncHandlers.forEach((handler) => handler());
  }

  deliver<T extends Topic>(topic: T, message: BusTopics[T], log: Logger): void {
    for (const handler of this.byTopic.get(topic) ?? []) {
      try {
        handler(message);
      } catch (error) {
        log.error({ err: error, topic }, "event handler failed");
      }
    }
  }
}

export function createInProcessBus(log: Logger): EventBus {
  const handlers = new LocalHandlers();
  return {
    async publish(topic, message) {
      handlers.deliver(topic, message, log);
    },
    subscribe: (topic, handler) => handlers.add(topic, handler),
    onResync: (handler) => handlers.addResync(handler),
    async close() {},
  };
}

const CHANNEL = "ramp_gateway_bus";
/** Every topic, checked against BusTopics: one added there and forgotten here does not compile. */
const TOPICS = {
  apiCredential: true,
  cacheInvalidated: true,
  signingKeyRotated: true,
  outboxWritten: true,
} as const satisfies Record<Topic, true>;

interface Envelope {
  origin: string;
  topic: Topic;
  message: BusTopics[Topic];
}

/** A notification as an instance sends it (`publish`), or undefined for anything else. */
function readEnvelope(payload: string): Envelope | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const { origin, topic, message } = (isObject(value) ? value : {}) as Partial<Record<keyof Envelope, unknown>>;
  if (typeof origin !== "string" || !(typeof topic === "string" && Object.hasOwn(TOPICS, topic)) || !isObject(message))
    return undefined;
  return { origin, topic: topic as Topic, message: message as BusTopics[Topic] };
}
const RECONNECT_DELAY_MS = 1000;

export async function createPostgresBus(connectionString: string, log: Logger): Promise<EventBus> {
  const { default: pg } = await import("pg");
  const instanceId = randomUUID();
  const handlers = new LocalHandlers();
  let client: pg.Client | undefined;
  let closed = false;
  let notifying: Promise<unknown> = Promise.resolve();

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString });
    next.on("notification", (notification) => {
      if (!notification.payload) return;
      const envelope = readEnvelope(notification.payload);
      // Anyone with access to the database may notify on the channel: what is not ours is dropped.
      if (!envelope) log.warn({ bytes: notification.payload.length }, "ignored a bus notification that is not ours");
      else if (envelope.origin !== instanceId) handlers.deliver(envelope.topic, envelope.message, log);
    });
    next.on("error", (error) => {
      log.warn({ err: error }, "event bus connection lost; reconnecting");
      client = undefined;
      next.end().catch(() => undefined);
      if (!closed) setTimeout(reconnect, RECONNECT_DELAY_MS).unref();
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    client = next;
  };
  const reconnect = () => {
    connect()
      .then(() => handlers.resync())
      .catch((error) => {
        log.warn({ err: error }, "event bus reconnect failed; retrying");
        if (!closed) setTimeout(reconnect, RECONNECT_DELAY_MS).unref();
      });
  };
  await connect();

  return {
    async publish(topic, message) {
      handlers.deliver(topic, message, log);
      if (!client) {
        log.warn({ topic }, "event bus disconnected; other instances rely on cache expiry");
        return;
      }
      // One query at a time on the listening connection: notices go out in order, never overlapping.
      const connection = client;
      const sent = notifying.then(() =>
        connection.query("SELECT pg_notify($1, $2)", [CHANNEL, JSON.stringify({ origin: instanceId, topic, message })]),
      );
      notifying = sent.catch(() => undefined);
      try {
        await sent;
      } catch (error) {
        // What is published was committed already: its caller is told it stands, not that it failed. The
        // other instances see it once their caches expire (CACHE_TTL_SECONDS) or their bus reconnects.
        log.warn({ err: error, topic }, "event bus notify failed; other instances catch up when their caches expire");
      }
    },
    subscribe: (topic, handler) => handlers.add(topic, handler),
    onResync: (handler) => handlers.addResync(handler),
    async close() {
      closed = true;
      await client?.end();
    },
  };
}

/** Turns a topic into an async iterator (for GraphQL subscriptions); see `streamOf`. */
export function streamTopic<T extends Topic, R>(
  bus: EventBus,
  topic: T,
  select: (message: BusTopics[T]) => R | undefined,
): AsyncIterableIterator<R> {
  return streamOf((handler: (message: BusTopics[T]) => void) => bus.subscribe(topic, handler), select);
}

/** Messages a stream holds for a reader that does not keep up; one more ends the stream. */
export const MAX_UNREAD_MESSAGES = 256;

/**
 * Turns a listener registration into an async iterator: selected messages are buffered until read, at
 * most MAX_UNREAD_MESSAGES: a subscriber that falls further behind gets what was held, then RATE_LIMITED,
 * and may subscribe again (the server never holds an unbounded backlog); `return()` unregisters.
 */
export function streamOf<M, R>(
  listen: (handler: (message: M) => void) => () => void,
  select: (message: M) => R | undefined,
): AsyncIterableIterator<R> {
  const buffer: R[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let overflowed = false;
  const unsubscribe = listen((message) => {
    const value = select(message);
    if (value === undefined || done) return;
    if (buffer.length >= MAX_UNREAD_MESSAGES) {
      overflowed = true;
      void finish();
      return;
    }
    buffer.push(value);
    wake?.();
  });
  const finish = async (): Promise<IteratorResult<R>> => {
    done = true;
    unsubscribe();
    wake?.();
    return { value: undefined, done: true };
  };
  return {
    async next() {
      while (!done && buffer.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      if (buffer.length > 0) return { value: buffer.shift() as R, done: false };
      // What was held is delivered first: the subscriber knows exactly where it lost track.
      if (overflowed)
        throw new AppError(
          "RATE_LIMITED",
          `The subscriber fell more than ${MAX_UNREAD_MESSAGES} events behind; subscribe again.`,
        );
      return { value: undefined, done: true };
    },
    return: finish,
    throw: async (error) => {
      await finish();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
