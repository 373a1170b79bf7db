import { createPrivateKey, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { CORRIDOR_FIAT, CORRIDORS, type Corridor } from "./reference-data/corridors.js";
import {
  corridorsOnTheSandbox,
  DEFAULT_CORRIDOR_PARTNERS,
  PARTNERS,
  partnerCorridors,
  type Partner,
} from "./providers/partners.js";

/** `host:port`, an IPv6 host in brackets (`[::1]:9464`). */
const LISTEN_ADDRESS = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s[\]:]+)):(\d{1,5})$/;

/** One of the embedded partner simulator's timings, in ms. */
const simulatorTiming = z.string().regex(/^\d+$/, "must be a whole number of milliseconds").optional();

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
  // How long after a partner's order was read it is read again when no callback said it changed first.
  RAMP_CHECK_INTERVAL_MS: z.coerce.number().int().min(5).max(600_000).default(5_000),
  // How long a ramp step's partner calls may take before the step is abandoned and asked again (a money step is then
  // looked up first); a step's claim, and a money command's, holds twice this.
  RAMP_STEP_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  // How old a partner's rate may be before a quote asks for a new one (in the background), and past which its fiat is
  // not quoted at all (src/providers/market-rates.ts).
  MARKET_RATES_REFRESH_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
  MARKET_RATES_MAX_AGE_MS: z.coerce.number().int().min(10).max(86_400_000).default(300_000),
  // How long after a KYC attempt is sent, or last checked, the partner is asked about it: a lost callback delays a
  // decision by at most this (plus a pass of RAMP_PROCESSOR_INTERVAL_MS).
  KYC_CHECK_INTERVAL_MS: z.coerce.number().int().min(5).max(86_400_000).default(60_000),
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
  // Partners. A partner whose settings are absent is not configured: its callbacks are answered 404, and outside
  // production the embedded simulator stands in for it (PARTNER_SIMULATOR).
  AVENIA_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  AVENIA_API_KEY: z.string().min(1).optional(),
  // Environment files cannot hold newlines: `\n` stands for one, as in the simulator's own settings.
  AVENIA_PRIVATE_KEY: z
    .string()
    .transform((pem) => pem.replace(/\\n/g, "\n"))
    .refine(isPrivateKey, "must be a PEM private key (RSA), `\\n` for each newline")
    .optional(),
  ALFREDPAY_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  ALFREDPAY_API_KEY: z.string().min(1).optional(),
  ALFREDPAY_API_SECRET: z.string().min(1).optional(),
  ALFREDPAY_CALLBACK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, "must be whsec_ and the base64 of at least 24 random bytes")
    .optional(),
  CORRIDOR_PARTNERS: z
    .string()
    .default("")
    .transform((list, context) => {
      const parsed = corridorPartners(list);
      if (typeof parsed === "string") context.addIssue({ code: "custom", message: parsed });
      return typeof parsed === "string" ? z.NEVER : parsed;
    }),
  PARTNER_SIMULATOR: z.enum(["embedded", "off"]).optional(),
  // The embedded simulator's timings, handed to it as they are (packages/partner-simulator/README.md).
  PARTNER_SIM_PAYMENT_DELAY_MS: simulatorTiming,
  PARTNER_SIM_DEPOSIT_DELAY_MS: simulatorTiming,
  PARTNER_SIM_STAGE_DELAY_MS: simulatorTiming,
  PARTNER_SIM_KYC_DECISION_MS: simulatorTiming,
  PARTNER_SIM_CALLBACK_RETRY_BASE_MS: simulatorTiming,
  PARTNER_SIM_QUOTE_TTL_MS: simulatorTiming,
  PARTNER_SIM_ORDER_LIFETIME_MS: simulatorTiming,
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
  if (e.MARKET_RATES_MAX_AGE_MS < e.MARKET_RATES_REFRESH_MS)
    refusals.push("MARKET_RATES_MAX_AGE_MS must be at least MARKET_RATES_REFRESH_MS: rates would lapse before renewal");
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
    if (e.ALFREDPAY_BASE_URL?.startsWith("http:"))
      problems.push("ALFREDPAY_BASE_URL must be https://: the API key and secret are sent to it");
    if (problems.length) refusals.push(`Refusing to start in production:\n  ${problems.join("\n  ")}`);
  }
  const dataDir = resolve(e.DATA_DIR);
  const partners = {
    /** Which partner serves each corridor; null: none (EU's ramps then run on the sandbox, unless closed). */
    corridors: e.CORRIDOR_PARTNERS.corridors,
    /** The corridors `none` closes: nothing is quoted, registered or onboarded in them. */
    closedCorridors: e.CORRIDOR_PARTNERS.closed,
    /** Avenia's API; `GET /v2/public-key` there serves the key its callbacks are signed with. */
    avenia: { baseUrl: e.AVENIA_BASE_URL, apiKey: e.AVENIA_API_KEY, privateKeyPem: e.AVENIA_PRIVATE_KEY },
    /** Alfredpay's API, and the Standard Webhooks secret it signs its callbacks with (spec decision 7). */
    alfredpay: {
      baseUrl: e.ALFREDPAY_BASE_URL,
      apiKey: e.ALFREDPAY_API_KEY,
      apiSecret: e.ALFREDPAY_API_SECRET,
      callbackSecret: e.ALFREDPAY_CALLBACK_SECRET,
    },
    simulator: {
      /** `embedded`: a partner without a base URL is simulated by a child process (src/providers/embedded-simulator.ts). */
      mode: e.PARTNER_SIMULATOR ?? (production ? "off" : "embedded"),
      /** Its generated credentials and last URL, kept across restarts. */
      stateFile: join(dataDir, "partner-simulator.json"),
      /** What the simulated partners hold (customers, documents, orders), kept across restarts by the simulator. */
      partnersFile: join(dataDir, "partner-simulator-partners.json"),
      /** Its PARTNER_SIM_* timings that are set, passed on as they are. */
      timings: Object.fromEntries(
        SIMULATOR_TIMINGS.flatMap((name) => (e[name] === undefined ? [] : [[name, e[name]]])),
      ),
    },
  };
  // Whatever NODE_ENV says (CONTRACT.md): a live key's ramps and KYC go to partners, never to a simulator or the
  // sandbox.
  if (e.RAMP_ENVIRONMENT === "live") {
    const unready = partnersNotReadyForLive(partners);
    const onTheSandbox = corridorsOnTheSandbox(partners.corridors, partners.closedCorridors);
    const sections = [
      ...(unready.length ? [`these corridors' partners are not set up:\n    ${unready.join("\n    ")}`] : []),
      ...(onTheSandbox.length
        ? [
            `ramps in these corridors would run on the in-process sandbox (close them with CORRIDOR_PARTNERS, e.g. ` +
              `${onTheSandbox.map((corridor) => `${corridor}=none`).join(",")}):\n    ` +
              onTheSandbox
                .map((corridor) => `${corridor}: no partner for ${CORRIDOR_FIAT[corridor]} is integrated`)
                .join("\n    "),
          ]
        : []),
    ];
    if (sections.length) refusals.push(`Refusing to start with RAMP_ENVIRONMENT=live:\n  ${sections.join("\n  ")}`);
  }
  if (refusals.length) throw new ConfigError(refusals.join("\n"));
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

