import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, listeningOn, loadConfig } from "../../src/config.js";

/** Configuration (CONTRACT.md, Configuration names): defaults, engine choice, errors naming the variable, production checks. */

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ramp-gateway-config-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Not a real secret: 40 characters for configurations that need one. */
const JWT_SECRET = "unit-test-jwt-secret-0123456789abcdefghij";
const SMTP_URL = "smtp://127.0.0.1:2525";
const OPERATOR_TOKEN = "unit-test-operator-token-0123456789abcdef";
const SIGNING_KEY_ENCRYPTION_KEY = "unit-test-signing-key-encryption-0123456789";
const PUBLIC_BASE_URL = "https://gateway.example";

function configError(env: Record<string, string>): ConfigError {
  let thrown: unknown;
  try {
    loadConfig(env);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `loadConfig accepted ${JSON.stringify(env)}`).toBeInstanceOf(ConfigError);
  return thrown as ConfigError;
}

describe("loadConfig defaults", () => {
  it("embedded: SQLite file under DATA_DIR, port 8080 on loopback, the test (sandbox) environment", () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.database).toEqual({ engine: "sqlite", file: join(resolve(dir), "ramp-gateway.db") });
    expect(config.dataDir).toBe(resolve(dir));
    expect(config).toMatchObject({
      production: false,
      port: 8080,
      host: "127.0.0.1",
      rampEnvironment: "test",
      logLevel: "info",
      corsOrigins: [],
      trustProxy: false,
      graphql: { introspection: true },
    });
    expect(config.mail.smtpUrl).toBeUndefined();
    expect(config.mail.outboxDir.startsWith(resolve(dir))).toBe(true);
  });

  it("DATA_DIR defaults to ./data", () => {
    // A JWT secret is given so nothing is written into the working tree.
    const config = loadConfig({ JWT_SECRET });
    expect(config.dataDir).toBe(resolve("data"));
    expect(config.database).toEqual({ engine: "sqlite", file: join(resolve("data"), "ramp-gateway.db") });
  });

  it("reads the documented names into their settings", () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      JWT_SECRET,
      PORT: "9090",
      HOST: "0.0.0.0",
      LOG_LEVEL: "warn",
      SMTP_URL,
      CORS_ORIGINS: " https://app.example.com , http://localhost:3000,,",
      TRUST_PROXY: "true",
      BODY_LIMIT_BYTES: "2048",
      RATE_LIMIT_PER_IP_PER_MINUTE: "5",
      RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "3",
      RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "2",
      RATE_LIMIT_PARTNER_CALLBACKS_PER_IP_PER_MINUTE: "7",
      OTP_RESEND_COOLDOWN_SECONDS: "0",
      GRAPHQL_MAX_DEPTH: "3",
      GRAPHQL_MAX_ALIASES: "2",
      GRAPHQL_MAX_COST: "100",
    });
    expect(config).toMatchObject({
      port: 9090,
      host: "0.0.0.0",
      logLevel: "warn",
      mail: { smtpUrl: SMTP_URL },
      corsOrigins: ["https://app.example.com", "http://localhost:3000"],
      trustProxy: true,
      bodyLimitBytes: 2048,
      rateLimits: {
        perIpPerMinute: 5,
        perCredentialPerMinute: 3,
        otpPerIpPerMinute: 2,
        partnerCallbacksPerIpPerMinute: 7,
      },
      otpResendCooldownMs: 0,
      graphql: { maxDepth: 3, maxAliases: 2, maxCost: 100 },
      jwt: { secret: JWT_SECRET },
    });
  });
});

