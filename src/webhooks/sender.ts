import type { LookupFunction } from "node:net";
import { performance } from "node:perf_hooks";
import { LRUCache } from "lru-cache";
import { Pool, type Dispatcher } from "undici";
import { deadline } from "../deadline.js";
import { ipLiteral, isAllowedTargetAddress, type HostResolver, type ResolvedAddress } from "./url-policy.js";

export interface SenderOptions {
  resolve: HostResolver;
  /** CIDR ranges an operator allows although they are not public (WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
  allowPrivateNetworks: readonly string[];
  /** The whole send: resolving, connecting, the answer's head and the capped read of its body. */
  timeoutMs: number;
  /** Extra certificate authorities to trust (tests' local receiver); the system's are always trusted. */
  ca?: string;
}

/** What one send came to: a status code, or the reason there was none. */
export interface SendOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Bytes of an answer's body read at most; the rest is dropped with the connection (a receiver owes us a status). */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** Connection pools kept per (origin, vetted address); the oldest is closed beyond this. */
const MAX_POOLS = 256;

/**
 * Every header of a delivery of `body` made at `at`, signed by `sign`: how the delivery worker makes every send and
 * `rampEvents` its signed deliveries, so a listener forwards exactly what a webhook receives. The delivery log keeps
 * them as they are, so they hold nothing of ours that is secret.
 */
export async function signedDeliveryHeaders(
  sign: (timestamp: number, rawBody: string) => Promise<string>,
  body: string,
  at: Date,
): Promise<Record<string, string>> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "ramp-gateway-webhooks",
    "x-service-timestamp": String(timestamp),
    "x-service-signature": await sign(timestamp, body),
  };
}

/**
 * Sends webhook POSTs safely (CONTRACT.md, Webhooks): the host is resolved once per send and every address
 * must be allowed (public, or in an operator's range); the connection goes to that vetted address, so a
 * second, different DNS answer can never move it. Redirects are not followed (a 3xx is a failure), and
 * at most MAX_RESPONSE_BYTES of an answer are read.
 */
export class WebhookSender {
  /** Pools by origin and pinned address, in least-recently-used order. */
  private readonly pools = new Map<string, Pool>();
  /**
   * What a host that is an IP literal comes to, by host: it depends on the literal and the configuration
   * alone, so its parsing and range checks (about 3 % of a delivery's time) are not repeated at every send.
   * A name is still resolved and checked at every send.
   */
  private readonly literalHosts = new LRUCache<string, ResolvedAddress | string>({ max: MAX_POOLS });

  constructor(private readonly options: SenderOptions) {}

  /**
   * Posts `body` to `url` with these headers as they are (`signedDeliveryHeaders`); `cancel` ends the send early (the
   * worker is stopping), with no outcome to record.
   */
  async send(url: string, headers: Record<string, string>, body: string, cancel?: AbortSignal): Promise<SendOutcome> {
    const started = performance.now();
    const finish = (statusCode: number | null, error: string | null): SendOutcome => ({
      ok: statusCode !== null && statusCode >= 200 && statusCode < 300,
      statusCode,
      error,
      durationMs: Math.round(performance.now() - started),
    });
    const sendDeadline = deadline(this.options.timeoutMs, cancel);
    const { signal } = sendDeadline;
    try {
      const target = new URL(url);
      if (target.protocol !== "https:") return finish(null, "only https URLs are delivered to");
      const address = await this.vettedAddress(target.hostname, signal);
      if (typeof address === "string") return finish(null, address);
      const { statusCode, truncated } = await post(
        this.pool(target.origin, address),
        {
          path: `${target.pathname}${target.search}`,
          method: "POST",
          headers,
          body,
        },
        signal,
      );
      const redirect = statusCode >= 300 && statusCode < 400 ? "redirect not followed" : null;
      return finish(
        statusCode,
        redirect ?? (truncated ? `answer body over ${MAX_RESPONSE_BYTES} bytes was cut off` : null),
      );
    } catch (error) {
      return finish(null, sendDeadline.timedOut() ? `no answer within ${this.options.timeoutMs} ms` : describe(error));
    } finally {
      sendDeadline.release();
    }
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy()));
  }

  /** The address to connect to, or why there is none. An IP literal is its own (single) answer. */
  private async vettedAddress(hostname: string, signal: AbortSignal): Promise<ResolvedAddress | string> {
    const known = this.literalHosts.get(hostname);
    if (known !== undefined) return known;
    const literal = ipLiteral(hostname);
    if (literal === undefined)
      return this.allowedAddress(hostname, await abortable(this.options.resolve(hostname), signal));
    const vetted = this.allowedAddress(hostname, [{ address: literal, family: literal.includes(":") ? 6 : 4 }]);
    this.literalHosts.set(hostname, vetted);
    return vetted;
  }

  /** The first of a host's addresses when every one is allowed, or why they are not. */
  private allowedAddress(hostname: string, addresses: ResolvedAddress[]): ResolvedAddress | string {
    if (addresses.length === 0) return `${hostname} does not resolve`;
    const refused = addresses.find(
      ({ address }) => !isAllowedTargetAddress(address, this.options.allowPrivateNetworks),
    );
    if (refused) return `${hostname} resolves to ${refused.address}, which is not publicly routable`;
    return addresses[0]!;
  }

  private pool(origin: string, pinned: ResolvedAddress): Pool {
    const key = `${origin} ${pinned.address}`;
    let pool = this.pools.get(key);
    if (pool) {
      this.pools.delete(key);
    } else {
      pool = new Pool(origin, {
        connect: { lookup: pinnedLookup(pinned), ...(this.options.ca ? { ca: this.options.ca } : {}) },
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      if (this.pools.size >= MAX_POOLS) {
        const [oldestKey, oldest] = this.pools.entries().next().value as [string, Pool];
        this.pools.delete(oldestKey);
        void oldest.close().catch(() => undefined);
      }
    }
    this.pools.set(key, pool);
    return pool;
  }
}

/** A `lookup` that always answers the vetted address: the socket cannot be sent anywhere else. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
}

/**
 * Sends a request and reads its answer's status, discarding the body up to the cap; `truncated` when there was
 * more (the connection is then dropped). A bare dispatch handler: `request()` would build a body stream for
 * every answer only to drain it, which cost about twice the CPU of a send (measured against a local receiver).
 */
function post(
  pool: Pool,
  request: Dispatcher.DispatchOptions,
  signal: AbortSignal,
): Promise<{ statusCode: number; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    let read = 0;
    pool.dispatch(request, {
      onRequestStart(controller) {
        if (signal.aborted) controller.abort(signal.reason);
        else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
      },
      // Informational (1xx) heads may come first: the final status is the last one.
      onResponseStart(_controller, status) {
        statusCode = status;
      },
      onResponseData(controller, chunk) {
        read += chunk.length;
        if (read <= MAX_RESPONSE_BYTES) return;
        resolve({ statusCode, truncated: true });
        controller.abort(new Error(`answer body over ${MAX_RESPONSE_BYTES} bytes`));
      },
      onResponseEnd() {
        resolve({ statusCode, truncated: false });
      },
      // After a truncation has resolved, the abort it caused lands here and changes nothing.
      onResponseError(_controller, error) {
        reject(error);
      },
    });
  });
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function describe(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA") return "the host name does not resolve";
  return code ? `${code}: ${message ?? "request failed"}` : (message ?? "request failed");
}