const SIMULATOR_TIMINGS = [
  "PARTNER_SIM_PAYMENT_DELAY_MS",
  "PARTNER_SIM_DEPOSIT_DELAY_MS",
  "PARTNER_SIM_STAGE_DELAY_MS",
  "PARTNER_SIM_KYC_DECISION_MS",
  "PARTNER_SIM_CALLBACK_RETRY_BASE_MS",
  "PARTNER_SIM_QUOTE_TTL_MS",
  "PARTNER_SIM_ORDER_LIFETIME_MS",
] as const;

/** The settings each partner needs to serve a corridor, by the name the environment gives them. */
const REQUIRED_PARTNER_SETTINGS = {
  Avenia: { baseUrl: "AVENIA_BASE_URL", apiKey: "AVENIA_API_KEY", privateKeyPem: "AVENIA_PRIVATE_KEY" },
  Alfredpay: {
    baseUrl: "ALFREDPAY_BASE_URL",
    apiKey: "ALFREDPAY_API_KEY",
    apiSecret: "ALFREDPAY_API_SECRET",
    callbackSecret: "ALFREDPAY_CALLBACK_SECRET",
  },
} as const;

type PartnerSettings = Config["partners"];

/** `avenia` / `alfredpay`: where a partner's settings are in the configuration. */
export function settingsKey(partner: Partner) {
  return partner === "Avenia" ? "avenia" : "alfredpay";
}

