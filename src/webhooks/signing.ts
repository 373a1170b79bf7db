import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  hkdfSync,
  randomBytes,
  randomUUID,
  sign as cryptoSign,
  type KeyObject,
} from "node:crypto";
import { promisify } from "node:util";
import type { Logger } from "pino";
import { recordOperatorChange } from "../audit/service.js";
import type { OperatorActor } from "../audit/types.js";
import { ConfigError } from "../config.js";
import type { Db } from "../db/client.js";
import type { EventBus } from "../events/bus.js";
import {
  activeSigningKeyId,
  findActiveSigningKey,
  insertFirstActiveSigningKey,
  rotateSigningKey,
  type SigningKeyRecord,
} from "./signing-repo.js";

/**
 * The webhook signature (CONTRACT.md, Webhooks): RSA-PSS with SHA-256, MGF1 with SHA-256 (Node and
 * OpenSSL use the message digest for MGF1), salt length 32, over the UTF-8 string `<timestamp>.<raw body>`.
 */
export const SIGNATURE_SCHEME = { algorithm: "RSA-PSS", hash: "SHA-256", saltLength: 32 } as const;
const MIN_MODULUS_BITS = 2048;
/** How often an instance checks the database for a rotation no bus message told it about. */
const KEY_REFRESH_INTERVAL_MS = 60_000;

const generateRsaKeyPair = promisify(generateKeyPair);

/** The exact bytes that are signed. */
export function signedPayload(timestamp: number, rawBody: string): Buffer {
  return Buffer.from(`${timestamp}.${rawBody}`, "utf8");
}

/**
 * Base64 RSA-PSS signature of `<timestamp>.<rawBody>` with `privateKey`, computed on libuv's thread pool:
 * at about half a millisecond each, signatures would otherwise hold up every request while deliveries run.
 */
export function signWithKey(privateKey: KeyObject, timestamp: number, rawBody: string): Promise<string> {
  return new Promise((resolve, reject) =>
    cryptoSign(
      "sha256",
      signedPayload(timestamp, rawBody),
      { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: SIGNATURE_SCHEME.saltLength },
      (error, signature) => (error ? reject(error) : resolve(signature.toString("base64"))),
    ),
  );
}

/** An RSA key pair of MIN_MODULUS_BITS bits (generated off the event loop). */
export async function generateSigningKeyPair(): Promise<{ privateKey: KeyObject; publicKey: KeyObject }> {
  return generateRsaKeyPair("rsa", { modulusLength: MIN_MODULUS_BITS, publicExponent: 0x10001 });
}

// --- Encryption at rest -------------------------------------------------------------------------------------

const ENCRYPTION_VERSION = "v1";
const HKDF_SALT = "ramp-gateway/webhook-signing-key";
const HKDF_INFO = "aes-256-gcm private key encryption v1";

function encryptionKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), HKDF_SALT, HKDF_INFO, 32));
}

/**
 * The private key as PKCS#8 DER encrypted with AES-256-GCM under a key derived (HKDF-SHA256, fixed
 * salt and info) from SIGNING_KEY_ENCRYPTION_KEY; the key id is authenticated data, so a ciphertext
 * cannot be moved to another row. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64).
 */
export function encryptPrivateKey(privateKey: KeyObject, secret: string, keyId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(secret), iv);
  cipher.setAAD(Buffer.from(keyId, "utf8"));
  const der = privateKey.export({ format: "der", type: "pkcs8" });
  const ciphertext = Buffer.concat([cipher.update(der), cipher.final()]);
  der.fill(0);
  return [ENCRYPTION_VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (Buffer.isBuffer(part) ? part.toString("base64") : part))
    .join(".");
}

export class SigningKeyDecryptionError extends Error {}

/** The inverse of encryptPrivateKey; a wrong secret or an altered value fails authentication (never yields a key). */
export function decryptPrivateKey(stored: string, secret: string, keyId: string): KeyObject {
  const [version, iv, tag, ciphertext] = stored.split(".");
  if (version !== ENCRYPTION_VERSION || !iv || !tag || !ciphertext)
    throw new SigningKeyDecryptionError("unknown encrypted key format");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(secret), Buffer.from(iv, "base64"));
  decipher.setAAD(Buffer.from(keyId, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  let der: Buffer;
  try {
    der = Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]);
  } catch {
    throw new SigningKeyDecryptionError("authentication failed");
  }
  try {
    return createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  } finally {
    der.fill(0);
  }
}

// --- The service ---------------------------------------------------------------------------------------------

