import { z } from "zod";
import { listPage } from "../validation.js";
import type { FiatAccountType } from "../reference-data/domestic.js";
import { FIAT_ACCOUNT_COUNTRIES, fiatAccountInput, type FiatAccountCountry } from "./rules.js";

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
  .extend({ country })
  .catchall(z.custom<unknown>(() => false, { error: "is not a field of a fiat account" }));
export type CreateFiatAccountInput = z.output<typeof createFiatAccountInput>;

/** A page of the subject's accounts in a country (a REST adapter takes it from the alias path or the query). */
export const listFiatAccountsInput = listPage.extend({ country });

/**
 * A payout account as callers see it (the reference's list item): the account number masked, the optional
 * fields left out when none was given.
 */
export interface FiatAccountView {
  fiatAccountId: string;
  /** The partner's customer the account is registered under: the subject's customer in the account's country. */
  customerId: string;
  country: FiatAccountCountry;
  type: FiatAccountType;
  accountNumber: string;
  accountName?: string;
  /** The bank account type, or the kind of number that names the account (`shownAccountType`). */
  accountType: string;
  routingNumber?: string;
  accountBankCode?: string;
  createdAt: Date;
}
