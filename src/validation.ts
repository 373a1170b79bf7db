import { z } from "zod";
import { AppError, type ErrorCode, type FieldIssue } from "./errors.js";
import { AMOUNT_PATTERN } from "./money.js";

/**
 * Validates domain input with a zod schema. Failures become VALIDATION_FAILED (or the given code) with
 * one `details` entry per field, so REST and GraphQL report the same thing.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  code: ErrorCode = "VALIDATION_FAILED",
): z.output<S> {
  const unsafe = inputIssue(input, true);
  if (unsafe) throw new AppError("VALIDATION_FAILED", undefined, [unsafe]);
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

/** A value read back from storage, checked against the values it may hold: a column holds text, whatever wrote it. */
export function storedOneOf<const Values extends readonly string[]>(values: Values, stored: string): Values[number] {
  const known = values.find((value) => value === stored);
  if (known === undefined) throw new Error(`Unexpected stored value: ${stored}`);
  return known;
}

/** A flag: a JSON boolean, or its text in a query string. */
export const flag = z.union([z.boolean(), z.enum(["true", "false"]).transform((text) => text === "true")]);

/** A field that may be left out, or sent as null (what GraphQL clients send for a field they do not set). */
export const omissible = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? undefined);

/**
 * How many objects and arrays deep caller-sent JSON may nest (a body, a query, GraphQL variables, an operation's
 * input): every input the reference describes nests a few levels at most, and anything deeper is refused before
 * a handler reads it, so nothing that walks input can exhaust the stack.
 */
export const MAX_INPUT_DEPTH = 64;

/** A value met on the walk of an input, with the key it was under and its container (its path, when needed). */
interface Visit {
  value: unknown;
  depth: number;
  key: string;
  parent: Visit | undefined;
}

const pathOf = (visit: Visit): string[] => {
  const path: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.unshift(at.key);
  return path;
};

/**
 * What is wrong with caller-sent input whatever its schema, if anything: nesting deeper than MAX_INPUT_DEPTH
 * (named by the top-level field it is under), or, when `nul`, a string holding a NUL character, which PostgreSQL
 * cannot store and SQLite would (named by its path). Walked with a stack of its own, in document order, never by
 * recursion.
 */
function inputIssue(input: unknown, nul: boolean): FieldIssue | undefined {
  const stack: Visit[] = [{ value: input, depth: 0, key: "", parent: undefined }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { value, depth } = visit;
    if (typeof value === "string") {
      if (nul && value.includes("\u0000"))
        return { field: fieldName(pathOf(visit)), message: "must not contain NUL characters" };
      continue;
    }
    // A file's bytes are no text: they are not stored as a string, and walking them byte by byte is slow.
    if (typeof value !== "object" || value === null || ArrayBuffer.isView(value)) continue;
    if (depth === MAX_INPUT_DEPTH)
      return { field: fieldName(pathOf(visit).slice(0, 1)), message: `nests deeper than ${MAX_INPUT_DEPTH} levels` };
    const entries = Object.entries(value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, inner] = entries[index]!;
      // Numbers, booleans and nulls have nothing to check.
      if (typeof inner === "string" || (typeof inner === "object" && inner !== null))
        stack.push({ value: inner, depth: depth + 1, key, parent: visit });
    }
  }
  return undefined;
}

const fieldName = (path: string[]) => (path.length ? path.join(".") : "(body)");

/**
 * Refuses JSON nested deeper than MAX_INPUT_DEPTH with 400 VALIDATION_FAILED: what each transport checks of what
 * it received (a body, a query, GraphQL variables) before anything else reads it. The rest, NUL characters
 * included, is the operation's validation (`parseInput`), which names fields as the operation does.
 */
export function refuseDeepInput(input: unknown): void {
  const issue = inputIssue(input, false);
  if (issue) throw new AppError("VALIDATION_FAILED", undefined, [issue]);
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

// --- bounded text ----------------------------------------------------------------------------------------
// Every string an operation takes has a maximum length (the OpenAPI document shows it as maxLength, and GraphQL
// arguments are validated by the same schemas), and a string that names a known kind of value has its format
// checked: these build them.

/** The longest text of each kind an input takes, in characters. */
export const TEXT_LIMITS = {
  /** A code or a symbol: a currency, a network, a payment method, a sign-in code. */
  code: 32,
  /** A label: a credential's or partner's name, a given or family name, a city, a MIME type. */
  label: 100,
  /** A line: a full or company name, one line of an address, a document number or a hash. */
  line: 256,
  /** An opaque token a caller hands back (a refresh token), or a URL. */
  token: 4096,
} as const;

const atMost = (limit: number) => `must be at most ${limit} characters`;

/** Text of a kind, at most TEXT_LIMITS[kind] characters long. */
export const text = (kind: keyof typeof TEXT_LIMITS) =>
  requiredString().max(TEXT_LIMITS[kind], atMost(TEXT_LIMITS[kind]));

/**
 * Text of a known format (`pattern`, shown in the OpenAPI document too), at most `limit` characters: a longer
 * one is refused with `message` alone, the pattern only ever tried on text that short.
 */
const formatted = (limit: number, pattern: RegExp, message: string) =>
  requiredString().max(limit, { message, abort: true }).regex(pattern, message);

/** A UUID naming a record, in the canonical lower case (`canonicalId`): anything else is refused as no id. */
export const uuid = (message = "must be a UUID") => formatted(36, UUID, message).toLowerCase();

/** An email address (at most 254 characters, RFC 5321's bound), as given. */
export const email = () => z.email({ error: "must be an email address" }).max(254, atMost(254));

/** An ISO 3166-1 alpha-2 country code, in either case; in capitals once validated. */
export const countryCode = () =>
  formatted(2, /^[A-Za-z]{2}$/, "must be a two-letter ISO 3166-1 country code").transform((code) => code.toUpperCase());

/** A calendar date, YYYY-MM-DD. */
export const calendarDate = () => formatted(10, /^\d{4}-\d{2}-\d{2}$/, "must be a date (YYYY-MM-DD)");

/** An amount as decimal text: digits and an optional fraction, at most 30 of each (AMOUNT_PATTERN). */
export const amount = (message = 'must be a positive decimal string such as "100.50"') =>
  formatted(61, AMOUNT_PATTERN, message);

/** An instant as RFC 3339 text with a zone, the form every timestamp is written in. */
export const instant = (message?: string) =>
  z.iso.datetime({ offset: true, ...(message && { error: message }) }).max(40, message ?? atMost(40));

/** An EVM account address: 0x and 40 hex digits, one address in any case (checksummed or not). */
export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** An SS58 account address (AssetHub and other Substrate chains), compared as written. */
export const SS58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{46,48}$/;

/**
 * A wallet address as some supported network writes it (EVM or SS58), exactly as given: no whitespace around
 * it. Whether it is an address of the network a ramp is on is checked with the ramp's quote (`isAddressOn` in
 * the catalog).
 */
export const walletAddress = () =>
  formatted(
    48,
    new RegExp(`${EVM_ADDRESS.source}|${SS58_ADDRESS.source}`),
    "must be a wallet address (0x and 40 hex digits, or SS58)",
  );
