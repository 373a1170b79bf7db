import { z } from "zod";
import { listPage } from "../validation.js";
import { idField, instantField, named, outputObject } from "../output.js";
import { FIAT_ACCOUNT_TYPES } from "../reference-data/domestic.js";
import { FIAT_ACCOUNT_COUNTRIES, SHOWN_ACCOUNT_TYPES } from "./rail-rules.js";
import { fiatAccountInput } from "./rules.js";

const country = z.enum(FIAT_ACCOUNT_COUNTRIES, { error: `must be one of ${FIAT_ACCOUNT_COUNTRIES.join(", ")}` });
const notAnObject = (issue: { code?: string }) => (issue.code === "invalid_type" ? "must be a JSON object" : undefined);

/** The corridor of an account to create, checked against the manager's policy before the details are validated. */
export const fiatAccountCountryInput = z.object({ country }, { error: notAnObject });

/**
 * An account to create: the body's fields (`fiatAccountInput`), the country decided (a REST adapter takes it
 * from the path, the query or the body), each unknown field named on its own. The rules of the corridor's
 * rail are the service's.
 */
export const createFiatAccountInput = fiatAccountInput
  .extend({
    country: named(
      "FiatAccountCountry",
      country.describe("The corridor to pay out in; for a managed child the manager's current policy must allow it."),
    ),
  })
  .catchall(z.custom<unknown>(() => false, { error: "is not a field of a fiat account" }));
export type CreateFiatAccountInput = z.output<typeof createFiatAccountInput>;

/** A page of the subject's accounts in a country (a REST adapter takes it from the alias path or the query). */
export const listFiatAccountsInput = listPage.extend({
  country: named("FiatAccountCountry", country.describe("The corridor whose accounts are listed.")),
});

/**
 * A payout account as callers see it (the reference's list item): the account number masked, the optional
 * fields left out when none was given.
 */
export const fiatAccountView = outputObject(
  "FiatAccount",
  "A payout bank account of the subject; SELL ramps of its corridor pay out to it.",
  {
    fiatAccountId: idField("UUID; a SELL ramp in the account's corridor names it to pay out here."),
    customerId: idField("The subject's provider account (customer) in the account's country."),
    country: named("FiatAccountCountry", z.enum(FIAT_ACCOUNT_COUNTRIES)).describe(
      "The corridor it pays out in; only SELL ramps there can use it.",
    ),
    type: named("FiatAccountType", z.enum(FIAT_ACCOUNT_TYPES)).describe("The rail the account is paid over."),
    accountNumber: z.string().describe("Masked: only the last four characters are shown."),
    accountName: z.string().optional().describe("The account holder's name, as given (trimmed), when one was."),
    accountType: named("FiatAccountKind", z.enum(SHOWN_ACCOUNT_TYPES)).describe(
      "The bank account type given (required in US and CO), else the kind of number that names the account.",
    ),
    routingNumber: z
      .string()
      .optional()
      .describe("The routing number (US: the 9-digit ABA number, digits only), when one was given."),
    accountBankCode: z
      .string()
      .optional()
      .describe("The bank code (CO: the 4-digit ACH Colombia code), when one was given."),
    createdAt: instantField("When the account was added (ISO 8601 date-time, UTC)."),
  },
);
export type FiatAccountView = z.output<typeof fiatAccountView>;
