import { z } from "zod";
import { AppError, type FieldIssue } from "../errors.js";
import type { AccountAddress, FiatAccountDetails } from "../providers/fiat-account-port.js";
import {
  BANK_ACCOUNT_TYPES,
  DOMESTIC_COUNTRIES,
  FIAT_ACCOUNT_TYPES,
  type BankAccountType,
  type DomesticCountry,
  type FiatAccountType,
} from "../reference-data/domestic.js";

/**
 * Payout fiat accounts of the domestic corridors: the body of `POST /v1/domestic/fiatAccounts`, which
 * rails each corridor pays out on, and the real checks on account numbers (ABA routing checksum, CLABE
 * and CBU/CVU check digits, CUIT/CUIL and NIT check digits, lengths). Pure: no database, no HTTP.
 */

/** Payout accounts exist in the domestic corridors. */
export const FIAT_ACCOUNT_COUNTRIES = DOMESTIC_COUNTRIES;
export type FiatAccountCountry = DomesticCountry;

/**
 * The kind of number that names an account on a rail that takes no bank account type, as the partner records
 * it (Alfredpay: a CLABE for SPEI, a CBU for COELSA, whose CVUs share the CBU's layout).
 */
const ACCOUNT_NUMBER_KINDS = { SPEI: "clabe", COELSA: "cbu" } as const satisfies Partial<
  Record<FiatAccountType, string>
>;
/** What an account's `accountType` shows: its bank account type, or the kind of number that names it. */
export const SHOWN_ACCOUNT_TYPES = [...BANK_ACCOUNT_TYPES, ...Object.values(ACCOUNT_NUMBER_KINDS)] as const;
type ShownAccountType = (typeof SHOWN_ACCOUNT_TYPES)[number];

