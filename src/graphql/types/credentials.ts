import { Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { Connection } from "./connection.js";

@ObjectType({
  description: "An API credential: a public and a secret value for one profile. The secret is never readable.",
})
export class ApiCredential {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => ID)
  profileId!: string;

  @Field(() => ID, { nullable: true })
  partnerId!: string | null;

  @Field()
  environment!: string;

  @Field()
  publicKey!: string;

  @Field({ description: "The first 16 characters of the secret value, for display and lookup." })
  secretKeyPrefix!: string;

  @Field(() => Date, { nullable: true })
  publicLastUsedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  secretLastUsedAt!: Date | null;

  @Field()
  expiresAt!: Date;

  @Field(() => Date, { nullable: true })
  revokedAt!: Date | null;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;
}

export const ApiCredentialConnection = Connection(ApiCredential, "ApiCredential");

@ObjectType({ description: "A newly created credential with its secret value, shown only this once." })
export class CreatedApiCredential {
  @Field(() => ApiCredential)
  credential!: ApiCredential;

  @Field()
  secretKey!: string;
}

@InputType()
export class CreateApiCredentialInput {
  @Field({ nullable: true, description: 'At most 100 characters; default "API Credential".' })
  name?: string;

  @Field({ nullable: true, description: "In the future and at most 2 years away; default one year from now." })
  expiresAt?: Date;
}

export enum ApiCredentialEventAction {
  CREATED = "created",
  REVOKED = "revoked",
}
registerEnumType(ApiCredentialEventAction, { name: "ApiCredentialEventAction" });

@ObjectType({ description: "A credential of the caller's profile was created or revoked." })
export class ApiCredentialEvent {
  @Field(() => ApiCredentialEventAction)
  action!: ApiCredentialEventAction;

  @Field(() => ApiCredential)
  credential!: ApiCredential;
}
