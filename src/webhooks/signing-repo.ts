import type { SigningKey } from "../generated/prisma/client.js";
import type { Db } from "../db/client.js";
import { inTransaction, isUniqueViolation, type Queryable, type Tx } from "../db/tx.js";

/** The only database access for webhook signing keys. Rows hold the public key and the encrypted private key. */
export type SigningKeyRecord = SigningKey;

export interface NewSigningKey {
  id: string;
  publicKey: string;
  encryptedPrivateKey: string;
}

const ACTIVE = "active";
const MAX_ROTATION_ATTEMPTS = 5;

export function findActiveSigningKey(db: Queryable): Promise<SigningKeyRecord | null> {
  return db.signingKey.findUnique({ where: { activeSlot: ACTIVE } });
}

/** The active key's id only: the cheap check an instance runs to notice a rotation it was not told about. */
export async function activeSigningKeyId(db: Queryable): Promise<string | null> {
  const row = await db.signingKey.findUnique({ where: { activeSlot: ACTIVE }, select: { id: true } });
  return row?.id ?? null;
}

/**
 * Inserts `key` as the active key unless one exists. Several instances starting on an empty database
 * race here; the unique index on activeSlot lets one insert win and the others read the winner.
 */
export async function insertFirstActiveSigningKey(db: Db, key: NewSigningKey): Promise<SigningKeyRecord> {
  try {
    return await db.signingKey.create({ data: { ...key, activeSlot: ACTIVE } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await findActiveSigningKey(db);
    if (!winner) throw new Error("signing key creation lost a race but no active key exists", { cause: error });
    return winner;
  }
}

/**
 * Retires the active key (activeSlot null, retiredAt now) and makes `key` active, in one transaction,
 * which `alsoWrite` joins (the rotation's audit event). A concurrent rotation that commits first makes this
 * one's insert hit the unique index: it retries, retiring that key in turn, so the last rotation wins and
 * exactly one key stays active.
 */
export async function rotateSigningKey(
  db: Db,
  key: NewSigningKey,
  now: Date,
  alsoWrite: (tx: Tx, retiredKeyId: string | null) => Promise<void>,
): Promise<{ retired: string | null; created: SigningKeyRecord }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(db, async (tx) => {
        const current = await tx.signingKey.findUnique({ where: { activeSlot: ACTIVE }, select: { id: true } });
        if (current) {
          await tx.signingKey.updateMany({
            where: { id: current.id, activeSlot: ACTIVE },
            data: { activeSlot: null, retiredAt: now },
          });
        }
        const created = await tx.signingKey.create({ data: { ...key, activeSlot: ACTIVE, createdAt: now } });
        await alsoWrite(tx, current?.id ?? null);
        return { retired: current?.id ?? null, created };
      });
    } catch (error) {
      if (attempt >= MAX_ROTATION_ATTEMPTS || !isUniqueViolation(error)) throw error;
    }
  }
}
