import type { DelegationRule } from "../auth/delegation.js";
import { AppError } from "../errors.js";
import type { GraphQLContext } from "./context.js";

/**
 * Re-authorizes a long-lived subscription before each event: once the caller's credential is revoked or
 * its session expired, the stream ends with an error instead of delivering.
 */
export function guardedStream<T>(source: AsyncIterableIterator<T>, stillAuthorized: () => Promise<boolean>): AsyncIterableIterator<T> {
  return stoppable(guarded(source, stillAuthorized), source);
}

async function* guarded<T>(source: AsyncIterableIterator<T>, stillAuthorized: () => Promise<boolean>): AsyncGenerator<T> {
  try {
    for await (const value of source) {
      if (!(await stillAuthorized())) {
        throw new AppError("AUTHENTICATION_REQUIRED", "The credential of this subscription is no longer valid.");
      }
      yield value;
    }
  } finally {
    await source.return?.();
  }
}

/**
 * A subscription over a source that is listening already: `prepare` authorizes the subscriber and says
 * what it follows (undefined: not for it) while events are buffered, so none written meanwhile is missed;
 * then each event is re-authorized before it is delivered.
 */
export function followedStream<S, T>(
  source: AsyncIterableIterator<S>,
  prepare: () => Promise<(value: S) => T | undefined>,
  stillAuthorized: () => Promise<boolean>,
): AsyncIterableIterator<T> {
  return stoppable(followed(source, prepare, stillAuthorized), source);
}

async function* followed<S, T>(
  source: AsyncIterableIterator<S>,
  prepare: () => Promise<(value: S) => T | undefined>,
  stillAuthorized: () => Promise<boolean>,
): AsyncGenerator<T> {
  try {
    const select = await prepare();
    for await (const value of source) {
      const selected = select(value);
      if (selected === undefined) continue;
      if (!(await stillAuthorized())) {
        throw new AppError("AUTHENTICATION_REQUIRED", "The credential of this subscription is no longer valid.");
      }
      yield selected;
    }
  } finally {
    await source.return?.();
  }
}

/**
 * A generator's `return()` takes effect only at its next `yield`: one waiting on a quiet source (or skipping
 * events that are not for it) would keep its listener long after the client stopped. Ending the source
 * first finishes the pending read at once, so the generator reaches its `finally` now.
 */
function stoppable<T>(generator: AsyncGenerator<T>, source: AsyncIterableIterator<unknown>): AsyncIterableIterator<T> {
  return {
    next: () => generator.next(),
    throw: (error?: unknown) => generator.throw(error),
    async return(value?: unknown) {
      await source.return?.();
      return generator.return(value as T);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
 * Whether a subscriber may still receive: false once its credential or session is no longer valid; the
 * delegation's own error (a deleted child, an inactive manager) once it no longer holds.
 */
export async function stillEntitled(context: GraphQLContext, rule: DelegationRule): Promise<boolean> {
  const { app, principal, selector } = context;
  if (!(await app.authenticator.stillValid(principal))) return false;
  await app.delegation.resolve(principal, selector, rule);
  return true;
}
