import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import { createApp, type App } from "../app.js";
import type { OperatorActor } from "../audit/types.js";
import { ConfigError, loadConfig } from "../config.js";
import { AppError } from "../errors.js";
import { createLogger } from "../log.js";
import { SigningKeyRotationRefused } from "../webhooks/signing.js";
import {
  createPartner,
  getManagerPolicy,
  getPricingAssignment,
  listAuditEvents,
  setManagerPolicy,
  setPricingAssignment,
  updatePartner,
} from "../operations/admin.js";
import { createPartnerApiCredential } from "../operations/credentials.js";
import { perform } from "../operations/operation.js";

const USAGE = `Operator commands (same configuration as the server: DATABASE_URL, DATA_DIR, ...):

  npm run -s admin -- manager put <profileId> --corridors BR,MX [--customer-types individual,business] [--inactive]
  npm run -s admin -- manager get <profileId>
  npm run -s admin -- partner create <name>
  npm run -s admin -- partner activate <partnerId>
  npm run -s admin -- partner deactivate <partnerId>
  npm run -s admin -- partner credential <partnerId> <profileId> [--name <name>] [--expires-at <ISO date-time>]
  npm run -s admin -- pricing assign <profileId> <pricingProfile>
  npm run -s admin -- pricing get <profileId>
  npm run -s admin -- signing-key show
  npm run -s admin -- signing-key rotate
  npm run -s admin -- audit-events [--action <name>] [--target-id <id>] [--limit <1-100>] [--offset <n>]

Changes are recorded in the audit log under your OS user name (audit-events lists them, newest first).
Prints the result as JSON. Exit codes: 0 done, 1 refused (the error code and message are printed), 2 usage.`;

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

/** One command against the services (never HTTP): what it prints on success. */
async function run(app: App, args: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      corridors: { type: "string" },
      "customer-types": { type: "string" },
      inactive: { type: "boolean", default: false },
      name: { type: "string" },
      "expires-at": { type: "string" },
      action: { type: "string" },
      "target-id": { type: "string" },
      limit: { type: "string" },
      offset: { type: "string" },
    },
  });
  const [group, action, first, second] = positionals;
  const operator: OperatorActor = { channel: "cli", osUser: osUser() };
  const need = (value: string | undefined, what: string) => {
    if (!value) throw new UsageError(`missing ${what}`);
    return value;
  };
  // Every command is two words but audit-events.
  switch (group === "audit-events" ? group : `${group} ${action}`) {
    case "manager put":
      return perform(setManagerPolicy, app, operator, {
        profileId: need(first, "<profileId>"),
        allowedCorridors: list(need(values.corridors, "--corridors")),
        allowedCustomerTypes: list(values["customer-types"]) ?? null,
        isActive: !values.inactive,
      });
    case "manager get":
      return { manager: await perform(getManagerPolicy, app, operator, { profileId: need(first, "<profileId>") }) };
    case "partner create":
      return { partner: await perform(createPartner, app, operator, { name: need(first, "<name>") }) };
    case "partner activate":
    case "partner deactivate":
      return {
        partner: await perform(updatePartner, app, operator, {
          partnerId: need(first, "<partnerId>"),
          isActive: action === "activate",
        }),
      };
    case "partner credential": {
      const issued = await perform(createPartnerApiCredential, app, operator, {
        partnerId: need(first, "<partnerId>"),
        profileId: need(second, "<profileId>"),
        ...(values.name !== undefined && { name: values.name }),
        ...(values["expires-at"] !== undefined && { expiresAt: values["expires-at"] }),
      });
      return { ...issued.credential, secretKey: issued.secretKey };
    }
    case "pricing assign":
      return {
        pricingAssignment: await perform(setPricingAssignment, app, operator, {
          profileId: need(first, "<profileId>"),
          pricingProfile: need(second, "<pricingProfile>"),
        }),
      };
    case "pricing get":
      return {
        pricingAssignment: await perform(getPricingAssignment, app, operator, {
          profileId: need(first, "<profileId>"),
        }),
      };
    case "signing-key show": {
      const { id, createdAt, source, publicKey } = app.signingKeys.info();
      return { signingKey: { id, createdAt, source, publicKey } };
    }
    case "signing-key rotate": {
      // Prints the new public key's id and creation time; the private key never leaves the service.
      const { id, createdAt } = await app.signingKeys.rotate(operator);
      return { signingKey: { id, createdAt } };
    }
    case "audit-events":
      return perform(listAuditEvents, app, operator, {
        ...(values.action !== undefined && { action: values.action }),
        ...(values["target-id"] !== undefined && { targetId: values["target-id"] }),
        ...(values.limit !== undefined && { limit: values.limit }),
        ...(values.offset !== undefined && { offset: values.offset }),
      });
    default:
      throw new UsageError(group ? `unknown command: ${positionals.join(" ")}` : "no command given");
  }
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
    if (error instanceof SigningKeyRotationRefused) {
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
