import { execFile, spawn } from "node:child_process";
import { createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { ConfigError, loadConfig } from "../../src/config.js";
import { openDatabase } from "../../src/db/client.js";
import { migrate } from "../../src/db/migrate.js";
import { createInProcessBus } from "../../src/events/bus.js";
import { loggerOptions } from "../../src/log.js";
import { decryptPrivateKey, SigningKeyRotationRefused, SigningKeyService } from "../../src/webhooks/signing.js";
import { verifyWebhook } from "@ramp-gateway/webhook-receiver";
import { startTestApp, type TestApp } from "../support/app.js";
import { freshDatabase, testEngine, type TestDatabase } from "../support/database.js";
import { LOG_DIR, rememberSecret } from "../support/secrets.js";
import { waitFor } from "../support/kit.js";

/**
 * The webhook signing key (CONTRACT.md, Webhooks; issue 5): created once per database and stored
 * encrypted, or taken from SIGNING_PRIVATE_KEY; the same for every instance; rotated by the operator CLI;
 * served by GET /v1/public-key with caching headers; signatures verified by verifyWebhook and openssl.
 *
 * Rotation across instances: on PostgreSQL the rotating process announces it over LISTEN/NOTIFY and every
 * instance reloads. On SQLite each process has its own in-process bus, so another process (a second app
 * here, the running server when the operator CLI rotates) learns of it from its periodic check of the
 * active key id (SigningKeyService.refresh, every KEY_REFRESH_INTERVAL_MS); the tests call that check
 * directly instead of waiting for the interval.
 */

const engine = testEngine();
const CLI = fileURLToPath(new URL("../../dist/cli/admin.js", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const INHERITED_ENV = ["PATH", "HOME", "TMPDIR", "LANG", "TZ", "SYSTEMROOT"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PEM_PUBLIC = /^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+-----END PUBLIC KEY-----\n$/;

/** Every base64 line of a PEM (long enough to be unambiguous) goes to the log audit. */
function rememberPem(pem: string): string {
  for (const line of pem.split("\n")) if (line.length >= 20 && !line.startsWith("-----")) rememberSecret(line);
  return pem;
}

async function servedKey(t: TestApp): Promise<string> {
  const response = await t.request("GET", "/v1/public-key");
  expect(response.status).toBe(200);
  return response.body.publicKey as string;
}

/** What another instance does to pick up a rotation: the bus on PostgreSQL, the periodic check on SQLite. */
async function expectServes(t: TestApp, publicKey: string): Promise<void> {
  if (engine === "sqlite") await t.app.signingKeys.refresh();
  await waitFor(
    () => servedKey(t),
    (served) => served === publicKey,
    "the other instance to serve the rotated key",
  );
}

let cliRuns = 0;
const cliLog = join(LOG_DIR, `integration-signing-cli-${engine}-${process.pid}.log`);

/** The operator CLI (dist/cli/admin.js, from `npm run build`) against `database`; stdout and stderr go to the log audit. */
function runCli(database: TestDatabase, args: string[], extraEnv: Record<string, string> = {}) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name] as string;
  Object.assign(env, { DATA_DIR: database.dataDir, ...(database.url && { DATABASE_URL: database.url }), ...extraEnv });
  const run = ++cliRuns;
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`admin ${args.join(" ")} did not exit in time\n${stdout}\n${stderr}`));
    }, 30_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      mkdirSync(LOG_DIR, { recursive: true });
      appendFileSync(cliLog, `--- run ${run} (${args.join(" ")}): exit ${code}\n${stdout}\n${stderr}\n`);
      resolve({ code, stdout, stderr });
    });
  });
}

function appLog() {
  mkdirSync(LOG_DIR, { recursive: true });
  return pino(
    loggerOptions("info"),
    pino.destination({
      dest: join(LOG_DIR, `integration-signing-${engine}-${process.pid}-${randomBytes(4).toString("hex")}.log`),
      sync: true,
    }),
  );
}

/** createApp on `database` with extra settings (no HTTP server, no SMTP): for start-up failures. */
function createAppOn(database: TestDatabase, env: Record<string, string>) {
  const config = loadConfig({
    DATA_DIR: database.dataDir,
    LOG_LEVEL: "info",
    ...(database.url && { DATABASE_URL: database.url }),
    ...env,
  });
  return createApp(config, appLog());
}

