import type { Logger } from "pino";
import { AdminService } from "./admin/service.js";
import { Authenticator } from "./auth/authenticate.js";
import { Delegation } from "./auth/delegation.js";
import { CredentialVerifier } from "./auth/credential-verifier.js";
import { SessionVerifier } from "./auth/session-verifier.js";
import { AccessTokens } from "./auth/tokens.js";
import type { Config } from "./config.js";
import { CredentialService } from "./credentials/service.js";
import { openDatabase, type Db } from "./db/client.js";
import { migrate } from "./db/migrate.js";
import { createInProcessBus, createPostgresBus, type EventBus } from "./events/bus.js";
import { IdentityService } from "./identity/service.js";
import { createMailer } from "./mail/mailer.js";
import { ManagedProfileService } from "./managed-profiles/service.js";
import { ProfileService } from "./profiles/service.js";

/** Everything the adapters (REST, GraphQL, WebSocket, CLI) call: framework-free services and their wiring. */
export interface App {
  config: Config;
  log: Logger;
  db: Db;
  bus: EventBus;
  authenticator: Authenticator;
  identity: IdentityService;
  credentials: CredentialService;
  profiles: ProfileService;
  delegation: Delegation;
  managedProfiles: ManagedProfileService;
  admin: AdminService;
  /** Database reachable (readiness). */
  ping(): Promise<void>;
  /** Flushes buffered writes and closes connections; idempotent. */
  close(): Promise<void>;
}

export async function createApp(config: Config, log: Logger): Promise<App> {
  const applied = await migrate(config.database);
  if (applied.length) log.info({ migrations: applied }, "database migrations applied");

  const db = openDatabase(config.database);
  const bus = config.database.engine === "postgresql" ? await createPostgresBus(config.database.url, log) : createInProcessBus(log);
  const mailer = createMailer(config.mail, log);
  const accessTokens = new AccessTokens(config.jwt);
  const verifier = new CredentialVerifier(db, bus, {
    environment: config.rampEnvironment,
    cacheTtlMs: config.authCacheTtlMs,
    flushIntervalMs: config.lastUsedFlushIntervalMs,
    log,
  });

  const credentials = new CredentialService(db, bus, config.rampEnvironment);
  let closing: Promise<void> | undefined;
  return {
    config,
    log,
    db,
    bus,
    authenticator: new Authenticator(verifier, new SessionVerifier(db, accessTokens, bus, config.authCacheTtlMs), config.operatorToken),
    identity: new IdentityService(
      db,
      mailer,
      accessTokens,
      bus,
      {
        otpResendCooldownMs: config.otpResendCooldownMs,
        refreshTokenTtlMs: config.refreshTokenTtlMs,
        otpHashSecret: config.jwt.secret,
      },
      log,
    ),
    credentials,
    profiles: new ProfileService(db),
    delegation: new Delegation(db, bus, config.authCacheTtlMs),
    managedProfiles: new ManagedProfileService(db, bus, credentials),
    admin: new AdminService(db, bus, credentials),
    async ping() {
      await db.$queryRawUnsafe("SELECT 1");
    },
    close() {
      closing ??= (async () => {
        await verifier.flushLastUses();
        mailer.close();
        await bus.close();
        await db.$disconnect();
      })();
      return closing;
    },
  };
}
