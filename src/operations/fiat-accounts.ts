import { z } from "zod";
import { idInput } from "../output.js";
import { createFiatAccountInput, fiatAccountCountryInput, listFiatAccountsInput } from "../fiat-accounts/types.js";
import { aliasedName, type DomesticCountry, type PathAlias } from "../reference-data/domestic.js";
import { defineOperation, gate } from "./operation.js";

/** The subject's own accounts, or a managed child's (the selector works). */
const ACCOUNTS = { requires: ["PROVIDER_ACCOUNTS"], delegation: "DELEGATED" } as const;

/** The country aliases (`/v1/ar`, `/v1/co`, `/v1/mx`), whose path names the country. */
type Alias = Extract<DomesticCountry, "AR" | "CO" | "MX">;
const lower = (alias: Alias) => alias.toLowerCase() as PathAlias;

/**
 * Adds a payout account in the input's country: the manager's policy for that corridor (for a child) first,
 * then the details. Over REST the adapter decides the country (path, query or body) and puts it in the input.
 */
const createOperation = (alias?: Alias) =>
  defineOperation({
    ...aliasedName(
      "createDomesticFiatAccount",
      "Add a payout fiat account in the input's country (checked against the manager's policy for a child)",
      alias && lower(alias),
    ),
    access: ACCOUNTS,
    gate: gate(fiatAccountCountryInput, (app, acting, { country }) => app.fiatAccounts.creatableIn(acting, country)),
    input: createFiatAccountInput,
    run: (app, acting, account, country) => app.fiatAccounts.create(acting, country, account),
  });

/** Creating, listing and deleting, under `/v1/domestic` (no alias) or an alias (REST decides the country). */
function fiatAccountOperations(alias?: Alias) {
  return {
    create: createOperation(alias),
    list: defineOperation({
      ...aliasedName(
        "listDomesticFiatAccounts",
        "List the subject's payout fiat accounts in a country, newest first",
        alias && lower(alias),
      ),
      access: ACCOUNTS,
      input: listFiatAccountsInput,
      run: (app, acting, { country, ...page }) => app.fiatAccounts.list(acting, country, page),
    }),
    delete: defineOperation({
      ...aliasedName(
        "deleteDomesticFiatAccount",
        "Delete a payout fiat account: it is no longer listed or usable; ramps keep naming it",
        alias && lower(alias),
      ),
      access: ACCOUNTS,
      input: z.object({
        fiatAccountId: idInput(
          "One of the subject's usable accounts; an unknown, deleted or other subject's id is NOT_FOUND.",
        ),
      }),
      run: (app, acting, { fiatAccountId }) => app.fiatAccounts.delete(acting, fiatAccountId),
    }),
  };
}

export const {
  create: createDomesticFiatAccount,
  list: listDomesticFiatAccounts,
  delete: deleteDomesticFiatAccount,
} = fiatAccountOperations();

/** The same operations under each country alias. */
export const ALIASED_FIAT_ACCOUNT_OPERATIONS = {
  AR: fiatAccountOperations("AR"),
  CO: fiatAccountOperations("CO"),
  MX: fiatAccountOperations("MX"),
};
