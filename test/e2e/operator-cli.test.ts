import { spawn } from "node:child_process";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPartnerSimulator } from "../../packages/partner-simulator/src/index.js";
import { openDatabase } from "../../src/db/client.js";
import { holdsGatewayTables } from "../../src/db/migrate.js";
import { freshDatabase, testEngine, type TestDatabase } from "../support/database.js";
import { LOG_DIR, rememberSecret } from "../support/secrets.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { call } from "../support/e2e-http.js";

/**
 * The operator CLI (`node dist/cli/admin.js`, built by `npm run build`) as a real child process against a
 * fresh database of the project's engine, shared with a real server process: what the CLI changes, the
 * server enforces. On PostgreSQL the CLI's changes reach a running server through LISTEN/NOTIFY.
 */

const CLI = fileURLToPath(new URL("../../dist/cli/admin.js", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const INHERITED_ENV = ["PATH", "HOME", "TMPDIR", "LANG", "TZ", "SYSTEMROOT"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Audit events' ids are time-ordered (version 7), so changes within one millisecond still list in order. */
const TIME_ORDERED_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const engine = testEngine();

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The JSON document the CLI printed on success. */
  json: any;
}

let cliRuns = 0;
const cliLog = join(LOG_DIR, `e2e-cli-${engine}-${process.pid}.log`);

/**
 * Runs one CLI command with only the database configuration of `database` (and what node needs). Its
 * stderr is teed to the log directory for the secret audit (stdout carries a new secret key by design).
 */
function runCli(
  database: TestDatabase,
  args: string[],
  {
    timeoutMs = 30_000,
    settings = {},
    cwd = REPO_ROOT,
    fromSettingsFile = false,
  }: { timeoutMs?: number; settings?: Record<string, string>; cwd?: string; fromSettingsFile?: boolean } = {},
): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name] as string;
  if (!fromSettingsFile)
    Object.assign(env, { DATA_DIR: database.dataDir, ...(database.url && { DATABASE_URL: database.url }) });
  Object.assign(env, settings);
  const run = ++cliRuns;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`admin ${args.join(" ")} did not exit within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      appendFileSync(cliLog, `--- run ${run}: exit ${code}\n${stderr}`);
      resolve({ code, stdout, stderr, json: parseOutput(stdout) });
    });
  });
}

/** The pretty-printed JSON document on stdout (log lines, if any, are single-line and skipped). */
function parseOutput(stdout: string): unknown {
  const start = stdout.indexOf("{\n");
  const end = stdout.indexOf("\n}", start);
  if (start < 0 || end < 0) return undefined;
  return JSON.parse(stdout.slice(start, end + 2));
}

/** Runs a command that must succeed; returns its JSON. */
async function succeeds(database: TestDatabase, args: string[]) {
  const result = await runCli(database, args);
  expect(result.code, `admin ${args.join(" ")}:\n${result.stdout}\n${result.stderr}`).toBe(0);
  expect(result.json, `admin ${args.join(" ")} printed no JSON:\n${result.stdout}`).toBeDefined();
  return result.json;
}

/** Runs a command that the service must refuse: exit 1, `refused: CODE` on stderr, nothing on stdout. */
async function refused(database: TestDatabase, args: string[], code: string) {
  const result = await runCli(database, args);
  expect(result.code, `admin ${args.join(" ")}:\n${result.stdout}\n${result.stderr}`).toBe(1);
  expect(result.stderr).toContain(`refused: ${code}`);
  expect(result.json).toBeUndefined();
  return result;
}

/* ------------------------------------------------------------------------ HTTP */

const me = (server: ServerProcess, headers: Record<string, string>) =>
  call(server, "POST", "/graphql", { headers, body: { query: "{ me { id } }" } });

async function signIn(server: ServerProcess) {
  const email = `cli-${randomUUID().slice(0, 8)}@example.com`;
  const requested = await call(server, "POST", "/v1/auth/request-otp", { body: { email } });
  expect(requested.status, JSON.stringify(requested.body)).toBe(200);
  const token = await server.smtp.nextCode(email);
  const verified = await call(server, "POST", "/v1/auth/verify-otp", { body: { email, token } });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  rememberSecret(verified.body.access_token);
  rememberSecret(verified.body.refresh_token);
  return {
    profileId: verified.body.user_id as string,
    email,
    headers: { authorization: `Bearer ${verified.body.access_token}` },
  };
}

/* ----------------------------------------------------------------------- setup */

let server: ServerProcess;
let database: TestDatabase;
let owner: Awaited<ReturnType<typeof signIn>>;
let operatorHeaders: Record<string, string>;

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the end-to-end tests`);
  mkdirSync(LOG_DIR, { recursive: true });
  // A long authentication cache: a change only reaches a running server by an explicit invalidation.
  server = await startServerProcess({ env: { CACHE_TTL_SECONDS: "300" } });
  database = server.database;
  owner = await signIn(server);
  // The server generated the operator token under DATA_DIR (no OPERATOR_TOKEN set); the CLI shares it.
  const operatorToken = JSON.parse(readFileSync(join(database.dataDir, "secrets.json"), "utf8"))
    .operatorToken as string;
  rememberSecret(operatorToken);
  operatorHeaders = { authorization: `Bearer ${operatorToken}` };
});
afterAll(async () => {
  await server?.dispose();
});