/** The key in use: what signs and what GET /v1/public-key serves. */
export interface SigningKeyInfo {
  id: string;
  /** SPKI PEM. */
  publicKey: string;
  /** Null for a key from configuration. */
  createdAt: Date | null;
  /** "configuration": SIGNING_PRIVATE_KEY (never stored, never rotated here); "database": created and stored encrypted. */
  source: "configuration" | "database";
  /** Strong HTTP entity tag derived from the public key. */
  etag: string;
}

interface LoadedKey extends SigningKeyInfo {
  privateKey: KeyObject;
}

/** Rotation is refused while the key comes from SIGNING_PRIVATE_KEY: change the setting instead. */
export class SigningKeyRotationRefused extends Error {}

export interface SigningKeyOptions {
  /** SIGNING_KEY_ENCRYPTION_KEY (or the development secret). */
  encryptionKey: string;
  /** SIGNING_PRIVATE_KEY: when set, the only key, used as is. */
  configuredPrivateKey?: string;
  refreshIntervalMs?: number;
}

function etagOf(publicKeyPem: string): string {
  return `"${createHash("sha256").update(publicKeyPem).digest("base64url").slice(0, 32)}"`;
}

function checkRsaKey(key: KeyObject, what: string): void {
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== "rsa" || bits < MIN_MODULUS_BITS) {
    throw new ConfigError(
      `${what} must be an RSA private key of at least ${MIN_MODULUS_BITS} bits (found ${key.asymmetricKeyType ?? "unknown"}, ${bits} bits)`,
    );
  }
}

/**
 * The webhook signing key of every instance: SIGNING_PRIVATE_KEY when configured, else the active key of
 * the database (created once, stored encrypted). Cached in memory; reloaded when a rotation is announced
 * on the bus, after a bus resync, and when the periodic check sees another active key (this covers
 * instances the bus does not reach: the operator CLI on SQLite is a separate process).
 */
