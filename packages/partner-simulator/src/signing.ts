import { constants, createHmac, sign, verify, type KeyObject } from "node:crypto";

/** Avenia refuses a request signed further than this from its clock (spec decision 1). */
const AVENIA_TIMESTAMP_WINDOW_MS = 5 * 60_000;

export interface AveniaSignedRequest {
  timestamp: string | undefined;
  signature: string | undefined;
  method: string;
  /** The path and query exactly as received: clients sign what they send, uncanonicalised. */
  pathAndQuery: string;
  rawBody: Buffer;
}

/** RSASSA-PKCS1-v1_5/SHA-256 over `timestamp + METHOD + pathAndQuery + rawBody`. */
export function isAveniaRequestSigned(request: AveniaSignedRequest, clientKey: KeyObject, now: number): boolean {
  const { timestamp, signature } = request;
  if (!timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now - Number(timestamp)) > AVENIA_TIMESTAMP_WINDOW_MS) return false;
  const signed = Buffer.concat([Buffer.from(timestamp + request.method + request.pathAndQuery), request.rawBody]);
  return verify("sha256", signed, clientKey, Buffer.from(signature, "base64"));
}

/** The `signature` header of an Avenia webhook: RSA-PSS/SHA-256, maximum salt, over the raw body. */
export function signAveniaWebhook(rawBody: string, simulatorKey: KeyObject): string {
  const key = {
    key: simulatorKey,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_MAX_SIGN,
  };
  return sign("sha256", Buffer.from(rawBody), key).toString("base64");
}

/** Standard Webhooks headers (spec decision 7); the secret is `whsec_<base64 bytes>`. */
export function standardWebhookHeaders(
  secret: string,
  id: string,
  rawBody: string,
  now: number,
): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  const secretBytes = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const digest = createHmac("sha256", secretBytes).update(`${id}.${timestamp}.${rawBody}`).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": `v1,${digest}` };
}
