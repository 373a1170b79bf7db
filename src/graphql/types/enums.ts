/**
 * A GraphQL enum over the services' string values, each named by `nameOf` (the one place a value's GraphQL
 * name is decided): GraphQL reads the name, and resolvers and services see the value REST spells.
 */
export const namedEnumOf = <T extends string>(values: readonly T[], nameOf: (value: T) => string) =>
  Object.fromEntries(values.map((value) => [nameOf(value), value])) as Record<string, T>;

/** An enum's valuesConfig (registerGraphQLEnum): each value's description, by its GraphQL name. */
export const described = (descriptions: Record<string, string>) =>
  Object.fromEntries(Object.entries(descriptions).map(([name, description]) => [name, { description }]));

/** Values' descriptions where the name says what the value is: how REST spells it. */
export const restSpellingsOf = (enumObject: Record<string, string>) =>
  described(Object.fromEntries(Object.entries(enumObject).map(([name, value]) => [name, `REST: ${value}.`])));

/** GraphQL enums over the services' string values: each value's name is the value in capitals (`active` -> ACTIVE). */
export const enumOf = <T extends string>(values: readonly T[]) => namedEnumOf(values, (value) => value.toUpperCase());

/** An enum whose GraphQL names are the values in SCREAMING_SNAKE_CASE (`awaitingPayment` -> AWAITING_PAYMENT). */
export const screamingEnumOf = <T extends string>(values: readonly T[]) =>
  namedEnumOf(values, (value) => value.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase());
