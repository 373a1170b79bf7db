import { Field, InputType, type ClassType } from "type-graphql";
import { z } from "zod";
import { graphqlNames } from "../../output.js";
import { namedType, plainType, type TypeThunk } from "./output-type.js";

/*
 * GraphQL input types generated from the operations' input schemas (src/operations): the same fields and
 * descriptions. GraphQL checks argument types before any resolver runs, and what it refuses is not the
 * operation's VALIDATION_FAILED; so a field is typed only by what a caller sends before validation (a string of
 * any format or any enum is a String, a field that may be left out or has a default may be null), or by the named
 * type the schema names (named()) where GraphQL has always been that strict. The operation's schema then
 * validates the arguments as it validates REST's body (performField).
 */

/** One input field as GraphQL takes it. */
interface InputField {
  type: TypeThunk;
  nullable: boolean;
  description: string | undefined;
}

/**
 * The GraphQL type of what a caller sends for a field: what may be left out, defaulted or transformed is
 * unwrapped down to the schema the value is first checked by; a name or description met on the way holds.
 * `type` is the one a root field's argument names instead (a named enum).
 */
export function inputField(schema: z.ZodType, type?: TypeThunk): InputField {
  let inner = schema;
  let nullable = false;
  let description: string | undefined;
  let name: string | undefined;
  for (;;) {
    description ??= inner.description;
    if (!(inner instanceof z.ZodObject)) name ??= graphqlNames.get(inner)?.name;
    if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) {
      nullable = true;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodPipe) inner = inner.in as z.ZodType;
    else break;
  }
  return { type: type ?? typeOf(inner, name), nullable, description };
}

function typeOf(inner: z.ZodType, name: string | undefined): TypeThunk {
  if (name) return () => namedType(name);
  if (inner instanceof z.ZodArray) {
    const item = inputField(inner.element as z.ZodType);
    if (item.nullable) throw new Error("Input lists hold no nulls");
    return () => [item.type()];
  }
  if (inner instanceof z.ZodObject) {
    const { name: objectName, description } = graphqlNames.get(inner) ?? {};
    if (!objectName) throw new Error("An object in an input needs its GraphQL name (inputObject)");
    const type = inputType(objectName, inner, { description });
    return () => type;
  }
  if (inner instanceof z.ZodEnum) return () => String;
  const plain = plainType(inner);
  if (plain) return plain;
  throw new Error(`An input field of zod type ${inner.def.type} needs a GraphQL type named (named())`);
}

/** The input types built, by name, with the fields they were built from. */
const built = new Map<string, { shape: z.ZodRawShape; type: ClassType }>();
const descriptions = new WeakMap<object, string | undefined>();

/** The description of an input type built here: an argument of that type says no more than it does. */
export const inputTypeDescription = (type: unknown) =>
  typeof type === "function" ? descriptions.get(type) : undefined;

/**
 * The GraphQL input type of an operation's input (or of an object in it), built once: resolvers name it as they
 * would a decorated class (`@Arg("input", () => Type)`). `fields` are the fields GraphQL takes, in its order,
 * where they are not all of the schema's in the schema's order.
 */
export function inputType<Schema extends z.ZodObject, Taken extends keyof z.input<Schema> & string>(
  name: string,
  schema: Schema,
  options: { description: string | undefined; fields?: readonly Taken[] },
): ClassType<Pick<z.input<Schema>, Taken>> {
  const existing = built.get(name);
  if (existing) {
    if (existing.shape !== schema.shape) throw new Error(`Two input objects are named ${name}`);
    return existing.type as ClassType<Pick<z.input<Schema>, Taken>>;
  }
  const Type = { [name]: class {} }[name]!;
  const shape = schema.shape as Record<string, z.ZodType>;
  for (const field of options.fields ?? Object.keys(shape)) {
    const { type, nullable, description } = inputField(shape[field]!);
    Field(type, { nullable, description })(Type.prototype, field);
  }
  InputType(name, { description: options.description })(Type);
  built.set(name, { shape: schema.shape, type: Type });
  descriptions.set(Type, options.description);
  return Type as ClassType<Pick<z.input<Schema>, Taken>>;
}