describe("PUBLIC_BASE_URL", () => {
  it("defaults to where the server listens: its host and PORT, a wildcard host as localhost", () => {
    const at = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir(), ...env }).publicBaseUrl;
    expect(at({})).toBe("http://127.0.0.1:8080");
    expect(at({ PORT: "9090" })).toBe("http://127.0.0.1:9090");
    expect(at({ HOST: "0.0.0.0", PORT: "9090" })).toBe("http://localhost:9090");
    expect(at({ HOST: "::", PORT: "9090" })).toBe("http://localhost:9090");
    expect(at({ HOST: "::1", PORT: "9090" })).toBe("http://[::1]:9090");
    expect(at({ HOST: "gateway.internal", PORT: "9090" })).toBe("http://gateway.internal:9090");
  });

  it("is taken as given, whatever the port", () => {
    const config = loadConfig({ DATA_DIR: dataDir(), PORT: "9090", PUBLIC_BASE_URL });
    expect(config.publicBaseUrl).toBe(PUBLIC_BASE_URL);
    expect(listeningOn(config, 9090).publicBaseUrl).toBe(PUBLIC_BASE_URL);
  });

  it("follows the port the system chose for PORT=0, unless given", () => {
    const chosen = listeningOn(loadConfig({ DATA_DIR: dataDir(), PORT: "0" }), 41234);
    expect(chosen).toMatchObject({ port: 41234, publicBaseUrl: "http://127.0.0.1:41234" });
    const given = listeningOn(loadConfig({ DATA_DIR: dataDir(), PORT: "0", PUBLIC_BASE_URL }), 41234);
    expect(given).toMatchObject({ port: 41234, publicBaseUrl: PUBLIC_BASE_URL });
  });
});

describe("METRICS_LISTEN", () => {
  it.each([
    ["127.0.0.1:9464", { host: "127.0.0.1", port: 9464 }],
    ["[::1]:9464", { host: "::1", port: 9464 }],
    ["metrics.internal:9100", { host: "metrics.internal", port: 9100 }],
  ])("%s is the address /metrics is also served on", (value, address) => {
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET, METRICS_LISTEN: value }).metricsListen).toEqual(address);
  });

  it("is off by default", () => {
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET }).metricsListen).toBeUndefined();
  });
});

describe("retention", () => {
  const DAY_MS = 86_400_000;

  it("runs hourly by default, keeping each kind for its documented age", () => {
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET }).retention).toEqual({
      intervalMs: 3_600_000,
      deliveryMs: 30 * DAY_MS,
      idempotencyMs: DAY_MS,
      authMs: 7 * DAY_MS,
      invitationMs: 30 * DAY_MS,
      quoteMs: 7 * DAY_MS,
      partnerCallbackMs: 3_600_000,
    });
  });

  it("reads each setting, and 0 turns the schedule off", () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      JWT_SECRET,
      RETENTION_INTERVAL_MS: "0",
      RETENTION_DELIVERY_DAYS: "90",
      RETENTION_IDEMPOTENCY_HOURS: "48",
      RETENTION_AUTH_DAYS: "1",
      RETENTION_INVITATION_DAYS: "60",
      RETENTION_QUOTE_DAYS: "2",
    });
    expect(config.retention).toEqual({
      intervalMs: 0,
      deliveryMs: 90 * DAY_MS,
      idempotencyMs: 2 * DAY_MS,
      authMs: DAY_MS,
      invitationMs: 60 * DAY_MS,
      quoteMs: 2 * DAY_MS,
      partnerCallbackMs: 3_600_000,
    });
  });
});

describe("DATABASE_URL", () => {
  it.each(["postgresql://ramp:pw@db.internal:5432/ramp", "postgres://ramp@localhost/ramp"])(
    "%s switches the engine to PostgreSQL",
    (url) => {
      const config = loadConfig({ DATA_DIR: dataDir(), JWT_SECRET, DATABASE_URL: url });
      expect(config.database).toEqual({ engine: "postgresql", url });
    },
  );

  it.each(["mysql://ramp@localhost/ramp", "sqlite:///tmp/ramp.db", "/var/lib/ramp.db"])(
    "%s is refused, naming DATABASE_URL",
    (url) => {
      expect(configError({ DATA_DIR: dataDir(), JWT_SECRET, DATABASE_URL: url }).message).toContain("DATABASE_URL");
    },
  );
});