const TEXT_MAX = 200;
const oneOf = (values: readonly string[]) => `must be one of ${values.join(", ")}`;
const requiredOr = (message: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? "is required" : message;
const text = z
  .string({ error: requiredOr("must be a string") })
  .max(TEXT_MAX, `must be at most ${TEXT_MAX} characters`);
/** Absent, null and blank all mean "not given". */
const optionalText = text.nullish();

/**
 * The create body (the reference's DomesticAddFiatAccountRequest), strict. `country` may be absent: the
 * service also takes it from the query. Only shapes are checked here; `validateFiatAccount` applies the
 * corridor's rules.
 */
export const fiatAccountInput = z.strictObject(
  {
    country: z.enum(FIAT_ACCOUNT_COUNTRIES, { error: oneOf(FIAT_ACCOUNT_COUNTRIES) }).nullish(),
    type: z.enum(FIAT_ACCOUNT_TYPES, { error: requiredOr(oneOf(FIAT_ACCOUNT_TYPES)) }),
    accountNumber: text,
    accountName: optionalText,
    accountType: optionalText,
    routingNumber: optionalText,
    accountBankCode: optionalText,
    documentType: optionalText,
    documentNumber: optionalText,
    isExternal: z.boolean({ error: "must be true or false" }).nullish(),
    bankStreet: optionalText,
    bankCity: optionalText,
    bankState: optionalText,
    bankPostalCode: optionalText,
    bankCountry: optionalText,
    beneficiaryStreet: optionalText,
    beneficiaryCity: optionalText,
    beneficiaryState: optionalText,
    beneficiaryPostalCode: optionalText,
    beneficiaryCountry: optionalText,
  },
  { error: (issue) => (issue.code === "invalid_type" ? "must be a JSON object" : undefined) },
);

/** The string fields, in the order the rules see them (documentType before documentNumber). */
const TEXT_FIELDS = [
  "accountNumber",
  "accountName",
  "accountType",
  "routingNumber",
  "accountBankCode",
  "documentType",
  "documentNumber",
  "bankStreet",
  "bankCity",
  "bankState",
  "bankPostalCode",
  "bankCountry",
  "beneficiaryStreet",
  "beneficiaryCity",
  "beneficiaryState",
  "beneficiaryPostalCode",
  "beneficiaryCountry",
] as const;
type TextField = (typeof TEXT_FIELDS)[number];
/** The fields already accepted, normalized, as later rules see them. */
type Draft = Partial<Record<TextField, string>>;

/** A field's value after its rule: the normalized value, or what is wrong with it (one message per failed rule). */
type Outcome = { value: string } | { problems: string[] };
type FieldCheck = (value: string, draft: Draft) => Outcome;
interface FieldRule {
  /** Default: optional. A forbidden field carries the message that says why. */
  presence?: "required" | { forbidden: string };
  /** Without a check, the trimmed text is stored as given. */
  check?: FieldCheck;
}
type RailRules = Partial<Record<TextField, FieldRule>>;
/** A rail's own rules: every rail says what its account number is. */
type RailSpecificRules = RailRules & { accountNumber: FieldRule };

// --- check digits ------------------------------------------------------------------------------------

const digitsOf = (value: string) => [...value].map(Number);
const weightedSum = (digits: number[], weights: readonly number[]) =>
  digits.reduce((sum, digit, index) => sum + digit * weights[index % weights.length]!, 0);
/** The "10 minus the last digit of the weighted sum" check digit of CLABE and CBU. */
const tensComplement = (digits: number[], weights: readonly number[]) =>
  (10 - (weightedSum(digits, weights) % 10)) % 10;

/** Federal Reserve routing symbols: banks (00–12), thrifts (21–32), electronic (61–72), traveler's checks (80). */
const ABA_PREFIX = /^(0\d|1[0-2]|2[1-9]|3[0-2]|6[1-9]|7[0-2]|80)/;
function abaProblems(digits: string): string[] {
  if (digits.length !== 9) return [`must be 9 digits (got ${digits.length})`];
  if (/^0+$/.test(digits)) return ["is not a valid ABA routing number (all zeros)"];
  const problems: string[] = [];
  if (!ABA_PREFIX.test(digits)) {
    problems.push(
      `is not a valid ABA routing number: ${digits.slice(0, 2)} is not a Federal Reserve routing symbol (00–12, 21–32, 61–72, 80)`,
    );
  }
  if (weightedSum(digitsOf(digits), [3, 7, 1]) % 10 !== 0)
    problems.push("is not a valid ABA routing number (checksum)");
  return problems;
}

const CLABE_WEIGHTS = [3, 7, 1] as const;
function clabeProblems(digits: string): string[] {
  if (digits.length !== 18) return [`must be an 18-digit CLABE (got ${digits.length} digits)`];
  const expected = tensComplement(digitsOf(digits.slice(0, 17)), CLABE_WEIGHTS);
  return Number(digits[17]) === expected ? [] : [`is not a valid CLABE: the check digit should be ${expected}`];
}

const CBU_BANK_BLOCK_WEIGHTS = [7, 1, 3, 9, 7, 1, 3] as const;
const CBU_ACCOUNT_BLOCK_WEIGHTS = [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3] as const;
/** CBU and CVU share the layout: bank (3) + branch (4) + check, then account (13) + check. */
function cbuProblems(digits: string): string[] {
  if (digits.length !== 22) return [`must be a 22-digit CBU or CVU (got ${digits.length} digits)`];
  const problems: string[] = [];
  const bankCheck = tensComplement(digitsOf(digits.slice(0, 7)), CBU_BANK_BLOCK_WEIGHTS);
  if (Number(digits[7]) !== bankCheck)
    problems.push(`is not a valid CBU/CVU: the check digit of the bank block (8th digit) should be ${bankCheck}`);
  const accountCheck = tensComplement(digitsOf(digits.slice(8, 21)), CBU_ACCOUNT_BLOCK_WEIGHTS);
  if (Number(digits[21]) !== accountCheck)
    problems.push(
      `is not a valid CBU/CVU: the check digit of the account block (22nd digit) should be ${accountCheck}`,
    );
  return problems;
}

const CUIT_PREFIXES = ["20", "23", "24", "27", "30", "33", "34"] as const;
const CUIT_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;
function cuitProblems(digits: string): string[] {
  if (digits.length !== 11) return [`must be 11 digits (got ${digits.length})`];
  const problems: string[] = [];
  if (!(CUIT_PREFIXES as readonly string[]).includes(digits.slice(0, 2))) {
    problems.push(`is not a valid CUIT/CUIL: it must start with ${CUIT_PREFIXES.join(", ")}`);
  }
  const remainder = 11 - (weightedSum(digitsOf(digits.slice(0, 10)), CUIT_WEIGHTS) % 11);
  // 11 means 0; 10 has no digit (AFIP issues such numbers under prefix 23 or 33 instead).
  const expected = remainder === 11 ? 0 : remainder;
  if (expected === 10) problems.push("is not a valid CUIT/CUIL: no check digit fits these first 10 digits");
  else if (Number(digits[10]) !== expected)
    problems.push(`is not a valid CUIT/CUIL: the check digit should be ${expected}`);
  return problems;
}

/** DIAN's weights, applied from the rightmost digit of the NIT's body. */
const NIT_WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71] as const;
function nitProblems(digits: string): string[] {
  if (digits.length !== 10)
    return [`must be a NIT of 9 digits and a check digit, such as 900123456-7 (got ${digits.length} digits)`];
  const remainder = weightedSum(digitsOf(digits.slice(0, 9)).reverse(), NIT_WEIGHTS) % 11;
  const expected = remainder < 2 ? remainder : 11 - remainder;
  return Number(digits[9]) === expected ? [] : [`is not a valid NIT: the check digit should be ${expected}`];
}