/** The operator rotations are made for in-process (the CLI names its OS account). */
const OPERATOR = { channel: "cli", osUser: "signing-key-test" } as const;

let t: TestApp;
let second: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  second = await startTestApp({}, { database: t.database });
  rememberSecret(t.app.config.webhooks.signingKeyEncryptionKey);
});

afterAll(async () => {
  await second?.close();
  await t?.close();
});

describe("the stored signing key", () => {
  it("is created once, encrypted at rest, and served identically by a second instance on the same database", async () => {
    const rows = await t.app.db.signingKey.findMany();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ activeSlot: "active", retiredAt: null });
    expect(row!.id).toMatch(UUID);

    const publicKey = await servedKey(t);
    expect(publicKey).toMatch(PEM_PUBLIC);
    expect(await servedKey(second)).toBe(publicKey);
    expect(row!.publicKey).toBe(publicKey);

    // The column holds ciphertext only: no PEM, and not the PKCS#8 key in any plain encoding.
    const privateKey = decryptPrivateKey(
      row!.encryptedPrivateKey,
      t.app.config.webhooks.signingKeyEncryptionKey,
      row!.id,
    );
    const pkcs8Pem = rememberPem(privateKey.export({ format: "pem", type: "pkcs8" }).toString());
    const pkcs8Der = privateKey.export({ format: "der", type: "pkcs8" });
    expect(row!.encryptedPrivateKey).not.toMatch(/PRIVATE KEY/);
    expect(row!.encryptedPrivateKey).not.toContain(pkcs8Der.toString("base64").slice(40, 100));
    expect(row!.encryptedPrivateKey).not.toContain(pkcs8Der.toString("hex").slice(80, 200));
    expect(row!.encryptedPrivateKey).not.toContain(pkcs8Pem.split("\n")[2]);
    expect(createPublicKey(privateKey).export({ format: "pem", type: "spki" })).toBe(publicKey);

    // Signatures of one instance verify with the key the other serves.
    const rawBody = JSON.stringify(sampleEvent());
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = await t.app.signingKeys.sign(timestamp, rawBody);
    expect(
      verifyWebhook({ publicKey: await servedKey(second), timestamp: String(timestamp), signature, rawBody }).eventType,
    ).toBe("STATUS_CHANGE");
  });

  it("survives a restart: a new instance after the others closed loads the same key", async () => {
    const publicKey = await servedKey(t);
    const restarted = await startTestApp({}, { database: t.database });
    try {
      expect(await servedKey(restarted)).toBe(publicKey);
      expect(await restarted.app.db.signingKey.count()).toBe(1);
    } finally {
      await restarted.close();
    }
  });

  it("two instances starting at once on an empty database end with one key", async () => {
    const database = await freshDatabase();
    const apps: TestApp[] = [];
    try {
      const started = await Promise.allSettled([startTestApp({}, { database }), startTestApp({}, { database })]);
      for (const result of started) if (result.status === "fulfilled") apps.push(result.value);
      expect(started.map((result) => result.status)).toEqual(["fulfilled", "fulfilled"]);
      const rows = await apps[0]!.app.db.signingKey.findMany();
      expect(rows).toHaveLength(1);
      expect(await servedKey(apps[0]!)).toBe(rows[0]!.publicKey);
      expect(await servedKey(apps[1]!)).toBe(rows[0]!.publicKey);
    } finally {
      for (const app of apps) await app.close();
      await database.drop();
    }
  });

  it("several services racing to create the key on one database agree on one key", async () => {
    const database = await freshDatabase();
    await migrate(database.config);
    const { db, close } = await openDatabase(database.config);
    const log = appLog();
    const encryptionKey = rememberSecret(randomBytes(32).toString("base64url"));
    const services = Array.from(
      { length: 4 },
      () => new SigningKeyService(db, createInProcessBus(log), { encryptionKey }, log),
    );
    try {
      await Promise.all(services.map((service) => service.start()));
      const rows = await db.signingKey.findMany();
      expect(rows).toHaveLength(1);
      for (const service of services) expect(service.publicKey()).toBe(rows[0]!.publicKey);
    } finally {
      services.forEach((service) => service.close());
      await close();
      await database.drop();
    }
  });

  it("a wrong SIGNING_KEY_ENCRYPTION_KEY stops start-up with a clear error (app and CLI)", async () => {
    const wrong = rememberSecret(`wrong-${randomBytes(24).toString("base64url")}`);
    const attempt = createAppOn(t.database, { SIGNING_KEY_ENCRYPTION_KEY: wrong });
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toThrow(
      /SIGNING_KEY_ENCRYPTION_KEY cannot decrypt the stored webhook signing key [0-9a-f-]{36}/,
    );

    const cli = await runCli(t.database, ["signing-key", "show"], { SIGNING_KEY_ENCRYPTION_KEY: wrong });
    expect(cli.code).toBe(78);
    expect(cli.stderr).toMatch(/SIGNING_KEY_ENCRYPTION_KEY cannot decrypt the stored webhook signing key/);
    expect(cli.stdout).toBe("");
    // Nothing was replaced: the stored key is intact.
    expect(await t.app.db.signingKey.count()).toBe(1);
  });
});

