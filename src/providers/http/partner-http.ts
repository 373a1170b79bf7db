import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import { Pool, type Dispatcher, type FormData } from "undici";
import type { z } from "zod";
import { deadline } from "../../deadline.js";
import { AppError } from "../../errors.js";
import { CircuitBreaker, type BreakerOptions } from "./circuit-breaker.js";

/**
 * - `rejected`: a deterministic refusal (4xx but 408/409/429): nothing was created, asking again changes nothing.
 * - `unavailable`: the call surely did not reach the partner (breaker open, connection refused, no such host).
 * - `unknown`: the call may have taken effect (timeout after sending, reset, 408/409/429/5xx, an unreadable answer
 *   or one past the size bound): the caller reconciles before doing the step again.
 */
export type PartnerErrorKind = "rejected" | "unavailable" | "unknown";

/**
 * A partner call that failed. Callers see the error table's code and message only; the partner's status and short
 * error code are kept for logs, and the partner's body is never carried.
 */
export class PartnerError extends AppError {
  constructor(
    readonly partner: string,
    readonly kind: PartnerErrorKind,
    readonly partnerStatus: number | null,
    readonly partnerCode: string | null,
    message?: string,
    /** The partner's id of what a conflict says exists already (an Alfredpay order that used the quote). */
    readonly existingId: string | null = null,
  ) {
    super(kind === "rejected" ? "PROVIDER_REJECTED" : "PROVIDER_UNAVAILABLE", message);
    this.name = "PartnerError";
  }
}

/** What a partner's error body says, reduced to what we log and act on. */
export interface PartnerErrorDetail {
  /** A short code safe for logs (never the partner's free text, which may quote personal data). */
  code: string | null;
  /** Overrides the kind the status implies, for refusals the partner signals with an "unknown" status. */
  kind?: PartnerErrorKind;
  /** Our own words for the caller, when the refusal has a meaning they can act on. */
  message?: string;
  /** The partner's id of what a conflict says exists already. */
  existingId?: string;
}

/** The request as it goes on the wire, for partners that sign it. */
export interface OutgoingRequest {
  method: HttpMethod;
  /** Path and query exactly as sent, without scheme or host. */
  pathAndQuery: string;
  /** The JSON body exactly as sent; "" when there is none or it is a form. */
  body: string;
}

type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface PartnerCall {
  method: HttpMethod;
  /** The path template, e.g. `/v2/account/tickets/{id}`: the only form of the path that reaches a log. */
  route: string;
  pathParams?: Record<string, string>;
  /** Sent in this order; undefined values are left out. */
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** A multipart body (a file upload) sent instead of `body`; undici writes its content type with the boundary. */
  form?: FormData;
  /** Whether repeating the call cannot repeat its effect: only such calls are retried. */
  idempotent: boolean;
  /** Sent without the partner's credentials (a public endpoint). */
  anonymous?: boolean;
  /** The whole call's budget (connect, headers, body) per attempt; the transport's default when absent. */
  timeoutMs?: number;
  /** The most answer bytes read, for an answer that grows past the default with a customer's history. */
  maxAnswerBytes?: number;
  signal?: AbortSignal;
}

export interface PartnerTransportOptions {
  partner: string;
  /** Origin, optionally with a path prefix every route is appended to. */
  baseUrl: string;
  logger: Logger;
  /** Headers that authenticate one attempt (made per attempt, so a signed timestamp stays fresh). */
  authHeaders: (request: OutgoingRequest) => Record<string, string>;
  describeError: (status: number, body: string) => PartnerErrorDetail;
  timeoutMs?: number;
  retryBaseDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the call fails instead. */
  maxRetryAfterMs?: number;
  breaker?: BreakerOptions;
  now?: () => number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/**
 * The most bytes read of one answer, error answers included: beyond it the read stops and the connection is dropped,
 * so a misbehaving partner, or whatever sits on the path, cannot make us buffer without bound. A partner's object
 * answers are a few KB (an Avenia ticket with its payer and PIX code, about 2 KB); only an unpaginated list grows,
 * and its call names its own bound.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;
const DEFAULT_RETRY_BASE_DELAY_MS = 250;
const DEFAULT_MAX_RETRY_AFTER_MS = 5_000;
const MAX_RETRIES = 2;
const DEFAULT_BREAKER: BreakerOptions = { failureThreshold: 5, cooldownMs: 30_000 };
const KEEP_ALIVE_MS = 30_000;
const CONNECTIONS_PER_PARTNER = 16;
/** Transport errors raised before any byte left: the partner surely did not see the call. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

type AttemptOutcome =
  { ok: true; text: string } | { ok: false; error: PartnerError; retryable: boolean; retryAfterMs: number | null };

/** One partner's HTTP transport: its own connection pool and breaker, so one failing partner holds no other. */
export class PartnerTransport {
  private readonly pool: Pool;
  private readonly pathPrefix: string;
  private readonly breaker: CircuitBreaker;
  private readonly timeoutMs: number;
  private readonly retryBaseDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PartnerTransportOptions) {
    const url = new URL(options.baseUrl);
    this.pathPrefix = url.pathname.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.pool = new Pool(url.origin, {
      connections: CONNECTIONS_PER_PARTNER,
      keepAliveTimeout: KEEP_ALIVE_MS,
      connect: { timeout: this.timeoutMs },
    });
    this.now = options.now ?? Date.now;
    this.breaker = new CircuitBreaker(options.breaker ?? DEFAULT_BREAKER, this.now);
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  }

