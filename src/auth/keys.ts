import { hash, randomInt } from "node:crypto";

/** A deployment's environment: `test` (sandbox) or `live` (production); keys carry it in their prefix. */
export const RAMP_ENVIRONMENTS = ["test", "live"] as const;
export type RampEnvironment = (typeof RAMP_ENVIRONMENTS)[number];
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
