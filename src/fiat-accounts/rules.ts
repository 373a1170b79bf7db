import { z } from "zod";
import { AppError, type FieldIssue } from "../errors.js";
import { named } from "../output.js";
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
    type: named(
      "FiatAccountType",
      z
        .enum(FIAT_ACCOUNT_TYPES, { error: requiredOr(oneOf(FIAT_ACCOUNT_TYPES)) })
        .describe("The rail; it must be one the country offers (US: ACH or BANK_USA; MX: SPEI; AR: COELSA; CO: ACH)."),
    ),
    accountNumber: text.describe(
      "Digits, which spaces or dashes may group: US 4–17 digits, MX an 18-digit CLABE, AR a 22-digit CBU or CVU, CO 6–20 digits.",
    ),
    accountName: optionalText.describe("The account holder's name (optional, as in the reference)."),
    accountType: named("BankAccountType", optionalText.describe("Required in US and CO, optional elsewhere.")),
    routingNumber: optionalText.describe(
      "US: the 9-digit ABA routing number, required there; refused in MX, where the CLABE names the bank.",
    ),
    accountBankCode: optionalText.describe("CO: the 4-digit ACH Colombia bank code, required there."),
    documentType: named(
      "FiatAccountDocumentType",
      optionalText.describe("AR: CUIT or CUIL; CO: CC, CE, NIT, PP or TI. Required in AR and CO."),
    ),
    documentNumber: optionalText.describe(
      "The number of that documentType, required in AR and CO; CUIT, CUIL and NIT check digits are verified.",
    ),
    isExternal: z
      .boolean({ error: "must be true or false" })
      .nullish()
      .describe("Stored with the account (false when omitted); no rule here reads it and it is not returned."),
    bankStreet: optionalText.describe("The bank's street address; optional and not returned."),
    bankCity: optionalText.describe("The bank's city; optional and not returned."),
    bankState: optionalText.describe("The bank's state or region; optional and not returned."),
    bankPostalCode: optionalText.describe("The bank's postal code; optional and not returned."),
    bankCountry: optionalText.describe("The bank's country; optional and not returned."),
    beneficiaryStreet: optionalText.describe(
      "The beneficiary's street address; required for US BANK_USA, optional elsewhere.",
    ),
    beneficiaryCity: optionalText.describe("The beneficiary's city; required for US BANK_USA, optional elsewhere."),
    beneficiaryState: optionalText.describe("The beneficiary's state; required for US BANK_USA, optional elsewhere."),
    beneficiaryPostalCode: optionalText.describe(
      "US: ZIP (12345 or 12345-6789), required for BANK_USA; elsewhere the beneficiary's postal code as given.",
    ),
    beneficiaryCountry: optionalText.describe("The beneficiary's country; optional and not checked."),
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
