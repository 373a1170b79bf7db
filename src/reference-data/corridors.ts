/** The corridors the gateway serves, by country (EU: the euro area, SEPA). */
export const CORRIDORS = ["AR", "BR", "CO", "EU", "MX", "US"] as const;
export type Corridor = (typeof CORRIDORS)[number];

export const CUSTOMER_TYPES = ["individual", "business"] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

/**
 * The canonical corridor capability table for managed children: which customer types a child may
 * transact as in each corridor. EU is bound to a verified login email, which children never have.
 */
export const CHILD_CORRIDOR_CUSTOMER_TYPES: Readonly<Record<Corridor, readonly CustomerType[]>> = {
  AR: ["individual"],
  BR: ["individual", "business"],
  CO: ["individual", "business"],
  EU: [],
  MX: ["individual", "business"],
  US: ["individual", "business"],
};

export function childMaySupport(corridor: Corridor, customerType: CustomerType): boolean {
  return CHILD_CORRIDOR_CUSTOMER_TYPES[corridor].includes(customerType);
}