  get breakerState() {
    return this.breaker.state;
  }

  /** Calls the partner and validates its 2xx answer; an answer that does not fit is an unknown outcome. */
  async request<T>(call: PartnerCall, schema: z.ZodType<T>): Promise<T> {
    const text = await this.exchange(call);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw this.unreadableAnswer(call, "unparsable-body", []);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw this.unreadableAnswer(
        call,
        "unexpected-body",
        parsed.error.issues.map((issue) => issue.path.join(".")),
      );
    return parsed.data;
  }

  /** Calls the partner for an answer that carries no body we use. */
  async send(call: PartnerCall): Promise<void> {
    await this.exchange(call);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private unreadableAnswer(call: PartnerCall, code: string, fields: string[]): PartnerError {
    // Field paths only: the values may be personal data.
    this.options.logger.warn({ ...this.routeFields(call), partnerCode: code, fields }, "partner answer unreadable");
    return new PartnerError(this.options.partner, "unknown", null, code);
  }

  private routeFields(call: PartnerCall) {
    return { partner: this.options.partner, route: `${call.method} ${call.route}` };
  }

  private async exchange(call: PartnerCall): Promise<string> {
    const request: OutgoingRequest = {
      method: call.method,
      pathAndQuery: this.pathPrefix + pathAndQuery(call),
      body: call.body === undefined ? "" : JSON.stringify(call.body),
    };
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.attempt(call, request, attempt);
      if (outcome.ok) return outcome.text;
      const mayRetry = call.idempotent && outcome.retryable && attempt <= MAX_RETRIES && !call.signal?.aborted;
      if (!mayRetry) throw outcome.error;
      const delayMs = outcome.retryAfterMs ?? this.backoffMs(attempt);
      if (delayMs > this.maxRetryAfterMs) throw outcome.error;
      await sleep(delayMs, undefined, { signal: call.signal }).catch(() => {
        throw outcome.error;
      });
    }
  }

  /** Exponential with full jitter, so callers that failed together do not come back together. */
  private backoffMs(attempt: number): number {
    return Math.random() * this.retryBaseDelayMs * 2 ** (attempt - 1);
  }

