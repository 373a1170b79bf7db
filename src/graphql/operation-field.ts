import type { OperatorActor } from "../audit/types.js";
import type { ActingContext } from "../auth/delegation.js";
import { perform, type AnyOperation } from "../operations/operation.js";
import { MAX_INPUT_DEPTH } from "../validation.js";
import { Auth } from "./auth-directive.js";
import type { GraphQLContext } from "./context.js";

/** Every operation served as a GraphQL root field, with the field's name: what the parity test walks. */
export const GRAPHQL_FACES = new Map<AnyOperation, string>();

/** Declares that a root field performs an operation: its @auth is the operation's access rule. */
export function Performs(operation: AnyOperation): MethodDecorator {
  const auth = Auth(operation.access);
  return (target, key, descriptor) => {
    GRAPHQL_FACES.set(operation, String(key));
    auth(target, key, descriptor);
  };
}

/**
 * Arguments as the operation's schema reads a JSON body: plain objects, the fields a caller left out left
 * out, date-times as ISO strings. Nulls stay, so the schema refuses or accepts them as it does over REST.
 * Past MAX_INPUT_DEPTH a value is left as it is, which validation then refuses: the walk stays bounded.
 */
function asJson(value: unknown, depth = 0): unknown {
  if (value instanceof Date) return value.toISOString();
  if (value === null || typeof value !== "object" || depth > MAX_INPUT_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => asJson(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, inner]) => inner !== undefined)
      .map(([key, inner]) => [key, asJson(inner, depth + 1)]),
  );
}

/**
 * Runs an operation with the field's arguments, validated by the operation's schema as REST input is.
 * `refused` is what the field's own reading of an argument refused (a malformed idempotency key), answered
 * after the operation's gate as REST answers its face's refusals (see perform).
 */
export function performField<Result>(
  operation: AnyOperation<Result>,
  context: GraphQLContext,
  acting: ActingContext | OperatorActor | null,
  args: object,
  refused?: unknown,
): Result | Promise<Result> {
  return perform(operation, context.app, acting, asJson(args), refused);
}
