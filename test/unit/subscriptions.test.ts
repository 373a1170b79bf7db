import { describe, expect, it } from "vitest";
import { streamOf } from "../../src/events/bus.js";
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
    const stream = followedStream(source, async () => (value: number) => (value === 42 ? value : undefined), async () => true);
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
    const stream = followedStream(source, async () => (value: number) => (value % 2 === 0 ? value * 10 : undefined), async () => true);
    const first = stream.next();
    emit(1);
    emit(2);
    expect(await first).toEqual({ done: false, value: 20 });
    await stream.return!();
  });
});
