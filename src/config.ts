import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { envSchema, listenAddress, splitList, type Env } from "./config-schema.js";
import { partnerSettings } from "./config-partners.js";
import { startupRefusals } from "./config-refusals.js";

export type Config = ReturnType<typeof loadConfig>;

/** Start-up cannot go on, for a reason its message names in full (no stack trace needed). */
export class StartupError extends Error {}
/** A setting is wrong: the process exits with EX_CONFIG. */
export class ConfigError extends StartupError {}

/** The settings file both the server and the operator CLI read, from the directory they start in. */
const SETTINGS_FILE = ".env";

/**
 * Adds SETTINGS_FILE's settings to the environment, when there is one: a variable the environment already has
 * keeps its value, so a deployment's environment overrides the file.
 */
export function readSettingsFile(): void {
  if (existsSync(SETTINGS_FILE)) process.loadEnvFile(SETTINGS_FILE);
}

/**
 * Parses the environment; throws a ConfigError naming every bad variable. Production refuses unsafe settings, and
 * `live` any corridor a partner does not serve.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const e = parseEnvironment(env);
  const production = e.NODE_ENV === "production";
  const dataDir = resolve(e.DATA_DIR);
  const partners = partnerSettings(e, production, dataDir);
  const refusals = startupRefusals(e, production, partners);
  if (refusals.length) throw new ConfigError(refusals.join("\n"));
  return {
    production,
    port: e.PORT,
    host: e.HOST,
    database: databaseOf(e, dataDir),
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
    /** Where callers reach this service (upload URLs, onboarding links); unset, where it listens. */
    publicBaseUrl: e.PUBLIC_BASE_URL ?? listenUrl(e.HOST, e.PORT),
    widgetBaseUrl: e.WIDGET_BASE_URL,
    ramps: {
      startWindowMs: e.RAMP_START_WINDOW_SECONDS * 1000,
      processorIntervalMs: e.RAMP_PROCESSOR_INTERVAL_MS,
      eventPollMs: e.RAMP_EVENT_POLL_MS,
      sandboxStepDelayMs: e.SANDBOX_STEP_DELAY_MS,
      kycCheckIntervalMs: e.KYC_CHECK_INTERVAL_MS,
      partnerCheckIntervalMs: e.RAMP_CHECK_INTERVAL_MS,
      stepTimeoutMs: e.RAMP_STEP_TIMEOUT_MS,
      ratesRefreshMs: e.MARKET_RATES_REFRESH_MS,
      ratesMaxAgeMs: e.MARKET_RATES_MAX_AGE_MS,
    },
    /** How often rows that can no longer matter are pruned (0: never), and how long each kind is kept first. */
    retention: {
      intervalMs: e.RETENTION_INTERVAL_MS,
      deliveryMs: e.RETENTION_DELIVERY_DAYS * 86_400_000,
      idempotencyMs: e.RETENTION_IDEMPOTENCY_HOURS * 3_600_000,
      authMs: e.RETENTION_AUTH_DAYS * 86_400_000,
      invitationMs: e.RETENTION_INVITATION_DAYS * 86_400_000,
      quoteMs: e.RETENTION_QUOTE_DAYS * 86_400_000,
      /**
       * Applied partner callbacks: an hour, the longest a copy of one is still taken as fresh (Avenia's, judged by its
       * object's updatedAt), so a copy is known by its stored digest until it would be refused as a replay anyway.
       */
      partnerCallbackMs: 3_600_000,
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
    /** Each partner's settings, which partner serves each corridor, and the embedded simulator. */
    partners,
    /** Where `GET /metrics` is also served without the operator token (unset: only on the API's port, with it). */
    metricsListen: e.METRICS_LISTEN === undefined ? undefined : listenAddress(e.METRICS_LISTEN),
  };
}

function parseEnvironment(env: NodeJS.ProcessEnv): Env {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

const databaseOf = (e: Env, dataDir: string) =>
  e.DATABASE_URL
    ? ({ engine: "postgresql", url: e.DATABASE_URL } as const)
    : ({ engine: "sqlite", file: join(dataDir, "ramp-gateway.db") } as const);

/**
 * The database the environment names, read without creating anything (loadConfig generates development secrets
 * under DATA_DIR): what the operator CLI checks before it opens a database.
 */
export function configuredDatabase(env: NodeJS.ProcessEnv = process.env) {
  const e = parseEnvironment(env);
  return databaseOf(e, resolve(e.DATA_DIR));
}

/**
 * The configuration once the server's port is known, which PORT=0 leaves to the system: a PUBLIC_BASE_URL left unset
 * names the port chosen.
 */
export function listeningOn(config: Config, port: number): Config {
  const followsListenAddress = config.publicBaseUrl === listenUrl(config.host, config.port);
  return { ...config, port, publicBaseUrl: followsListenAddress ? listenUrl(config.host, port) : config.publicBaseUrl };
}

/** The URL of `host:port` as a browser on this machine writes it: a wildcard host is reached as localhost. */
function listenUrl(host: string, port: number): string {
  const named = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  return `http://${named.includes(":") ? `[${named}]` : named}:${port}`;
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
