import { GraphQLError, GraphQLScalarType, Kind } from "graphql";

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
