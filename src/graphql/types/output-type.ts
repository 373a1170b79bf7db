import type { GraphQLScalarType } from "graphql";
import { GraphQLJSONObject } from "graphql-scalars";
import { Field, Float, ID, Int, ObjectType, registerEnumType, type ClassType } from "type-graphql";
import { z } from "zod";
import { describedEnums, type DescribedEnum } from "../../enums.js";
import { graphqlNames } from "../../output.js";
import { DateTimeScalar, DecimalScalar } from "./scalars.js";

/*
 * GraphQL object types generated from the operations' output schemas (src/operations/output.ts): the same fields,
 * descriptions and nullability, typed by what zod says or by the named type the schema names.
 */

/** The named types a field may name: scalars, ID, and every enum declared in the domain (src/enums.ts). */
const namedTypes = new Map<string, GraphQLScalarType | object>([
  ["ID", ID],
  ["Decimal", DecimalScalar],
  ["DateTime", DateTimeScalar],
  ["JSONObject", GraphQLJSONObject],
]);

/**
 * A declared enum as type-graphql takes it (each value by its GraphQL name), registered with type-graphql and
 * under its name on first use: an argument names it by this object, a field by its name.
 */
export function graphqlEnum(declared: DescribedEnum): Record<string, string> {
  const registered = namedTypes.get(declared.name);
  if (registered) return registered as Record<string, string>;
  const enumObject = Object.fromEntries(declared.values.map(({ graphqlName, value }) => [graphqlName, value]));
  registerEnumType(enumObject, {
    name: declared.name,
    description: declared.description,
    // A value the domain leaves undescribed says it all in REST, under a name GraphQL cannot spell.
    valuesConfig: Object.fromEntries(
      declared.values.map(({ graphqlName, value, description }) => [
        graphqlName,
        { description: description ?? `REST: ${value}.` },
      ]),
    ),
  });
  namedTypes.set(declared.name, enumObject);
  return enumObject;
}

/** Registers every enum the domain declared: the schema's types name them (once loaded, before it is built). */
export function registerDescribedEnums(): void {
  for (const declared of describedEnums.values()) graphqlEnum(declared);
}

export function namedType(name: string) {
  const type = namedTypes.get(name);
  if (!type) throw new Error(`No GraphQL type is registered under the name ${name}`);
  return type;
}

/** A field's type, as type-graphql takes it: named lazily, so types may refer to ones declared later. */
export type TypeThunk = NonNullable<Parameters<typeof Field>[0]>;

/** The GraphQL type zod's own type gives a field that names none, if it gives one. */
export function plainType(inner: z.ZodType): TypeThunk | undefined {
  // A string of a format (a URL, say) is a String in GraphQL: the format shows on the REST face only.
  if (inner instanceof z.ZodString || inner instanceof z.ZodStringFormat) return () => String;
  if (inner instanceof z.ZodBoolean) return () => Boolean;
  if (inner instanceof z.ZodNumber) return () => (inner.format === "safeint" ? Int : Float);
  if (inner instanceof z.ZodDate) return () => Date;
  if (inner instanceof z.ZodLiteral) {
    // A constant (`success: true`, `true` where consent must be given, a salt length) is typed by its values' type;
    // another value is the schema's to refuse.
    const values = [...inner.values];
    if (values.every((value) => typeof value === "string")) return () => String;
    if (values.every((value) => typeof value === "boolean")) return () => Boolean;
    if (values.every((value) => Number.isInteger(value))) return () => Int;
  }
  return undefined;
}

/**
 * The GraphQL type of one output field, whether it may be null, and its description wherever zod keeps it: on the
 * field, or on what a nullable wraps.
 */
function fieldType(schema: z.ZodType): { type: TypeThunk; nullable: boolean; description?: string } {
  let inner = schema;
  let nullable = false;
  let description = schema.description;
  while (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) {
    nullable = true;
    inner = inner.unwrap() as z.ZodType;
    description ||= inner.description;
  }
  const name = graphqlNames.get(inner)?.name;
  if (inner instanceof z.ZodArray) {
    const item = fieldType(inner.element as z.ZodType);
    if (item.nullable) throw new Error("Output lists hold no nulls");
    return { type: () => [item.type()], nullable, description };
  }
  if (inner instanceof z.ZodObject) {
    const type = outputType(inner);
    return { type: () => type, nullable, description };
  }
  if (name) return { type: () => namedType(name), nullable, description };
  const plain = plainType(inner);
  if (plain) return { type: plain, nullable, description };
  throw new Error(`An output field of zod type ${inner.def.type} needs a GraphQL type named (named())`);
}

/** The types built, by name, with the fields they were built from (a described copy of an object shares them). */
const built = new Map<string, { shape: z.ZodRawShape; type: ClassType }>();

/**
 * Whether two shapes hold the same fields: zod gives a copy described after the original's shape was read a shape
 * object of its own, over the same field schemas.
 */
const sameFields = (one: z.ZodRawShape, other: z.ZodRawShape) =>
  Object.keys(one).length === Object.keys(other).length &&
  Object.entries(one).every(([field, schema]) => other[field] === schema);

/**
 * The GraphQL object type of an output object (outputObject), built once: resolvers name it as they would a
 * decorated class (`@Resolver(() => Type)`, `@Query(() => Type)`), and field resolvers add fields to it.
 */
export function outputType<Schema extends z.ZodObject>(
  schema: Schema,
  options: { implements?: (abstract new () => object)[] } = {},
): ClassType<z.output<Schema>> {
  const { name, description } = graphqlNames.get(schema) ?? {};
  if (!name) throw new Error("An output object needs its GraphQL name (outputObject)");
  const existing = built.get(name);
  if (existing) {
    if (!sameFields(existing.shape, schema.shape)) throw new Error(`Two output objects are named ${name}`);
    return existing.type as ClassType<z.output<Schema>>;
  }
  const Type = { [name]: class {} }[name]!;
  for (const [field, fieldSchema] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const { type, nullable, description: fieldDescription } = fieldType(fieldSchema);
    Field(type, { nullable, description: fieldDescription })(Type.prototype, field);
  }
  ObjectType(name, { description, implements: options.implements })(Type);
  built.set(name, { shape: schema.shape, type: Type });
  return Type as ClassType<z.output<Schema>>;
}
