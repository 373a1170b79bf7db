// Dev-only migration authoring on top of Prisma's schema engine compiled to WebAssembly.
// The Prisma 7.10 CLI cannot run `migrate`/`db` offline (it downloads a native engine), so we
// drive @prisma/schema-engine-wasm (pinned: Prisma-internal API) with driver adapters ourselves.
// See /work/shared/STACK-NOTES.md, "(b) Prisma 7.10 + @prisma/schema-engine-wasm from code".
import { randomUUID } from "node:crypto";
import { readFile, readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_SHADOW_URL = "postgresql://postgres@127.0.0.1:54329/postgres";

/** Per engine: the schema file and the checked-in migrations folder (relative to ROOT). */
export const ENGINES = {
  postgresql: { schemaPath: "prisma/schema.prisma", migrationsDir: "prisma/migrations" },
  sqlite: { schemaPath: "prisma/sqlite/schema.prisma", migrationsDir: "prisma/sqlite/migrations" },
};

export const lockfileContent = (engine) => `provider = "${engine}"\n`;

// The package's "exports" hide package.json and the .wasm file, so locate them via the glue module.
let gluePromise;
function loadWasm() {
  gluePromise ??= (async () => {
    const gluePath = createRequire(import.meta.url).resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const glue = await import(gluePath);
    const bytes = await readFile(join(dirname(gluePath), "schema_engine_bg.wasm"));
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { "./schema_engine_bg.js": glue });
    glue.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start();
    return glue;
  })();
  return gluePromise;
}