const onlyDigits = (value: string) => /^\d+$/.test(value);

/** 9 digits, weights 3-7-1 sum to a multiple of 10, not all zeros, a Federal Reserve routing symbol prefix. */
export function isValidAbaRoutingNumber(value: string): boolean {
  return onlyDigits(value) && abaProblems(value).length === 0;
}

/** An 18-digit CLABE whose last digit matches weights 3, 7, 1 over the first 17. */
export function isValidClabe(value: string): boolean {
  return onlyDigits(value) && clabeProblems(value).length === 0;
}

/** A 22-digit CBU or CVU with both block check digits right. */
export function isValidCbu(value: string): boolean {
  return onlyDigits(value) && cbuProblems(value).length === 0;
}

/** An 11-digit CUIT/CUIL: a known prefix and the mod-11 check digit. */
export function isValidCuit(value: string): boolean {
  return onlyDigits(value) && cuitProblems(value).length === 0;
}

/** A Colombian NIT as 10 digits or "#########-#", with DIAN's check digit. */
export function isValidColombianNit(value: string): boolean {
  return /^(\d{10}|\d{9}-\d)$/.test(value) && nitProblems(value.replace("-", "")).length === 0;
}

/**
 * What an account's `accountType` shows: the bank account type given (required where the rail takes one: US and
 * Colombian ACH, US wires), else the kind of number that names it (SPEI, COELSA).
 */
export function shownAccountType({
  type,
  accountType,
}: Pick<FiatAccountDetails, "type" | "accountType">): ShownAccountType {
  // Every rail served requires a bank account type or has a kind of number (test/unit/fiat-account-rules.test.ts).
  return accountType ?? ACCOUNT_NUMBER_KINDS[type as keyof typeof ACCOUNT_NUMBER_KINDS];
}

/** What an account number looks like in responses: "****" and the last 4 characters; never the whole of a short one. */
export function maskAccountNumber(value: string): string {
  return `****${value.length > 4 ? value.slice(-4) : ""}`;
}

// --- field rules -------------------------------------------------------------------------------------

const required = (check?: FieldCheck): FieldRule => ({ presence: "required", ...(check && { check }) });
const optional = (check: FieldCheck): FieldRule => ({ check });
const outcome = (value: string, problems: string[]): Outcome => (problems.length ? { problems } : { value });

/** Bank numbers may be grouped with spaces or dashes; document numbers also with dots (1.234.567). */
const BANK_SEPARATORS = /[\s-]/g;
const DOCUMENT_SEPARATORS = /[\s.-]/g;
/** A number stored as its digits: separators dropped, anything else rejected, then the number's own rules. */
const digits =
  (problems: (digits: string) => string[], separators = BANK_SEPARATORS): FieldCheck =>
  (value) => {
    const stripped = value.replace(separators, "");
    if (!onlyDigits(stripped)) {
      return {
        problems: [
          `must contain only digits (${separators === BANK_SEPARATORS ? "spaces and dashes" : "spaces, dots and dashes"} may separate them)`,
        ],
      };
    }
    return outcome(stripped, problems(stripped));
  };
const lengthBetween = (min: number, max: number, what: string) => (value: string) =>
  value.length >= min && value.length <= max
    ? []
    : [`must be ${what} of ${min === max ? min : `${min}–${max}`} digits (got ${value.length})`];
