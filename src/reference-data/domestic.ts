import { fieldError } from "../validation.js";

/** The corridors served through `/v1/domestic` (and the `/v1/ar`, `/v1/co`, `/v1/mx` aliases). */
export const DOMESTIC_COUNTRIES = ["AR", "CO", "MX", "US"] as const;
export type DomesticCountry = (typeof DOMESTIC_COUNTRIES)[number];

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

/** Where a request names its country: a path alias (/v1/mx/...), the query, the body. */
export interface CountrySources {
  path?: DomesticCountry;
  query?: unknown;
  body?: unknown;
}

const invalid = (message: string) => fieldError("country", message);

/**
 * The country a domestic request is about: every place that names one must name the same (a conflict is
 * 400), and at least one must.
 */
export function requestCountry(
  sources: CountrySources,
  allowed: readonly DomesticCountry[] = DOMESTIC_COUNTRIES,
): DomesticCountry {
  const named: [string, unknown][] = [
    ["path", sources.path],
    ["query", (sources.query as { country?: unknown } | undefined)?.country],
    ["body", (sources.body as { country?: unknown } | null | undefined)?.country],
  ];
  const given = named.filter(([, value]) => value !== undefined && value !== null);
  for (const [where, value] of given) {
    if (!(allowed as readonly unknown[]).includes(value))
      throw invalid(`in the ${where} must be one of ${allowed.join(", ")}`);
  }
  if (given.length === 0) throw invalid(`is required (one of ${allowed.join(", ")})`);
  const [first, ...others] = given as [string, DomesticCountry][];
  const conflict = others.find(([, value]) => value !== first![1]);
  if (conflict)
    throw invalid(`differs between the ${first![0]} (${first![1]}) and the ${conflict[0]} (${conflict[1]})`);
  return first![1];
}
