import { constants, createPublicKey, verify as cryptoVerify, type KeyObject } from "node:crypto";
import { z } from "zod";
import { WEBHOOK_EVENT_TYPES, type RampEventBody } from "../events/outbox.js";
import { RAMP_TYPES } from "../quotes/types.js";
import { RAMP_STATUSES } from "../reference-data/ramp-phases.js";

/**
 * Verification of webhook deliveries, for receivers (CONTRACT.md, Webhooks). Framework-free; depends
 * only on node:crypto and zod.
 *
 * A delivery is a POST with `X-Service-Timestamp` (Unix seconds), `X-Service-Signature` (base64 RSA-PSS,
 * SHA-256, MGF1 SHA-256, salt length 32, over the UTF-8 string `<timestamp>.<raw body>`) and the JSON
 * body. Verify the raw body exactly as received, before parsing it.
 */

export type WebhookVerificationCheck = "timestamp" | "signature" | "payload";

/** Thrown by verifyWebhook; `check` names the check that failed and the message says why. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly check: WebhookVerificationCheck,
    message: string,
  ) {
    super(`webhook ${check} check failed: ${message}`);
    this.name = "WebhookVerificationError";
  }
}

export interface VerifyWebhookInput {
  /** The service's key: the `publicKey` PEM of GET /v1/public-key, or a KeyObject made from it. */
  publicKey: string | KeyObject;
  /** The X-Service-Timestamp header (Unix seconds), as received. */
  timestamp: string | number;
  /** The X-Service-Signature header (base64), as received. */
  signature: string;
  /** The request body exactly as received (not re-serialized JSON). */
  rawBody: string | Buffer;
  /** The current time (default: now); for tests and replays. */
  now?: Date | number;
  /** Largest accepted distance between the timestamp and now, in either direction (default 300 s). */
  toleranceSeconds?: number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const SALT_LENGTH = 32;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const TIMESTAMP = /^\d{1,12}$/;

/** The body of a delivery (TRANSACTION_CREATED or STATUS_CHANGE); unknown fields are dropped. */
const eventBody = z.object({
  eventId: z.string().min(1),
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  timestamp: z.iso.datetime({ offset: true }),
  payload: z.object({
    quoteId: z.string().min(1),
    transactionId: z.string().min(1),
    sessionId: z.string().min(1).nullable(),
    transactionStatus: z.enum(RAMP_STATUSES),
    transactionType: z.enum(RAMP_TYPES),
  }),
});

/**
 * Checks a webhook delivery and returns its event. In order: the timestamp is a Unix time within
 * `toleranceSeconds` of now (both directions, so old captures cannot be replayed and clocks may drift
 * a little), the signature verifies with `publicKey` over `<timestamp>.<rawBody>`, and the body has the
 * event shape. Throws a WebhookVerificationError naming the failed check otherwise.
 *
 * Deduplicate on `eventId`: delivery is at least once.
 *
 * @example
 *   const event = verifyWebhook({
 *     publicKey,                                        // cached from GET /v1/public-key
 *     timestamp: request.headers["x-service-timestamp"],
 *     signature: request.headers["x-service-signature"],
 *     rawBody,                                          // the bytes received, before JSON.parse
 *   });
 */
export function verifyWebhook(input: VerifyWebhookInput): RampEventBody {
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const timestampText = String(input.timestamp).trim();
  if (!TIMESTAMP.test(timestampText))
    throw new WebhookVerificationError("timestamp", "X-Service-Timestamp is not a Unix time in seconds");
  const timestamp = Number(timestampText);
  const nowMs = input.now === undefined ? Date.now() : typeof input.now === "number" ? input.now : input.now.getTime();
  const skew = Math.floor(nowMs / 1000) - timestamp;
  if (Math.abs(skew) > tolerance) {
    throw new WebhookVerificationError(
      "timestamp",
      skew > 0
        ? `the delivery is ${skew} s old (tolerance ${tolerance} s)`
        : `the timestamp is ${-skew} s in the future (tolerance ${tolerance} s)`,
    );
  }

  const signatureText = typeof input.signature === "string" ? input.signature.trim() : "";
  if (!BASE64.test(signatureText) || signatureText.length % 4 !== 0)
    throw new WebhookVerificationError("signature", "X-Service-Signature is not base64");
  let key: KeyObject;
  try {
    key = typeof input.publicKey === "string" ? createPublicKey(input.publicKey) : input.publicKey;
  } catch {
    throw new WebhookVerificationError("signature", "the public key is not a readable PEM key");
  }
  const rawBody = typeof input.rawBody === "string" ? Buffer.from(input.rawBody, "utf8") : input.rawBody;
  const signed = Buffer.concat([Buffer.from(`${timestampText}.`, "utf8"), rawBody]);
  let valid: boolean;
  try {
    valid = cryptoVerify(
      "sha256",
      signed,
      { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: SALT_LENGTH },
      Buffer.from(signatureText, "base64"),
    );
  } catch {
    valid = false;
  }
  if (!valid)
    throw new WebhookVerificationError("signature", "the signature does not match the body, timestamp and public key");

  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString("utf8"));
  } catch {
    throw new WebhookVerificationError("payload", "the body is not JSON");
  }
  const parsed = eventBody.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new WebhookVerificationError("payload", `${issue.path.join(".") || "body"}: ${issue.message}`);
  }
  return parsed.data as RampEventBody;
}