/** A word from a list, matched without regard to case and stored as the list spells it. */
const choice =
  (values: readonly string[], message: string): FieldCheck =>
  (value) => {
    const match = values.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
    return match ? { value: match } : { problems: [message] };
  };
/** Letters and digits only (a passport or foreign ID), stored upper-case without separators. */
const alphanumeric =
  (min: number, max: number): FieldCheck =>
  (value) => {
    const stripped = value.replace(DOCUMENT_SEPARATORS, "").toUpperCase();
    return /^[A-Z0-9]+$/.test(stripped) && stripped.length >= min && stripped.length <= max
      ? { value: stripped }
      : { problems: [`must be ${min}–${max} letters or digits`] };
  };
const usZip: FieldCheck = (value) =>
  /^\d{5}(-\d{4})?$/.test(value) ? { value } : { problems: ["must be a US ZIP code (12345 or 12345-6789)"] };

const ACCOUNT_TYPE = choice(BANK_ACCOUNT_TYPES, `must be "checking" or "savings"`);
export const AR_DOCUMENT_TYPES = ["CUIT", "CUIL"] as const;
/** Cédula de ciudadanía, cédula de extranjería, NIT, pasaporte, tarjeta de identidad. */
export const CO_DOCUMENT_TYPES = ["CC", "CE", "NIT", "PP", "TI"] as const;
const CO_DOCUMENT_NUMBER: Record<(typeof CO_DOCUMENT_TYPES)[number], FieldCheck> = {
  CC: digits(lengthBetween(6, 10, "a cédula"), DOCUMENT_SEPARATORS),
  TI: digits(lengthBetween(6, 10, "a tarjeta de identidad"), DOCUMENT_SEPARATORS),
  CE: alphanumeric(6, 12),
  PP: alphanumeric(6, 12),
  NIT: digits(nitProblems, DOCUMENT_SEPARATORS),
};
/** The number's rule follows its (already accepted) type; without a valid type it cannot be judged. */
const coDocumentNumber: FieldCheck = (value, draft) => {
  const documentType = draft.documentType as (typeof CO_DOCUMENT_TYPES)[number] | undefined;
  return documentType ? CO_DOCUMENT_NUMBER[documentType](value, draft) : { value };
};

/** Every rail: a bank account type from the list when one is given (the holder's name is optional, as in the reference). */
const COMMON_RULES: RailRules = {
  accountType: optional(ACCOUNT_TYPE),
};
const US_ACH: RailSpecificRules = {
  accountNumber: required(digits(lengthBetween(4, 17, "an account number"))),
  accountType: required(ACCOUNT_TYPE),
  routingNumber: required(digits(abaProblems)),
  beneficiaryPostalCode: optional(usZip),
};
const RAIL_RULES = {
  US: {
    ACH: US_ACH,
    /** Domestic wire: the ACH details and the beneficiary's address. */
    BANK_USA: {
      ...US_ACH,
      beneficiaryStreet: required(),
      beneficiaryCity: required(),
      beneficiaryState: required(),
      beneficiaryPostalCode: required(usZip),
    },
  },
  MX: {
    SPEI: {
      accountNumber: required(digits(clabeProblems)),
      routingNumber: { presence: { forbidden: "is not used by SPEI: the CLABE names the bank" } },
    },
  },
  AR: {
    COELSA: {
      accountNumber: required(digits(cbuProblems)),
      documentType: required(choice(AR_DOCUMENT_TYPES, "must be CUIT or CUIL")),
      documentNumber: required(digits(cuitProblems, DOCUMENT_SEPARATORS)),
    },
  },
  CO: {
    ACH: {
      accountNumber: required(digits(lengthBetween(6, 20, "an account number"))),
      accountType: required(ACCOUNT_TYPE),
      accountBankCode: required(digits(lengthBetween(4, 4, "an ACH Colombia bank code"))),
      documentType: required(choice(CO_DOCUMENT_TYPES, oneOf(CO_DOCUMENT_TYPES))),
      documentNumber: required(coDocumentNumber),
    },
  },
} as const satisfies Record<FiatAccountCountry, Partial<Record<FiatAccountType, RailSpecificRules>>>;

