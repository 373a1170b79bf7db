import "reflect-metadata";
import { Arg, Args, Ctx, Mutation, Query, Resolver, type ClassType } from "type-graphql";
import type { z } from "zod";
import type { OperatorActor } from "../audit/types.js";
import type { ActingContext } from "../auth/delegation.js";
import type { Pagination } from "../output.js";
import { perform, type AnyOperation } from "../operations/operation.js";
import { MAX_INPUT_DEPTH } from "../validation.js";
import { Acting, Operator, OptionalActing } from "./acting.js";
import { Auth } from "./auth-directive.js";
import type { GraphQLContext } from "./context.js";
import { offsetPage, PageArgs, pageConnection } from "./types/connection.js";
import type { TypeThunk } from "./types/output-type.js";
import { payloadType } from "./types/payload.js";

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

/** One argument of a root field, as type-graphql's @Arg takes it. */
export interface FieldArg {
  type: TypeThunk;
  description: string;
  nullable?: boolean;
  defaultValue?: unknown;
}

/** A root field's arguments, by name, in the schema's order. */
type FieldArgs = Record<string, unknown>;

/** How one operation is served as a GraphQL root field: a query or a mutation of that name. */
export type OperationFace<Result> = FaceOptions<Result> & ({ query: string } | { mutation: string });

interface FaceOptions<Result> {
  description: string;
  /** The field's type; or `payload`, the fields of its `<Name>Payload`. */
  returns?: TypeThunk;
  /** The payload's fields: the operation's result is its one field unless `toResult` says otherwise. */
  payload?: z.ZodRawShape;
  nullable?: boolean;
  /** The arguments, in the order the schema lists them. */
  args?: Record<string, FieldArg>;
  /** The key of the result's page of nodes: the field takes Relay's first and after and answers a connection. */
  page?: string;
  /**
   * Checks an argument as REST checks its face (a header): what it throws is answered after the operation's gate,
   * as REST answers it (see perform).
   */
  check?(args: FieldArgs): void;
  /** What the caller is held to before the operation (a rate limit). */
  before?(context: GraphQLContext): void;
  /** The operation's input from the arguments; by default the arguments, an `input` argument's fields among them. */
  toInput?(args: FieldArgs): object;
  toResult?(result: Result, args: FieldArgs): unknown;
}

/** A resolver parameter's decorator, as type-graphql types it. */
type Parameter = ReturnType<typeof Ctx>;

/** An operation with its GraphQL face, typed together. */
export interface OperationField {
  operation: AnyOperation;
  face: OperationFace<unknown>;
}

export const operationField = <Result>(
  operation: AnyOperation<Result>,
  face: OperationFace<Result>,
): OperationField => ({
  operation,
  face: face as OperationFace<unknown>,
});

/**
 * The acting parameter an operation's field resolves, from its access rule: the operator for the operator's tasks,
 * nobody for signing in (the caller is about to become someone), and otherwise the acting context under the field's
 * @auth, which open operations also serve anonymous callers without.
 */
function actingParameter({ access, withoutSubject }: AnyOperation): Parameter | undefined {
  if (access.requires.includes("OPERATOR")) return Operator();
  if (access.requires.includes("SIGN_IN")) return undefined;
  return withoutSubject ? OptionalActing() : Acting();
}

const defaultInput = ({ input, ...args }: FieldArgs): object => ({ ...args, ...(input as object | null) });

/** The face's GraphQL type and how a result is answered in it. */
function answerOf(name: string, { returns, payload, page, toResult }: FaceOptions<unknown>) {
  if (!returns === !payload) throw new Error(`GraphQL field ${name} needs either a type or a payload`);
  if (page && (payload || toResult)) throw new Error(`GraphQL field ${name} answers a page as its connection`);
  const fields = payload && Object.keys(payload);
  if (fields && fields.length !== 1 && !toResult)
    throw new Error(`GraphQL field ${name} needs toResult to fill a payload of ${fields.length} fields`);
  const type = payload ? payloadType(name, payload) : undefined;
  return {
    type: returns ?? (() => type!),
    answer: (result: unknown, args: FieldArgs, pageArgs: PageArgs | undefined) => {
      if (toResult) return toResult(result, args);
      if (pageArgs) {
        const { [page!]: nodes, pagination } = result as Record<string, unknown>;
        return pageConnection(nodes as unknown[], pagination as Pagination, pageArgs);
      }
      return fields ? { [fields[0]!]: result } : result;
    },
  };
}

/**
 * A type-graphql resolver class serving each operation as a root field, built by applying the decorators a
 * hand-written class would: the field's arguments, the acting context its access rule calls for, and @auth from
 * the operation (Performs).
 */
export function operationResolver(className: string, fields: OperationField[]): ClassType {
  const Type = { [className]: class {} }[className]!;
  const prototype = Type.prototype as Record<string, unknown>;
  for (const { operation, face } of fields) {
    const name = "query" in face ? face.query : face.mutation;
    if (name in prototype) throw new Error(`GraphQL field ${name} is declared twice`);
    const { type, answer } = answerOf(name, face);
    const acting = actingParameter(operation);
    const argNames = Object.keys(face.args ?? {});
    // The parameters: the context, the acting one (if any), the page's (which the schema lists first), each argument.
    prototype[name] = async (context: GraphQLContext, ...values: unknown[]) => {
      const actor = (acting ? values.shift() : null) as ActingContext | OperatorActor | null;
      const pageArgs = face.page ? (values.shift() as PageArgs) : undefined;
      const args = Object.fromEntries(argNames.map((arg, index) => [arg, values[index]]));
      face.before?.(context);
      const input = { ...(face.toInput ?? defaultInput)(args), ...(pageArgs && offsetPage(pageArgs)) };
      let refused: unknown;
      try {
        face.check?.(args);
      } catch (error) {
        refused = error;
      }
      return answer(await performField(operation, context, actor, input, refused), args, pageArgs);
    };
    const parameters: Parameter[] = [Ctx(), ...(acting ? [acting] : []), ...(face.page ? [Args(() => PageArgs)] : [])];
    for (const [arg, { type: argType, ...options }] of Object.entries(face.args ?? {}))
      parameters.push(Arg(arg, argType, options));
    parameters.forEach((parameter, index) => parameter(prototype, name, index));
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
    Performs(operation)(prototype, name, descriptor);
    const Root = "query" in face ? Query : Mutation;
    Root(type, { nullable: face.nullable, description: face.description })(prototype, name, descriptor);
  }
  Resolver()(Type);
  return Type;
}
