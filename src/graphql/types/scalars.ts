import { GraphQLError, GraphQLScalarType, Kind } from "graphql";
import { AMOUNT_PATTERN } from "../../money.js";

/** RFC 3339 date-times with a zone (Z or an offset), the form REST writes them in. */
const RFC3339_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i;

function parseDateTime(value: unknown): Date {
  const parts = typeof value === "string" ? RFC3339_DATE_TIME.exec(value) : null;
  if (parts) {
    const [year, month, day] = parts.slice(1, 4).map(Number) as [number, number, number];
    const date = new Date(parts[0]);
    // Date rolls 30 February over into March: the calendar day written must exist.
    if (!Number.isNaN(date.getTime()) && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day) return date;
  }
  throw new GraphQLError("DateTime must be an RFC 3339 date-time with a zone, such as 2026-11-25T10:15:30Z.");
}

/**
 * Every timestamp: written as `toISOString` writes it (UTC, milliseconds), the same text REST answers with.
 * Serializing is one call per value; a list page has one or two per item, so it stays off the validation path.
 */
export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: "DateTime",
  description: "An instant, as an RFC 3339 date-time in UTC with milliseconds, such as 2026-11-25T10:15:30.000Z.",
  specifiedByURL: "https://datatracker.ietf.org/doc/html/rfc3339#section-5.6",
  serialize: (value) => (value instanceof Date ? value : parseDateTime(value)).toISOString(),
  parseValue: parseDateTime,
  parseLiteral: (literal) => parseDateTime(literal.kind === Kind.STRING ? literal.value : undefined),
});

/** What the services write: plain notation, a sign only where an amount can be negative. */
const WRITTEN_DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;

function parseDecimal(value: unknown): string {
  if (typeof value === "string" && AMOUNT_PATTERN.test(value)) return value;
  throw new GraphQLError(
    'Decimal must be a string in plain decimal notation, such as "100.50": at most 30 digits before and after the point, without sign, exponent or grouping.',
  );
}

/**
 * Every amount (prices, fees, limits, rates): decimal text, exactly as REST writes and reads it. A JSON number
 * would lose digits past 2^53 and in binary fractions, so one is refused both ways.
 */
export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: "Decimal",
  description:
    'An exact decimal number as a string in plain notation, such as "100.50": digits and an optional fraction, never a JSON number or an exponent.',
  serialize: (value) => {
    if (typeof value === "string" && WRITTEN_DECIMAL.test(value)) return value;
    // Whole-unit bounds (payment method limits) are counted in integers, which are exact up to 2^53.
    if (Number.isSafeInteger(value)) return String(value);
    throw new GraphQLError(`Decimal cannot represent ${typeof value === "string" ? `"${value}"` : typeof value}.`);
  },
  parseValue: parseDecimal,
  parseLiteral: (literal) => parseDecimal(literal.kind === Kind.STRING ? literal.value : undefined),
});
