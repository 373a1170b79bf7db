import { z } from "zod";
import { AppError, type ErrorCode } from "./errors.js";

/**
 * Validates domain input with a zod schema. Failures become VALIDATION_FAILED (or the given code) with
 * one `details` entry per field, so REST and GraphQL report the same thing.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  code: ErrorCode = "VALIDATION_FAILED",
): z.output<S> {
  const nul = nulCharacterAt(input);
  if (nul) {
    const field = nul.length ? nul.join(".") : "(body)";
    throw new AppError("VALIDATION_FAILED", undefined, [{ field, message: "must not contain NUL characters" }]);
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) =>
    issue.path.length
      ? { field: issue.path.join("."), message: issue.message }
      : { field: "(body)", message: issue.code === "invalid_type" ? "must be a JSON object" : issue.message },
  );
  throw new AppError(code, code === "VALIDATION_FAILED" ? undefined : details[0]?.message, details);
}

/**
 * One page of a list: `limit` items (1 to 100, default 50) after skipping `offset`. A larger limit is refused,
 * not cut down, so no list is ever read whole. Query-string numbers arrive as text.
 */
export const listPage = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).describe("Maximum records to return."),
  offset: z.coerce.number().int().min(0).default(0).describe("Number of records to skip."),
});
export type ListPage = z.output<typeof listPage>;

/** Where a page lies in its list: the page asked for, and how many items the whole list holds. */
export interface Pagination extends ListPage {
  total: number;
}

/** A flag: a JSON boolean, or its text in a query string. */
export const flag = z.union([z.boolean(), z.enum(["true", "false"]).transform((text) => text === "true")]);

/** A field that may be left out, or sent as null (what GraphQL clients send for a field they do not set). */
export const omissible = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? undefined);

/**
 * Where the first string holding a NUL character is (its path), if any: PostgreSQL cannot store one and
 * SQLite would, so both engines refuse it before anything is looked at.
 */
function nulCharacterAt(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  // A file's bytes are no text: they are not stored as a string, and walking them byte by byte is slow.
  if (typeof value !== "object" || value === null || ArrayBuffer.isView(value)) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = nulCharacterAt(inner, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** VALIDATION_FAILED about one field: `field message` as the error's message, and the one detail. */
export function fieldError(field: string, message: string): AppError {
  return new AppError("VALIDATION_FAILED", `${field} ${message}`, [{ field, message }]);
}

/** A string field: `missing` when it is absent, "must be a string" when it is something else (a number, say). */
export const requiredString = (missing = "is required") =>
  z.string({ error: (issue) => (issue.input === undefined ? missing : "must be a string") });

/** A JSON object (not null, not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id as the database stores it (lower-case UUID), or null: anything else cannot name a record (and
 * must not reach a uuid column). Ids from callers go through this so lookups, caches and events agree.
 */
export function canonicalId(value: unknown): string | null {
  return typeof value === "string" && UUID.test(value) ? value.toLowerCase() : null;
}
