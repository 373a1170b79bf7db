import { createFiatAccountInput, fiatAccountView } from "../../fiat-accounts/types.js";
import {
  createDomesticFiatAccount,
  deleteDomesticFiatAccount,
  listDomesticFiatAccounts,
} from "../../operations/fiat-accounts.js";
import { idField } from "../../output.js";
import { operationField, operationResolver } from "../operation-field.js";
import { connectionType } from "../types/connection.js";
import { inputType } from "../types/input-type.js";

const FiatAccountConnection = connectionType(fiatAccountView);
const CreateFiatAccountInput = inputType("CreateFiatAccountInput", createFiatAccountInput, {
  description: "The fields each corridor and type requires are checked for real (ABA, CLABE, CBU, CUIT, NIT).",
});

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
