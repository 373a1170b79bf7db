import { hash, randomInt } from "node:crypto";
import { describedEnum } from "../enums.js";

/** A deployment's environment: `test` (sandbox) or `live` (production); keys carry it in their prefix. */
export const RAMP_ENVIRONMENTS = ["test", "live"] as const;
export type RampEnvironment = (typeof RAMP_ENVIRONMENTS)[number];

describedEnum("RampEnvironment", RAMP_ENVIRONMENTS, {
  description: "A deployment's environment; a credential works only on a deployment of its own.",
  meanings: {
    test: "Sandbox: keys start with pk_test_ and sk_test_.",
    live: "Production: keys start with pk_live_ and sk_live_.",
  },
});

export type KeyKind = "public" | "secret";

const KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const KEY_PATTERN = { public: /^pk_(test|live)_[A-Za-z0-9]{32}$/, secret: /^sk_(test|live)_[A-Za-z0-9]{32}$/ };
export const SECRET_PREFIX_LENGTH = 16;

/** 32 characters of [A-Za-z0-9] drawn uniformly from the CSPRNG (randomInt rejects biased draws). */
function randomKeyBody(): string {
  let body = "";
  for (let i = 0; i < 32; i++) body += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return body;
}

export function generateKeyPair(environment: RampEnvironment) {
  return { publicKey: `pk_${environment}_${randomKeyBody()}`, secretKey: `sk_${environment}_${randomKeyBody()}` };
}

export function isWellFormedKey(kind: KeyKind, value: string): boolean {
  return KEY_PATTERN[kind].test(value);
}

/** One-shot hashing: a third of the cost of a Hash object, on every keyed request. */
export function sha256Hex(value: string): string {
  return hash("sha256", value, "hex");
}

/** Whether two key values of the same length are equal, in time that does not depend on where they differ. */
function sameValue(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * The digest of the key value each connection presented last. Keep-alive clients send the same key with every
 * request, and in the request path a digest costs microseconds (more than everything else authentication
 * does on a cache hit): a connection that presents its last value again gets its digest without hashing.
 * Only the value's digest is kept, never whether the key is valid (that is looked up by the digest on every
 * request), and it is held while its connection lives, beside what the connection's own buffers hold.
 */
export class KeyDigests {
  private readonly last = new WeakMap<object, { value: string; digest: string }>();

  constructor(private readonly digestOf: (value: string) => string = sha256Hex) {}

  /** The digest of `value`; `connection` (the socket it came on) remembers it for the next request. */
  of(value: string, connection: object | undefined): string {
    if (!connection) return this.digestOf(value);
    const known = this.last.get(connection);
    // Behind a proxy one connection carries many callers' keys: compare without telling where they differ.
    if (known && sameValue(known.value, value)) return known.digest;
    const digest = this.digestOf(value);
    this.last.set(connection, { value, digest });
    return digest;
  }
}
