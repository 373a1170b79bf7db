import { Field, ID, InputType, ObjectType } from "type-graphql";
import { RAMP_ENVIRONMENTS } from "../../auth/keys.js";
import { Connection } from "./connection.js";
import { enumOf } from "./enums.js";
import { registerGraphQLEnum } from "./output-type.js";

const RampEnvironmentEnum = enumOf(RAMP_ENVIRONMENTS);
registerGraphQLEnum(RampEnvironmentEnum, {
  name: "RampEnvironment",
  description: "A deployment's environment; a credential works only on a deployment of its own.",
  valuesConfig: {
    TEST: { description: "Sandbox: keys start with pk_test_ and sk_test_." },
    LIVE: { description: "Production: keys start with pk_live_ and sk_live_." },
  },
});

@ObjectType({
  description: "An API credential: a public and a secret value for one profile. The secret is never readable.",
})
export class ApiCredential {
  @Field(() => ID, { description: "The credential's id (UUID), which the revoke mutations take." })
  id!: string;

  @Field({ description: 'Display name, 1 to 100 characters; "API Credential" unless one was given.' })
  name!: string;

  @Field(() => ID, { description: "The profile the credential authenticates, and only that one." })
  profileId!: string;

  @Field(() => ID, {
    nullable: true,
    description: "The partner a partner-managed credential is attributed to; null for every other credential.",
  })
  partnerId!: string | null;

  @Field(() => RampEnvironmentEnum, {
    description: "TEST (sandbox) or LIVE (production); the credential works only on a deployment of the same one.",
  })
  environment!: string;

  @Field({ description: "The public value: `pk_<environment>_` and 32 letters and digits; readable at any time." })
  publicKey!: string;

  @Field({ description: "The first 16 characters of the secret value, for display and lookup." })
  secretKeyPrefix!: string;

  @Field(() => Date, {
    nullable: true,
    description: "When the public value last authenticated a request; null if never. Recorded in batches.",
  })
  publicLastUsedAt!: Date | null;

  @Field(() => Date, {
    nullable: true,
    description: "When the secret value last authenticated a request; null if never. Recorded in batches.",
  })
  secretLastUsedAt!: Date | null;

  @Field({ description: "When both values stop authenticating; set at creation, at most 2 years after it." })
  expiresAt!: Date;

  @Field(() => Date, { nullable: true, description: "When both values were revoked; null until then." })
  revokedAt!: Date | null;

  @Field({ description: "When the credential was issued." })
  createdAt!: Date;

  @Field({ description: "When the credential record last changed." })
  updatedAt!: Date;
}

export const ApiCredentialConnection = Connection(ApiCredential, "ApiCredential");

@ObjectType({ description: "A newly created credential with its secret value, shown only this once." })
export class CreatedApiCredential {
  @Field(() => ApiCredential, { description: "The new credential, as later reads return it." })
  credential!: ApiCredential;

  @Field({
    description: "The secret value: `sk_<environment>_` and 32 letters and digits; it cannot be read again.",
  })
  secretKey!: string;
}

@InputType({ description: "Name and expiry of a new credential; both may be left out." })
export class CreateApiCredentialInput {
  @Field({ nullable: true, description: '1 to 100 characters once trimmed; default "API Credential".' })
  name?: string;

  @Field({ nullable: true, description: "In the future and at most 2 years away; default one year from now." })
  expiresAt?: Date;
}

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
