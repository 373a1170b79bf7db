import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { createClient, type Client, type FormattedExecutionResult } from "graphql-ws";
import { request } from "undici";
import WebSocket from "ws";

/**
 * `npm run -s listen`: a local webhook loop for integrators. It follows a quote's, widget session's or ramp's
 * events over the gateway's `rampEvents` subscription, each with the delivery the gateway signed for it, and
 * POSTs each body with its headers, as they are, to a local URL, so a receiver under development verifies them
 * as real deliveries. A network client only: it holds no signing key and opens no database.
 */

/** How long the local receiver has to answer one event. */
const FORWARD_TIMEOUT_MS = 10_000;
/** The longest wait between reconnection attempts. */
const MAX_RETRY_WAIT_MS = 15_000;

const OPTIONS = {
  "forward-to": { type: "string" },
  quote: { type: "string" },
  session: { type: "string" },
  ramp: { type: "string" },
  gateway: { type: "string" },
  help: { type: "boolean", default: false },
} as const;

export const USAGE = `Forwards the events of a quote, widget session or ramp to a local webhook receiver, signed as deliveries are:

  RAMP_API_KEY=<secret key> npm run -s listen -- --forward-to <http(s) URL> (--quote <id> | --session <id> | --ramp <id>) [--gateway <URL>]

--gateway defaults to $BASE, else http://localhost:8080. The secret key (of a non-managed profile, as webhooks need)
is read from RAMP_API_KEY only, never from the command line. Each event prints one line: the time, the event type,
the ramp's id and the receiver's status code (or why there was none) with the time it took. A lost connection is
retried; events of the meantime are not replayed. Exit codes: 0 stopped (Ctrl-C), 1 refused by the gateway (the
error is printed), 2 usage.`;

/** Where the command writes: lines for the person running it. */
export interface ListenOutput {
  out(line: string): void;
  err(line: string): void;
}

class UsageError extends Error {}

interface ListenOptions {
  forwardTo: URL;
  graphqlUrl: URL;
  apiKey: string;
  /** What is followed: `rampEvents`' variables, and how the command names it. */
  followed: { variables: Record<string, string>; name: string };
}

function httpUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${what} must be an http:// or https:// URL (got ${JSON.stringify(value)})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`${what} must be an http:// or https:// URL (got ${url.protocol.slice(0, -1)})`);
  return url;
}

