import { GraphQLBoolean, GraphQLInt, GraphQLObjectType, GraphQLSchema, parse } from "graphql";
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { Reads } from "../../src/db/statements.js";
import { MAX_UNREAD_MESSAGES, streamOf } from "../../src/events/bus.js";
import { RampEventFeed, type FeedTopic } from "../../src/events/ramp-feed.js";
import { compiledExecution } from "../../src/graphql/compiled-execution.js";
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
  const listeners = new Set<(event: { value: number }) => void>();
  const emit = (value: number) => listeners.forEach((listener) => listener({ value }));
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: "Query", fields: { ok: { type: GraphQLBoolean } } }),
    subscription: new GraphQLObjectType({
      name: "Subscription",
      fields: {
        tick: {
          type: GraphQLInt,
          subscribe: () =>
            streamOf<{ value: number }, { value: number }>(
              (handler) => (listeners.add(handler), () => listeners.delete(handler)),
              (event) => event,
            ),
          resolve: (event: { value: number }) => (executions++, event.value),
        },
      },
    }),
  });
  const document = parse("subscription { tick }");
  const groups = new Map<object, { group: string; sent: string[]; room: boolean }>();
  const subscribe = sharedSubscribe(
    (args) => {
      const member = groups.get(args.contextValue as object)!;
      return { group: member.group, send: (result) => (member.sent.push(result), member.room) };
    },
    (result) => result,
    compiledExecution(schema),
  );
  const member = async (group: string) => {
    const contextValue = {};
    const state = { group, sent: [] as string[], room: true };
    groups.set(contextValue, state);
    const results = (await subscribe({ schema, document, contextValue })) as AsyncIterableIterator<unknown>;
    return { results, ...state, state };
  };
  const settled = () => new Promise((resolve) => setTimeout(resolve, 10));

  it("executes and serializes each event once per group and sends every member its copy", async () => {
    executions = 0;
    const [a, b, c] = await Promise.all([member("one"), member("one"), member("two")]);
    // One source per group.
    expect(listeners.size).toBe(2);
    emit(1);
    emit(2);
    await settled();
    const serialized = [JSON.stringify({ data: { tick: 1 } }), JSON.stringify({ data: { tick: 2 } })];
    expect([a.state.sent, b.state.sent, c.state.sent]).toEqual([serialized, serialized, serialized]);
    expect(executions).toBe(2 * 2);

    // The group's source lives until its last member leaves.
    await a.results.return!();
    expect(await a.results.next()).toEqual({ done: true, value: undefined });
    expect(listeners.size).toBe(2);
    await b.results.return!();
    expect(listeners.size).toBe(1);
    await c.results.return!();
    expect(listeners.size).toBe(0);
  });

  it("ends a member that cannot take more with RATE_LIMITED; the others go on", async () => {
    const [slow, fast] = await Promise.all([member("three"), member("three")]);
    slow.state.room = false;
    emit(1);
    await expect(slow.results.next()).rejects.toMatchObject({ code: "RATE_LIMITED" });
    emit(2);
    await settled();
    expect(fast.state.sent).toEqual([JSON.stringify({ data: { tick: 1 } }), JSON.stringify({ data: { tick: 2 } })]);
    expect(slow.state.sent).toHaveLength(1);
    await fast.results.return!();
    expect(listeners.size).toBe(0);
  });

  it("ends every member with the error its source fails on", async () => {
    const [first, second] = await Promise.all([member("four"), member("four")]);
    for (let value = 0; value <= MAX_UNREAD_MESSAGES + 1; value++) emit(value);
    // The source held more than a reader may leave unread before the group read it: it fails for the group.
    const outcomes = await Promise.allSettled([first.results.next(), second.results.next()]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    expect(listeners.size).toBe(0);
  });
});
