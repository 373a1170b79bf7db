import type { Selectable } from "kysely";
import { query } from "../db/query.js";
import type { DB } from "../generated/kysely/database.js";
// The client's browser entry: its field lists without loading a client (the PostgreSQL one, on SQLite too).
import { Prisma as Fields } from "../generated/prisma/browser.js";
import type { Prisma } from "../generated/prisma/client.js";
import { QUOTE_TERMS_FIELDS, type QuoteTermsField } from "../quotes/types.js";

/* The rows a ramp is read as (whole, or as its view), shared by its own reads and its history's. */

/** A ramp with its quote (as `quote`). */
export type RampRow = Prisma.RampGetPayload<{ include: { quote: true } }>;
export type RampErrorRow = Prisma.RampErrorLogGetPayload<object>;

/** What a caller sees of a ramp (its view), without what only changes need: the reads status polling and history repeat. */
const VIEW_FIELDS = [
  "id",
  "quoteId",
  "type",
  "currentPhase",
  "walletAddress",
  "sessionId",
  "fiatAccountId",
  "depositQrCode",
  "partnerPayment",
  "unsignedTxs",
  "transactionHash",
  "startDeadline",
  "startedAt",
  "createdAt",
  "updatedAt",
] as const satisfies readonly (keyof RampRow)[];
export type RampViewRow = Pick<RampRow, (typeof VIEW_FIELDS)[number]> & {
  quote: Pick<RampRow["quote"], QuoteTermsField>;
};

type RampColumns = Selectable<DB["Ramp"]>;
type QuoteColumns = Selectable<DB["Quote"]>;
/** A quote's column as a row of its ramp carries it: typed rows are flat, and a ramp has an id, a corridor... too. */
type QuoteColumnsOfRamp<Q extends keyof QuoteColumns> = { [F in Q as `quote_${F}`]: QuoteColumns[F] };
type QuoteSelection<Q extends keyof QuoteColumns> = { [F in Q]: `Quote.${F} as quote_${F}` }[Q];

/**
 * A ramp's fields and its quote's in one row: the select list (on Ramp joined to Quote), and the function that
 * makes each row the ramp with its quote as `quote`. That function is compiled once, an object literal of the
 * row's shape, as statements.ts builds rows: built field by field, 100 rows of a view took 120 µs instead of 16.
 */
function rampWithQuote<R extends keyof RampColumns & string, Q extends keyof QuoteColumns & string>(
  rampFields: readonly R[],
  quoteFields: readonly Q[],
) {
  const select = [
    ...rampFields.map((field) => `Ramp.${field}` as const),
    ...quoteFields.map((field) => `Quote.${field} as quote_${field}` as QuoteSelection<Q>),
  ];
  const read = (from: string) => `row[${JSON.stringify(from)}]`;
  const rampOf = new Function(
    "row",
    `return { ${rampFields.map((field) => `${JSON.stringify(field)}: ${read(field)}`).join(", ")},
      quote: { ${quoteFields.map((field) => `${JSON.stringify(field)}: ${read(`quote_${field}`)}`).join(", ")} } };`,
  ) as (row: Pick<RampColumns, R> & QuoteColumnsOfRamp<Q>) => Pick<RampColumns, R> & { quote: Pick<QuoteColumns, Q> };
  return { select, rampOf };
}

export const RAMP_FIELDS = Object.values(Fields.RampScalarFieldEnum);
export const RAMP_WITH_QUOTE = rampWithQuote(RAMP_FIELDS, Object.values(Fields.QuoteScalarFieldEnum));
// Every column a row carries costs its conversion to a value: a history page of whole rows took three times as long.
export const RAMP_VIEW = rampWithQuote(VIEW_FIELDS, QUOTE_TERMS_FIELDS);

/** Ramps joined to their quotes. */
export const rampsWithQuotes = () => query.selectFrom("Ramp").innerJoin("Quote", "Quote.id", "Ramp.quoteId");
