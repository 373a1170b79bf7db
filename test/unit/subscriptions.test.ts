import { GraphQLBoolean, GraphQLInt, GraphQLObjectType, GraphQLSchema, parse } from "graphql";
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { Reads } from "../../src/db/statements.js";
import { MAX_UNREAD_MESSAGES, streamOf } from "../../src/events/bus.js";
import { RampEventFeed, type FeedTopic } from "../../src/events/ramp-feed.js";
import { sharedSubscribe } from "../../src/graphql/shared-execution.js";
import { followedStream, guardedStream } from "../../src/graphql/subscriptions.js";

/** A source like the event feed's: a listener registry, and a stream over it. */
function feed() {
  const listeners = new Set<(value: number) => void>();
  const source = streamOf<number, number>(
    (handler) => {
      listeners.add(handler);
      return () => listeners.delete(handler);
    },
    (value) => value,
  );
  return { listeners, source, emit: (value: number) => listeners.forEach((listener) => listener(value)) };
}

describe("stopping a subscription", () => {
  it("a followed stream waiting for an event that is for it lets go of the feed at once", async () => {
    const { listeners, source, emit } = feed();
    const stream = followedStream(
      source,
      async () => (value: number) => (value === 42 ? value : undefined),
      async () => true,
    );
    const pending = stream.next();
    emit(1);
    emit(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(listeners.size).toBe(1);

    await stream.return!();
    expect(listeners.size).toBe(0);
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  it("a guarded stream waiting on a quiet source lets go of it at once", async () => {
    const { listeners, source } = feed();
    const stream = guardedStream(source, async () => true);
    const pending = stream.next();
    await stream.return!();
    expect(listeners.size).toBe(0);
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  it("still delivers what it follows until then", async () => {
    const { source, emit } = feed();
    const stream = followedStream(
      source,
      async () => (value: number) => (value % 2 === 0 ? value * 10 : undefined),
      async () => true,
    );
    const first = stream.next();
    emit(1);
    emit(2);
    expect(await first).toEqual({ done: false, value: 20 });
    await stream.return!();
  });
});

describe("a subscriber that falls behind", () => {
  it("gets what was held, then RATE_LIMITED, and the feed lets go of it", async () => {
    const { listeners, source, emit } = feed();
    for (let value = 0; value <= MAX_UNREAD_MESSAGES; value++) emit(value);
    expect(listeners.size).toBe(0);
    for (let value = 0; value < MAX_UNREAD_MESSAGES; value++)
      expect(await source.next()).toEqual({ done: false, value });
    await expect(source.next()).rejects.toMatchObject({ code: "RATE_LIMITED" });
  });
});

describe("the event feed", () => {
  it("hands an event only to the subscribers of its ramp, quote or widget session", async () => {
    const entry = (sequence: number, rampId: string, quoteId: string, sessionId: string | null) => ({
      sequence,
      rampId,
      profileId: "p",
      body: JSON.stringify({
        eventId: `e${sequence}`,
        eventType: "STATUS_CHANGE",
        timestamp: "",
        payload: { quoteId, transactionId: rampId, sessionId },
      }),
    });
    const rows = [entry(1, "r1", "q1", "s1"), entry(2, "r2", "q2", null)];
    const reads = { all: async () => rows } as unknown as Reads;
    const events = new RampEventFeed(reads, 60_000, pino({ level: "silent" }));
    const seen = (topic: FeedTopic) => {
      const sequences: number[] = [];
      events.listen(topic, (event) => sequences.push(event.sequence));
      return sequences;
    };
    const [ramp1, quote2, session1, other] = [
      seen({ rampId: "r1" }),
      seen({ quoteId: "q2" }),
      seen({ sessionId: "s1" }),
      seen({ quoteId: "q3" }),
    ];
    await events.poll();
    expect({ ramp1, quote2, session1, other }).toEqual({ ramp1: [1], quote2: [2], session1: [1], other: [] });
  });
});

describe("subscriptions sharing an execution", () => {
  let executions = 0;
  const events = [{ value: 1 }, { value: 2 }];
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: "Query", fields: { ok: { type: GraphQLBoolean } } }),
    subscription: new GraphQLObjectType({
      name: "Subscription",
      fields: {
        tick: {
          type: GraphQLInt,
          subscribe: async function* () {
            yield* events;
          },
          resolve: (event: { value: number }) => (executions++, event.value),
        },
      },
    }),
  });
  const run = async (subscribe: ReturnType<typeof sharedSubscribe>, contextValue: object) => {
    const results = (await subscribe({
      schema,
      document: parse("subscription { tick }"),
      contextValue,
    })) as AsyncIterableIterator<unknown>;
    const received = [];
    for await (const result of results) received.push(result);
    return received;
  };

  it("executes once per event for subscribers of one group, once each otherwise", async () => {
    // The subscription field's resolver runs once per execution.
    const groups = new Map<object, string>();
    const subscribe = sharedSubscribe((args) => groups.get(args.contextValue as object));
    const [a, b, c] = [{}, {}, {}];
    groups.set(a, "one").set(b, "one").set(c, "two");
    executions = 0;
    const received = await Promise.all([run(subscribe, a), run(subscribe, b), run(subscribe, c), run(subscribe, {})]);
    expect(
      received.every(
        (results) => JSON.stringify(results) === JSON.stringify([{ data: { tick: 1 } }, { data: { tick: 2 } }]),
      ),
    ).toBe(true);
    expect(executions).toBe(3 * events.length);
  });
});