/* ----------------------------------------------------------------------- tests */

describe(`operator CLI (${engine})`, () => {
  it("partner create <name>: prints the partner as JSON, exit 0", async () => {
    const result = await runCli(database, ["partner", "create", "Acme"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.json).toEqual({
      partner: {
        id: expect.stringMatching(UUID),
        name: "Acme",
        isActive: true,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    });
    const off = await succeeds(database, ["partner", "deactivate", result.json.partner.id]);
    expect(off.partner).toMatchObject({ id: result.json.partner.id, name: "Acme", isActive: false });
    const on = await succeeds(database, ["partner", "activate", result.json.partner.id]);
    expect(on.partner).toMatchObject({ id: result.json.partner.id, isActive: true });

    // Each change is in the audit log under the CLI and the OS account that ran it, newest first.
    const partnerId = result.json.partner.id;
    const actor = { channel: "cli", requestId: null, clientAddress: null, osUser: userInfo().username };
    const audited = await succeeds(database, ["audit-events", "--target-id", partnerId]);
    expect(audited).toEqual({
      events: ["partner.activated", "partner.deactivated", "partner.created"].map((action) => ({
        id: expect.stringMatching(TIME_ORDERED_UUID),
        at: expect.stringMatching(ISO),
        actor,
        action,
        targetType: "partner",
        targetId: partnerId,
        details: { isActive: action !== "partner.deactivated" },
      })),
      pagination: { limit: 50, offset: 0, total: 3 },
    });
    const paged = await succeeds(database, [
      "audit-events",
      "--target-id",
      partnerId,
      "--action",
      "partner.deactivated",
      "--limit",
      "1",
      "--offset",
      "0",
    ]);
    expect(paged).toEqual({ events: [audited.events[1]], pagination: { limit: 1, offset: 0, total: 1 } });
    // The running server reads the same log.
    const overRest = await call(server, "GET", `/v1/admin/audit-events?targetId=${partnerId}`, {
      headers: operatorHeaders,
    });
    expect(overRest.body).toEqual(audited);
  });

  it("manager put/get: sets and reads the policy; the server enforces it", async () => {
    const manager = await signIn(server);
    const listChildren = () => call(server, "GET", "/v1/managed-profiles", { headers: manager.headers });
    expect((await listChildren()).status).toBe(403);

    const put = await succeeds(database, [
      "manager",
      "put",
      manager.profileId,
      "--corridors",
      "BR,MX",
      "--customer-types",
      "individual",
    ]);
    expect(put.manager).toEqual({
      profileId: manager.profileId,
      allowedCorridors: ["BR", "MX"],
      allowedCustomerTypes: ["individual"],
      isActive: true,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const got = await succeeds(database, ["manager", "get", manager.profileId]);
    expect(got).toEqual({ manager: put.manager });

    // The server reads the same policy (REST operator surface) and lets the manager act.
    const rest = await call(server, "GET", `/v1/admin/managers/${manager.profileId}`, { headers: operatorHeaders });
    expect(rest.status).toBe(200);
    expect(rest.body.manager).toEqual(put.manager);
    const listed = await listChildren();
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.manager).toEqual({
      profileId: manager.profileId,
      allowedCorridors: ["BR", "MX"],
      allowedCustomerTypes: ["individual"],
    });

    // Replacing: no --customer-types means no narrowing; --inactive disables.
    const disabled = await succeeds(database, ["manager", "put", manager.profileId, "--corridors", "US", "--inactive"]);
    expect(disabled.manager).toMatchObject({
      profileId: manager.profileId,
      allowedCorridors: ["US"],
      allowedCustomerTypes: null,
      isActive: false,
      createdAt: put.manager.createdAt,
    });
    expect((await succeeds(database, ["manager", "get", manager.profileId])).manager).toMatchObject({
      allowedCorridors: ["US"],
      allowedCustomerTypes: null,
      isActive: false,
    });
    const refusedList = await listChildren();
    expect(refusedList.status).toBe(403);
    expect(refusedList.body.error.code).toBe("MANAGED_PROFILE_ACCESS_DENIED");
  });

  it("refusals: exit 1 with `refused: CODE` on stderr", async () => {
    const unknown = randomUUID();
    const results = await Promise.all([
      refused(database, ["manager", "put", unknown, "--corridors", "BR"], "NOT_FOUND"),
      refused(database, ["manager", "get", unknown], "NOT_FOUND"),
      refused(database, ["manager", "put", owner.profileId, "--corridors", "BR,XX"], "VALIDATION_FAILED"),
      refused(
        database,
        ["manager", "put", owner.profileId, "--corridors", "BR", "--customer-types", "robot"],
        "VALIDATION_FAILED",
      ),
      refused(database, ["partner", "deactivate", unknown], "NOT_FOUND"),
      refused(database, ["pricing", "assign", owner.profileId, "Not Valid"], "VALIDATION_FAILED"),
      refused(database, ["pricing", "assign", unknown, "reduced"], "NOT_FOUND"),
      refused(database, ["pricing", "get", unknown], "NOT_FOUND"),
      refused(database, ["audit-events", "--limit", "101"], "VALIDATION_FAILED"),
      refused(database, ["audit-events", "--action", "partner.renamed"], "VALIDATION_FAILED"),
    ]);
    // Validation refusals name the field.
    expect(results[2].stderr).toMatch(/allowedCorridors/);
    expect(results[3].stderr).toMatch(/allowedCustomerTypes/);
    expect(results[5].stderr).toMatch(/pricingProfile/);
    // Nothing was stored, or audited, for the owner by the refused commands.
    await Promise.all([
      refused(database, ["manager", "get", owner.profileId], "NOT_FOUND"),
      refused(database, ["pricing", "get", owner.profileId], "NOT_FOUND"),
    ]);
    expect((await succeeds(database, ["audit-events", "--target-id", owner.profileId])).events).toEqual([]);
  });

  it("usage errors: exit 2 with the usage text", async () => {
    const cases: [string[], RegExp][] = [
      [["frobnicate", "now"], /unknown command: frobnicate now/],
      [["manager", "put"], /missing <profileId>/],
      [["manager", "put", owner.profileId], /missing --corridors/],
      [["manager", "get"], /missing <profileId>/],
      [["partner", "create"], /missing <name>/],
      [["partner", "credential", randomUUID()], /missing <profileId>/],
      [["pricing", "assign", owner.profileId], /missing <pricingProfile>/],
      [["manager", "put", owner.profileId, "--corridors", "BR", "--bogus"], /usage error/],
      [["profile", "find"], /missing <email>/],
      [["toString"], /unknown command: toString/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(database, args)));
    results.forEach((result, i) => {
      const label = `admin ${cases[i][0].join(" ")}`;
      expect(result.code, `${label}:\n${result.stdout}\n${result.stderr}`).toBe(2);
      expect(result.stderr, label).toMatch(cases[i][1]);
      expect(result.stderr, label).toContain("Operator commands");
      expect(result.stderr, label).toContain("manager put <profileId> --corridors");
      expect(result.json, label).toBeUndefined();
    });
    const [none, help] = await Promise.all([runCli(database, []), runCli(database, ["--help"])]);
    expect(none.code).toBe(2);
    expect(none.stdout + none.stderr).toContain("Operator commands");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("partner credential <partnerId> <profileId>");
    expect(help.stdout).toContain("audit-events [--action <name>]");
    // The usage errors changed nothing.
    await refused(database, ["manager", "get", owner.profileId], "NOT_FOUND");
  });

  it("refuses a data directory or database without the gateway's tables, creating nothing, unless --create-database", async () => {
    const empty = await freshDatabase(engine);
    try {
      const missing = await runCli(empty, ["partner", "list"]);
      expect(missing.code, `${missing.stdout}\n${missing.stderr}`).toBe(78);
      expect(missing.stdout).toBe("");
      expect(missing.stderr).toContain(engine === "sqlite" ? "set DATA_DIR" : "set DATABASE_URL");
      expect(missing.stderr).toContain("--create-database");
      // Nothing was made: no database file, no development secrets, no tables.
      expect(readdirSync(empty.dataDir)).toEqual([]);
      if (engine === "postgresql") expect(await holdsGatewayTables(empty.config)).toBe(false);

      const created = await runCli(empty, ["partner", "list", "--create-database"]);
      expect(created.code, `${created.stdout}\n${created.stderr}`).toBe(0);
      expect(created.json).toMatchObject({ partners: [] });
      expect(await holdsGatewayTables(empty.config)).toBe(true);
      // Once created, the database is the CLI's like any other.
      expect((await runCli(empty, ["partner", "list"])).code).toBe(0);
    } finally {
      await empty.drop();
    }
  });

  it("reads the server's settings from .env in the directory it runs in; the environment overrides the file", async () => {
    const directory = mkdtempSync(join(tmpdir(), "ramp-gateway-cli-"));
    const empty = await freshDatabase(engine);
    try {
      const settings = [`DATA_DIR=${database.dataDir}`, ...(database.url ? [`DATABASE_URL=${database.url}`] : [])];
      writeFileSync(join(directory, ".env"), `# the server's settings\n${settings.join("\n")}\n`);
      const find = ["profile", "find", owner.email];
      const fromFile = await runCli(database, find, { cwd: directory, fromSettingsFile: true });
      expect(fromFile.code, `${fromFile.stdout}\n${fromFile.stderr}`).toBe(0);
      expect(JSON.stringify(fromFile.json)).toContain(owner.profileId);

      const overridden = await runCli(database, find, {
        cwd: directory,
        fromSettingsFile: true,
        settings: { DATA_DIR: empty.dataDir, ...(empty.url && { DATABASE_URL: empty.url }) },
      });
      expect(overridden.code, `${overridden.stdout}\n${overridden.stderr}`).toBe(78);
    } finally {
      rmSync(directory, { recursive: true, force: true });
      await empty.drop();
    }
  });

  it("database backup <file>: SQLite's online backup while the server runs, which restores as the gateway's database; PostgreSQL: pg_dump", async () => {
    const directory = mkdtempSync(join(tmpdir(), "ramp-gateway-backup-"));
    try {
      const file = join(directory, "backup.db");
      if (engine === "postgresql") {
        const result = await runCli(database, ["database", "backup", file]);
        expect(result.code, result.stderr).toBe(1);
        expect(result.stderr).toContain("pg_dump");
        expect(existsSync(file)).toBe(false);
        return;
      }
      // The server keeps writing meanwhile (a sign-in writes its session): the copy is consistent all the same.
      const [backup] = await Promise.all([succeeds(database, ["database", "backup", file]), signIn(server)]);
      expect(backup.backup).toMatchObject({ file, pages: expect.any(Number), bytes: expect.any(Number) });
      expect(backup.backup.bytes).toBeGreaterThan(0);
      expect((await runCli(database, ["database", "backup", file])).stderr).toContain("exists");

      // Restored as docs/operations.md says: the copy as DATA_DIR's database, beside the server's secrets.
      const restored = join(directory, "restored");
      mkdirSync(restored);
      copyFileSync(file, join(restored, "ramp-gateway.db"));
      copyFileSync(join(database.dataDir, "secrets.json"), join(restored, "secrets.json"));
      const found = await runCli(database, ["profile", "find", owner.email], { settings: { DATA_DIR: restored } });
      expect(found.code, found.stderr).toBe(0);
      expect(JSON.stringify(found.json)).toContain(owner.profileId);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("secrets generate: prints the production secrets as .env lines, new each time, without a database", async () => {
    const empty = await freshDatabase(engine);
    try {
      const [first, second] = await Promise.all([
        runCli(empty, ["secrets", "generate"]),
        runCli(empty, ["secrets", "generate"]),
      ]);
      const settings = (output: string) =>
        Object.fromEntries(
          output
            .trim()
            .split("\n")
            .filter((line) => !line.startsWith("#"))
            .map((line) => line.split("=") as [string, string]),
        );
      for (const result of [first, second]) {
        expect(result.code, result.stderr).toBe(0);
        const values = settings(result.stdout);
        expect(Object.keys(values)).toEqual(["JWT_SECRET", "OPERATOR_TOKEN", "SIGNING_KEY_ENCRYPTION_KEY"]);
        for (const value of Object.values(values)) {
          rememberSecret(value);
          expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
        }
      }
      expect(settings(first.stdout).JWT_SECRET).not.toBe(settings(second.stdout).JWT_SECRET);
      expect(readdirSync(empty.dataDir)).toEqual([]);
      if (engine === "postgresql") expect(await holdsGatewayTables(empty.config)).toBe(false);
    } finally {
      await empty.drop();
    }
  });

  it("partner credential <partnerId> <profileId>: prints a secret key that the server accepts for that profile", async () => {
    const { partner } = await succeeds(database, ["partner", "create", "Key Partner"]);
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const [issued, dated] = await Promise.all([
      succeeds(database, ["partner", "credential", partner.id, owner.profileId, "--name", "cli key"]),
      succeeds(database, ["partner", "credential", partner.id, owner.profileId, "--expires-at", expiresAt]),
    ]);
    rememberSecret(issued.secretKey);
    rememberSecret(dated.secretKey);
    expect(dated).toMatchObject({
      name: "API Credential",
      expiresAt,
      partnerId: partner.id,
      profileId: owner.profileId,
    });
    expect(issued).toMatchObject({
      id: expect.stringMatching(UUID),
      name: "cli key",
      profileId: owner.profileId,
      partnerId: partner.id,
      environment: "test",
      revokedAt: null,
      secretKeyPrefix: issued.secretKey.slice(0, 16),
    });
    expect(issued.secretKey).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    expect(issued.publicKey).toMatch(/^pk_test_[A-Za-z0-9]{32}$/);
    expect(issued).not.toHaveProperty("secretKeyHash");

    const asKey = await me(server, { "x-api-key": issued.secretKey });
    expect(asKey.status, JSON.stringify(asKey.body)).toBe(200);
    expect(asKey.body.data.me.id).toBe(owner.profileId);
    const listed = await call(server, "GET", "/v1/api-credentials", { headers: owner.headers });
    expect(listed.body.credentials).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: issued.id, partnerId: partner.id, name: "cli key" })]),
    );

    await Promise.all([
      refused(database, ["partner", "credential", partner.id, randomUUID()], "CREDENTIAL_SUBJECT_REQUIRED"),
      refused(database, ["partner", "credential", randomUUID(), owner.profileId], "NOT_FOUND"),
      refused(
        database,
        ["partner", "credential", partner.id, owner.profileId, "--expires-at", "2000-01-01T00:00:00Z"],
        "INVALID_CREDENTIAL_EXPIRY",
      ),
    ]);
  });

  it("profile find, manager list, partner list, pricing list: the operator's lookups, listed in help", async () => {
    const profile = await signIn(server);
    expect(await succeeds(database, ["profile", "find", profile.email.toUpperCase()])).toEqual({
      profiles: [
        {
          id: profile.profileId,
          email: profile.email,
          contactEmail: null,
          managerProfileId: null,
          externalSubjectId: null,
          deletedAt: null,
          createdAt: expect.stringMatching(ISO),
        },
      ],
    });
    expect(await succeeds(database, ["profile", "find", "nobody@example.com"])).toEqual({ profiles: [] });
    await refused(database, ["profile", "find", "not-an-email"], "VALIDATION_FAILED");

    await succeeds(database, ["manager", "put", profile.profileId, "--corridors", "BR"]);
    const { partner } = await succeeds(database, ["partner", "create", "Listed Partner"]);
    await succeeds(database, ["pricing", "assign", profile.profileId, "reduced"]);
    const [managers, partners, pricing] = await Promise.all(
      ["manager", "partner", "pricing"].map((group) => succeeds(database, [group, "list", "--limit", "100"])),
    );
    expect(managers.managers).toContainEqual(
      expect.objectContaining({ profileId: profile.profileId, allowedCorridors: ["BR"], isActive: true }),
    );
    expect(managers.pagination).toMatchObject({ limit: 100, offset: 0, total: managers.managers.length });
    expect(partners.partners).toContainEqual(expect.objectContaining({ id: partner.id, name: "Listed Partner" }));
    expect(pricing.pricingAssignments).toContainEqual(
      expect.objectContaining({ profileId: profile.profileId, pricingProfile: "reduced" }),
    );
    const paged = await succeeds(database, ["partner", "list", "--limit", "1", "--offset", "0"]);
    expect(paged.partners).toHaveLength(1);
    expect(paged.pagination).toEqual({ limit: 1, offset: 0, total: partners.pagination.total });
    await refused(database, ["manager", "list", "--limit", "101"], "VALIDATION_FAILED");

    const help = await runCli(database, ["--help"]);
    for (const command of ["profile find <email>", "manager list [--limit", "partner list [--limit", "pricing list"])
      expect(help.stdout).toContain(`npm run -s admin -- ${command}`);
  });

  it("pricing assign/get", async () => {
    const assigned = await succeeds(database, ["pricing", "assign", owner.profileId, "reduced"]);
    expect(assigned).toEqual({
      pricingAssignment: {
        profileId: owner.profileId,
        pricingProfile: "reduced",
        updatedAt: expect.stringMatching(ISO),
      },
    });
    expect(await succeeds(database, ["pricing", "get", owner.profileId])).toEqual(assigned);
    const replaced = await succeeds(database, ["pricing", "assign", owner.profileId, "zero-fee"]);
    expect(replaced.pricingAssignment.pricingProfile).toBe("zero-fee");
    expect((await succeeds(database, ["pricing", "get", owner.profileId])).pricingAssignment.pricingProfile).toBe(
      "zero-fee",
    );
    const rest = await call(server, "GET", `/v1/admin/pricing-assignments/${owner.profileId}`, {
      headers: operatorHeaders,
    });
    expect(rest.body.pricingAssignment).toMatchObject({ profileId: owner.profileId, pricingProfile: "zero-fee" });
  });

  // How a CLI change reaches servers differs by engine by design; each project runs its own case.
  const reachesRunningServer = {
    name: "PostgreSQL: partner deactivate through the CLI refuses a credential the running server cached, at once (LISTEN/NOTIFY)",
    run: async () => {
      const profile = await signIn(server);
      const { partner } = await succeeds(database, ["partner", "create", "Notify Partner"]);
      const issued = await succeeds(database, ["partner", "credential", partner.id, profile.profileId]);
      rememberSecret(issued.secretKey);
      const key = { "x-api-key": issued.secretKey };
      for (let i = 0; i < 2; i++) expect((await me(server, key)).body.data?.me.id).toBe(profile.profileId);

      // Control: a change written behind the server's back (no notification) is not seen: the server
      // really serves this credential from its cache, so only the CLI's notification can refuse it at once.
      const { db, close } = await openDatabase(database.config);
      try {
        await db.partner.update({ where: { id: partner.id }, data: { isActive: false } });
        expect((await me(server, key)).body.data?.me.id).toBe(profile.profileId);
        await db.partner.update({ where: { id: partner.id }, data: { isActive: true } });
      } finally {
        await close();
      }

      const off = await succeeds(database, ["partner", "deactivate", partner.id]);
      expect(off.partner).toMatchObject({ id: partner.id, isActive: false });
      const refusedCall = await me(server, key);
      expect(refusedCall.status, JSON.stringify(refusedCall.body)).toBe(401);
      expect(refusedCall.body.errors[0].extensions.code).toBe("INVALID_API_KEY");
      const refusedRest = await call(server, "GET", "/v1/managed-profiles", { headers: key });
      expect(refusedRest.status).toBe(401);
      expect(refusedRest.body.error.code).toBe("INVALID_API_KEY");

      await succeeds(database, ["partner", "activate", partner.id]);
      const restored = await me(server, key);
      expect(restored.status, JSON.stringify(restored.body)).toBe(200);
      expect(restored.body.data.me.id).toBe(profile.profileId);
    },
  };
  const reachesNewServerProcess = {
    name: "SQLite: a partner deactivated through the CLI is refused by a new server process; reactivated, accepted again",
    run: async () => {
      const profile = await signIn(server);
      const { partner } = await succeeds(database, ["partner", "create", "Restart Partner"]);
      const issued = await succeeds(database, ["partner", "credential", partner.id, profile.profileId]);
      rememberSecret(issued.secretKey);
      const key = { "x-api-key": issued.secretKey };
      expect((await me(server, key)).body.data?.me.id).toBe(profile.profileId);

      const off = await succeeds(database, ["partner", "deactivate", partner.id]);
      expect(off.partner).toMatchObject({ id: partner.id, isActive: false });
      const second = await startServerProcess({ database, smtp: server.smtp });
      try {
        const refusedCall = await me(second, key);
        expect(refusedCall.status, JSON.stringify(refusedCall.body)).toBe(401);
        expect(refusedCall.body.errors[0].extensions.code).toBe("INVALID_API_KEY");
      } finally {
        await second.stop();
        await second.dispose();
      }

      await succeeds(database, ["partner", "activate", partner.id]);
      const third = await startServerProcess({ database, smtp: server.smtp });
      try {
        const restored = await me(third, key);
        expect(restored.status, JSON.stringify(restored.body)).toBe(200);
        expect(restored.body.data.me.id).toBe(profile.profileId);
      } finally {
        await third.stop();
        await third.dispose();
      }
    },
  };
  const propagation = engine === "postgresql" ? reachesRunningServer : reachesNewServerProcess;
  it(propagation.name, propagation.run);

  it("avenia register-webhook: registers PUBLIC_BASE_URL's Avenia route once at the configured Avenia", async () => {
    const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const privateKeyPem = keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const avenia = await startPartnerSimulator({
      avenia: {
        apiKey: "cli-avenia-key",
        clientPublicKeyPem: keys.publicKey.export({ type: "spki", format: "pem" }).toString(),
      },
      alfredpay: { apiKey: "cli-alfredpay-key", apiSecret: "cli-alfredpay-secret" },
    });
    try {
      const settings = {
        AVENIA_BASE_URL: avenia.url,
        AVENIA_API_KEY: "cli-avenia-key",
        AVENIA_PRIVATE_KEY: privateKeyPem.replace(/\n/g, "\\n"),
        PUBLIC_BASE_URL: "https://gateway.example/",
      };
      const first = await runCli(database, ["avenia", "register-webhook"], { settings });
      expect(first.code, first.stderr).toBe(0);
      const webhookUrl = "https://gateway.example/v1/webhooks/avenia";
      expect(first.json).toEqual({ webhookUrl, webhookId: expect.any(String), created: true });
      const again = await runCli(database, ["avenia", "register-webhook"], { settings });
      expect(again.json).toEqual({ ...first.json, created: false });
      expect(avenia.stats().avenia.calls["POST /v2/notifications/webhooks"]).toBe(1);

      const unset = await runCli(database, ["avenia", "register-webhook"]);
      expect(unset.code).toBe(1);
      expect(unset.stderr).toContain("refused: AVENIA_BASE_URL, AVENIA_API_KEY and AVENIA_PRIVATE_KEY must be set");
    } finally {
      await avenia.stop();
    }
  });
});
