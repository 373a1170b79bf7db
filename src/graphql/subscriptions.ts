import { AppError } from "../errors.js";

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
