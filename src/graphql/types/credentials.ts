import { apiCredentialView, createCredentialInput } from "../../credentials/types.js";
import { connectionType } from "./connection.js";
import { inputType } from "./input-type.js";

export const ApiCredentialConnection = connectionType(apiCredentialView);

export const CreateApiCredentialInput = inputType("CreateApiCredentialInput", createCredentialInput, {
  description: "Name and expiry of a new credential; both may be left out.",
});
