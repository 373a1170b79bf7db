import { unwrapResolverError } from "@apollo/server/errors";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import type { Logger } from "pino";
import { AppError, ERROR_TABLE } from "../errors.js";

/** Apollo's own failure codes for documents it cannot run: all are the caller's fault. */
const DOCUMENT_ERRORS = new Set([
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "BAD_USER_INPUT",
  "OPERATION_RESOLUTION_FAILURE",
  "BAD_REQUEST",
  "PERSISTED_QUERY_NOT_SUPPORTED",
  "PERSISTED_QUERY_NOT_FOUND",
]);

/**
 * graphql-js's refusals of an argument while it executes (a null variable for a non-null argument with a
 * default passes validation): the caller's input, raised without an original error or a code.
 */
const ARGUMENT_REFUSAL =
  /^Argument "[^"]+" (of required type .+ was not provided|of non-null type .+ must not be null|has invalid value .+)\.$/s;

/**
 * graphql-js's refusals of a variable's value, before anything runs (so with no path), the scalar's own refusal
 * as their original error: Apollo marks them over HTTP, nothing does over WebSocket, where operations and
 * subscriptions coerce their variables themselves.
 */
const VARIABLE_REFUSAL =
  /^Variable "\$[^"]+" (got invalid value |of required type .+ was not provided\.$|of non-null type .+ must not be null\.$)/s;

/** How much of a quoted piece of the caller's document an error message repeats. */
const QUOTED_CHARACTERS = 64;
const LONG_QUOTE = new RegExp(`"([^"]{${QUOTED_CHARACTERS}})[^"]+"`, "g");

/**
 * A parse or validation message with each quoted piece of the document cut short: graphql-js quotes the
 * offending token or name whole, so a 500 KB name would come back whole.
 */
export function briefDocumentMessage(message: string): string {
  return message.replace(LONG_QUOTE, '"$1…"');
}

/** An AppError as a GraphQL error: the contract's code in extensions.code and the HTTP status beside it. */
export function toGraphQLError(error: AppError): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: {
      code: error.code,
      status: error.status,
      ...(error.details && { details: error.details }),
      ...(error.headers?.["Retry-After"] && { retryAfterSeconds: Number(error.headers["Retry-After"]) }),
    },
  });
}

/** An AppError an Apollo plugin throws before the operation runs: the response's HTTP status is the error's. */
export function toRequestRefusal(error: AppError): GraphQLError {
  const { message, extensions } = toGraphQLError(error);
  return new GraphQLError(message, { extensions: { ...extensions, http: { status: error.status } } });
}

/** Maps every error to the contract's table; unknown ones become INTERNAL with no internals. */
export function formatGraphQLError(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const base = { locations: formatted.locations, path: formatted.path };
    if (original instanceof AppError) {
      return { ...base, message: original.message, extensions: toGraphQLError(original).extensions };
    }
    const code = formatted.extensions?.code;
    if (typeof code === "string" && code in ERROR_TABLE) return formatted;
    const refusedInput =
      (original instanceof GraphQLError && !original.originalError && ARGUMENT_REFUSAL.test(original.message)) ||
      (formatted.path === undefined && VARIABLE_REFUSAL.test(formatted.message));
    if ((typeof code === "string" && DOCUMENT_ERRORS.has(code)) || refusedInput) {
      const message = briefDocumentMessage(formatted.message);
      return { ...base, message, extensions: { code: "VALIDATION_FAILED", status: 400 } };
    }
    log.error({ err: original }, "unexpected GraphQL error");
    return { ...base, message: ERROR_TABLE.INTERNAL.message, extensions: { code: "INTERNAL", status: 500 } };
  };
}
