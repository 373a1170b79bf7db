import pino, { type LoggerOptions } from "pino";
import { principalProfileId, type Principal } from "./auth/principal.js";

/**
 * Every place a secret could travel through a log line. Fastify's request serializer logs no headers or
 * bodies; these paths hold if anything ever does.
 */
const REDACTED_PATHS = [
  "req.headers.authorization",
  'req.headers["x-api-key"]',
  'req.headers["x-public-key"]',
  "req.headers.cookie",
  "headers.authorization",
  'headers["x-api-key"]',
  "connectionParams",
  "*.password",
  "*.token",
  "*.secretKey",
  "*.secret_key",
  "*.refreshToken",
  "*.refresh_token",
  "*.accessToken",
  "*.access_token",
  "*.otp",
  "*.privateKey",
  // The body or query field that presents a public key, as the X-Public-Key header is.
  "*.apiKey",
  "body",
];

export function loggerOptions(level: string): LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } };
}

/** Log bytes held for a standard output that is not being read; lines beyond them are dropped. */
const MAX_PENDING_LOG_BYTES = 16 * 1024 * 1024;

/**
 * Standard output, written asynchronously: a log reader that stops reading (a stalled shipper) must not block
 * the event loop, where SIGTERM is handled. What it has not taken yet is held up to MAX_PENDING_LOG_BYTES.
 */
export function stdoutDestination() {
  // Setting up process.stdout makes a piped standard output non-blocking: a stalled reader then leaves no
  // write waiting in libuv's thread pool, which would hold up the process's exit.
  void process.stdout.fd;
  return pino.destination({ dest: 1, sync: false, maxLength: MAX_PENDING_LOG_BYTES });
}

/**
 * Writes out what `destination` holds and closes it, waiting at most `timeoutMs`; then drops the rest, so
 * a reader that stopped reading cannot hold up the exit either.
 */
export async function closeDestination(destination: ReturnType<typeof stdoutDestination>, timeoutMs: number) {
  const closed = new Promise<boolean>((resolve) => destination.once("close", () => resolve(true)));
  destination.end();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  if (!(await Promise.race([closed, timedOut]))) destination.destroy();
  clearTimeout(timer);
}

export function createLogger(level: string, destination: pino.DestinationStream = stdoutDestination()) {
  return pino(loggerOptions(level), destination);
}

/** A request as its log lines show it: no query string, which may carry personal data (a tax id, say). */
function requestForLog(request: { method: string; url: string; ip?: string }) {
  return { method: request.method, url: request.url.split("?")[0], remoteAddress: request.ip };
}

/** Who called, by ids only: the profile and, for a key, the credential. */
function callerForLog(principal: Principal | undefined) {
  if (!principal || principal.kind === "anonymous" || principal.kind === "operator") return principal?.kind;
  const credentialId = principal.kind === "session" ? undefined : principal.credential.id;
  return { kind: principal.kind, profileId: principalProfileId(principal), ...(credentialId && { credentialId }) };
}

/**
 * A response as its log line shows it: the status, who called, and the error code it answered with. Fastify also
 * logs a response of its own making with no request (`{ statusCode: 503 }`, refusing a request as the server
 * closes): reading its request threw, and the throw ended the process in the middle of its drain.
 */
function responseForLog(reply: { statusCode: number; request?: { principal?: Principal; errorCode?: string } }) {
  const { principal, errorCode } = reply.request ?? {};
  return { statusCode: reply.statusCode, caller: callerForLog(principal), ...(errorCode && { code: errorCode }) };
}

/**
 * The logger of the request lines (logResponse): without redaction, whose wildcard paths cost a pass over every
 * field of every line (about a tenth of a read request's CPU time, docs/performance.md). A request line holds
 * nothing to redact: it is built from ids, the route's pattern and numbers only, never from headers or bodies.
 */
export const requestLineLogger = (log: pino.Logger): pino.Logger => log.child({}, { redact: [] });

/**
 * The one line each answered request writes (Fastify's own two, "incoming request" and "request completed", are
 * off): the route's pattern rather than the URL (which holds ids; an unmatched request gives its path, without the
 * query), who called by ids, the status and error code, and the time taken in milliseconds.
 */
export function logResponse(
  log: pino.Logger,
  request: { id: string; method: string; url: string; ip?: string },
  reply: { statusCode: number; elapsedTime: number; request: { principal?: Principal; errorCode?: string } },
  route: string | undefined,
): void {
  log.info(
    {
      reqId: request.id,
      req: route === undefined ? requestForLog(request) : { method: request.method, route },
      res: responseForLog(reply),
      responseTime: reply.elapsedTime,
    },
    "request completed",
  );
}

/**
 * `logger` as Fastify's logger instance: Fastify merges its own serializers with the instance's
 * `serializers` property, so the ones there replace Fastify's (whose request serializer logs the whole URL).
 */
export function withRequestSerializer<Logger extends object>(logger: Logger): Logger {
  return Object.assign(logger, { serializers: { req: requestForLog, res: responseForLog } });
}

type LevelName = "fatal" | "error" | "warn" | "info" | "debug" | "trace";

/**
 * A request's logger that makes its pino child (the request id bound) only when it writes a line at an
 * enabled level. Most requests write none, and each child costs a redaction pass over its bindings.
 */
export class LazyChildLogger {
  private made: pino.Logger | undefined;

  constructor(
    private readonly parent: pino.Logger,
    private readonly bindings: pino.Bindings,
  ) {}

  get level(): string {
    return this.parent.level;
  }

  private write(level: LevelName, args: unknown[]): void {
    if (!this.parent.isLevelEnabled(level)) return;
    this.made ??= this.parent.child(this.bindings);
    (this.made[level] as (...line: unknown[]) => void).apply(this.made, args);
  }

  fatal(...args: unknown[]): void {
    this.write("fatal", args);
  }
  error(...args: unknown[]): void {
    this.write("error", args);
  }
  warn(...args: unknown[]): void {
    this.write("warn", args);
  }
  info(...args: unknown[]): void {
    this.write("info", args);
  }
  debug(...args: unknown[]): void {
    this.write("debug", args);
  }
  trace(...args: unknown[]): void {
    this.write("trace", args);
  }
  silent(): void {}

  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions): pino.Logger {
    return this.made
      ? this.made.child(bindings, options)
      : this.parent.child({ ...this.bindings, ...bindings }, options);
  }
}
