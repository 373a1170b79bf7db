import { randomBytes } from "node:crypto";
import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import { createApp, type App } from "../app.js";
import type { OperatorActor } from "../audit/types.js";
import { ConfigError, configuredDatabase, loadConfig, readSettingsFile } from "../config.js";
import type { DatabaseConfig } from "../db/client.js";
import { backUpSqlite, BackupRefused } from "../db/backup.js";
import { holdsGatewayTables } from "../db/migrate.js";
import { AppError } from "../errors.js";
import { createLogger } from "../log.js";
import { AveniaWebhookRefused, registerPublicAveniaWebhook } from "../providers/avenia/webhook-registration.js";
import { SigningKeyRotationRefused } from "../webhooks/signing.js";
import {
  createPartner,
  findProfilesByEmail,
  getManagerPolicy,
  getPricingAssignment,
  listAuditEvents,
  listManagers,
  listPartners,
  listPricingAssignments,
  setManagerPolicy,
  setPricingAssignment,
  updatePartner,
} from "../operations/admin.js";
import { createPartnerApiCredential } from "../operations/credentials.js";
import { perform } from "../operations/operation.js";

class UsageError extends Error {}

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean);

/** The OS account running the command; an account without a name (a container's bare uid) by its number. */
function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? "unknown"}`;
  }
}

const OPTIONS = {
  corridors: { type: "string" },
  "customer-types": { type: "string" },
  inactive: { type: "boolean", default: false },
  name: { type: "string" },
  "expires-at": { type: "string" },
  action: { type: "string" },
  "target-id": { type: "string" },
  limit: { type: "string" },
  offset: { type: "string" },
  "create-database": { type: "boolean", default: false },
} as const;

/** What a command is given: its words after the command's own, and the options. */
interface Invocation {
  app: App;
  operator: OperatorActor;
  values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];
  /** The positional argument at `index`, or a usage error naming it. */
  argument(index: number, name: string): string;
}

const PAGE_OPTIONS = "[--limit <1-100>] [--offset <n>]";
const pageOf = ({ values }: Invocation) => ({
  ...(values.limit !== undefined && { limit: values.limit }),
  ...(values.offset !== undefined && { offset: values.offset }),
});

/** Every command, by its words, with its arguments as help shows them and what it prints on success. */
const COMMANDS: Record<string, { usage: string; run(invocation: Invocation): Promise<unknown> }> = {
  // Once per deployment (and again when PUBLIC_BASE_URL changes); repeating it changes nothing.
  "avenia register-webhook": {
    usage: "",
    run: async ({ app }) => registerPublicAveniaWebhook(app.config.partners.avenia, app.config.publicBaseUrl, app.log),
  },
  "profile find": {
    usage: "<email>",
    run: async ({ app, operator, argument }) =>
      perform(findProfilesByEmail, app, operator, { email: argument(0, "<email>") }),
  },
  "manager put": {
    usage: "<profileId> --corridors BR,MX [--customer-types individual,business] [--inactive]",
    run: async ({ app, operator, argument, values }) => {
      const profileId = argument(0, "<profileId>");
      if (!values.corridors) throw new UsageError("missing --corridors");
      return perform(setManagerPolicy, app, operator, {
        profileId,
        allowedCorridors: list(values.corridors),
        allowedCustomerTypes: list(values["customer-types"]) ?? null,
        isActive: !values.inactive,
      });
    },
  },
  "manager get": {
    usage: "<profileId>",
    run: async ({ app, operator, argument }) => ({
      manager: await perform(getManagerPolicy, app, operator, { profileId: argument(0, "<profileId>") }),
    }),
  },
  "manager list": {
    usage: PAGE_OPTIONS,
    run: async (invocation) => perform(listManagers, invocation.app, invocation.operator, pageOf(invocation)),
  },
  "partner create": {
    usage: "<name>",
    run: async ({ app, operator, argument }) => ({
      partner: await perform(createPartner, app, operator, { name: argument(0, "<name>") }),
    }),
  },
  "partner list": {
    usage: PAGE_OPTIONS,
    run: async (invocation) => perform(listPartners, invocation.app, invocation.operator, pageOf(invocation)),
  },
  "partner activate": {
    usage: "<partnerId>",
    run: async ({ app, operator, argument }) => ({
      partner: await perform(updatePartner, app, operator, { partnerId: argument(0, "<partnerId>"), isActive: true }),
    }),
  },
  "partner deactivate": {
    usage: "<partnerId>",
    run: async ({ app, operator, argument }) => ({
      partner: await perform(updatePartner, app, operator, { partnerId: argument(0, "<partnerId>"), isActive: false }),
    }),
  },
  "partner credential": {
    usage: "<partnerId> <profileId> [--name <name>] [--expires-at <ISO date-time>]",
    run: async ({ app, operator, argument, values }) => {
      const issued = await perform(createPartnerApiCredential, app, operator, {
        partnerId: argument(0, "<partnerId>"),
        profileId: argument(1, "<profileId>"),
        ...(values.name !== undefined && { name: values.name }),
        ...(values["expires-at"] !== undefined && { expiresAt: values["expires-at"] }),
      });
      return { ...issued.credential, secretKey: issued.secretKey };
    },
  },
  "pricing assign": {
    usage: "<profileId> <pricingProfile>",
    run: async ({ app, operator, argument }) => ({
      pricingAssignment: await perform(setPricingAssignment, app, operator, {
        profileId: argument(0, "<profileId>"),
        pricingProfile: argument(1, "<pricingProfile>"),
      }),
    }),
  },
  "pricing get": {
    usage: "<profileId>",
    run: async ({ app, operator, argument }) => ({
      pricingAssignment: await perform(getPricingAssignment, app, operator, { profileId: argument(0, "<profileId>") }),
    }),
  },
  "pricing list": {
    usage: PAGE_OPTIONS,
    run: async (invocation) => perform(listPricingAssignments, invocation.app, invocation.operator, pageOf(invocation)),
  },
  "signing-key show": {
    usage: "",
    run: async ({ app }) => {
      const { id, createdAt, source, publicKey } = app.signingKeys.info();
      return { signingKey: { id, createdAt, source, publicKey } };
    },
  },
  "signing-key rotate": {
    usage: "",
    run: async ({ app, operator }) => {
      // Prints the new public key's id and creation time; the private key never leaves the service.
      const { id, createdAt } = await app.signingKeys.rotate(operator);
      return { signingKey: { id, createdAt } };
    },
  },
  "database backup": {
    usage: "<file>",
    run: async ({ app, argument }) => ({ backup: await backUpSqlite(app.config.database, argument(0, "<file>")) }),
  },
  "audit-events": {
    usage: `[--action <name>] [--target-id <id>] ${PAGE_OPTIONS}`,
    run: async (invocation) =>
      perform(listAuditEvents, invocation.app, invocation.operator, {
        ...(invocation.values.action !== undefined && { action: invocation.values.action }),
        ...(invocation.values["target-id"] !== undefined && { targetId: invocation.values["target-id"] }),
        ...pageOf(invocation),
      }),
  },
};

/** The secrets production requires the environment to hold (config-refusals.ts), made with the same strength. */
const PRODUCTION_SECRETS = ["JWT_SECRET", "OPERATOR_TOKEN", "SIGNING_KEY_ENCRYPTION_KEY"] as const;

/** Commands that need neither the database nor the configuration: what they print on success, as it is. */
const OFFLINE_COMMANDS: Record<string, { usage: string; run(): string }> = {
  "secrets generate": {
    usage: "",
    run: () =>
      [
        "# Production secrets, new and random: keep them in your secret store or .env, never in version control.",
        ...PRODUCTION_SECRETS.map((name) => `${name}=${randomBytes(32).toString("base64url")}`),
      ].join("\n"),
  },
};

/** Help lists the command tables themselves, so a command cannot be missing from it. */
const USAGE = `Operator commands (the server's configuration: its environment, or .env in this directory):

${[...Object.entries(COMMANDS), ...Object.entries(OFFLINE_COMMANDS)]
  .map(([words, { usage }]) => `  npm run -s admin -- ${words}${usage && ` ${usage}`}`)
  .join("\n")}

Commands open the server's database (DATABASE_URL, or DATA_DIR's SQLite file) and refuse to run where there is
none; --create-database creates and migrates one there instead. Changes to the gateway's records are recorded in
the audit log under your OS user name (audit-events lists them, newest first). avenia register-webhook changes
Avenia's settings, not ours: it prints what it did, and is not audited. secrets generate prints .env lines; the
others print the result as JSON. Exit codes: 0 done, 1 refused (the error code and message are printed), 2 usage,
78 configuration (what to set is printed).`;

/** The command the arguments name, its options, and the arguments after its words. */
function commandOf(args: string[]) {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
  // Every command is two words but audit-events.
  const words = positionals[0] === "audit-events" ? 1 : 2;
  const name = positionals.slice(0, words).join(" ");
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  const offline = Object.hasOwn(OFFLINE_COMMANDS, name) ? OFFLINE_COMMANDS[name] : undefined;
  if (!command && !offline)
    throw new UsageError(positionals.length ? `unknown command: ${positionals.join(" ")}` : "no command given");
  return { command, offline, values, rest: positionals.slice(words) };
}

/**
 * Refuses a database that holds no gateway tables unless asked to create one: run without the server's DATA_DIR,
 * the CLI would otherwise make an empty database beside it and answer from that.
 */
async function requireExistingDatabase(database: DatabaseConfig, create: boolean): Promise<void> {
  if (create || (await holdsGatewayTables(database))) return;
  const where =
    database.engine === "sqlite"
      ? `No gateway database at ${database.file}: set DATA_DIR to the server's data directory`
      : `The PostgreSQL database of DATABASE_URL holds no gateway tables: set DATABASE_URL to the server's`;
  throw new ConfigError(
    `${where} (run the command with the server's settings: its environment, or .env here), or pass --create-database to create one.`,
  );
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length === 0 || args.includes("--help")) {
    console.log(USAGE);
    return args.length === 0 ? 2 : 0;
  }
  let app: App | undefined;
  try {
    const { command, offline, values, rest } = commandOf(args);
    if (offline) {
      console.log(offline.run());
      return 0;
    }
    readSettingsFile();
    await requireExistingDatabase(configuredDatabase(), values["create-database"]);
    const config = loadConfig();
    app = await createApp(config, createLogger(config.logLevel === "info" ? "warn" : config.logLevel));
    const result = await command!.run({
      app,
      operator: { channel: "cli", osUser: osUser() },
      values,
      argument(index, what) {
        const value = rest[index];
        if (!value) throw new UsageError(`missing ${what}`);
        return value;
      },
    });
    console.log(JSON.stringify(result, null, 2));
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      const details = error.details?.map((detail) => `\n  ${detail.field}: ${detail.message}`).join("") ?? "";
      console.error(`refused: ${error.code}: ${error.message}${details}`);
      return 1;
    }
    if (
      error instanceof SigningKeyRotationRefused ||
      error instanceof AveniaWebhookRefused ||
      error instanceof BackupRefused
    ) {
      console.error(`refused: ${error.message}`);
      return 1;
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      console.error(`usage error: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 78;
    }
    throw error;
  } finally {
    await app?.close();
  }
}

process.exitCode = await main();
