import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

export const OUTPUT_DIR = join(process.cwd(), "test-output");
export const LOG_DIR = join(OUTPUT_DIR, "logs");
const SECRETS_DIR = join(OUTPUT_DIR, "secrets");
const file = join(SECRETS_DIR, `${process.pid}-${randomUUID()}.txt`);

/**
 * Remembers a secret the suite was issued (secret key, refresh or access token, OTP), or personal data it
 * submitted (a tax id), so the log audit, run after the suite, can prove none of them reached a log.
 */
export function rememberSecret(value: string): string {
  mkdirSync(SECRETS_DIR, { recursive: true });
  appendFileSync(file, `${value}\n`);
  return value;
}