describe("rotation", () => {
  it("the operator CLI shows the key, rotates it (printing only id and createdAt), and every instance follows", async () => {
    const before = await servedKey(t);
    const shown = await runCli(t.database, ["signing-key", "show"]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).signingKey).toMatchObject({ source: "database", publicKey: before });

    const rotated = await runCli(t.database, ["signing-key", "rotate"]);
    expect(rotated.code, rotated.stderr).toBe(0);
    const printed = JSON.parse(rotated.stdout);
    expect(Object.keys(printed.signingKey).sort()).toEqual(["createdAt", "id"]);
    expect(printed.signingKey.id).toMatch(UUID);
    expect(printed.signingKey.createdAt).toMatch(ISO);
    expect(rotated.stdout + rotated.stderr).not.toMatch(/PRIVATE KEY/);

    const active = await t.app.db.signingKey.findUniqueOrThrow({ where: { activeSlot: "active" } });
    expect(active.id).toBe(printed.signingKey.id);
    expect(active.publicKey).not.toBe(before);
    const retired = await t.app.db.signingKey.findFirstOrThrow({ where: { publicKey: before } });
    expect(retired.activeSlot).toBeNull();
    expect(retired.retiredAt).toBeInstanceOf(Date);
    // The audit log names the CLI's OS account and both keys.
    const audited = await runCli(t.database, ["audit-events", "--action", "signing-key.rotated"]);
    expect(audited.code, audited.stderr).toBe(0);
    expect(JSON.parse(audited.stdout).events[0]).toMatchObject({
      actor: { channel: "cli", requestId: null, clientAddress: null, osUser: userInfo().username },
      action: "signing-key.rotated",
      targetType: "signing-key",
      targetId: active.id,
      details: { retiredKeyId: retired.id },
    });

    await expectServes(t, active.publicKey);
    await expectServes(second, active.publicKey);
    expect(t.app.signingKeys.info().id).toBe(active.id);
  });

  it("a rotation by one instance changes the key served by both", async () => {
    const before = await servedKey(second);
    const info = await t.app.signingKeys.rotate(OPERATOR);
    expect(info.publicKey).not.toBe(before);
    expect(await servedKey(t)).toBe(info.publicKey);
    await expectServes(second, info.publicKey);
    expect(second.app.signingKeys.info().id).toBe(info.id);

    // The other instance signs with the new key too.
    const rawBody = JSON.stringify(sampleEvent());
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = await second.app.signingKeys.sign(timestamp, rawBody);
    expect(verifyWebhook({ publicKey: info.publicKey, timestamp, signature, rawBody })).toMatchObject({
      payload: { transactionStatus: "COMPLETE" },
    });
    expect(() => verifyWebhook({ publicKey: before, timestamp, signature, rawBody })).toThrow(/signature check failed/);

    expect(await t.app.db.signingKey.count({ where: { activeSlot: "active" } })).toBe(1);
  });

  it("concurrent rotations leave exactly one active key, which every instance ends up serving", async () => {
    const results = await Promise.all([
      t.app.signingKeys.rotate(OPERATOR),
      second.app.signingKeys.rotate(OPERATOR),
      t.app.signingKeys.rotate(OPERATOR),
    ]);
    const active = await t.app.db.signingKey.findMany({ where: { activeSlot: "active" } });
    expect(active).toHaveLength(1);
    expect(results.map((result) => result.id)).toContain(active[0]!.id);
    await expectServes(t, active[0]!.publicKey);
    await expectServes(second, active[0]!.publicKey);
  });
});

