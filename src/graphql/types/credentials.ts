import { RAMP_ENVIRONMENTS } from "../../auth/keys.js";
import {
  apiCredentialEventView,
  apiCredentialView,
  createCredentialInput,
  CREDENTIAL_EVENT_ACTIONS,
} from "../../credentials/types.js";
import { connectionType } from "./connection.js";
import { described, enumOf } from "./enums.js";
import { inputType } from "./input-type.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";

registerGraphQLEnum(enumOf(RAMP_ENVIRONMENTS), {
  name: "RampEnvironment",
  description: "A deployment's environment; a credential works only on a deployment of its own.",
  valuesConfig: described({
    TEST: "Sandbox: keys start with pk_test_ and sk_test_.",
    LIVE: "Production: keys start with pk_live_ and sk_live_.",
  }),
});

export const ApiCredentialConnection = connectionType(apiCredentialView);

export const CreateApiCredentialInput = inputType("CreateApiCredentialInput", createCredentialInput, {
  description: "Name and expiry of a new credential; both may be left out.",
});

registerGraphQLEnum(enumOf(CREDENTIAL_EVENT_ACTIONS), {
  name: "ApiCredentialEventAction",
  description: "What happened to a credential.",
  valuesConfig: described({
    CREATED: "The credential was issued.",
    REVOKED: "Both values of the credential were revoked.",
  }),
});

export const ApiCredentialEvent = outputType(apiCredentialEventView);
