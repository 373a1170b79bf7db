import { Field, ObjectType } from "type-graphql";
import { RAMP_ENVIRONMENTS } from "../../auth/keys.js";
import {
  apiCredentialView,
  createCredentialInput,
  issuedCredential,
  type ApiCredentialView,
} from "../../credentials/types.js";
import { Connection } from "./connection.js";
import { enumOf } from "./enums.js";
import { inputType } from "./input-type.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";

const RampEnvironmentEnum = enumOf(RAMP_ENVIRONMENTS);
registerGraphQLEnum(RampEnvironmentEnum, {
  name: "RampEnvironment",
  description: "A deployment's environment; a credential works only on a deployment of its own.",
  valuesConfig: {
    TEST: { description: "Sandbox: keys start with pk_test_ and sk_test_." },
    LIVE: { description: "Production: keys start with pk_live_ and sk_live_." },
  },
});

export const ApiCredential = outputType(apiCredentialView);
export type ApiCredential = ApiCredentialView;
export const ApiCredentialConnection = Connection(ApiCredential, "ApiCredential");

export const CreatedApiCredential = outputType(issuedCredential);

export const CreateApiCredentialInput = inputType("CreateApiCredentialInput", createCredentialInput, {
  description: "Name and expiry of a new credential; both may be left out.",
});

export enum ApiCredentialEventAction {
  CREATED = "created",
  REVOKED = "revoked",
}
registerGraphQLEnum(ApiCredentialEventAction, {
  name: "ApiCredentialEventAction",
  description: "What happened to a credential.",
  valuesConfig: {
    CREATED: { description: "The credential was issued." },
    REVOKED: { description: "Both values of the credential were revoked." },
  },
});

@ObjectType({ description: "A credential of the caller's profile was created or revoked." })
export class ApiCredentialEvent {
  @Field(() => ApiCredentialEventAction, { description: "Whether the credential was created or revoked." })
  action!: ApiCredentialEventAction;

  @Field(() => ApiCredential, { description: "The credential as it stands when the event is delivered." })
  credential!: ApiCredential;
}
