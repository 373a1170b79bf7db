import "reflect-metadata";
import { Arg, Args, Ctx, Mutation, Query, Resolver, type ClassType } from "type-graphql";
import { z } from "zod";
import type { OperatorActor } from "../audit/types.js";
import type { ActingContext } from "../auth/delegation.js";
import { graphqlNames, type Pagination } from "../output.js";
import { perform, type AnyOperation } from "../operations/operation.js";
import { MAX_INPUT_DEPTH } from "../validation.js";
import { Acting, Operator, OptionalActing } from "./acting.js";
import { Auth } from "./auth-directive.js";
import type { GraphQLContext } from "./context.js";
import { connectionType, offsetPage, PageArgs, pageConnection } from "./types/connection.js";
import { inputField, inputTypeDescription } from "./types/input-type.js";
import { outputType, type TypeThunk } from "./types/output-type.js";
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

/**
 * One argument of a root field, as its face declares it. An argument named as a field of the operation's input is
 * that field (inputField types and describes it): the face says only what differs, such as a named enum, a
 * default or the input field it fills under another name (`field`). Any other argument (an `input` object) says
 * its type, and its description unless it is an input type's (inputType).
 */
export interface FieldArg {
  type?: TypeThunk;
  description?: string;
  nullable?: boolean;
  defaultValue?: unknown;
  field?: string;
}

/** A root field's arguments, by name, in the schema's order. */
type FieldArgs = Record<string, unknown>;

/** How one operation is served as a GraphQL root field: a query or a mutation of that name. */
export type OperationFace<Result> = FaceOptions<Result> & ({ query: string } | { mutation: string });

