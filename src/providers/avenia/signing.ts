import { constants, createPublicKey, sign, verify, type KeyObject } from "node:crypto";

/**
 * Avenia's request signature (spec decision 1): base64 RSASSA-PKCS1-v1_5 / SHA-256 over
 * `timestamp + METHOD + pathAndQuery + body`, with the path and query exactly as sent.
 */
export function signAveniaRequest(
  privateKey: KeyObject | string,
  request: { timestamp: string; method: string; pathAndQuery: string; body: string },
): string {
  const payload = request.timestamp + request.method + request.pathAndQuery + request.body;
  return sign("sha256", Buffer.from(payload, "utf8"), privateKey).toString("base64");
}

const KEY_LIFETIME_MS = 60 * 60 * 1000;
const MIN_REFETCH_INTERVAL_MS = 30 * 1000;

/**
 * The key Avenia signs callbacks with, from `GET /v2/public-key`: kept an hour, and fetched anew when a signature
 * fails (the key rotated), at most once per 30 s so forged callbacks cannot make us hammer the partner.
 * Concurrent fetches share one request.
 */
export class AveniaCallbackKey {
  private key: KeyObject | null = null;
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private lastFetchStartedAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<KeyObject> | null = null;

  constructor(
    private readonly fetchPem: () => Promise<string>,
    private readonly now: () => number = Date.now,
  ) {}

  current(): Promise<KeyObject> {
    if (this.key !== null && this.now() - this.fetchedAt < KEY_LIFETIME_MS) return Promise.resolve(this.key);
    return this.fetch();
  }

  /** A newer key than `stale`, or null when none may be fetched yet or the partner still serves the same one. */
  async newerThan(stale: KeyObject): Promise<KeyObject | null> {
    if (this.inFlight === null && this.now() - this.lastFetchStartedAt < MIN_REFETCH_INTERVAL_MS)
      return this.key === stale ? null : this.key;
    const fresh = await this.fetch();
    return fresh.equals(stale) ? null : fresh;
  }

  private fetch(): Promise<KeyObject> {
    if (this.inFlight === null) {
      this.lastFetchStartedAt = this.now();
      this.inFlight = this.fetchPem()
        .then((pem) => {
          this.key = createPublicKey(pem);
          this.fetchedAt = this.now();
          return this.key;
        })
        .finally(() => {
          this.inFlight = null;
        });
    }
    return this.inFlight;
  }
}

/**
 * Whether an Avenia callback is genuine: RSA-PSS / SHA-256 (MGF1 SHA-256, maximum salt, verified with "auto")
 * over the raw body bytes, in the `signature` header. A failure is tried once more against a rotated key.
 */
export async function verifyAveniaCallback(
  rawBody: Buffer,
  signatureHeader: string | undefined,
  keys: AveniaCallbackKey,
): Promise<boolean> {
  if (signatureHeader === undefined || signatureHeader === "") return false;
  const signature = Buffer.from(signatureHeader, "base64");
  const key = await keys.current();
  if (pssVerifies(rawBody, signature, key)) return true;
  const rotated = await keys.newerThan(key);
  return rotated !== null && pssVerifies(rawBody, signature, rotated);
}

function pssVerifies(rawBody: Buffer, signature: Buffer, key: KeyObject): boolean {
  return verify(
    "sha256",
    rawBody,
    { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO },
    signature,
  );
}
