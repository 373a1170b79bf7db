import { fiatAccountView } from "../../fiat-accounts/types.js";
import {
  createDomesticFiatAccount,
  deleteDomesticFiatAccount,
  listDomesticFiatAccounts,
} from "../../operations/fiat-accounts.js";
import { idField } from "../../output.js";
import { operationField, operationResolver } from "../operation-field.js";
import { CreateFiatAccountInput, FiatAccountConnection } from "../types/fiat-accounts.js";

/** Payout fiat accounts of the acting subject (itself, or a managed child through the selector or its own key). */
export const FiatAccountsResolver = operationResolver("FiatAccountsResolver", [
  operationField(listDomesticFiatAccounts, {
    query: "fiatAccounts",
    returns: () => FiatAccountConnection,
    description: "The subject's payout accounts in a country, newest first.",
    page: "fiatAccounts",
  }),
  operationField(createDomesticFiatAccount, {
    mutation: "createFiatAccount",
    payload: { fiatAccount: fiatAccountView.describe("The new payout account.") },
    description: "Adds a payout account in the input's country (checked against the manager's policy for a child).",
    args: {
      input: { type: () => CreateFiatAccountInput },
    },
  }),
  operationField(deleteDomesticFiatAccount, {
    mutation: "deleteFiatAccount",
    payload: { deletedFiatAccountId: idField("The payout account deleted.") },
    description: "Deletes a payout account: it is no longer listed or usable; ramps keep naming it.",
    toResult: (_deleted, { fiatAccountId }) => ({ deletedFiatAccountId: fiatAccountId }),
  }),
]);