/** The options, or a UsageError saying what is wrong; undefined for --help. */
function listenOptions(args: string[], env: NodeJS.ProcessEnv): ListenOptions | undefined {
  let values;
  try {
    ({ values } = parseArgs({ args, options: OPTIONS, strict: true }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return undefined;
  if (values["forward-to"] === undefined) throw new UsageError("--forward-to <URL> is required");
  const forwardTo = httpUrl(values["forward-to"], "--forward-to");
  const given = (["quote", "session", "ramp"] as const).filter((name) => values[name] !== undefined);
  if (given.length !== 1) throw new UsageError("give exactly one of --quote, --session or --ramp");
  const graphqlUrl = new URL("/graphql", httpUrl(values.gateway ?? env.BASE ?? "http://localhost:8080", "--gateway"));
  graphqlUrl.protocol = graphqlUrl.protocol === "https:" ? "wss:" : "ws:";
  const apiKey = env.RAMP_API_KEY?.trim();
  if (!apiKey) throw new UsageError("set RAMP_API_KEY to a secret key of the profile whose events to forward");
  const [option] = given as [(typeof given)[number]];
  const id = values[option]!;
  return { forwardTo, graphqlUrl, apiKey, followed: { variables: { [`${option}Id`]: id }, name: `${option} ${id}` } };
}

const EVENTS = `subscription Listen($quoteId: ID, $sessionId: ID, $rampId: ID) {
  rampEvents(quoteId: $quoteId, sessionId: $sessionId, rampId: $rampId) {
    eventType
    payload { transactionId }
    delivery { headers { name value } body }
  }
}`;

interface ForwardedEvent {
  eventType: string;
  payload: { transactionId: string };
  delivery: { headers: { name: string; value: string }[]; body: string };
}

/** The status code of the local receiver's answer and how long it took, or why there was none. */
async function forward(url: URL, { headers, body }: ForwardedEvent["delivery"]): Promise<string> {
  const started = performance.now();
  const took = () => `${Math.round(performance.now() - started)} ms`;
  try {
    const answer = await request(url, {
      method: "POST",
      headers: Object.fromEntries(headers.map(({ name, value }) => [name, value])),
      body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await answer.body.dump();
    return `${answer.statusCode} in ${took()}`;
  } catch (error) {
    const { code, name, message } = error as { code?: string; name?: string; message?: string };
    const why = name === "TimeoutError" ? `no answer within ${FORWARD_TIMEOUT_MS} ms` : (code ?? message);
    return `failed (${why}) after ${took()}`;
  }
}

/** The errors of a result or an `error` message as one line: their codes and messages. */
function describeErrors(errors: readonly { message: string; extensions?: Record<string, unknown> }[]): string {
  return errors.map(({ message, extensions }) => `${String(extensions?.code ?? "ERROR")}: ${message}`).join("; ");
}

function describeFailure(failure: unknown): string {
  if (Array.isArray(failure)) return describeErrors(failure as { message: string }[]);
  const { code, reason, message } = failure as { code?: number; reason?: string; message?: string };
  if (code !== undefined) return `the connection closed (${code}${reason ? ` ${reason}` : ""})`;
  return message ?? String(failure);
}

/** One query's result on the client's socket (the first, or the error that ended it). */
function queryOnce(client: Client, query: string): Promise<FormattedExecutionResult> {
  return new Promise((resolve, reject) => {
    client.subscribe({ query }, { next: resolve, error: reject, complete: () => undefined });
  });
}

/** Waits `ms`, or less once `stop` aborts: a stopped command does not wait out its reconnection delay. */
function pause(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stop.addEventListener("abort", done, { once: true });
  });
}

/** Follows the events until stopped or refused; resolves with the exit code. */
function follow(options: ListenOptions, output: ListenOutput, stop: AbortSignal): Promise<number> {
  let everConnected = false;
  let connected = false;
  const client = createClient({
    url: options.graphqlUrl.href,
    webSocketImpl: WebSocket,
    connectionParams: { "X-API-Key": options.apiKey },
    retryAttempts: Infinity,
    // Any failure to reach the gateway is retried, not only a closed connection: it may be restarting.
    shouldRetry: () => true,
    retryWait: (retries) => pause(Math.min(1_000 * 2 ** retries, MAX_RETRY_WAIT_MS), stop),
    on: {
      connected: (_socket, _payload, wasRetry) => {
        if (wasRetry) output.out(`${new Date().toISOString()} reconnected to ${options.graphqlUrl.href}`);
        everConnected = connected = true;
      },
      // Each failed attempt closes a socket too: the loss is told once.
      closed: () => {
        if (connected && !stop.aborted)
          output.out(`${new Date().toISOString()} connection to the gateway lost; reconnecting`);
        connected = false;
      },
      error: (error) => {
        if (!everConnected) output.err(`cannot reach ${options.graphqlUrl.href} (${describeFailure(error)}); retrying`);
      },
    },
  });
  return new Promise<number>((resolve) => {
    let settled = false;
    const finish = (code: number) => {
      if (settled) return;
      settled = true;
      stop.removeEventListener("abort", onStop);
      // While a connection is still being attempted, disposing rejects with its failure: nothing is left to close.
      Promise.resolve(client.dispose()).catch(() => undefined);
      resolve(code);
    };
    const refused = (what: string) => {
      if (!settled) output.err(`refused: ${what}`);
      finish(1);
    };
    const onStop = () => finish(0);
    stop.addEventListener("abort", onStop, { once: true });
    // In order, one at a time: the receiver sees the events as they happened.
    let forwarding = Promise.resolve();
    client.subscribe<{ rampEvents: ForwardedEvent }>(
      { query: EVENTS, variables: options.followed.variables },
      {
        next: (result) => {
          const event = result.data?.rampEvents;
          if (!event) return refused(describeErrors(result.errors ?? []));
          forwarding = forwarding.then(async () => {
            const answer = await forward(options.forwardTo, event.delivery);
            output.out(
              `${new Date().toISOString()} ${event.eventType} ramp ${event.payload.transactionId} -> ${answer}`,
            );
          });
        },
        error: (failure) => refused(describeFailure(failure)),
        complete: () => {
          if (!settled) output.out("the gateway ended the subscription");
          finish(0);
        },
      },
    );
    // On the same socket after the subscription: once it answers, the subscription listens (and the key works).
    queryOnce(client, "query ListenReady { me { id } }").then(
      (result) =>
        result.errors
          ? refused(describeErrors(result.errors))
          : output.out(
              `Ready: forwarding the events of ${options.followed.name} to ${options.forwardTo.href} (Ctrl-C to stop)`,
            ),
      (failure: unknown) => refused(describeFailure(failure)),
    );
  });
}

/** Runs the command; resolves with its exit code. */
export async function listen(
  args: string[],
  env: NodeJS.ProcessEnv,
  output: ListenOutput,
  stop: AbortSignal,
): Promise<number> {
  let options: ListenOptions | undefined;
  try {
    options = listenOptions(args, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.err(`usage error: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (!options) {
    output.out(USAGE);
    return 0;
  }
  return follow(options, output, stop);
}