interface FaceOptions<Result> {
  /** By default the operation's summary: what GraphQL says beyond it (a field to follow the outcome with). */
  description?: string;
  /**
   * The field's type; or `payload`, the fields of its `<Name>Payload`. By default the operation's output object (or
   * list of them), the list its `list` names, or the connection of its page's nodes.
   */
  returns?: TypeThunk;
  /** The payload's fields: the operation's result is its one field unless `toResult` says otherwise. */
  payload?: z.ZodRawShape;
  nullable?: boolean;
  /**
   * The arguments, in the order the schema lists them; by default the fields of the operation's input (but the
   * page's), in its order.
   */
  args?: Record<string, FieldArg>;
  /** The key of the result's page of nodes: the field takes Relay's first and after and answers a connection. */
  page?: string;
  /** The key of the result's list of nodes: the field answers that list. */
  list?: string;
  /**
   * Checks an argument as REST checks its face (a header): what it throws is answered after the operation's gate,
   * as REST answers it (see perform).
   */
  check?(args: FieldArgs): void;
  /** What the caller is held to before the operation (a rate limit). */
  before?(context: GraphQLContext): void;
  /**
   * The operation's input from the arguments; by default the arguments under their fields' names, an `input`
   * argument's fields among them.
   */
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

/** The input fields a connection's first and after fill (offsetPage). */
const PAGE_FIELDS = new Set(["limit", "offset"]);

/** One argument as @Arg takes it, with the input field it fills and whether a null there is one left out. */
interface Argument {
  name: string;
  field: string;
  options: { type: TypeThunk; description: string; nullable?: boolean; defaultValue?: unknown };
  nullLeftOut: boolean;
}

/** A face's arguments, each filled in from the operation's input field it names. */
function argumentsOf(operation: AnyOperation, fieldName: string, face: FaceOptions<unknown>): Argument[] {
  const shape = operation.input.shape as Record<string, z.ZodType>;
  const declared: Record<string, FieldArg> =
    face.args ??
    Object.fromEntries(
      Object.keys(shape)
        .filter((field) => !(face.page && PAGE_FIELDS.has(field)))
        .map((field) => [field, {}]),
    );
  return Object.entries(declared).map(([name, { field = name, ...own }]) => {
    const schema = shape[field];
    const derived = schema && inputField(schema, own.type);
    const type = own.type ?? derived?.type;
    const description = own.description ?? derived?.description ?? inputTypeDescription(own.type?.());
    if (!type || !description) throw new Error(`GraphQL argument ${fieldName}(${name}) needs a type and a description`);
    // A default of the face's own fills the argument in GraphQL: it is non-null unless the face says otherwise.
    const nullable = "defaultValue" in own ? own.nullable : (own.nullable ?? derived?.nullable);
    // A query string cannot send a null either: an input field that may be left out but not null takes it so.
    const nullLeftOut = !!schema && schema.isOptional() && !schema.isNullable();
    return { name, field, options: { type, description, nullable, defaultValue: own.defaultValue }, nullLeftOut };
  });
}

/**
 * The GraphQL type of what an operation answers: its output object or a list of them, the list under `key`, or
 * the connection of the page under `key`.
 */
function outputTypeOf({ output }: AnyOperation, name: string, key: string | undefined, page: boolean): TypeThunk {
  const shape = output instanceof z.ZodObject ? (output.shape as Record<string, z.ZodType>) : {};
  const answered = key ? shape[key] : output;
  const object = answered instanceof z.ZodArray ? answered.element : key ? undefined : answered;
  if (!(object instanceof z.ZodObject) || !graphqlNames.has(object))
    throw new Error(`GraphQL field ${name} needs a type: its operation's output is no output object`);
  const type = page ? connectionType(object) : outputType(object);
  return answered instanceof z.ZodArray && !page ? () => [type] : () => type;
}

/** The face's GraphQL type and how a result is answered in it. */
function answerOf(operation: AnyOperation, name: string, face: FaceOptions<unknown>) {
  const { payload, page, list, toResult } = face;
  if (face.returns && payload) throw new Error(`GraphQL field ${name} takes a type or a payload, not both`);
  if ((page || list) && (payload || toResult))
    throw new Error(`GraphQL field ${name} answers ${page ? "a page as its connection" : "its list"}`);
  const fields = payload && Object.keys(payload);
  if (fields && fields.length !== 1 && !toResult)
    throw new Error(`GraphQL field ${name} needs toResult to fill a payload of ${fields.length} fields`);
  const type = payload ? payloadType(name, payload) : undefined;
  return {
    type: face.returns ?? (type ? () => type : outputTypeOf(operation, name, page ?? list, !!page)),
    answer: (result: unknown, args: FieldArgs, pageArgs: PageArgs | undefined) => {
      if (toResult) return toResult(result, args);
      if (pageArgs) {
        const { [page!]: nodes, pagination } = result as Record<string, unknown>;
        return pageConnection(nodes as unknown[], pagination as Pagination, pageArgs);
      }
      if (list) return (result as Record<string, unknown>)[list];
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
    const { type, answer } = answerOf(operation, name, face);
    const acting = actingParameter(operation);
    const args = argumentsOf(operation, name, face);
    // The parameters: the context, the acting one (if any), the page's (which the schema lists first), each argument.
    prototype[name] = async (context: GraphQLContext, ...values: unknown[]) => {
      const actor = (acting ? values.shift() : null) as ActingContext | OperatorActor | null;
      const pageArgs = face.page ? (values.shift() as PageArgs) : undefined;
      const given = Object.fromEntries(args.map(({ name: arg }, index) => [arg, values[index]]));
      face.before?.(context);
      const fields = Object.fromEntries(
        args.flatMap(({ name: arg, field, nullLeftOut }) =>
          given[arg] === null && nullLeftOut ? [] : [[field, given[arg]]],
        ),
      );
      const input = { ...(face.toInput ?? defaultInput)(fields), ...(pageArgs && offsetPage(pageArgs)) };
      let refused: unknown;
      try {
        face.check?.(given);
      } catch (error) {
        refused = error;
      }
      return answer(await performField(operation, context, actor, input, refused), given, pageArgs);
    };
    const parameters: Parameter[] = [Ctx(), ...(acting ? [acting] : []), ...(face.page ? [Args(() => PageArgs)] : [])];
    for (const {
      name: arg,
      options: { type: argType, ...options },
    } of args)
      parameters.push(Arg(arg, argType, options));
    parameters.forEach((parameter, index) => parameter(prototype, name, index));
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
    Performs(operation)(prototype, name, descriptor);
    const Root = "query" in face ? Query : Mutation;
    // A nullable field answers what REST answers 404 (its summary says when) as null beside the error.
    const description = face.description ?? `${operation.summary}${face.nullable ? " (null, with the error)" : ""}.`;
    Root(type, { nullable: face.nullable, description })(prototype, name, descriptor);
  }
  Resolver()(Type);
  return Type;
}
