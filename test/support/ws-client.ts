import { createClient, type Client, type FormattedExecutionResult } from "graphql-ws";
import WebSocket from "ws";
import { recordOperation } from "./graphql-documents.js";

export interface WsSocket {
  client: Client;
  /** Close events the socket saw. */
  closes: { code: number; reason: string }[];
  dispose(): Promise<void>;
}

/** A graphql-ws client on `url` (`ws://…/graphql`) with the given connection_init payload. */
export function openSocket(url: string, connectionParams: Record<string, unknown>): WsSocket {
  const closes: WsSocket["closes"] = [];
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams,
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: () => undefined,
    on: {
      closed: (event) =>
        closes.push({
          code: (event as { code: number }).code,
          reason: String((event as { reason?: unknown }).reason ?? ""),
        }),
    },
  });
  // Every operation sent over the socket is written down, whoever sends it (see graphql-documents.ts).
  const send = client.subscribe.bind(client);
  client.subscribe = (payload, sink) => {
    recordOperation("graphql", payload);
    return send(payload, sink);
  };
  return { client, closes, dispose: async () => void (await client.dispose()) };
}

export interface Subscription {
  results: FormattedExecutionResult<any, unknown>[];
  /** Payloads of `error` messages (arrays of GraphQL errors) or the close event that ended the socket. */
  failures: unknown[];
  completed: boolean;
  /** Resolves once `predicate` holds (checked on every message), rejects after `timeoutMs`. */
  until(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** The contract code of the first error, whether it came as an `error` message or a `next` with errors. */
  errorCode(): string | undefined;
  errorStatus(): number | undefined;
  stop(): void;
}

export function subscribe(client: Client, query: string, variables: Record<string, unknown> = {}): Subscription {
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((check) => check());
  const subscription: Subscription = {
    results: [],
    failures: [],
    completed: false,
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
          reject(
            new Error(
              `timed out waiting for ${what}; got ${JSON.stringify({ results: subscription.results, failures: subscription.failures })}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    errorCode: () => firstError(subscription)?.extensions?.code as string | undefined,
    errorStatus: () => firstError(subscription)?.extensions?.status as number | undefined,
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
      complete: () => {
        subscription.completed = true;
        notify();
      },
    },
  );
  return subscription;
}

/** The first GraphQL error a subscription got, from a `next` with errors or an `error` message. */
export function firstError(
  subscription: Pick<Subscription, "results" | "failures">,
): { message?: string; extensions?: Record<string, unknown> } | undefined {
  const fromNext = subscription.results.find((result) => result.errors?.length)?.errors?.[0];
  if (fromNext) return fromNext as { extensions?: Record<string, unknown> };
  const failure = subscription.failures[0];
  return Array.isArray(failure) ? failure[0] : undefined;
}

/** Runs one operation over the socket and waits for its result. */
export function execute<T = any>(client: Client, query: string): Promise<FormattedExecutionResult<T, unknown>> {
  return new Promise((resolve, reject) => {
    let result: FormattedExecutionResult<T, unknown> | undefined;
    client.subscribe<T>(
      { query },
      {
        next: (value) => (result = value),
        error: reject,
        complete: () => (result ? resolve(result) : reject(new Error("no result"))),
      },
    );
  });
}
