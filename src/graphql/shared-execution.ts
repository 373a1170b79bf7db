import { createSourceEventStream, execute, type ExecutionArgs, type ExecutionResult } from "graphql";
import { oncePerEvent } from "./subscriptions.js";

/**
 * graphql-js `subscribe`, except that the subscribers of one event who run the same operation with the same
 * variables as the same caller share one execution of it: an event a thousand subscribers follow is resolved
 * once, not a thousand times. `shareKey` names that group for a subscription (undefined: it shares nothing).
 * Events are the objects the subscriptions' sources yield, one object per event for all of them.
 */
export function sharedSubscribe(shareKey: (args: ExecutionArgs) => string | undefined) {
  const executions = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();
  const run = (args: ExecutionArgs, event: unknown): Promise<ExecutionResult> => {
    const execution = () => Promise.resolve(execute({ ...args, rootValue: event }));
    const key = shareKey(args);
    return key === undefined || typeof event !== "object" || event === null
      ? execution()
      : oncePerEvent(executions, event, key, execution);
  };
  return async (args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> => {
    const events = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in events)) return events;
    return mapEvents(events[Symbol.asyncIterator](), (event) => run(args, event));
  };
}

/** Each event mapped to its result; closing the results closes the events at once. */
function mapEvents<T>(events: AsyncIterator<unknown>, map: (event: unknown) => Promise<T>): AsyncIterableIterator<T> {
  const close = async () => void (await events.return?.());
  return {
    async next() {
      const event = await events.next();
      if (event.done) return { done: true, value: undefined };
      try {
        return { done: false, value: await map(event.value) };
      } catch (error) {
        await close();
        throw error;
      }
    },
    async return() {
      await close();
      return { done: true, value: undefined };
    },
    async throw(error?: unknown) {
      await close();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
