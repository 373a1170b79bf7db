import { createHash, randomUUID } from "node:crypto";
import { z } from "zod";
import { isUniqueViolation } from "../db/tx.js";
import { AppError, type ErrorCode, type FieldIssue } from "../errors.js";
import type { HeldClaim, IdempotencyRepository } from "./repo.js";

/** A response worth replaying: its status and JSON body. */
export interface StoredResponse<T> {
  status: number;
  body: T;
}

/** `Idempotency-Key`: 1 to 128 visible ASCII characters (CONTRACT.md). */
const KEY = /^[\x21-\x7e]{1,128}$/;
/** An idempotency key in an operation's input, as a face read and checked it (`idempotencyKey`). */
export const idempotencyKeyText = z.string().max(128).regex(KEY);
/** How long a first request may run before its claim counts as abandoned (its process died mid-request). */
const CLAIM_MS = 60_000;

/** The Idempotency-Key header as sent, checked; IDEMPOTENCY_KEY_REQUIRED when missing or malformed. */
export function idempotencyKey(header: unknown): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== "string" || !KEY.test(value)) {
    throw new AppError("IDEMPOTENCY_KEY_REQUIRED", "Idempotency-Key must be 1 to 128 visible ASCII characters.");
  }
  return value;
}

/** A stable digest of a JSON body: the same fields in any order hash alike. */
export function requestHash(body: unknown): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value !== null && typeof value === "object"
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
          )
        : value;
  return createHash("sha256")
    .update(JSON.stringify(canonical(body)))
    .digest("hex");
}

/**
 * Idempotent requests (CONTRACT.md, Idempotency-Key): the first request under a key claims it in the
 * database (a unique row), runs, and stores its response; the same key with the same body replays that
 * response, with another body is IDEMPOTENCY_KEY_MISMATCH (422), and while the first still runs is
 * IDEMPOTENCY_KEY_IN_USE (409). A request that fails with a domain error stores that answer too; an
 * unexpected failure releases the key so the request can be retried.
 */
export class IdempotencyService {
  constructor(private readonly repository: IdempotencyRepository) {}

  async run<T>(
    scope: string,
    key: string,
    hash: string,
    work: () => Promise<StoredResponse<T>>,
  ): Promise<StoredResponse<T>> {
    const claim = await this.claim(scope, key, hash);
    if ("replay" in claim) return replay(claim.replay) as StoredResponse<T>;
    let outcome: StoredOutcome;
    try {
      const response = await work();
      outcome = { status: response.status, body: response.body };
    } catch (error) {
      if (!(error instanceof AppError)) {
        await this.repository.releaseClaim(claim);
        throw error;
      }
      await this.finish(claim, {
        status: error.status,
        error: { code: error.code, message: error.message, details: error.details },
      });
      throw error;
    }
    await this.finish(claim, outcome);
    return outcome as StoredResponse<T>;
  }

  /** Claims the key for this request, or finds the answer another request stored under it. */
  private async claim(scope: string, key: string, hash: string): Promise<HeldClaim | { replay: StoredOutcome }> {
    const now = new Date();
    const claim = { id: randomUUID(), lockedUntil: new Date(now.getTime() + CLAIM_MS) };
    try {
      await this.repository.insertClaim({ ...claim, scope, key, requestHash: hash });
      return claim;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const existing = await this.repository.findRecord(scope, key);
    // Released meanwhile (the first request failed unexpectedly): claim it afresh.
    if (!existing) return this.claim(scope, key, hash);
    if (existing.requestHash !== hash) throw new AppError("IDEMPOTENCY_KEY_MISMATCH");
    if (existing.state === "done") return { replay: JSON.parse(existing.responseBody!) as StoredOutcome };
    // An abandoned claim is taken over by exactly one request (a conditional update on the claim it saw).
    const takenOver = { id: existing.id, lockedUntil: new Date(now.getTime() + CLAIM_MS) };
    if (
      existing.lockedUntil <= now &&
      (await this.repository.renewClaim(existing.id, existing.lockedUntil, takenOver.lockedUntil))
    )
      return takenOver;
    throw new AppError("IDEMPOTENCY_KEY_IN_USE");
  }

  /**
   * Stores the answer under the claim, unless another request took the claim over meanwhile: this request
   * still answers its own caller, and the key keeps the answer of the one that holds it.
   */
  private async finish(claim: HeldClaim, outcome: StoredOutcome): Promise<void> {
    await this.repository.finishClaim(claim, outcome.status, JSON.stringify(outcome));
  }
}

/** What the first request answered: a response, or the domain error it ended with. */
type StoredOutcome =
  | { status: number; body: unknown }
  | { status: number; error: { code: ErrorCode; message: string; details?: FieldIssue[] } };

/** The first answer again: the same response, or the same error (rendered for this request). */
function replay(outcome: StoredOutcome): StoredResponse<unknown> {
  if ("error" in outcome) throw new AppError(outcome.error.code, outcome.error.message, outcome.error.details);
  return outcome;
}