describe("invalid values", () => {
  const cases: [string, string][] = [
    ["PORT", "http"],
    ["PORT", "70000"],
    ["PORT", "-1"],
    ["PORT", "80.5"],
    ["RAMP_ENVIRONMENT", "prod"],
    ["LOG_LEVEL", "loud"],
    ["SMTP_URL", "http://mail.example.com"],
    ["JWT_SECRET", "too-short"],
    ["ACCESS_TOKEN_TTL_SECONDS", "10"],
    ["REFRESH_TOKEN_TTL_DAYS", "0"],
    ["OTP_RESEND_COOLDOWN_SECONDS", "-5"],
    ["TRUST_PROXY", "yes"],
    ["BODY_LIMIT_BYTES", "12"],
    ["RATE_LIMIT_PER_IP_PER_MINUTE", "0"],
    ["RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE", "lots"],
    ["RATE_LIMIT_OTP_PER_IP_PER_MINUTE", "0"],
    ["RATE_LIMIT_PARTNER_CALLBACKS_PER_IP_PER_MINUTE", "0"],
    ["GRAPHQL_MAX_DEPTH", "0"],
    ["GRAPHQL_MAX_ALIASES", "-1"],
    ["GRAPHQL_MAX_COST", "cheap"],
    ["METRICS_LISTEN", "9464"],
    ["METRICS_LISTEN", "::1:9464"],
    ["METRICS_LISTEN", "127.0.0.1:70000"],
    ["RETENTION_INTERVAL_MS", "500"],
    ["RETENTION_INTERVAL_MS", "86400001"],
    ["RETENTION_DELIVERY_DAYS", "0"],
    ["RETENTION_IDEMPOTENCY_HOURS", "0"],
    ["RETENTION_AUTH_DAYS", "1.5"],
    ["RETENTION_INVITATION_DAYS", "-1"],
    ["RETENTION_QUOTE_DAYS", "never"],
  ];

  it.each(cases)("%s=%s raises a ConfigError naming the variable", (name, value) => {
    const env = { DATA_DIR: dataDir(), JWT_SECRET, [name]: value };
    const error = configError(env);
    expect(error.message).toContain(name);
    // Only the bad variable is blamed.
    for (const other of ["DATA_DIR", "HOST", "CORS_ORIGINS"]) expect(error.message).not.toContain(other);
  });

  it("names every bad variable at once", () => {
    const message = configError({
      DATA_DIR: dataDir(),
      JWT_SECRET,
      PORT: "nope",
      LOG_LEVEL: "loud",
      TRUST_PROXY: "maybe",
    }).message;
    for (const name of ["PORT", "LOG_LEVEL", "TRUST_PROXY"]) expect(message).toContain(name);
  });

  it("does not echo a rejected secret", () => {
    const short = "hunter2-short-secret";
    const message = configError({ DATA_DIR: dataDir(), JWT_SECRET: short }).message;
    expect(message).toContain("JWT_SECRET");
    expect(message).not.toContain(short);
  });
});

/** An RSA key as the environment holds it: one line, `\n` for each newline. */
const AVENIA_PRIVATE_KEY_PEM = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs8", format: "pem" })
  .toString();
const ALFREDPAY_CALLBACK_SECRET = `whsec_${Buffer.alloc(24, 7).toString("base64")}`;
const REAL_AVENIA = {
  AVENIA_BASE_URL: "https://api.avenia.io:8443",
  AVENIA_API_KEY: "avenia-live-key",
  AVENIA_PRIVATE_KEY: AVENIA_PRIVATE_KEY_PEM.replace(/\n/g, "\\n"),
};
const REAL_ALFREDPAY = {
  ALFREDPAY_BASE_URL: "https://penny-api.alfredpay.io",
  ALFREDPAY_API_KEY: "alfredpay-live-key",
  ALFREDPAY_API_SECRET: "alfredpay-live-secret",
  ALFREDPAY_CALLBACK_SECRET,
};

