import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { corridorsOnTheSandbox } from "./providers/partners.js";

/** `host:port`, an IPv6 host in brackets (`[::1]:9464`). */
const LISTEN_ADDRESS = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s[\]:]+)):(\d{1,5})$/;

/** Every environment variable of the service, parsed once. The README's table mirrors this list. */
const envSchema = z.object({
  NODE_ENV: z.string().default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().default("./data"),
  RAMP_ENVIRONMENT: z.enum(["test", "live"]).default("test"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().default("Ramp Gateway <no-reply@ramp-gateway.local>"),
  JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  OPERATOR_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
  JWT_ISSUER: z.string().default("ramp-gateway"),
  JWT_AUDIENCE: z.string().default("ramp-gateway-api"),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  OTP_RESEND_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  CORS_ORIGINS: z.string().default(""),
  TRUST_PROXY: z.enum(["true", "false"]).default("false"),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  RATE_LIMIT_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  RATE_LIMIT_OTP_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_PARTNER_CALLBACKS_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
  CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  LAST_USED_FLUSH_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  SIGNING_KEY_ENCRYPTION_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  SIGNING_PRIVATE_KEY: z.string().includes("PRIVATE KEY", { message: "must be a PEM private key" }).optional(),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z
    .string()
    .default("")
    .refine((list) => splitList(list).every(isCidr), "must be comma-separated CIDR ranges such as 10.0.0.0/8,fd00::/8"),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
  WEBHOOK_DELIVERY_POLL_MS: z.coerce.number().int().min(5).max(60_000).default(250),
  WEBHOOK_DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(32),
  WEBHOOK_DELIVERY_CONCURRENCY_PER_RECEIVER: z.coerce.number().int().min(1).max(1_000).default(8),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:8080"),
  WIDGET_BASE_URL: z.url({ protocol: /^https?$/ }).default("https://widget.ramp-gateway.example/"),
  RAMP_START_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  RAMP_PROCESSOR_INTERVAL_MS: z.coerce.number().int().min(5).max(60_000).default(250),
  RAMP_EVENT_POLL_MS: z.coerce.number().int().min(5).max(60_000).default(100),
  SANDBOX_STEP_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(750),
  SANDBOX_KYC_DECISION_MS: z.coerce.number().int().min(0).max(86_400_000).default(3_000),
  // At most a day, well below the 24.8 days past which Node fires a timer at once.
  RETENTION_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(86_400_000)
    .refine((ms) => ms === 0 || ms >= 1000, "must be 0 (off) or at least 1000")
    .default(3_600_000),
  RETENTION_DELIVERY_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  RETENTION_IDEMPOTENCY_HOURS: z.coerce.number().int().min(1).max(8760).default(24),
  RETENTION_AUTH_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  RETENTION_INVITATION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  RETENTION_QUOTE_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(10),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(15),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(5000),
  GRAPHQL_MAX_LIST_ITEMS: z.coerce.number().int().min(1).default(2000),
  // Partners. A partner whose settings are absent is not configured: its callbacks are answered 404.
  AVENIA_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  ALFREDPAY_CALLBACK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, "must be whsec_ and the base64 of at least 24 random bytes")
    .optional(),
  METRICS_LISTEN: z
    .string()
    .regex(LISTEN_ADDRESS, "must be host:port, such as 127.0.0.1:9464 or [::1]:9464")
    .refine((address) => Number(LISTEN_ADDRESS.exec(address)?.[3] ?? 0) <= 65535, "the port must be at most 65535")
    .optional(),
});

export type Config = ReturnType<typeof loadConfig>;

/** Start-up cannot go on, for a reason its message names in full (no stack trace needed). */
export class StartupError extends Error {}
/** A setting is wrong: the process exits with EX_CONFIG. */
export class ConfigError extends StartupError {}

