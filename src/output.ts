import { z } from "zod";
import { uuid } from "./validation.js";

/*
 * An operation's output is declared once, as a zod schema: the service's view type is inferred from it, the REST
 * response schema (and so its serializer and OpenAPI entry) is generated from it, and so is the GraphQL object type
 * (src/graphql/types/output-type.ts). Descriptions are zod's own (`describe`), read by both faces. What GraphQL needs
 * beyond zod's types is a name: an object's type name, or the named type a field has (an enum or scalar the GraphQL
 * schema registers under that name, or ID).
 */

/**
 * The GraphQL names of output objects (with the object's own description: a field holding the object describes
 * itself in a copy, which keeps this entry) and of fields typed by a named type.
 */
export const graphqlNames = z.registry<{ name: string; description?: string }>();

/** An output object: its GraphQL type's name and description, and its fields in the order both faces list them. */
export function outputObject<Shape extends z.ZodRawShape>(name: string, description: string, shape: Shape) {
  return z.object(shape).describe(description).register(graphqlNames, { name, description });
}

/**
 * An object nested in an operation's input, with the name and description of its GraphQL input type
 * (src/graphql/types/input-type.ts); the operation's own input is named where GraphQL takes it.
 */
export function inputObject<Schema extends z.ZodObject>(name: string, description: string, schema: Schema): Schema {
  const described = schema.describe(description);
  graphqlNames.add(described, { name, description });
  return described;
}

/** A field GraphQL types by a named type (an enum, a scalar such as Decimal): `name` is the type's name. */
export function named<Schema extends z.ZodType>(name: string, schema: Schema): Schema {
  graphqlNames.add(schema, { name });
  return schema;
}

/** An instant: a Date to the services, an RFC 3339 date-time in UTC on the wire (DateTime in GraphQL). */
export const instantField = (description: string) => z.date().describe(description);

/** Where a page lies in its list: the page asked for, and how many items the whole list holds. */
export const pagination = z.object({
  limit: z.number().int(),
  offset: z.number().int(),
  total: z.number().int(),
});
export type Pagination = z.output<typeof pagination>;

/** A UUID a caller names a record by (canonical lower case once validated), an ID in GraphQL. */
export const idInput = (description: string) => named("ID", uuid()).describe(description);

/** A UUID, an ID in GraphQL. */
export const idField = (description: string) => named("ID", z.uuid().describe(description));
