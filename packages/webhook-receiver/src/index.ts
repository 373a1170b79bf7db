import { constants, createPublicKey, verify as verifySignature, type KeyObject } from "node:crypto";

/**
 * Verification of the ramp gateway's webhook deliveries, for receivers. Depends on node:crypto alone.
 *
 * A delivery is a POST with `X-Service-Timestamp` (Unix seconds), `X-Service-Signature` (base64 RSA-PSS,
 * SHA-256, MGF1 SHA-256, salt length 32, over the UTF-8 string `<timestamp>.<raw body>`) and a JSON body.
 * Verify the raw body exactly as received, before parsing it.
 */

export const WEBHOOK_EVENT_TYPES = ["TRANSACTION_CREATED", "STATUS_CHANGE"] as const;
export const TRANSACTION_STATUSES = ["PENDING", "COMPLETE", "FAILED"] as const;
export const TRANSACTION_TYPES = ["BUY", "SELL"] as const;

/** The body of a ramp event's delivery. */
export interface RampWebhookEvent {
  /** The same for every attempt at one event: deduplicate on it (delivery is at least once). */
  eventId: string;
  eventType: (typeof WEBHOOK_EVENT_TYPES)[number];
  /** When the event happened (RFC 3339). */
  timestamp: string;
  payload: {
    quoteId: string;
    /** The ramp's id. */
    transactionId: string;
    sessionId: string | null;
    transactionStatus: (typeof TRANSACTION_STATUSES)[number];
    transactionType: (typeof TRANSACTION_TYPES)[number];
  };
}

/** The body of a test event, sent on request (POST /v1/webhook/{id}/test): it reports on no ramp. */
export interface WebhookTestEvent {
  eventId: string;
  eventType: "WEBHOOK_TEST";
  timestamp: string;
  payload: {
    test: true;
    /** The subscription it was sent for, and what that follows. */
    webhookId: string;
    quoteId: string | null;
    sessionId: string | null;
  };
}

/** The body of a delivery: tell the two apart by `eventType`. */
export type WebhookEvent = RampWebhookEvent | WebhookTestEvent;

export type WebhookVerificationCheck = "timestamp" | "signature" | "payload";

/** Thrown when a delivery does not verify; `check` names the check that failed and the message says why. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly check: WebhookVerificationCheck,
    message: string,
  ) {
    super(`webhook ${check} check failed: ${message}`);
    this.name = "WebhookVerificationError";
  }
}

/** What a delivery carries, as received. */
export interface Delivery {
  /** The X-Service-Timestamp header (Unix seconds). */
  timestamp: string | number | string[] | undefined;
  /** The X-Service-Signature header (base64). */
  signature: string | string[] | undefined;
  /** The request body exactly as received (not re-serialized JSON). */
  rawBody: string | Buffer;
}

