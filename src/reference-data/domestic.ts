import { describedEnum } from "../enums.js";

/** The corridors served through `/v1/domestic` (and the `/v1/ar`, `/v1/co`, `/v1/mx` aliases). */
export const DOMESTIC_COUNTRIES = ["AR", "CO", "MX", "US"] as const;
export type DomesticCountry = (typeof DOMESTIC_COUNTRIES)[number];

describedEnum("DomesticCountry", DOMESTIC_COUNTRIES, {
  description: "The corridors whose customers and KYC/KYB go through the domestic provider (REST: /v1/domestic).",
  meanings: {
    AR: "Argentina; a managed child here only as an individual.",
    CO: "Colombia.",
    MX: "Mexico.",
    US: "United States.",
  },
});

/** The reference's DomesticFiatAccountType enum (the corridors served here offer only some of them). */
export const FIAT_ACCOUNT_TYPES = [
  "ACH",
  "ACH_BOL",
  "ACH_CHL",
  "ACH_DOM",
  "B89",
  "BANK_CN",
  "BANK_USA",
  "COELSA",
  "PIX",
  "SPEI",
] as const;
export type FiatAccountType = (typeof FIAT_ACCOUNT_TYPES)[number];

const NOT_OFFERED = "Listed by the reference contract; no corridor served here accepts it.";
describedEnum("FiatAccountType", FIAT_ACCOUNT_TYPES, {
  description: "US: ACH, BANK_USA; MX: SPEI; AR: COELSA; CO: ACH.",
  meanings: {
    ACH: "ACH transfer: US domestic ACH, or ACH Colombia in CO.",
    ACH_BOL: NOT_OFFERED,
    ACH_CHL: NOT_OFFERED,
    ACH_DOM: NOT_OFFERED,
    B89: NOT_OFFERED,
    BANK_CN: NOT_OFFERED,
    BANK_USA: "US domestic wire: the ACH details plus the beneficiary's street, city, state and ZIP.",
    COELSA: "AR: a 22-digit CBU (bank) or CVU (payment provider) cleared by COELSA.",
    PIX: NOT_OFFERED,
    SPEI: "MX: a SPEI transfer to an 18-digit CLABE.",
  },
});

/** The bank account types a payout account may be of. */
export const BANK_ACCOUNT_TYPES = ["checking", "savings"] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];

describedEnum("BankAccountType", BANK_ACCOUNT_TYPES, {
  description: "Whether a payout bank account is a checking or a savings account.",
  meanings: { checking: "A checking (current) account.", savings: "A savings account." },
});

/** The path prefixes that serve domestic routes again under a country's (or BRLA's) name. */
export type PathAlias = "ar" | "co" | "mx" | "brla";

/**
 * An operation's name and summary as served under an alias prefix (`/v1/mx/...`): the alias's name carries
 * the alias (`listDomesticFiatAccountsMx`), so every route keeps a unique operationId.
 */
export function aliasedName(name: string, summary: string, alias: PathAlias | undefined) {
  if (!alias) return { name, summary };
  return {
    name: `${name}${alias[0]!.toUpperCase()}${alias.slice(1)}`,
    summary: `${summary} (${alias.toUpperCase()} alias)`,
  };
}