/** The checked-in migrations as the engine's MigrationList (directories sorted by name). */
export async function readMigrations(engine, migrationsDir = ENGINES[engine].migrationsDir) {
  const baseDir = resolve(ROOT, migrationsDir);
  const entries = await readdir(baseDir, { withFileTypes: true }).catch((e) =>
    e.code === "ENOENT" ? [] : Promise.reject(e),
  );
  const dirs = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrationDirectories = await Promise.all(
    dirs.map(async (path) => {
      const content = await readFile(join(baseDir, path, "migration.sql"), "utf8").then(
        (value) => ({ tag: "ok", value }),
        (e) => ({ tag: "error", value: String(e.message) }),
      );
      return { path, migrationFile: { path: "migration.sql", content } };
    }),
  );
  const lock = await readFile(join(baseDir, "migration_lock.toml"), "utf8").catch(() => lockfileContent(engine));
  return {
    baseDir,
    lockfile: { path: "migration_lock.toml", content: lock },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

// Patch 2: the engine replays migrations into the SQLite shadow with executeRaw, and better-sqlite3
// refuses multi-statement SQL there ("contains more than one statement"). Parameterless statements
// go through executeScript (db.exec) instead.
function sqliteFactory() {
  const factory = new PrismaBetterSqlite3({ url: ":memory:" }); // shadow defaults to :memory: too
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  factory.connectToShadowDb = async () => {
    const shadow = await connectToShadowDb();
    const executeRaw = shadow.executeRaw.bind(shadow);
    shadow.executeRaw = async (q) => (q.args.length === 0 ? (await shadow.executeScript(q.sql), 0) : executeRaw(q));
    return shadow;
  };
  return { factory, cleanup: async () => {} };
}

// Patch 3: adapter-pg cannot map OID 18 (the internal one-byte `"char"` type, e.g. pg_class.relkind
// in the engine's introspection queries): "Column type 'char' could not be deserialized". Report such
// columns as text (OID 25, same text format). Patched on pg's Result class, so it covers pooled and
// transaction queries; applied lazily, in this process only (tooling never shares it with the app).
let pgCharPatched = false;
function patchPgCharType() {
  if (pgCharPatched) return;
  pgCharPatched = true;
  const addFields = pg.Result.prototype.addFields;
  pg.Result.prototype.addFields = function (fields) {
    for (const f of fields) if (f.dataTypeID === 18) f.dataTypeID = 25;
    return addFields.call(this, fields);
  };
}

async function adminQuery(adminUrl, sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

// Patch 4: adapter-pg's connectToShadowDb does `new Pool({ ...config, database })`, but a
// `connectionString` overrides `database`, so the "shadow" silently is the admin/live database; it
// also drops the database before closing its pool ("being accessed by other users"). Instead: create
// the database over an admin connection, connect to a URL naming it, close the pool before dropping.
function pgFactory(adminUrl) {
  patchPgCharType();
  const factory = new PrismaPg({ connectionString: adminUrl });
  const shadows = new Set(); // dropped again in cleanup() if the engine failed to dispose them
  const drop = async (name) => {
    shadows.delete(name);
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
  factory.connectToShadowDb = async () => {
    const name = `prisma_shadow_${randomUUID().replaceAll("-", "")}`;
    await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
    shadows.add(name);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const shadow = await new PrismaPg({ connectionString: url.href }).connect();
    // Also: adapter-pg's executeScript splits the script on every ";", which breaks migrations with
    // $$-quoted bodies or ';' in strings ("unterminated dollar-quoted string"). Send each migration
    // as one simple-protocol query instead, as the runtime runner does.
    shadow.executeScript = async (script) => {
      try {
        await shadow.underlyingDriver().query(script);
      } catch (e) {
        shadow.onError(e);
      }
    };
    const closePool = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await closePool();
      await drop(name);
    };
    return shadow;
  };
  return { factory, cleanup: () => Promise.all([...shadows].map(drop)) };
}

/**
 * SQL that takes a database built by the checked-in migrations to the current schema file of
 * `engine` ("" when nothing changes). PostgreSQL needs `shadowUrl`, an admin connection URL used to
 * create and drop a temporary shadow database. `schemaPath`/`migrationsDir` (relative to the repo
 * root or absolute) override the defaults from ENGINES, e.g. to diff against an edited copy.
 */
export async function diffMigrationsToSchema({ engine, shadowUrl, schemaPath, migrationsDir }) {
  const paths = ENGINES[engine];
  if (!paths) throw new Error(`engine must be "postgresql" or "sqlite", got ${JSON.stringify(engine)}`);
  if (engine === "postgresql" && !shadowUrl)
    throw new Error("PostgreSQL diff needs shadowUrl (an admin connection URL)");
  const schemaFile = resolve(ROOT, schemaPath ?? paths.schemaPath);
  const schema = { path: relative(ROOT, schemaFile), content: await readFile(schemaFile, "utf8") };
  const migrations = await readMigrations(engine, migrationsDir ?? paths.migrationsDir);

  const { factory, cleanup } = engine === "sqlite" ? sqliteFactory() : pgFactory(shadowUrl);
  // Track the main connections the engine opens so their pools are closed and the process can exit.
  const opened = [];
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const dispose = adapter.dispose.bind(adapter);
    let disposed;
    adapter.dispose = () => (disposed ??= dispose());
    opened.push(adapter);
    return adapter;
  };

  const glue = await loadWasm();
  const log = process.env.SCHEMA_ENGINE_DEBUG ? (line) => console.error("[schema-engine]", line) : () => {};
  let schemaEngine;
  try {
    schemaEngine = await glue.SchemaEngine.new(
      { datamodels: [[schema.path, schema.content]] },
      log,
      bindMigrationAwareSqlAdapterFactory(factory),
    );
    // Patch 1: createMigration() gets no shadow factory ("SQLite shadow DB must be provided through
    // an external factory"); diff(from: migrations, to: schema) replays them into a shadow itself.
    const result = await schemaEngine.diff({
      from: { tag: "migrations", ...migrations },
      to: { tag: "schemaDatamodel", files: [schema] },
      script: true,
      exitCode: true, // 2 = there are changes, 0 = none
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.exitCode === 2 ? (result.stdout ?? "") : "";
  } finally {
    schemaEngine?.free();
    await Promise.all(opened.map((a) => a.dispose()));
    await cleanup();
  }
}