export interface VerifyWebhookInput extends Delivery {
  /** The gateway's key: the `publicKey` PEM of GET /v1/public-key, or a KeyObject made from it. */
  publicKey: string | KeyObject;
  /** The current time (default: now); for tests and replays of captured deliveries. */
  now?: Date | number;
  /** Largest accepted distance between the timestamp and now, in either direction (default 300 s). */
  toleranceSeconds?: number;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;
const SALT_LENGTH = 32;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const UNIX_SECONDS = /^\d{1,12}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/** A header as Node gives it: repeated headers arrive as arrays, and only one value is meaningful. */
const single = (value: string | number | string[] | undefined) =>
  Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;

/**
 * Checks a delivery against the gateway's public key and returns its event. In order: the timestamp is a
 * Unix time within the tolerance of now (both directions, so old captures cannot be replayed and clocks may
 * drift a little), the signature verifies over `<timestamp>.<rawBody>`, and the body has the event's shape.
 * Throws a WebhookVerificationError naming the failed check otherwise.
 */
export function verifyWebhook({ publicKey, now, toleranceSeconds, ...delivery }: VerifyWebhookInput): WebhookEvent {
  const tolerance = toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const timestampText = String(single(delivery.timestamp) ?? "").trim();
  if (!UNIX_SECONDS.test(timestampText))
    throw new WebhookVerificationError("timestamp", "X-Service-Timestamp is not a Unix time in seconds");
  const nowMs = now === undefined ? Date.now() : new Date(now).getTime();
  const skew = Math.floor(nowMs / 1000) - Number(timestampText);
  if (Math.abs(skew) > tolerance)
    throw new WebhookVerificationError(
      "timestamp",
      skew > 0
        ? `the delivery is ${skew} s old (tolerance ${tolerance} s)`
        : `the timestamp is ${-skew} s in the future (tolerance ${tolerance} s)`,
    );

  const signatureText = String(single(delivery.signature) ?? "").trim();
  if (!BASE64.test(signatureText) || signatureText.length % 4 !== 0)
    throw new WebhookVerificationError("signature", "X-Service-Signature is not base64");
  let key: KeyObject;
  try {
    key = typeof publicKey === "string" ? createPublicKey(publicKey) : publicKey;
  } catch {
    throw new WebhookVerificationError("signature", "the public key is not a readable PEM key");
  }
  const rawBody = typeof delivery.rawBody === "string" ? Buffer.from(delivery.rawBody, "utf8") : delivery.rawBody;
  const signed = Buffer.concat([Buffer.from(`${timestampText}.`, "utf8"), rawBody]);
  let valid = false;
  try {
    valid = verifySignature(
      "sha256",
      signed,
      { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: SALT_LENGTH },
      Buffer.from(signatureText, "base64"),
    );
  } catch {
    // A key of another type, or a signature of the wrong length: it does not verify.
  }
  if (!valid)
    throw new WebhookVerificationError("signature", "the signature does not match the body, timestamp and public key");

  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString("utf8"));
  } catch {
    throw new WebhookVerificationError("payload", "the body is not JSON");
  }
  return eventOf(body);
}

/** The event the body holds, with only the fields it defines; a body of another shape names its first fault. */
function eventOf(body: unknown): WebhookEvent {
  const fault = (path: string, expected: string) =>
    new WebhookVerificationError("payload", `${path}: expected ${expected}`);
  const record = (value: unknown, path: string) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw fault(path, "an object");
    return value as Record<string, unknown>;
  };
  const text = (value: unknown, path: string) => {
    if (typeof value !== "string" || value.length === 0) throw fault(path, "a non-empty string");
    return value;
  };
  const oneOf = <T extends string>(values: readonly T[], value: unknown, path: string) => {
    if (!values.includes(value as T)) throw fault(path, `one of ${values.join(", ")}`);
    return value as T;
  };
  const event = record(body, "body");
  const payload = record(event.payload, "payload");
  const timestamp = text(event.timestamp, "timestamp");
  if (!RFC3339.test(timestamp)) throw fault("timestamp", "an RFC 3339 date-time");
  const nullableText = (value: unknown, path: string) => (value === null ? null : text(value, path));
  if (event.eventType === "WEBHOOK_TEST") {
    if (payload.test !== true) throw fault("payload.test", "true");
    return {
      eventId: text(event.eventId, "eventId"),
      eventType: "WEBHOOK_TEST",
      timestamp,
      payload: {
        test: true,
        webhookId: text(payload.webhookId, "payload.webhookId"),
        quoteId: nullableText(payload.quoteId, "payload.quoteId"),
        sessionId: nullableText(payload.sessionId, "payload.sessionId"),
      },
    };
  }
  return {
    eventId: text(event.eventId, "eventId"),
    eventType: oneOf(WEBHOOK_EVENT_TYPES, event.eventType, "eventType"),
    timestamp,
    payload: {
      quoteId: text(payload.quoteId, "payload.quoteId"),
      transactionId: text(payload.transactionId, "payload.transactionId"),
      sessionId: nullableText(payload.sessionId, "payload.sessionId"),
      transactionStatus: oneOf(TRANSACTION_STATUSES, payload.transactionStatus, "payload.transactionStatus"),
      transactionType: oneOf(TRANSACTION_TYPES, payload.transactionType, "payload.transactionType"),
    },
  };
}

export interface WebhookReceiverOptions extends Pick<VerifyWebhookInput, "toleranceSeconds"> {
  /** Where the gateway serves its key: `https://<gateway>/v1/public-key`. */
  publicKeyUrl: string | URL;
  /** How the key is fetched (default: the global fetch); for proxies, custom agents and tests. */
  fetch?: typeof fetch;
  /** The least time between two fetches of the key after a signature failed (default 10 s). */
  minRefreshIntervalMs?: number;
  /** How many event ids are remembered for replay protection (default 100,000; the oldest go first). */
  maxRememberedEvents?: number;
  /** The current time (default: Date.now); for tests. */
  clock?: () => number;
}

