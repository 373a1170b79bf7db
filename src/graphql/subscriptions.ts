import type { DelegationRule } from "../auth/delegation.js";
import { AppError } from "../errors.js";
import type { GraphQLContext } from "./context.js";

/**
 * Re-authorizes a long-lived subscription before each event: once the caller's credential is revoked or
 * its session expired, the stream ends with an error instead of delivering.
 */
export async function* guardedStream<T>(source: AsyncIterableIterator<T>, stillAuthorized: () => Promise<boolean>): AsyncGenerator<T> {
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
export async function* followedStream<S, T>(
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
 * Whether a subscriber may still receive: false once its credential or session is no longer valid; the
 * delegation's own error (a deleted child, an inactive manager) once it no longer holds.
 */
export async function stillEntitled(context: GraphQLContext, rule: DelegationRule): Promise<boolean> {
  const { app, principal, selector } = context;
  if (!(await app.authenticator.stillValid(principal))) return false;
  await app.delegation.resolve(principal, selector, rule);
  return true;
}
