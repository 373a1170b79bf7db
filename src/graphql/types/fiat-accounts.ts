import { inputType } from "./input-type.js";
import { connectionType } from "./connection.js";
import { createFiatAccountInput, fiatAccountView } from "../../fiat-accounts/types.js";

export const FiatAccountConnection = connectionType(fiatAccountView);

export const CreateFiatAccountInput = inputType("CreateFiatAccountInput", createFiatAccountInput, {
  description: "The fields each corridor and type requires are checked for real (ABA, CLABE, CBU, CUIT, NIT).",
});
