import type { z } from "zod";
import { graphqlNames } from "./output.js";

/*
 * An enum of the domain is declared once, beside its values: its GraphQL type's name, what it means and what each of
 * its values means. The GraphQL schema registers every declared enum under that name (src/graphql/types/output-type.ts),
 * and the OpenAPI document lists the values' meanings where a field takes the enum (src/rest/http.ts): both read
 * the one declaration.
 */

/** A declared enum, as GraphQL and OpenAPI read it. */
export interface DescribedEnum {
  /** The GraphQL type's name. */
  name: string;
  description: string;
  /** Each value, with its GraphQL name and, unless the value says it all, what it means. */
  values: { value: string; graphqlName: string; description?: string }[];
}

/** Every declared enum, by its GraphQL name. */
export const describedEnums = new Map<string, DescribedEnum>();

/** A value's GraphQL name when it is the value in capitals (`active` -> ACTIVE). */
const upperCase = (value: string) => value.toUpperCase();

/** A value's GraphQL name in SCREAMING_SNAKE_CASE (`awaitingPayment` -> AWAITING_PAYMENT). */
export const screamingCase = (value: string) => value.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();

/** A value's GraphQL name when GraphQL's names cannot hold its hyphens (`DRIVERS-LICENSE` -> DRIVERS_LICENSE). */
export const hyphensAsUnderscores = (value: string) => value.replace(/-/g, "_").toUpperCase();

/**
 * Declares an enum over `values`, and answers it (for a GraphQL argument that names it). `meanings` says what each
 * value means (left out where each value says it all); `graphqlName` names each value in GraphQL, the one place that
 * name is decided (in capitals unless given).
 */
export function describedEnum<const Value extends string>(
  name: string,
  values: readonly Value[],
  declared: { description: string; meanings?: Record<Value, string>; graphqlName?: (value: Value) => string },
): DescribedEnum {
  if (describedEnums.has(name)) throw new Error(`Two enums are named ${name}`);
  const { description, meanings, graphqlName = upperCase } = declared;
  const described = {
    name,
    description,
    values: values.map((value) => ({ value, graphqlName: graphqlName(value), description: meanings?.[value] })),
  };
  describedEnums.set(name, described);
  return described;
}

/**
 * What each value of a field's enum means, as a list for its OpenAPI description: when the field (through any
 * optional, nullable or default around it) names a declared enum whose values are described.
 */
export function valueMeanings(schema: z.core.$ZodType): string | undefined {
  let inner: z.core.$ZodType | undefined = schema;
  let name: string | undefined;
  while (inner && !(name = graphqlNames.get(inner)?.name))
    inner = (inner._zod.def as { innerType?: z.core.$ZodType }).innerType;
  const described = (name && describedEnums.get(name)?.values.filter((value) => value.description)) || [];
  if (!described.length) return undefined;
  return described.map(({ value, description }) => `- \`${value}\`: ${description}`).join("\n");
}