/** The rails each corridor pays out on. */
export const ACCOUNT_TYPES_BY_COUNTRY: Record<FiatAccountCountry, readonly FiatAccountType[]> = {
  // ACH: domestic ACH; BANK_USA: domestic wire.
  US: ["ACH", "BANK_USA"],
  MX: ["SPEI"],
  // CBU (banks) or CVU (payment providers), cleared by COELSA.
  AR: ["COELSA"],
  // Colombian ACH.
  CO: ["ACH"],
};

function railRules(country: FiatAccountCountry, type: FiatAccountType): RailSpecificRules | undefined {
  return (RAIL_RULES[country] as Partial<Record<FiatAccountType, RailSpecificRules>>)[type];
}

// --- validation --------------------------------------------------------------------------------------

/** zod's issues as field-level details; each unknown field is named on its own. */
function shapeIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ field: key, message: "is not a field of a fiat account" }))
      : [{ field: issue.path.length ? issue.path.join(".") : "(body)", message: issue.message }],
  );
}

const address = (draft: Draft, prefix: "bank" | "beneficiary"): AccountAddress | undefined => {
  const parts = {
    street: draft[`${prefix}Street`],
    city: draft[`${prefix}City`],
    state: draft[`${prefix}State`],
    postalCode: draft[`${prefix}PostalCode`],
    country: draft[`${prefix}Country`],
  };
  const given = Object.entries(parts).filter(([, value]) => value !== undefined);
  return given.length ? Object.fromEntries(given) : undefined;
};

/**
 * Validates a create body for a corridor already decided (from the query or the body), with the rules of
 * its rail. Every problem is reported at once, one `details` entry per failed rule, as AppError
 * VALIDATION_FAILED; a `country` in the body must agree with `country`.
 */
export function validateFiatAccount(country: FiatAccountCountry, body: unknown): FiatAccountDetails {
  const parsed = fiatAccountInput.safeParse(body);
  const issues = parsed.success ? [] : shapeIssues(parsed.error);
  const fail = () => new AppError("VALIDATION_FAILED", undefined, issues);
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw fail();

  // The rules read the body's own values, skipping any field zod already reported.
  const input = body as Record<string, unknown>;
  const reported = new Set(issues.map((issue) => issue.field));
  const usable = (field: string) => !reported.has(field) && input[field] != null;
  if (usable("country") && input.country !== country)
    issues.push({ field: "country", message: `must match the account's corridor ${country}` });
  if (!usable("type")) throw fail();
  const type = input.type as FiatAccountType;
  const rules = railRules(country, type);
  if (!rules) {
    issues.push({
      field: "type",
      message: `is not offered in ${country}; use ${ACCOUNT_TYPES_BY_COUNTRY[country].join(" or ")}`,
    });
    throw fail();
  }

  const allRules: RailRules = { ...COMMON_RULES, ...rules };
  const draft: Draft = {};
  for (const field of TEXT_FIELDS) {
    if (reported.has(field)) continue;
    const rule = allRules[field];
    const given = typeof input[field] === "string" ? input[field].trim() : "";
    if (!given) {
      if (rule?.presence === "required") issues.push({ field, message: "is required" });
      continue;
    }
    if (typeof rule?.presence === "object") {
      issues.push({ field, message: rule.presence.forbidden });
      continue;
    }
    const result = rule?.check ? rule.check(given, draft) : { value: given };
    if ("problems" in result) issues.push(...result.problems.map((message) => ({ field, message })));
    else draft[field] = result.value;
  }
  if (issues.length) throw fail();

  const bank = address(draft, "bank");
  const beneficiary = address(draft, "beneficiary");
  return {
    country,
    type,
    accountNumber: draft.accountNumber!,
    ...(draft.accountName !== undefined && { accountName: draft.accountName }),
    ...(draft.accountType !== undefined && { accountType: draft.accountType as BankAccountType }),
    ...(draft.routingNumber !== undefined && { routingNumber: draft.routingNumber }),
    ...(draft.accountBankCode !== undefined && { accountBankCode: draft.accountBankCode }),
    ...(draft.documentType !== undefined && { documentType: draft.documentType }),
    ...(draft.documentNumber !== undefined && { documentNumber: draft.documentNumber }),
    isExternal: input.isExternal === true,
    ...(bank && { bank }),
    ...(beneficiary && { beneficiary }),
  };
}
