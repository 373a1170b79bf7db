import { createHmac, timingSafeEqual } from "node:crypto";

/** A callback's timestamp further than this from our clock, either way, is refused as a replay. */
const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

type CallbackHeaders = Record<string, string | string[] | undefined>;

/**
 * Whether an Alfredpay callback is genuine (spec decision 7, the Standard Webhooks scheme): one of the `v1,`
 * signatures in `webhook-signature` is the HMAC-SHA256 of `id.timestamp.body` under the `whsec_` secret, and the
 * timestamp is within five minutes of `nowMs`. Header names are expected in lower case, as node gives them.
 */
export function verifyAlfredpayCallback(
  rawBody: Buffer,
  headers: CallbackHeaders,
  secret: string,
  nowMs: number,
): boolean {
  const id = single(headers["webhook-id"]);
  const timestamp = single(headers["webhook-timestamp"]);
  const signatures = single(headers["webhook-signature"]);
  if (id === undefined || timestamp === undefined || signatures === undefined) return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS)
    return false;

  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(rawBody).digest();
  // Several signatures (separated by spaces) let the sender rotate its secret; any one of ours suffices.
  return signatures.split(" ").some((entry) => {
    const [version, encoded] = entry.split(",", 2);
    if (version !== "v1" || encoded === undefined) return false;
    const candidate = Buffer.from(encoded, "base64");
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
