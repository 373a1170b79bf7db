import { createPrivateKey } from "node:crypto";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { CORRIDORS, type Corridor } from "./reference-data/corridors.js";
import { DEFAULT_CORRIDOR_PARTNERS, PARTNERS, partnerCorridors, type Partner } from "./providers/partners.js";

/** `host:port`, an IPv6 host in brackets (`[::1]:9464`). */
const LISTEN_ADDRESS = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s[\]:]+)):(\d{1,5})$/;

/** One of the embedded partner simulator's timings, in ms. */
const simulatorTiming = z.string().regex(/^\d+$/, "must be a whole number of milliseconds").optional();

/** Every environment variable of the service, parsed once. docs/configuration.md's table mirrors this list. */
export const envSchema = z.object({
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
  // Unset: where the server listens (src/config.ts), which production refuses (src/config-refusals.ts).
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
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

/** The environment as the schema parsed it. */
export type Env = z.output<typeof envSchema>;

/** The embedded simulator's timings above, by name. */
export const SIMULATOR_TIMINGS = [
  "PARTNER_SIM_PAYMENT_DELAY_MS",
  "PARTNER_SIM_DEPOSIT_DELAY_MS",
  "PARTNER_SIM_STAGE_DELAY_MS",
  "PARTNER_SIM_KYC_DECISION_MS",
  "PARTNER_SIM_CALLBACK_RETRY_BASE_MS",
  "PARTNER_SIM_QUOTE_TTL_MS",
  "PARTNER_SIM_ORDER_LIFETIME_MS",
] as const;

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

function isPrivateKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === "rsa";
  } catch {
    return false;
  }
}

export function listenAddress(value: string): { host: string; port: number } {
  const [, ipv6, host, port] = LISTEN_ADDRESS.exec(value)!;
  return { host: (ipv6 ?? host)!, port: Number(port) };
}

export function splitList(value: string): string[] {
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
