// Authors SQL migrations for both engines from the schema files (dev-only; see tools/schema-engine.mjs).
//   node tools/migrate-create.mjs <name>   write <timestamp>_<name>/migration.sql for each engine whose
//                                          schema differs from its checked-in migrations
//   node tools/migrate-create.mjs --check  exit 1 if either engine's migrations are behind its schema
// PostgreSQL diffs need a server: MIGRATION_SHADOW_URL (admin URL; a temporary database is created
// and dropped there), default postgresql://postgres@127.0.0.1:54329/postgres.
// Exit codes: 0 ok, 1 migrations behind (--check), 2 usage or tool error.
import { execFileSync } from "node:child_process";
import { mkdir, readdir, writeFile, access } from "node:fs/promises";
import { join, relative } from "node:path";
import { DEFAULT_SHADOW_URL, ENGINES, ROOT, diffMigrationsToSchema, lockfileContent } from "./schema-engine.mjs";

const shadowUrl = process.env.MIGRATION_SHADOW_URL || DEFAULT_SHADOW_URL;
const redacted = (url) => url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");

function fail(message, code = 2) {
  console.error(message);
  process.exit(code);
}

// prisma/sqlite/schema.prisma is generated from prisma/schema.prisma; diffing a stale copy would
// produce SQLite migrations that miss changes.
function sqliteSchemaIsFresh() {
  try {
    execFileSync(process.execPath, [join(ROOT, "tools/sqlite-schema.mjs"), "--check"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

async function diff(engine) {
  try {
    return await diffMigrationsToSchema({ engine, shadowUrl });
  } catch (e) {
    const hint =
      engine === "postgresql"
        ? `\n(PostgreSQL shadow server: ${redacted(shadowUrl)}; is it running? Set MIGRATION_SHADOW_URL to an admin URL.)`
        : "";
    fail(`${engine}: schema engine failed: ${e?.message ?? e}${hint}`);
  }
}

// UTC YYYYMMDDHHMMSS, like Prisma's migration directory names.
const timestamp = () => new Date().toISOString().replace(/\D/g, "").slice(0, 14);

async function latestMigration(engine) {
  const dirs = await readdir(join(ROOT, ENGINES[engine].migrationsDir)).catch(() => []);
  return (
    dirs
      .filter((d) => /^\d{14}_/.test(d))
      .sort()
      .at(-1) ?? ""
  );
}

const args = process.argv.slice(2);
if (args.length !== 1 || args[0] === "--help" || args[0] === "-h") {
  fail("usage: node tools/migrate-create.mjs <name> | --check");
}

if (args[0] === "--check") {
  const problems = [];
  if (!sqliteSchemaIsFresh()) problems.push("prisma/sqlite/schema.prisma is stale: run `npm run prisma:sqlite-schema`");
  for (const engine of Object.keys(ENGINES)) {
    if (await diff(engine)) {
      problems.push(`${engine}: ${ENGINES[engine].migrationsDir} is behind ${ENGINES[engine].schemaPath}`);
    }
  }
  if (problems.length) {
    fail(
      `${problems.map((p) => `- ${p}`).join("\n")}\nRun \`npm run migrate:create -- <name>\` to add a migration.`,
      1,
    );
  }
  console.log("Migrations are up to date with the schemas (postgresql, sqlite).");
  process.exit(0);
}

// Prisma-style name: lower case, non-alphanumerics collapsed to "_".
const name = args[0]
  .toLowerCase()
  .replace(/[^a-z0-9]+/g, "_")
  .replace(/^_+|_+$/g, "");
if (!name || args[0].startsWith("-")) fail(`invalid migration name: ${JSON.stringify(args[0])}`);
if (!sqliteSchemaIsFresh()) fail("prisma/sqlite/schema.prisma is stale: run `npm run prisma:sqlite-schema` first");

// One timestamp for both engines, so the two histories stay aligned.
const ts = timestamp();
for (const engine of Object.keys(ENGINES)) {
  const last = await latestMigration(engine);
  if (last.slice(0, 14) >= ts) fail(`${engine}: latest migration ${last} is not older than ${ts}; retry in a second`);
}

const sqlByEngine = {};
for (const engine of Object.keys(ENGINES)) sqlByEngine[engine] = await diff(engine);

let written = 0;
for (const [engine, sql] of Object.entries(sqlByEngine)) {
  const base = join(ROOT, ENGINES[engine].migrationsDir);
  if (!sql) {
    console.log(`${engine}: no changes, nothing written`);
    continue;
  }
  const dir = join(base, `${ts}_${name}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "migration.sql"), sql);
  const lock = join(base, "migration_lock.toml");
  if (
    await access(lock).then(
      () => false,
      () => true,
    )
  ) {
    await writeFile(lock, lockfileContent(engine));
    console.log(`${engine}: wrote ${relative(ROOT, lock)}`);
  }
  console.log(`${engine}: wrote ${relative(ROOT, join(dir, "migration.sql"))}`);
  written++;
}
if (!written) console.log("Schemas match the migrations; no migration created.");
