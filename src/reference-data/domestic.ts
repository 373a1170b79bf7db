/** The corridors served through `/v1/domestic` (and the `/v1/ar`, `/v1/co`, `/v1/mx` aliases). */
export const DOMESTIC_COUNTRIES = ["AR", "CO", "MX", "US"] as const;
export type DomesticCountry = (typeof DOMESTIC_COUNTRIES)[number];

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

/** The bank account types a payout account may be of. */
export const BANK_ACCOUNT_TYPES = ["checking", "savings"] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];

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