/**
 * `BR=avenia,MX=alfredpay,EU=none` over the default map, or a message naming what is wrong. A corridor goes only
 * to a partner that serves its country; `none` closes it.
 */
function corridorPartners(
  list: string,
): { corridors: Record<Corridor, Partner | null>; closed: readonly Corridor[] } | string {
  const corridors = { ...DEFAULT_CORRIDOR_PARTNERS };
  const closed: Corridor[] = [];
  const seen = new Set<string>();
  for (const entry of splitList(list)) {
    const [given = "", name = "", ...extra] = entry.split("=").map((part) => part.trim());
    const corridor = given.toUpperCase();
    if (!CORRIDORS.includes(corridor as Corridor) || !name || extra.length)
      return `"${entry}" is not CORRIDOR=partner with a corridor of ${CORRIDORS.join(", ")}`;
    if (seen.has(corridor)) return `${corridor} is given twice`;
    seen.add(corridor);
    if (name.toLowerCase() === "none") {
      corridors[corridor as Corridor] = null;
      closed.push(corridor as Corridor);
      continue;
    }
    const partner = PARTNERS.find((known) => known.toLowerCase() === name.toLowerCase());
    if (!partner) return `${corridor}=${name}: the partner must be avenia, alfredpay or none`;
    if (!partnerCorridors(partner).includes(corridor as Corridor))
      return `${corridor}=${name}: ${partner} does not serve ${corridor} (it serves ${partnerCorridors(partner).join(", ")})`;
    corridors[corridor as Corridor] = partner;
  }
  return { corridors, closed };
}

/**
 * One line per partner that serves a corridor but would not reach the real partner: it would be simulated, its base
 * URL is the embedded simulator's, or settings are missing (named).
 */
function partnersNotReadyForLive(partners: PartnerSettings): string[] {
  const simulatorUrl = lastEmbeddedSimulatorUrl(partners.simulator.stateFile);
  return PARTNERS.flatMap((partner) => {
    const corridors = CORRIDORS.filter((corridor) => partners.corridors[corridor] === partner);
    if (!corridors.length) return [];
    const settings: Record<string, string | undefined> = partners[settingsKey(partner)];
    const required = Object.entries(REQUIRED_PARTNER_SETTINGS[partner]);
    const missing = required.flatMap(([field, name]) => (settings[field] === undefined ? [name] : []));
    const served = `${corridors.join(", ")} (${partner})`;
    const baseUrl = settings.baseUrl;
    if (baseUrl === undefined && partners.simulator.mode === "embedded")
      return [`${served}: the embedded partner simulator would serve it; set ${missing.join(", ")}`];
    if (baseUrl !== undefined && simulatorUrl !== undefined && sameUrl(baseUrl, simulatorUrl))
      return [`${served}: ${REQUIRED_PARTNER_SETTINGS[partner].baseUrl} is the embedded partner simulator's URL`];
    return missing.length ? [`${served}: set ${missing.join(", ")}`] : [];
  });
}

/** The URL the embedded simulator last listened at under this DATA_DIR, if it ever ran there. */
function lastEmbeddedSimulatorUrl(stateFile: string): string | undefined {
  try {
    const { url } = JSON.parse(readFileSync(stateFile, "utf8")) as { url?: unknown };
    return typeof url === "string" ? url : undefined;
  } catch {
    return undefined;
  }
}

function sameUrl(a: string, b: string): boolean {
  return new URL(a).href === new URL(b).href;
}

function isPrivateKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === "rsa";
  } catch {
    return false;
  }
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
