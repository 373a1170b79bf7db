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

/** A frame the server sent about one operation, or the close that ended the socket while it waited. */
export type OperationFrame =
  { type: "next" | "error" | "complete"; id: string; payload?: any } | { type: "closed"; code: number; reason: string };

/**
 * A graphql-ws connection spoken frame by frame (graphql-transport-ws), without the client library: a message goes
 * as the text given (JSON nested deeper than JSON.stringify can write, say), and every close is seen.
 */
export class FrameSocket {
  readonly closes: { code: number; reason: string }[] = [];
  /** Resolves once the server acknowledged connection_init. */
  readonly ready: Promise<void>;
  private readonly socket: WebSocket;
  private readonly waiting = new Map<string, (frame: OperationFrame) => void>();
  private operations = 0;

  constructor(url: string, connectionParams: Record<string, unknown>) {
    this.socket = new WebSocket(url, "graphql-transport-ws");
    this.ready = new Promise((resolve, reject) => {
      this.socket.on("open", () =>
        this.socket.send(JSON.stringify({ type: "connection_init", payload: connectionParams })),
      );
      this.socket.on("message", (data) => {
        const frame = JSON.parse(String(data)) as { type: string; id?: string };
        if (frame.type === "connection_ack") resolve();
        else if (frame.id) this.waiting.get(frame.id)?.(frame as OperationFrame);
      });
      this.socket.on("close", (code, reason) => {
        const closed = { code, reason: String(reason) };
        this.closes.push(closed);
        for (const answer of this.waiting.values()) answer({ type: "closed", ...closed });
        reject(new Error(`closed (${code}) before connection_ack`));
      });
      this.socket.on("error", () => undefined);
    });
  }

  /**
   * Subscribes with a payload written as `payloadJson` ({"query":...,"variables":...}): the operation's first
   * frame, or undefined when none came within `waitMs` (a subscription waiting for events), after which the
   * operation is completed from this side.
   */
  async first(payloadJson: string, waitMs = 1_000): Promise<OperationFrame | undefined> {
    await this.ready;
    const id = String(++this.operations);
    const frame = await new Promise<OperationFrame | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), waitMs);
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      this.socket.send(`{"id":"${id}","type":"subscribe","payload":${payloadJson}}`);
    });
    this.waiting.delete(id);
    if ((frame === undefined || frame.type === "next") && this.socket.readyState === WebSocket.OPEN)
      this.socket.send(JSON.stringify({ id, type: "complete" }));
    return frame;
  }

  close(): void {
    this.socket.close(1000);
  }
}