describe("GET /v1/public-key", () => {
  it("serves the key and algorithm with caching headers; answers 304 to a matching If-None-Match", async () => {
    const response = await t.request("GET", "/v1/public-key");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      publicKey: expect.stringMatching(PEM_PUBLIC),
      algorithm: "RSA-PSS",
      hash: "SHA-256",
      saltLength: 32,
    });
    expect(response.headers["cache-control"]).toBe("public, max-age=300");
    const etag = response.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{16,}"$/);
    // The key is a 2048-bit RSA key.
    const key = createPublicKey(response.body.publicKey);
    expect(key.asymmetricKeyType).toBe("rsa");
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);

    // The same ETag from the other instance (derived from the key, not the process).
    expect((await second.request("GET", "/v1/public-key")).headers.etag).toBe(etag);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"something-else", ${etag}`, "*"]) {
      const notModified = await t.request("GET", "/v1/public-key", { headers: { "if-none-match": ifNoneMatch } });
      expect(notModified.status, ifNoneMatch).toBe(304);
      expect(notModified.body).toBeUndefined();
      expect(notModified.headers.etag).toBe(etag);
      expect(notModified.headers["cache-control"]).toBe("public, max-age=300");
    }
    const changed = await t.request("GET", "/v1/public-key", { headers: { "if-none-match": '"stale"' } });
    expect(changed.status).toBe(200);
    expect(changed.body.publicKey).toBe(response.body.publicKey);

    // After a rotation the old ETag no longer matches.
    const rotated = await t.app.signingKeys.rotate(OPERATOR);
    const fresh = await t.request("GET", "/v1/public-key", { headers: { "if-none-match": etag } });
    expect(fresh.status).toBe(200);
    expect(fresh.body.publicKey).toBe(rotated.publicKey);
    expect(fresh.headers.etag).not.toBe(etag);
    await expectServes(second, rotated.publicKey);
  });

  it("is public: anonymous callers, public and secret keys and sessions all get it; a broken credential is refused", async () => {
    const session = await t.signIn();
    const credential = await t.createCredential(session.headers);
    const publicKey = await servedKey(t);
    for (const headers of [
      {},
      session.headers,
      { "x-public-key": credential.publicKey },
      { "x-api-key": credential.secretKey },
    ]) {
      const response = await t.request("GET", "/v1/public-key", { headers });
      expect(response.status).toBe(200);
      expect(response.body.publicKey).toBe(publicKey);
    }
    const broken = await t.request("GET", "/v1/public-key", { headers: { "x-api-key": "sk_test_short" } });
    expect(broken.status).toBe(401);
    expect(broken.body.error.code).toBe("INVALID_SECRET_KEY");
  });

  it("is documented in the OpenAPI document", async () => {
    const document = await t.request("GET", "/v1/openapi.json");
    expect(document.body.paths["/v1/public-key"].get.responses).toHaveProperty("200");
  });
});

describe("openssl verifies the service's signatures", () => {
  it("Verified OK for a signed body against the served PEM; a tampered file fails", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ramp-gateway-openssl-"));
    try {
      const rawBody = JSON.stringify(sampleEvent());
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = await t.app.signingKeys.sign(timestamp, rawBody);
      writeFileSync(join(dir, "pub.pem"), await servedKey(second));
      writeFileSync(join(dir, "data.txt"), `${timestamp}.${rawBody}`, "utf8");
      writeFileSync(join(dir, "sig.bin"), Buffer.from(signature, "base64"));
      writeFileSync(join(dir, "tampered.txt"), `${timestamp}.${rawBody.replace("COMPLETE", "FAILED")}`, "utf8");
      const openssl = (file: string) =>
        promisify(execFile)(
          "openssl",
          [
            "dgst",
            "-sha256",
            "-sigopt",
            "rsa_padding_mode:pss",
            "-sigopt",
            "rsa_pss_saltlen:32",
            "-verify",
            "pub.pem",
            "-signature",
            "sig.bin",
            file,
          ],
          { cwd: dir },
        ).then(
          ({ stdout }) => ({ ok: true, stdout }),
          (error: { stdout?: string; code?: number }) => ({ ok: false, stdout: error.stdout ?? "", code: error.code }),
        );
      const verified = await openssl("data.txt");
      expect(verified).toEqual({ ok: true, stdout: "Verified OK\n" });
      const tampered = await openssl("tampered.txt");
      expect(tampered.ok).toBe(false);
      expect(tampered.stdout).toMatch(/Verification failure/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("SIGNING_PRIVATE_KEY from configuration", () => {
  it("is used as is, never stored, and cannot be rotated", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pem = rememberPem(privateKey.export({ format: "pem", type: "pkcs8" }).toString());
    const expected = createPublicKey(privateKey).export({ format: "pem", type: "spki" }).toString();
    const configured = await startTestApp({ SIGNING_PRIVATE_KEY: pem });
    try {
      expect(await servedKey(configured)).toBe(expected);
      expect(configured.app.signingKeys.info()).toMatchObject({ source: "configuration", createdAt: null });
      expect(await configured.app.db.signingKey.count()).toBe(0);

      const rawBody = JSON.stringify(sampleEvent());
      const timestamp = Math.floor(Date.now() / 1000);
      expect(
        verifyWebhook({
          publicKey: expected,
          timestamp,
          signature: await configured.app.signingKeys.sign(timestamp, rawBody),
          rawBody,
        }).eventId,
      ).toBeTruthy();

      await expect(configured.app.signingKeys.rotate(OPERATOR)).rejects.toBeInstanceOf(SigningKeyRotationRefused);
      const cli = await runCli(configured.database, ["signing-key", "rotate"], { SIGNING_PRIVATE_KEY: pem });
      expect(cli.code).toBe(1);
      expect(cli.stderr).toMatch(/^refused: .*SIGNING_PRIVATE_KEY/);
      expect(cli.stdout).toBe("");
      expect(await configured.app.db.signingKey.count()).toBe(0);
      // A refused rotation is no change: nothing is audited.
      expect(await configured.app.db.auditEvent.count()).toBe(0);
      expect(await servedKey(configured)).toBe(expected);
    } finally {
      await configured.close();
    }
  });

  it("must be an RSA key of at least 2048 bits", async () => {
    const weak = rememberPem(
      generateKeyPairSync("rsa", { modulusLength: 1024 })
        .privateKey.export({ format: "pem", type: "pkcs8" })
        .toString(),
    );
    const ec = rememberPem(
      generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    );
    for (const [pem, reason] of [
      [weak, /SIGNING_PRIVATE_KEY must be an RSA private key of at least 2048 bits \(found rsa, 1024 bits\)/],
      [ec, /SIGNING_PRIVATE_KEY must be an RSA private key of at least 2048 bits \(found ec/],
      [
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
        /SIGNING_PRIVATE_KEY is not a readable, unencrypted PEM private key/,
      ],
    ] as const) {
      const database = await freshDatabase();
      try {
        const attempt = createAppOn(database, { SIGNING_PRIVATE_KEY: pem });
        await expect(attempt).rejects.toBeInstanceOf(ConfigError);
        await expect(attempt).rejects.toThrow(reason);
      } finally {
        await database.drop();
      }
    }
  });
});

function sampleEvent() {
  return {
    eventId: "6f1c0c5e-0d7a-4b8e-9d61-3f0a7c1b2e4d",
    eventType: "STATUS_CHANGE",
    timestamp: new Date().toISOString(),
    payload: {
      quoteId: "0b7f6c2e-6c1e-4a57-9a0e-2d1f4b8c9e10",
      transactionId: "8a2d4f6b-1c3e-4d5f-8a9b-0c1d2e3f4a5b",
      sessionId: null,
      transactionStatus: "COMPLETE",
      transactionType: "BUY",
    },
  };
}
