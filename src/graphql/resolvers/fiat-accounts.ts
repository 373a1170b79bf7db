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
    page: "fiatAccounts",
  }),
  operationField(createDomesticFiatAccount, {
    mutation: "createFiatAccount",
    payload: { fiatAccount: fiatAccountView.describe("The new payout account.") },
    args: { input: { type: () => CreateFiatAccountInput } },
  }),
  operationField(deleteDomesticFiatAccount, {
    mutation: "deleteFiatAccount",
    payload: { deletedFiatAccountId: idField("The payout account deleted.") },
    toResult: (_deleted, { fiatAccountId }) => ({ deletedFiatAccountId: fiatAccountId }),
  }),
]);