describe("partner settings", () => {
  it("are optional: a partner without them is not configured, and outside production the simulator stands in", () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.partners).toEqual({
      corridors: { AR: "Alfredpay", BR: "Avenia", CO: "Alfredpay", EU: null, MX: "Alfredpay", US: "Alfredpay" },
      closedCorridors: [],
      avenia: { baseUrl: undefined, apiKey: undefined, privateKeyPem: undefined },
      alfredpay: { baseUrl: undefined, apiKey: undefined, apiSecret: undefined, callbackSecret: undefined },
      simulator: {
        mode: "embedded",
        stateFile: join(resolve(dir), "partner-simulator.json"),
        partnersFile: join(resolve(dir), "partner-simulator-partners.json"),
        timings: {},
      },
    });
  });

  it("take every partner's settings, a private key written on one line with `\\n`", () => {
    const config = loadConfig({ DATA_DIR: dataDir(), ...REAL_AVENIA, ...REAL_ALFREDPAY });
    expect(config.partners.avenia).toEqual({
      baseUrl: REAL_AVENIA.AVENIA_BASE_URL,
      apiKey: REAL_AVENIA.AVENIA_API_KEY,
      privateKeyPem: AVENIA_PRIVATE_KEY_PEM,
    });
    expect(config.partners.alfredpay).toEqual({
      baseUrl: REAL_ALFREDPAY.ALFREDPAY_BASE_URL,
      apiKey: REAL_ALFREDPAY.ALFREDPAY_API_KEY,
      apiSecret: REAL_ALFREDPAY.ALFREDPAY_API_SECRET,
      callbackSecret: ALFREDPAY_CALLBACK_SECRET,
    });
    expect(
      loadConfig({ DATA_DIR: dataDir(), AVENIA_PRIVATE_KEY: AVENIA_PRIVATE_KEY_PEM }).partners.avenia.privateKeyPem,
    ).toBe(AVENIA_PRIVATE_KEY_PEM);
  });

  it("refuse an Avenia private key that is not an RSA PEM, without echoing it", () => {
    const notAKey = "-----BEGIN PRIVATE KEY-----\\nhunter2\\n-----END PRIVATE KEY-----";
    const message = configError({ DATA_DIR: dataDir(), AVENIA_PRIVATE_KEY: notAKey }).message;
    expect(message).toContain("AVENIA_PRIVATE_KEY: must be a PEM private key");
    expect(message).not.toContain("hunter2");
  });

  it("PARTNER_SIMULATOR: embedded outside production, off in production, either when given", () => {
    const production = {
      NODE_ENV: "production",
      DATA_DIR: dataDir(),
      SMTP_URL,
      JWT_SECRET,
      OPERATOR_TOKEN,
      SIGNING_KEY_ENCRYPTION_KEY,
      PUBLIC_BASE_URL,
    };
    expect(loadConfig(production).partners.simulator.mode).toBe("off");
    expect(loadConfig({ ...production, PARTNER_SIMULATOR: "embedded" }).partners.simulator.mode).toBe("embedded");
    expect(loadConfig({ DATA_DIR: dataDir(), PARTNER_SIMULATOR: "off" }).partners.simulator.mode).toBe("off");
    expect(configError({ DATA_DIR: dataDir(), PARTNER_SIMULATOR: "external" }).message).toContain("PARTNER_SIMULATOR");
  });

  it("passes the simulator's PARTNER_SIM_* timings on as given, and refuses one that is not whole milliseconds", () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      PARTNER_SIM_STAGE_DELAY_MS: "20",
      PARTNER_SIM_QUOTE_TTL_MS: "1000",
    });
    expect(config.partners.simulator.timings).toEqual({
      PARTNER_SIM_STAGE_DELAY_MS: "20",
      PARTNER_SIM_QUOTE_TTL_MS: "1000",
    });
    expect(configError({ DATA_DIR: dataDir(), PARTNER_SIM_PAYMENT_DELAY_MS: "1s" }).message).toContain(
      "PARTNER_SIM_PAYMENT_DELAY_MS: must be a whole number of milliseconds",
    );
  });

  it("CORRIDOR_PARTNERS overrides the default map, `none` closing a corridor", () => {
    const config = loadConfig({ DATA_DIR: dataDir(), CORRIDOR_PARTNERS: " BR=none, mx=alfredpay ,AR=Alfredpay" });
    expect(config.partners.corridors).toEqual({
      AR: "Alfredpay",
      BR: null,
      CO: "Alfredpay",
      EU: null,
      MX: "Alfredpay",
      US: "Alfredpay",
    });
  });

  it.each([
    ["MX=avenia", "MX=avenia: Avenia does not serve MX (it serves BR)"],
    ["EU=alfredpay", "EU=alfredpay: Alfredpay does not serve EU (it serves AR, CO, MX, US)"],
    ["BR=monerium", "BR=monerium: the partner must be avenia, alfredpay or none"],
    ["XX=avenia", '"XX=avenia" is not CORRIDOR=partner'],
    ["BR", '"BR" is not CORRIDOR=partner'],
    ["BR=avenia,BR=none", "BR is given twice"],
  ])("CORRIDOR_PARTNERS=%s is refused: %s", (value, reason) => {
    expect(configError({ DATA_DIR: dataDir(), CORRIDOR_PARTNERS: value }).message).toContain(
      `CORRIDOR_PARTNERS: ${reason}`,
    );
  });

  it("take an Alfredpay callback secret only as whsec_ and the base64 of 24 bytes or more, never echoing it", () => {
    const secret = ALFREDPAY_CALLBACK_SECRET;
    expect(
      loadConfig({ DATA_DIR: dataDir(), ALFREDPAY_CALLBACK_SECRET: secret }).partners.alfredpay.callbackSecret,
    ).toBe(secret);
    for (const refused of [Buffer.alloc(24, 7).toString("base64"), `whsec_${Buffer.alloc(16, 7).toString("base64")}`]) {
      const message = configError({ DATA_DIR: dataDir(), ALFREDPAY_CALLBACK_SECRET: refused }).message;
      expect(message).toContain("ALFREDPAY_CALLBACK_SECRET: must be whsec_");
      expect(message).not.toContain(refused);
    }
  });

  it("take an Avenia base URL only as an http(s) URL", () => {
    const message = configError({ DATA_DIR: dataDir(), AVENIA_BASE_URL: "ftp://avenia.example" }).message;
    expect(message).toContain("AVENIA_BASE_URL");
  });
});