export class SigningKeyService {
  private current: LoadedKey | undefined;
  /**
   * Reads of the active key are numbered when they start; a result replaces the cached key only if no
   * later-started read (or local rotation) was applied already, so a slow read cannot bring back a retired key.
   */
  private readsStarted = 0;
  private readApplied = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly options: SigningKeyOptions,
    private readonly log: Logger,
  ) {}

  /** Loads (or creates) the key. A key that cannot be read is a configuration error, raised here at start-up. */
  async start(): Promise<void> {
    if (this.current) return;
    if (this.options.configuredPrivateKey !== undefined) {
      this.current = this.fromConfiguration(this.options.configuredPrivateKey);
      this.log.info({ signingKeyId: this.current.id, source: "configuration" }, "webhook signing key loaded");
      return;
    }
    // Listen first, so a rotation announced while the key loads is not missed.
    this.unsubscribe.push(
      this.bus.subscribe("signingKeyRotated", ({ keyId }) => {
        if (keyId !== this.current?.id) void this.reload();
      }),
      this.bus.onResync(() => void this.reload()),
    );
    try {
      this.apply(++this.readsStarted, await this.loadActive());
    } catch (error) {
      this.close();
      throw error;
    }
    this.log.info({ signingKeyId: this.loaded().id, source: "database" }, "webhook signing key loaded");
    this.timer = setInterval(() => void this.refresh(), this.options.refreshIntervalMs ?? KEY_REFRESH_INTERVAL_MS);
    this.timer.unref();
  }

  /** Base64 RSA-PSS signature over `<timestamp>.<rawBody>` (timestamp in Unix seconds). */
  sign(timestamp: number, rawBody: string): Promise<string> {
    return signWithKey(this.loaded().privateKey, timestamp, rawBody);
  }

  /** The SPKI PEM receivers verify with. */
  publicKey(): string {
    return this.loaded().publicKey;
  }

  info(): SigningKeyInfo {
    const { privateKey: _private, ...info } = this.loaded();
    return info;
  }

  /**
   * Retires the active key and makes a new one active (one transaction, with the operator's audit event),
   * then tells every instance. Deliveries signed before the switch verify only with the old public key.
   */
  async rotate(operator: OperatorActor): Promise<SigningKeyInfo> {
    if (this.options.configuredPrivateKey !== undefined) {
      throw new SigningKeyRotationRefused(
        "the signing key comes from SIGNING_PRIVATE_KEY; rotate it by changing that setting on every instance",
      );
    }
    const id = randomUUID();
    const { privateKey } = await generateSigningKeyPair();
    const { retired, created } = await rotateSigningKey(
      this.db,
      {
        id,
        publicKey: this.publicPem(privateKey),
        encryptedPrivateKey: encryptPrivateKey(privateKey, this.options.encryptionKey, id),
      },
      new Date(),
      (tx, retiredKeyId) =>
        recordOperatorChange(tx, operator, {
          action: "signing-key.rotated",
          targetType: "signing-key",
          targetId: id,
          details: { retiredKeyId },
        }),
    );
    this.apply(++this.readsStarted, this.decrypt(created));
    this.log.info({ signingKeyId: created.id, retiredSigningKeyId: retired }, "webhook signing key rotated");
    await this.bus.publish("signingKeyRotated", { keyId: created.id });
    return this.info();
  }

  /** Reloads when the database's active key is not the cached one (the periodic check; callable directly). */
  async refresh(): Promise<void> {
    if (!this.current || this.current.source === "configuration") return;
    try {
      const activeId = await activeSigningKeyId(this.db);
      if (activeId !== null && activeId !== this.current.id) await this.reload();
    } catch (error) {
      this.log.warn({ err: error }, "signing key check failed; keeping the cached key");
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.unsubscribe.splice(0).forEach((unsubscribe) => unsubscribe());
  }

  private loaded(): LoadedKey {
    if (!this.current) throw new Error("the webhook signing key is not loaded: call start() first");
    return this.current;
  }

  /** Reads the active key again; on failure the cached key stays in use. */
  private async reload(): Promise<void> {
    const read = ++this.readsStarted;
    try {
      const key = await this.loadActive();
      if (this.apply(read, key)) this.log.info({ signingKeyId: key.id }, "webhook signing key reloaded");
    } catch (error) {
      this.log.error({ err: error }, "webhook signing key reload failed; keeping the cached key");
    }
  }

  private apply(read: number, key: LoadedKey): boolean {
    if (read <= this.readApplied) return false;
    this.readApplied = read;
    const changed = key.id !== this.current?.id;
    this.current = key;
    return changed;
  }

  private async loadActive(): Promise<LoadedKey> {
    const existing = await findActiveSigningKey(this.db);
    if (existing) return this.decrypt(existing);
    const id = randomUUID();
    const { privateKey } = await generateSigningKeyPair();
    const stored = await insertFirstActiveSigningKey(this.db, {
      id,
      publicKey: this.publicPem(privateKey),
      encryptedPrivateKey: encryptPrivateKey(privateKey, this.options.encryptionKey, id),
    });
    if (stored.id === id) this.log.info({ signingKeyId: id }, "webhook signing key created");
    return this.decrypt(stored);
  }

  private decrypt(row: SigningKeyRecord): LoadedKey {
    let privateKey: KeyObject;
    try {
      privateKey = decryptPrivateKey(row.encryptedPrivateKey, this.options.encryptionKey, row.id);
    } catch (error) {
      if (!(error instanceof SigningKeyDecryptionError)) throw error;
      throw new ConfigError(
        `SIGNING_KEY_ENCRYPTION_KEY cannot decrypt the stored webhook signing key ${row.id} (created ${row.createdAt.toISOString()}): ` +
          "it is not the value the key was encrypted with. Restore that value (or set SIGNING_PRIVATE_KEY).",
      );
    }
    checkRsaKey(privateKey, `stored signing key ${row.id}`);
    const publicKey = this.publicPem(privateKey);
    if (publicKey !== row.publicKey)
      throw new ConfigError(`stored webhook signing key ${row.id}: the public key does not match the private key`);
    return { id: row.id, publicKey, createdAt: row.createdAt, source: "database", etag: etagOf(publicKey), privateKey };
  }

  private fromConfiguration(pem: string): LoadedKey {
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey({ key: pem, format: "pem" });
    } catch {
      throw new ConfigError("SIGNING_PRIVATE_KEY is not a readable, unencrypted PEM private key");
    }
    checkRsaKey(privateKey, "SIGNING_PRIVATE_KEY");
    const publicKey = this.publicPem(privateKey);
    const der = createPublicKey(privateKey).export({ format: "der", type: "spki" });
    const id = `config-${createHash("sha256").update(der).digest("hex").slice(0, 16)}`;
    return { id, publicKey, createdAt: null, source: "configuration", etag: etagOf(publicKey), privateKey };
  }

  private publicPem(privateKey: KeyObject): string {
    return createPublicKey(privateKey).export({ format: "pem", type: "spki" }).toString();
  }
}
