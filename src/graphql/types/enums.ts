/** GraphQL enums over the services' string values: each value's name is the value in capitals (`active` -> ACTIVE). */
export const enumOf = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((value) => [value.toUpperCase(), value])) as Record<string, T>;

/** An enum whose GraphQL names are the values in SCREAMING_SNAKE_CASE (`awaitingPayment` -> AWAITING_PAYMENT). */
export const screamingEnumOf = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((value) => [value.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase(), value])) as Record<
    string,
    T
  >;