  private async attempt(call: PartnerCall, request: OutgoingRequest, attempt: number): Promise<AttemptOutcome> {
    const { partner, logger } = this.options;
    const started = this.now();
    const log = (fields: Record<string, unknown>, failed: boolean) =>
      logger[failed ? "warn" : "info"](
        {
          ...this.routeFields(call),
          attempt,
          durationMs: this.now() - started,
          breaker: this.breaker.state,
          ...fields,
        },
        "partner call",
      );

    if (!this.breaker.tryAcquire()) {
      log({ errorKind: "unavailable", partnerCode: "breaker-open" }, true);
      const error = new PartnerError(partner, "unavailable", null, "breaker-open");
      return { ok: false, error, retryable: false, retryAfterMs: null };
    }

    const attemptAbort = deadline(call.timeoutMs ?? this.timeoutMs, call.signal);
    const { signal } = attemptAbort;
    const maxAnswerBytes = call.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    let status: number;
    let text: string | null;
    let retryAfter: string | string[] | undefined;
    try {
      const response = await this.pool.request({
        method: request.method,
        path: request.pathAndQuery,
        headers: {
          accept: "application/json",
          ...(request.body === "" ? {} : { "content-type": "application/json" }),
          ...(call.anonymous ? {} : this.options.authHeaders(request)),
        },
        body: call.form ?? (request.body === "" ? undefined : request.body),
        // One deadline over connect, headers and body: what the caller waits for is the whole call. Undici's own
        // headersTimeout and bodyTimeout (300 s, the latter restarted by every chunk) would let a trickle run on.
        signal,
      });
      status = response.statusCode;
      retryAfter = response.headers["retry-after"];
      text = await readAtMost(response, maxAnswerBytes);
    } catch (cause) {
      if (call.signal?.aborted) {
        // The caller gave up: that says nothing about the partner's health.
        this.breaker.releaseTrial();
        log({ errorKind: "unknown", partnerCode: "aborted" }, true);
        return {
          ok: false,
          error: new PartnerError(partner, "unknown", null, "aborted"),
          retryable: false,
          retryAfterMs: null,
        };
      }
      this.breaker.recordFailure();
      const { code, kind } = attemptAbort.timedOut() ? TIMED_OUT : transportFailure(cause);
      log({ errorKind: kind, partnerCode: code }, true);
      return { ok: false, error: new PartnerError(partner, kind, null, code), retryable: true, retryAfterMs: null };
    } finally {
      attemptAbort.release();
    }

    if (text === null) {
      // The partner answered, so it may have acted; what it said is lost. Not retried even when idempotent: the
      // same question gets the same answer, read to the bound again. The body never reaches the log.
      this.breaker.recordFailure();
      log({ status, errorKind: "unknown", partnerCode: "answer-too-large", maxAnswerBytes }, true);
      const error = new PartnerError(partner, "unknown", status, "answer-too-large");
      return { ok: false, error, retryable: false, retryAfterMs: null };
    }
    if (status >= 500) this.breaker.recordFailure();
    else this.breaker.recordSuccess();
    if (status >= 200 && status < 300) {
      log({ status }, false);
      return { ok: true, text };
    }
    const detail = this.options.describeError(status, text);
    const kind = detail.kind ?? kindOfStatus(status);
    log({ status, errorKind: kind, partnerCode: detail.code }, true);
    const error = new PartnerError(partner, kind, status, detail.code, detail.message, detail.existingId);
    const retryable = status === 408 || status === 429 || status >= 500;
    return { ok: false, error, retryable, retryAfterMs: retryAfterMs(retryAfter, this.now()) };
  }
}

/**
 * The answer's body as UTF-8, or null once it passes `maxBytes` (a declared length past it is not read at all).
 * Leaving the body unread destroys it, which drops the connection rather than reading the rest into the void.
 */
async function readAtMost(response: Dispatcher.ResponseData, maxBytes: number): Promise<string | null> {
  const { body } = response;
  if (Number(response.headers["content-length"]) > maxBytes) {
    // Destroying an unread body raises its abort error, which no one else listens for.
    body.on("error", () => {}).destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Leaving the loop destroys the body (and takes the abort error that raises).
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

/** What an HTTP error status says of the call's effect (see PartnerErrorKind). */
export function kindOfStatus(status: number): PartnerErrorKind {
  if (status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429) return "rejected";
  return "unknown";
}

function pathAndQuery(call: PartnerCall): string {
  const path = call.route.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = call.pathParams?.[name];
    if (value === undefined) throw new Error(`Route ${call.route} lacks its parameter ${name}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined) query.append(name, value);
  const queryString = query.toString();
  return queryString === "" ? path : `${path}?${queryString}`;
}

/** A call that ran out of time: it may have reached the partner. */
export const TIMED_OUT = { code: "timeout", kind: "unknown" } as const;

/** A transport error's code for logs, and whether the call may have reached the partner. */
export function transportFailure(cause: unknown): { code: string; kind: PartnerErrorKind } {
  const errorCode = (cause as { code?: unknown } | null)?.code;
  const code = typeof errorCode === "string" ? errorCode : "transport-error";
  return { code, kind: NOT_SENT_CODES.has(code) ? "unavailable" : "unknown" };
}

/** Retry-After as delay seconds or an HTTP date; null when absent or unreadable. */
function retryAfterMs(header: string | string[] | undefined, now: number): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
