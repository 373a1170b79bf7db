import type { OperatorActor } from "../audit/types.js";
import type { ActingContext } from "../auth/delegation.js";
import { perform, type AnyOperation } from "../operations/operation.js";
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
 */
function asJson(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(asJson);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, inner]) => inner !== undefined)
      .map(([key, inner]) => [key, asJson(inner)]),
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