describe("production checks", () => {
  const production = (env: Record<string, string>) => ({
    NODE_ENV: "production",
    DATA_DIR: dataDir(),
    OPERATOR_TOKEN,
    SIGNING_KEY_ENCRYPTION_KEY,
    PUBLIC_BASE_URL,
    ...env,
  });

  it("refuses to start without SMTP_URL, saying why", () => {
    const message = configError(production({ JWT_SECRET })).message;
    expect(message).toMatch(/production/i);
    expect(message).toContain("SMTP_URL");
    expect(message).not.toContain("JWT_SECRET");
    expect(message).not.toContain("secrets generate");
  });

  it("refuses to start without JWT_SECRET, and generates none", () => {
    const env = production({ SMTP_URL });
    const message = configError(env).message;
    expect(message).toMatch(/production/i);
    expect(message).toContain("JWT_SECRET");
    expect(message).toMatch(/32/);
    expect(message).toContain("npm run -s admin -- secrets generate");
    expect(existsSync(join(env.DATA_DIR, "secrets.json"))).toBe(false);
  });

  it("refuses a JWT_SECRET shorter than 32 characters", () => {
    const message = configError(production({ SMTP_URL, JWT_SECRET: "x".repeat(31) })).message;
    expect(message).toContain("JWT_SECRET");
    expect(message).toMatch(/32/);
  });

  it("names every problem when several settings are missing", () => {
    const message = configError(production({ OPERATOR_TOKEN: undefined as unknown as string })).message;
    expect(message).toContain("SMTP_URL");
    expect(message).toContain("JWT_SECRET");
    expect(message).toContain("OPERATOR_TOKEN");
  });

  it("refuses a missing or short OPERATOR_TOKEN", () => {
    const missing = configError(
      production({ SMTP_URL, JWT_SECRET, OPERATOR_TOKEN: undefined as unknown as string }),
    ).message;
    expect(missing).toContain("OPERATOR_TOKEN");
    const short = configError(production({ SMTP_URL, JWT_SECRET, OPERATOR_TOKEN: "x".repeat(31) })).message;
    expect(short).toContain("OPERATOR_TOKEN");
    expect(short).toMatch(/32/);
  });

  it("refuses to start without SIGNING_KEY_ENCRYPTION_KEY or SIGNING_PRIVATE_KEY, or with a short key", () => {
    const missing = configError(
      production({ SMTP_URL, JWT_SECRET, SIGNING_KEY_ENCRYPTION_KEY: undefined as unknown as string }),
    ).message;
    expect(missing).toContain("SIGNING_KEY_ENCRYPTION_KEY");
    const short = configError(production({ SMTP_URL, JWT_SECRET, SIGNING_KEY_ENCRYPTION_KEY: "x".repeat(31) })).message;
    expect(short).toContain("SIGNING_KEY_ENCRYPTION_KEY");
    expect(short).toMatch(/32/);
    const pem = "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n";
    expect(
      loadConfig(
        production({
          SMTP_URL,
          JWT_SECRET,
          SIGNING_KEY_ENCRYPTION_KEY: undefined as unknown as string,
          SIGNING_PRIVATE_KEY: pem,
        }),
      ).webhooks.signingPrivateKey,
    ).toBe(pem);
  });

  it("refuses WEBHOOK_ALLOW_PRIVATE_NETWORKS entries that are not CIDR ranges", () => {
    const message = configError({ DATA_DIR: dataDir(), WEBHOOK_ALLOW_PRIVATE_NETWORKS: "10.0.0.0/8,intranet" }).message;
    expect(message).toContain("WEBHOOK_ALLOW_PRIVATE_NETWORKS");
    expect(
      loadConfig({ DATA_DIR: dataDir(), WEBHOOK_ALLOW_PRIVATE_NETWORKS: " 10.0.0.0/8, fd00::/8 " }).webhooks
        .allowPrivateNetworks,
    ).toEqual(["10.0.0.0/8", "fd00::/8"]);
  });

  it("refuses an AVENIA_BASE_URL that is not https: the key Avenia's callbacks verify with comes from it", () => {
    const message = configError(production({ SMTP_URL, JWT_SECRET, AVENIA_BASE_URL: "http://avenia.example" })).message;
    expect(message).toMatch(/^Refusing to start in production:\n {2}AVENIA_BASE_URL must be https/);
    const config = loadConfig(production({ SMTP_URL, JWT_SECRET, AVENIA_BASE_URL: "https://api.avenia.io:8443" }));
    expect(config.partners.avenia.baseUrl).toBe("https://api.avenia.io:8443");
  });

  it("refuses an ALFREDPAY_BASE_URL that is not https: its credentials are sent there", () => {
    const message = configError(
      production({ SMTP_URL, JWT_SECRET, ALFREDPAY_BASE_URL: "http://alfredpay.example" }),
    ).message;
    expect(message).toMatch(/^Refusing to start in production:\n {2}ALFREDPAY_BASE_URL must be https/);
  });

  it("refuses to start without PUBLIC_BASE_URL: the listen address is not where callers reach the service", () => {
    const message = configError(
      production({ SMTP_URL, JWT_SECRET, PUBLIC_BASE_URL: undefined as unknown as string }),
    ).message;
    expect(message).toMatch(/^Refusing to start in production:\n {2}PUBLIC_BASE_URL must be set: upload URLs/);
    expect(loadConfig(production({ SMTP_URL, JWT_SECRET })).publicBaseUrl).toBe(PUBLIC_BASE_URL);
  });

  it("starts with both set: production mode, introspection off, the given secret", () => {
    const env = production({ SMTP_URL, JWT_SECRET: "y".repeat(32) });
    const config = loadConfig(env);
    expect(config.production).toBe(true);
    expect(config.graphql.introspection).toBe(false);
    expect(config.jwt.secret).toBe("y".repeat(32));
    expect(existsSync(join(env.DATA_DIR, "secrets.json"))).toBe(false);
  });
});

