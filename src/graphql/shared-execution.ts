import { createSourceEventStream, type ExecutionArgs, type ExecutionResult } from "graphql";
import type { Execute } from "./compiled-execution.js";
import { AppError } from "../errors.js";

/** A subscriber whose results its group sends straight to it (over its socket), serialized once for them all. */
export interface GroupedSubscriber {
  /** Subscribers of one group run the same operation with the same variables for the same audience. */
  group: string;
  /** Sends one serialized result; false when the subscriber is too far behind to take more (it is dropped). */
  send(serializedResult: string): boolean;
}

/** One member's iterator: it yields nothing and ends with its group, or alone when it leaves or falls behind. */
class Member implements AsyncIterableIterator<never> {
  private finish!: (outcome: { error?: unknown }) => void;
  private readonly ended = new Promise<{ error?: unknown }>((resolve) => (this.finish = resolve));

  constructor(
    readonly subscriber: GroupedSubscriber,
    private readonly leave: (member: Member) => void,
  ) {}

  end(error?: unknown): void {
    this.leave(this);
    this.finish(error === undefined ? {} : { error });
  }

  async next(): Promise<IteratorResult<never>> {
    const { error } = await this.ended;
    if (error !== undefined) throw error;
    return { done: true, value: undefined };
  }

  async return(): Promise<IteratorResult<never>> {
    this.end();
    return { done: true, value: undefined };
  }

  async throw(error?: unknown): Promise<IteratorResult<never>> {
    this.end();
    throw error;
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

/**
 * Ends a running subscription (graphql-ws's iterator for it) with `error`, which its client receives as the
 * subscription's `error` message: its credentials stopped holding, say, with no event to find out on.
 */
export function endSubscription(running: unknown, error: unknown): void {
  if (running instanceof Member) running.end(error);
}

/** The subscribers of one group and the source they share; the last one to leave closes it. */
class Group {
  private readonly members = new Set<Member>();
  private running = false;
  private closed = false;

  constructor(
    private readonly source: AsyncIterator<unknown>,
    private readonly args: ExecutionArgs,
    private readonly formatResult: (result: ExecutionResult) => unknown,
    private readonly execute: Execute,
    private readonly forget: () => void,
  ) {}

  /** The subscriber's iterator; undefined once the group has closed (a new group is needed). */
  join(subscriber: GroupedSubscriber): Member | undefined {
    if (this.closed) return undefined;
    const member = new Member(subscriber, (leaving) => this.leave(leaving));
    this.members.add(member);
    // Read from the first member on, so that no event finds the group empty.
    if (!this.running) void this.run();
    this.running = true;
    return member;
  }

  /** Reads the source until it ends or fails: each event executed and serialized once, sent to every member. */
  private async run(): Promise<void> {
    let failure: unknown;
    try {
      for (let next = await this.source.next(); !next.done; next = await this.source.next()) {
        const serialized = JSON.stringify(
          this.formatResult(await this.execute({ ...this.args, rootValue: next.value })),
        );
        for (const member of this.members) {
          if (!member.subscriber.send(serialized))
            member.end(new AppError("RATE_LIMITED", "The subscriber fell behind its events; subscribe again."));
        }
      }
    } catch (error) {
      failure = error;
    }
    this.close();
    for (const member of [...this.members]) member.end(failure);
  }

  private leave(member: Member): void {
    if (this.members.delete(member) && this.members.size === 0 && !this.closed) {
      this.close();
      // Ends a read that waits on the source, and with it `run`.
      void this.source.return?.();
    }
  }

  private close(): void {
    this.closed = true;
    this.forget();
  }
}

/**
 * graphql-js `subscribe`, except that the subscribers of one group share everything an event costs: one source
 * (one listener, one authorization per event), one execution and one serialization, then one socket write
 * each, so a thousand subscribers of one widget session cost little more than a broadcast. Their iterators
 * yield nothing: results go out through `send`. Every subscription has its subscriber (`subscriberOf`), alone in
 * its group or not.
 */
export function sharedSubscribe(
  subscriberOf: (args: ExecutionArgs) => GroupedSubscriber,
  formatResult: (result: ExecutionResult) => unknown,
  execute: Execute,
) {
  const groups = new Map<string, Promise<Group | ExecutionResult>>();

  /** A group's source, started on its first subscriber's arguments (the others' differ in per-request state only). */
  const startGroup = (key: string, args: ExecutionArgs): Promise<Group | ExecutionResult> => {
    const forget = () => groups.get(key) === starting && groups.delete(key);
    const starting = (async () => {
      const events = await createSourceEventStream(args);
      if (!(Symbol.asyncIterator in events)) {
        forget();
        return events;
      }
      return new Group(events[Symbol.asyncIterator](), args, formatResult, execute, forget);
    })();
    groups.set(key, starting);
    return starting;
  };

  return async (args: ExecutionArgs): Promise<AsyncIterableIterator<never> | ExecutionResult> => {
    const subscriber = subscriberOf(args);
    for (;;) {
      const group: Group | ExecutionResult = await (groups.get(subscriber.group) ?? startGroup(subscriber.group, args));
      if (!(group instanceof Group)) return group;
      const member = group.join(subscriber);
      if (member) return member;
    }
  };
}
