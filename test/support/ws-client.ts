import { createClient, type Client, type FormattedExecutionResult } from "graphql-ws";
import WebSocket from "ws";

/** A graphql-ws client on `url` with the given connection_init payload. */
export function openClient(url: string, connectionParams: Record<string, unknown>): Client {
  return createClient({ url, webSocketImpl: WebSocket, connectionParams, lazy: false, retryAttempts: 0, onNonLazyError: () => undefined });
}

export interface Subscription {
  results: FormattedExecutionResult<any, unknown>[];
  /** Payloads of `error` messages (arrays of GraphQL errors) or the close event that ended the socket. */
  failures: unknown[];
  /** Resolves once `predicate` holds (checked on every message), rejects after `timeoutMs`. */
  until(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** The contract code of the first error, whether it came as an `error` message or a `next` with errors. */
  errorCode(): string | undefined;
  stop(): void;
}

export function subscribe(client: Client, query: string, variables: Record<string, unknown> = {}): Subscription {
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((check) => check());
  const subscription: Subscription = {
    results: [],
    failures: [],
    until(predicate, what, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify({ results: subscription.results, failures: subscription.failures })}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    errorCode() {
      const fromNext = subscription.results.find((result) => result.errors?.length)?.errors?.[0];
      const failure = subscription.failures[0];
      const error = fromNext ?? (Array.isArray(failure) ? failure[0] : undefined);
      return error?.extensions?.code as string | undefined;
    },
    stop: () => undefined,
  };
  subscription.stop = client.subscribe(
    { query, variables },
    {
      next: (result) => {
        subscription.results.push(result);
        notify();
      },
      error: (error) => {
        subscription.failures.push(error);
        notify();
      },
      complete: notify,
    },
  );
  return subscription;
}

/** Runs one operation over the socket and waits for its result. */
export function execute<T = any>(client: Client, query: string): Promise<FormattedExecutionResult<T, unknown>> {
  return new Promise((resolve, reject) => {
    let result: FormattedExecutionResult<T, unknown> | undefined;
    client.subscribe<T>({ query }, { next: (value) => (result = value), error: reject, complete: () => (result ? resolve(result) : reject(new Error("no result"))) });
  });
}