describe("RAMP_ENVIRONMENT=live", () => {
  // src/providers/partners.ts: both partners are wired into ramps, so the sandbox would run EU's, which neither serves,
  // unless EU is closed.
  const SANDBOX_LINES = ["EU"].map((corridor) => new RegExp(`^    ${corridor}: `, "m"));
  const SANDBOX_SECTION =
    "\n  ramps in these corridors would run on the in-process sandbox (close them with CORRIDOR_PARTNERS, e.g. EU=none):\n";
  const productionReady = () => ({
    NODE_ENV: "production",
    DATA_DIR: dataDir(),
    SMTP_URL,
    JWT_SECRET,
    OPERATOR_TOKEN,
    SIGNING_KEY_ENCRYPTION_KEY,
    PUBLIC_BASE_URL,
  });

  it.each([
    ["in production, every production setting given", productionReady],
    ["outside production", () => ({ DATA_DIR: dataDir(), NODE_ENV: "development" })],
  ])(
    "refuses to start %s, naming each partner's missing settings and each corridor the sandbox would serve",
    (_, env) => {
      const message = configError({ ...env(), RAMP_ENVIRONMENT: "live" }).message;
      expect(message).toMatch(
        /^Refusing to start with RAMP_ENVIRONMENT=live:\n {2}these corridors' partners are not set up:\n/,
      );
      expect(message).toContain(SANDBOX_SECTION);
      for (const line of SANDBOX_LINES) expect(message).toMatch(line);
      expect(message).not.toMatch(/^ {4}BR: /m);
      expect(message).not.toContain(JWT_SECRET);
    },
  );

  it("names a partner the embedded simulator would serve, and every setting it lacks", () => {
    const message = configError({ DATA_DIR: dataDir(), RAMP_ENVIRONMENT: "live", AVENIA_API_KEY: "given" }).message;
    expect(message).toContain(
      "\n    BR (Avenia): the embedded partner simulator would serve it; set AVENIA_BASE_URL, AVENIA_PRIVATE_KEY\n",
    );
    expect(message).toContain(
      "\n    AR, CO, MX, US (Alfredpay): the embedded partner simulator would serve it; set ALFREDPAY_BASE_URL, " +
        "ALFREDPAY_API_KEY, ALFREDPAY_API_SECRET, ALFREDPAY_CALLBACK_SECRET\n",
    );
  });

  it("with the simulator off, names the missing settings of the corridors still served, and none of a closed one", () => {
    const message = configError({
      ...productionReady(),
      RAMP_ENVIRONMENT: "live",
      ...REAL_AVENIA,
      AVENIA_PRIVATE_KEY: undefined as unknown as string,
      ALFREDPAY_BASE_URL: REAL_ALFREDPAY.ALFREDPAY_BASE_URL,
      CORRIDOR_PARTNERS: "AR=none,CO=none",
    }).message;
    expect(message).toContain("\n    BR (Avenia): set AVENIA_PRIVATE_KEY\n");
    expect(message).toContain(
      "\n    MX, US (Alfredpay): set ALFREDPAY_API_KEY, ALFREDPAY_API_SECRET, ALFREDPAY_CALLBACK_SECRET\n",
    );
  });

  it("names a base URL that is where the embedded simulator listened under this DATA_DIR", () => {
    const env = { ...productionReady(), RAMP_ENVIRONMENT: "live", ...REAL_AVENIA, ...REAL_ALFREDPAY };
    writeFileSync(join(env.DATA_DIR, "partner-simulator.json"), JSON.stringify({ url: "http://127.0.0.1:41000" }));
    const message = configError({
      ...env,
      AVENIA_BASE_URL: "http://127.0.0.1:41000/",
      NODE_ENV: "development",
    }).message;
    expect(message).toContain("\n    BR (Avenia): AVENIA_BASE_URL is the embedded partner simulator's URL\n");
    expect(message).not.toContain("(Alfredpay)");
  });

  it("with every partner set up, refuses only for the sandbox that ramps still run on", () => {
    const message = configError({
      ...productionReady(),
      RAMP_ENVIRONMENT: "live",
      ...REAL_AVENIA,
      ...REAL_ALFREDPAY,
    }).message;
    expect(message).toMatch(/^Refusing to start with RAMP_ENVIRONMENT=live:\n {2}ramps in these corridors would run/);
    expect(message).not.toContain("partners are not set up");
  });

  it("starts with every partner set up and EU closed", () => {
    const config = loadConfig({
      ...productionReady(),
      RAMP_ENVIRONMENT: "live",
      ...REAL_AVENIA,
      ...REAL_ALFREDPAY,
      CORRIDOR_PARTNERS: "EU=none",
    });
    expect(config).toMatchObject({ rampEnvironment: "live" });
    expect(config.partners.closedCorridors).toEqual(["EU"]);
    expect(config.partners.corridors).toMatchObject({ BR: "Avenia", MX: "Alfredpay", EU: null });
  });

  it("names the production problems too, when there are some", () => {
    const { SMTP_URL: _unset, ...withoutSmtp } = productionReady();
    const message = configError({ ...withoutSmtp, RAMP_ENVIRONMENT: "live" }).message;
    expect(message).toMatch(/^Refusing to start in production:\n {2}SMTP_URL must be set/);
    expect(message).toContain("\nRefusing to start with RAMP_ENVIRONMENT=live");
    for (const line of SANDBOX_LINES) expect(message).toMatch(line);
  });

  it("test, the default, runs on the sandbox in production too (a sandbox deployment)", () => {
    expect(loadConfig(productionReady())).toMatchObject({ production: true, rampEnvironment: "test" });
    expect(loadConfig({ ...productionReady(), RAMP_ENVIRONMENT: "test" }).rampEnvironment).toBe("test");
  });
});