/** A verified delivery: its event, and whether this event id was seen before (a retry, or a replay). */
export interface ReceivedEvent {
  event: WebhookEvent;
  /** True when the event was received already: acknowledge it (2xx) and do not process it again. */
  duplicate: boolean;
}

/**
 * A receiver's verifier that keeps itself current. It fetches the gateway's key once and caches it; when a
 * signature stops verifying it fetches the key again (the gateway may have rotated it) and retries once, at
 * most once per `minRefreshIntervalMs` so forged deliveries cannot make it hammer the gateway. It remembers
 * the event ids it accepted for as long as a delivery's timestamp stays acceptable (twice the tolerance), so
 * a captured delivery sent again is reported as a duplicate; older captures fail the timestamp check.
 *
 * The memory is this process's: a receiver running several processes, or wanting exactly-once processing
 * across restarts, records `event.eventId` in its own database as well.
 */
export class WebhookReceiver {
  private publicKey: Promise<KeyObject> | undefined;
  private lastFetchMs = Number.NEGATIVE_INFINITY;
  /** Accepted event ids and until when they are remembered, oldest first. */
  private readonly seen = new Map<string, number>();
  private readonly fetchKey: typeof fetch;
  private readonly clock: () => number;
  private readonly tolerance: number;

  constructor(private readonly options: WebhookReceiverOptions) {
    this.fetchKey = options.fetch ?? fetch;
    this.clock = options.clock ?? Date.now;
    this.tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  }

  /** Verifies a delivery (refreshing the key once if its signature fails) and tells whether its event is new. */
  async receive(delivery: Delivery): Promise<ReceivedEvent> {
    const verify = (publicKey: KeyObject) =>
      verifyWebhook({ ...delivery, publicKey, now: this.clock(), toleranceSeconds: this.tolerance });
    const current = await this.key();
    let event: WebhookEvent;
    try {
      event = verify(current);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError) || error.check !== "signature") throw error;
      const refreshed = await this.refreshedKey(current);
      if (!refreshed) throw error;
      event = verify(refreshed);
    }
    return { event, duplicate: this.remember(event.eventId) };
  }

  /** The cached key, fetched on first use (a failed fetch is tried again on the next delivery). */
  private key(): Promise<KeyObject> {
    this.publicKey ??= this.fetchPublicKey().catch((error: unknown) => {
      this.publicKey = undefined;
      throw error;
    });
    return this.publicKey;
  }

  /** A newly fetched key when it differs from `stale` and the last fetch is old enough; undefined otherwise. */
  private async refreshedKey(stale: KeyObject): Promise<KeyObject | undefined> {
    if (this.clock() - this.lastFetchMs < (this.options.minRefreshIntervalMs ?? 10_000)) {
      // Another delivery may have fetched it meanwhile.
      const current = await this.key();
      return current.equals(stale) ? undefined : current;
    }
    this.publicKey = undefined;
    const fresh = await this.key();
    return fresh.equals(stale) ? undefined : fresh;
  }

  private async fetchPublicKey(): Promise<KeyObject> {
    this.lastFetchMs = this.clock();
    const response = await this.fetchKey(this.options.publicKeyUrl, { headers: { accept: "application/json" } });
    if (!response.ok) throw new Error(`GET ${String(this.options.publicKeyUrl)} answered ${response.status}`);
    const { publicKey } = (await response.json()) as { publicKey?: unknown };
    if (typeof publicKey !== "string") throw new Error(`GET ${String(this.options.publicKeyUrl)} gave no publicKey`);
    return createPublicKey(publicKey);
  }

  /** Records the event id; true when it was remembered already. */
  private remember(eventId: string): boolean {
    const now = this.clock();
    for (const [id, until] of this.seen) {
      if (until > now && this.seen.size < (this.options.maxRememberedEvents ?? 100_000)) break;
      this.seen.delete(id);
    }
    if (this.seen.has(eventId)) return true;
    this.seen.set(eventId, now + 2 * this.tolerance * 1000);
    return false;
  }
}
