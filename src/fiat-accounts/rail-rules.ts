import {
  BANK_ACCOUNT_TYPES,
  DOMESTIC_COUNTRIES,
  type DomesticCountry,
  type FiatAccountType,
} from "../reference-data/domestic.js";
import type { FiatAccountDetails } from "../providers/fiat-account-port.js";
import { abaProblems, cbuProblems, clabeProblems, cuitProblems, nitProblems, onlyDigits } from "./check-digits.js";
import { describedEnum } from "../enums.js";

/**
 * The rules of each rail the domestic corridors pay out on: which fields a payout account must, may or must not
 * give, and how each is checked and normalized. `validateFiatAccount` (rules.ts) applies them.
 */

/** Payout accounts exist in the domestic corridors. */
export const FIAT_ACCOUNT_COUNTRIES = DOMESTIC_COUNTRIES;

describedEnum("FiatAccountCountry", FIAT_ACCOUNT_COUNTRIES, {
  description: "The corridors with payout fiat accounts.",
  meanings: {
    AR: "Argentina: ARS payouts to a CBU or CVU (COELSA).",
    CO: "Colombia: COP payouts over ACH Colombia.",
    MX: "Mexico: MXN payouts by SPEI to a CLABE.",
    US: "United States: USD payouts by ACH or domestic wire (BANK_USA).",
  },
});

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

describedEnum("FiatAccountKind", SHOWN_ACCOUNT_TYPES, {
  description:
    "What kind of account a payout account is: a checking or savings bank account, or, on a rail that takes no bank account type, the kind of number that names it.",
  meanings: {
    checking: "A checking (current) account.",
    savings: "A savings account.",
    clabe: "MX (SPEI): an account named by its 18-digit CLABE.",
    cbu: "AR (COELSA): an account named by its 22-digit CBU or CVU.",
  },
});

type ShownAccountType = (typeof SHOWN_ACCOUNT_TYPES)[number];

/** The message of a field that takes a word from a list. */
export const oneOf = (values: readonly string[]) => `must be one of ${values.join(", ")}`;

/** The string fields, in the order the rules see them (documentType before documentNumber). */
export const TEXT_FIELDS = [
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
export type Draft = Partial<Record<TextField, string>>;

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
const AR_DOCUMENT_TYPES = ["CUIT", "CUIL"] as const;
/** Cédula de ciudadanía, cédula de extranjería, NIT, pasaporte, tarjeta de identidad. */
const CO_DOCUMENT_TYPES = ["CC", "CE", "NIT", "PP", "TI"] as const;

describedEnum("FiatAccountDocumentType", [...AR_DOCUMENT_TYPES, ...CO_DOCUMENT_TYPES], {
  description: "The account holder's document in AR and CO.",
  meanings: {
    CUIT: "AR: the tax id of a company or a self-employed person.",
    CUIL: "AR: an employee's tax id.",
    CC: "CO: c\u00e9dula de ciudadan\u00eda, a citizen's identity card.",
    CE: "CO: c\u00e9dula de extranjer\u00eda, a foreign resident's identity card.",
    NIT: "CO: a company's tax id.",
    PP: "CO: a passport.",
    TI: "CO: tarjeta de identidad, a minor's identity card.",
  },
});

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

/** A rail's rules, with those of every rail; undefined where the corridor does not pay out on it. */
export function railRules(country: FiatAccountCountry, type: FiatAccountType): RailRules | undefined {
  const own = (RAIL_RULES[country] as Partial<Record<FiatAccountType, RailSpecificRules>>)[type];
  return own && { ...COMMON_RULES, ...own };
}