describe("generated secrets outside production", () => {
  it("an unset JWT secret is generated once, kept under DATA_DIR and reused on the next load", () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.jwt.secret.length).toBeGreaterThanOrEqual(32);
    const file = join(dir, "secrets.json");
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8")).toContain(first.jwt.secret);
    expect(statSync(file).mode & 0o077).toBe(0);

    const second = loadConfig({ DATA_DIR: dir, NODE_ENV: "development" });
    expect(second.jwt.secret).toBe(first.jwt.secret);

    const elsewhere = loadConfig({ DATA_DIR: dataDir() });
    expect(elsewhere.jwt.secret).not.toBe(first.jwt.secret);
  });

  it("creates a missing DATA_DIR for it", () => {
    const dir = join(dataDir(), "nested", "data");
    const config = loadConfig({ DATA_DIR: dir });
    expect(existsSync(join(dir, "secrets.json"))).toBe(true);
    expect(loadConfig({ DATA_DIR: dir }).jwt.secret).toBe(config.jwt.secret);
  });

  it("a corrupt secrets.json is named in a ConfigError, and left as it was", () => {
    for (const [content, reason] of [
      ['{"jwt": "abc"', /is corrupt \(.*JSON/],
      ["[1, 2]", /is corrupt \(not a JSON object\)/],
      ["null", /is corrupt \(not a JSON object\)/],
    ] as const) {
      const dir = dataDir();
      const file = join(dir, "secrets.json");
      writeFileSync(file, content);
      expect(() => loadConfig({ DATA_DIR: dir })).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: dir })).toThrow(`${file} is corrupt`);
      expect(() => loadConfig({ DATA_DIR: dir })).toThrow(reason);
      expect(readFileSync(file, "utf8")).toBe(content);
    }
  });

  it("configured secrets win and nothing is written", () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir, JWT_SECRET, OPERATOR_TOKEN, SIGNING_KEY_ENCRYPTION_KEY });
    expect(config.jwt.secret).toBe(JWT_SECRET);
    expect(config.operatorToken).toBe(OPERATOR_TOKEN);
    expect(existsSync(join(dir, "secrets.json"))).toBe(false);
  });
});
