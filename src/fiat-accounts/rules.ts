import { z } from "zod";
import { AppError, type FieldIssue } from "../errors.js";
import type { AccountAddress, FiatAccountDetails } from "../providers/fiat-account-port.js";
import { FIAT_ACCOUNT_TYPES, type BankAccountType, type FiatAccountType } from "../reference-data/domestic.js";
import {
  ACCOUNT_TYPES_BY_COUNTRY,
  FIAT_ACCOUNT_COUNTRIES,
  oneOf,
  railRules,
  TEXT_FIELDS,
  type Draft,
  type FiatAccountCountry,
} from "./rail-rules.js";

/**
 * Payout fiat accounts of the domestic corridors: the body of `POST /v1/domestic/fiatAccounts`, checked by the rules
 * of its rail (rail-rules.ts, with the numbers' check digits in check-digits.ts), and how an account number is shown.
 * Pure: no database, no HTTP.
 */

const TEXT_MAX = 200;
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

/** What an account number looks like in responses: "****" and the last 4 characters; never the whole of a short one. */
export function maskAccountNumber(value: string): string {
  return `****${value.length > 4 ? value.slice(-4) : ""}`;
}

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

  const draft: Draft = {};
  for (const field of TEXT_FIELDS) {
    if (reported.has(field)) continue;
    const rule = rules[field];
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