/**
 * Parses the environment; throws a ConfigError naming every bad variable. Production refuses unsafe settings, and
 * `live` any corridor a partner does not serve.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production";
  const refusals: string[] = [];
  if (production) {
    const problems: string[] = [];
    if (!e.SMTP_URL) problems.push("SMTP_URL must be set: sign-in codes cannot be delivered otherwise");
    if (!e.JWT_SECRET)
      problems.push("JWT_SECRET must be set (32+ characters): generated secrets are for development only");
    if (!e.OPERATOR_TOKEN)
      problems.push("OPERATOR_TOKEN must be set (32+ characters): generated secrets are for development only");
    if (!e.SIGNING_KEY_ENCRYPTION_KEY && !e.SIGNING_PRIVATE_KEY) {
      problems.push(
        "SIGNING_KEY_ENCRYPTION_KEY (32+ characters) or SIGNING_PRIVATE_KEY must be set: the webhook signing key must survive restarts",
      );
    }
    if (e.AVENIA_BASE_URL?.startsWith("http:"))
      problems.push(
        "AVENIA_BASE_URL must be https://: the key Avenia's callbacks are verified with is fetched from it",
      );
    if (problems.length) refusals.push(`Refusing to start in production:\n  ${problems.join("\n  ")}`);
  }
  // Whatever NODE_ENV says (CONTRACT.md): a live key's ramps and KYC go to partners, never to the sandbox.
  const onTheSandbox = e.RAMP_ENVIRONMENT === "live" ? corridorsOnTheSandbox() : [];
  if (onTheSandbox.length) {
    refusals.push(
      `Refusing to start with RAMP_ENVIRONMENT=live: these corridors would run on the sandbox provider:\n  ${onTheSandbox.join("\n  ")}`,
    );
  }
  if (refusals.length) throw new ConfigError(refusals.join("\n"));
  const dataDir = resolve(e.DATA_DIR);
  return {
    production,
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? ({ engine: "postgresql", url: e.DATABASE_URL } as const)
      : ({ engine: "sqlite", file: join(dataDir, "ramp-gateway.db") } as const),
    dataDir,
    rampEnvironment: e.RAMP_ENVIRONMENT,
    logLevel: e.LOG_LEVEL,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, outboxDir: join(dataDir, "mail") },
    jwt: {
      secret: e.JWT_SECRET ?? persistentDevelopmentSecret(dataDir, "jwtSecret"),
      issuer: e.JWT_ISSUER,
      audience: e.JWT_AUDIENCE,
      accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    },
    operatorToken: e.OPERATOR_TOKEN ?? persistentDevelopmentSecret(dataDir, "operatorToken"),
    refreshTokenTtlMs: e.REFRESH_TOKEN_TTL_DAYS * 86_400_000,
    otpResendCooldownMs: e.OTP_RESEND_COOLDOWN_SECONDS * 1000,
    corsOrigins: splitList(e.CORS_ORIGINS),
    trustProxy: e.TRUST_PROXY === "true",
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    rateLimits: {
      perIpPerMinute: e.RATE_LIMIT_PER_IP_PER_MINUTE,
      perCredentialPerMinute: e.RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE,
      otpPerIpPerMinute: e.RATE_LIMIT_OTP_PER_IP_PER_MINUTE,
      partnerCallbacksPerIpPerMinute: e.RATE_LIMIT_PARTNER_CALLBACKS_PER_IP_PER_MINUTE,
    },
    cacheTtlMs: e.CACHE_TTL_SECONDS * 1000,
    lastUsedFlushIntervalMs: e.LAST_USED_FLUSH_INTERVAL_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    webhooks: {
      /** Encrypts the stored signing key; unused when SIGNING_PRIVATE_KEY is given. */
      signingKeyEncryptionKey:
        e.SIGNING_KEY_ENCRYPTION_KEY ?? persistentDevelopmentSecret(dataDir, "signingKeyEncryptionKey"),
      signingPrivateKey: e.SIGNING_PRIVATE_KEY,
      /** Private ranges an operator allows as webhook targets (on-premise receivers); empty by default. */
      allowPrivateNetworks: splitList(e.WEBHOOK_ALLOW_PRIVATE_NETWORKS),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      deliveryPollMs: e.WEBHOOK_DELIVERY_POLL_MS,
      deliveryConcurrency: e.WEBHOOK_DELIVERY_CONCURRENCY,
      deliveryConcurrencyPerReceiver: Math.min(
        e.WEBHOOK_DELIVERY_CONCURRENCY_PER_RECEIVER,
        e.WEBHOOK_DELIVERY_CONCURRENCY,
      ),
    },
    publicBaseUrl: e.PUBLIC_BASE_URL,
    widgetBaseUrl: e.WIDGET_BASE_URL,
    ramps: {
      startWindowMs: e.RAMP_START_WINDOW_SECONDS * 1000,
      processorIntervalMs: e.RAMP_PROCESSOR_INTERVAL_MS,
      eventPollMs: e.RAMP_EVENT_POLL_MS,
      sandboxStepDelayMs: e.SANDBOX_STEP_DELAY_MS,
      sandboxKycDecisionMs: e.SANDBOX_KYC_DECISION_MS,
    },
    /** How often rows that can no longer matter are pruned (0: never), and how long each kind is kept first. */
    retention: {
      intervalMs: e.RETENTION_INTERVAL_MS,
      deliveryMs: e.RETENTION_DELIVERY_DAYS * 86_400_000,
      idempotencyMs: e.RETENTION_IDEMPOTENCY_HOURS * 3_600_000,
      authMs: e.RETENTION_AUTH_DAYS * 86_400_000,
      invitationMs: e.RETENTION_INVITATION_DAYS * 86_400_000,
      quoteMs: e.RETENTION_QUOTE_DAYS * 86_400_000,
    },
    graphql: {
      introspection: !production,
      /** GraphiQL at GET /graphql for browsers (src/graphql/graphiql.ts): development only. */
      ide: !production,
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxCost: e.GRAPHQL_MAX_COST,
      maxListItems: e.GRAPHQL_MAX_LIST_ITEMS,
    },
    /** Each partner's settings; the per-corridor partner configuration joins them here. */
    partners: {
      /** Where Avenia's API is, whose `GET /v2/public-key` serves the key its callbacks are signed with. */
      avenia: { baseUrl: e.AVENIA_BASE_URL },
      /** The Standard Webhooks secret Alfredpay signs its callbacks with (spec decision 7). */
      alfredpay: { callbackSecret: e.ALFREDPAY_CALLBACK_SECRET },
    },
    /** Where `GET /metrics` is also served without the operator token (unset: only on the API's port, with it). */
    metricsListen: e.METRICS_LISTEN === undefined ? undefined : listenAddress(e.METRICS_LISTEN),
  };
}

function listenAddress(value: string): { host: string; port: number } {
  const [, ipv6, host, port] = LISTEN_ADDRESS.exec(value)!;
  return { host: (ipv6 ?? host)!, port: Number(port) };
}

function splitList(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

function isCidr(value: string): boolean {
  try {
    ipaddr.parseCIDR(value);
    return true;
  } catch {
    return false;
  }
}

const corruptSecrets = (file: string, reason: string) =>
  new ConfigError(
    `${file} is corrupt (${reason}). Restore it, or remove it to generate new secrets (signed-in sessions then end).`,
  );

/**
 * Outside production, an unset secret is generated once and kept under the data directory,
 * so a restart keeps sessions valid.
 */
function persistentDevelopmentSecret(dataDir: string, name: string): string {
  const file = join(dataDir, "secrets.json");
  let secrets: Record<string, string> = {};
  try {
    secrets = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
  } catch (error) {
    if (error instanceof SyntaxError) throw corruptSecrets(file, error.message);
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (typeof secrets !== "object" || secrets === null || Array.isArray(secrets))
    throw corruptSecrets(file, "not a JSON object");
  if (!secrets[name]) {
    secrets[name] = randomBytes(32).toString("base64url");
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets[name];
}
