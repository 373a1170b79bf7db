import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { LOG_DIR, OUTPUT_DIR } from "../support/secrets.js";

/**
 * Runs after the rest of the suite (tools/test.sh): every secret the suite was issued (OTP codes, access
 * and refresh tokens, secret keys; test/support/secrets.ts) and the personal data it submitted (tax ids,
 * names, addresses, every email address the server mailed) must be absent from every log it wrote.
 */
const SECRETS_DIR = join(OUTPUT_DIR, "secrets");

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/**
 * Short values (a 6-digit code) would match by chance inside longer digit runs such as timestamps, so they
 * count only as a whole token; long values (tokens, keys) count anywhere.
 */
function patternFor(value: string): RegExp {
  // Short values (sign-in codes) only as whole words: not inside longer numbers such as "106.725821".
  return value.length < 20 ? new RegExp(`(?<![A-Za-z0-9.])${escape(value)}(?![A-Za-z0-9])`) : new RegExp(escape(value));
}

/** Names a secret in a failure message without printing it: its kind and a digest prefix. */
function describeSecret(secret: string): string {
  const kind = /^\d{6}$/.test(secret)
    ? "sign-in code"
    : /^\d{11}$|^\d{14}$/.test(secret)
      ? "tax id"
      : /^sk_/.test(secret)
        ? "secret key"
        : secret.includes("@")
          ? "email address"
          : /\s/.test(secret)
            ? "name or address"
            : secret.split(".").length === 3
              ? "access token"
              : "token";
  return `${kind} sha256:${createHash("sha256").update(secret).digest("hex").slice(0, 12)}`;
}

/** What to look for: the value, and for a secret key also its part past the displayable 16-character prefix. */
function needles(secret: string): { label: string; value: string; pattern: RegExp }[] {
  const label = describeSecret(secret);
  const found = [{ label, value: secret, pattern: patternFor(secret) }];
  if (/^sk_(test|live)_[A-Za-z0-9]{32}$/.test(secret)) {
    const undisplayed = secret.slice(16);
    found.push({ label: `the undisplayed part of ${label}`, value: undisplayed, pattern: patternFor(undisplayed) });
  }
  return found;
}

/** The shortest value remembered: a 6-digit sign-in code. */
const PREFIX = 6;

describe("log audit", () => {
  const secretFiles = filesUnder(SECRETS_DIR);
  const secrets = [
    ...new Set(
      secretFiles.flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line) => line.trim())
          .filter(Boolean),
      ),
    ),
  ];
  const logFiles = filesUnder(LOG_DIR);

  it("has something to audit: the suite remembered secrets and wrote logs", () => {
    expect(
      secrets.length,
      `no secrets remembered under ${SECRETS_DIR}: the suite recorded nothing, the audit would prove nothing`,
    ).toBeGreaterThan(0);
    expect(
      logFiles.length,
      `no logs under ${LOG_DIR}: the suite recorded nothing, the audit would prove nothing`,
    ).toBeGreaterThan(0);
    const written = logFiles.filter((file) => statSync(file).size > 0);
    expect(written.length, `every log under ${LOG_DIR} is empty`).toBeGreaterThan(0);
  });

  it("no remembered secret appears in any log", () => {
    const checks = secrets.flatMap(needles);
    // The values by their first characters: each log is read once, looking up every position, instead of
    // once per value (thousands of values over megabytes of logs).
    const byPrefix = new Map<string, typeof checks>();
    for (const check of checks) {
      if (check.value.length < PREFIX) throw new Error(`a remembered value shorter than ${PREFIX} characters`);
      const prefix = check.value.slice(0, PREFIX);
      byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), check]);
    }
    const leaks: string[] = [];
    for (const file of logFiles) {
      const text = readFileSync(file, "utf8");
      const candidates = new Set<(typeof checks)[number]>();
      for (let index = 0; index + PREFIX <= text.length; index++)
        for (const check of byPrefix.get(text.slice(index, index + PREFIX)) ?? []) candidates.add(check);
      const leaked = [...candidates].filter(({ pattern }) => pattern.test(text)).map(({ label }) => label);
      if (leaked.length)
        leaks.push(`${relative(process.cwd(), file)}: ${leaked.length} secret(s) leaked: ${leaked.join(", ")}`);
    }
    // The message names each log and each leaked value by kind and digest, never the value itself.
    expect(leaks, `secrets found in logs:\n${leaks.join("\n")}`).toEqual([]);
  });
});
