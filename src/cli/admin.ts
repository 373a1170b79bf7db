import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import { createApp, type App } from "../app.js";
import type { OperatorActor } from "../audit/types.js";
import { ConfigError, loadConfig } from "../config.js";
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

/** Help lists the command table itself, so a command cannot be missing from it. */
const USAGE = `Operator commands (same configuration as the server: DATABASE_URL, DATA_DIR, ...):

${Object.entries(COMMANDS)
  .map(([words, { usage }]) => `  npm run -s admin -- ${words}${usage && ` ${usage}`}`)
  .join("\n")}

Changes to the gateway's records are recorded in the audit log under your OS user name (audit-events lists them,
newest first). avenia register-webhook changes Avenia's settings, not ours: it prints what it did, and is not audited.
Prints the result as JSON. Exit codes: 0 done, 1 refused (the error code and message are printed), 2 usage.`;

/** One command against the services (never HTTP): what it prints on success. */
async function run(app: App, args: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
  // Every command is two words but audit-events.
  const words = positionals[0] === "audit-events" ? 1 : 2;
  const name = positionals.slice(0, words).join(" ");
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command)
    throw new UsageError(positionals.length ? `unknown command: ${positionals.join(" ")}` : "no command given");
  const rest = positionals.slice(words);
  return command.run({
    app,
    operator: { channel: "cli", osUser: osUser() },
    values,
    argument(index, what) {
      const value = rest[index];
      if (!value) throw new UsageError(`missing ${what}`);
      return value;
    },
  });
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length === 0 || args.includes("--help")) {
    console.log(USAGE);
    return args.length === 0 ? 2 : 0;
  }
  let app: App | undefined;
  try {
    const config = loadConfig();
    app = await createApp(config, createLogger(config.logLevel === "info" ? "warn" : config.logLevel));
    console.log(JSON.stringify(await run(app, args), null, 2));
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      const details = error.details?.map((detail) => `\n  ${detail.field}: ${detail.message}`).join("") ?? "";
      console.error(`refused: ${error.code}: ${error.message}${details}`);
      return 1;
    }
    if (error instanceof SigningKeyRotationRefused || error instanceof AveniaWebhookRefused) {
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
