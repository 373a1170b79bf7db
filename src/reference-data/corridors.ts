import { describedEnum } from "../enums.js";

/** The corridors the gateway serves, by country (EU: the euro area, SEPA). */
export const CORRIDORS = ["AR", "BR", "CO", "EU", "MX", "US"] as const;
export type Corridor = (typeof CORRIDORS)[number];

export const corridorEnum = describedEnum("Corridor", CORRIDORS, {
  description: "A country corridor the gateway serves, each with one fiat currency.",
  meanings: {
    AR: "Argentina (ARS); managed children only as individuals.",
    BR: "Brazil (BRL).",
    CO: "Colombia (COP).",
    EU: "The euro area over SEPA (EUR); bound to a verified login email, so never for managed children.",
    MX: "Mexico (MXN).",
    US: "United States (USD).",
  },
});

export const CUSTOMER_TYPES = ["individual", "business"] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

export const customerTypeEnum = describedEnum("CustomerType", CUSTOMER_TYPES, {
  description: "Whether a customer is a person or a company.",
  meanings: { individual: "A person, verified by KYC.", business: "A company, verified by KYB." },
});

/**
 * The canonical corridor capability table for managed children: which customer types a child may
 * transact as in each corridor. EU is bound to a verified login email, which children never have.
 */
const CHILD_CORRIDOR_CUSTOMER_TYPES: Readonly<Record<Corridor, readonly CustomerType[]>> = {
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

/** The fiat currency of each corridor: the one place that ties a fiat to its corridor. */
export const CORRIDOR_FIAT = {
  AR: "ARS",
  BR: "BRL",
  CO: "COP",
  EU: "EUR",
  MX: "MXN",
  US: "USD",
} as const satisfies Record<Corridor, string>;
export type FiatSymbol = (typeof CORRIDOR_FIAT)[Corridor];

export function corridorOfFiat(fiat: FiatSymbol): Corridor {
  return CORRIDORS.find((corridor) => CORRIDOR_FIAT[corridor] === fiat)!;
}
