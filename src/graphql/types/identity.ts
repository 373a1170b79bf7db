import { Field, ID, Int, ObjectType } from "type-graphql";
import { enumOf } from "./enums.js";
import { registerGraphQLEnum } from "./output-type.js";

const TokenTypeEnum = enumOf(["bearer"] as const);
registerGraphQLEnum(TokenTypeEnum, {
  name: "TokenType",
  description: "How an access token is sent (REST spells BEARER as bearer).",
  valuesConfig: { BEARER: { description: "As `Authorization: Bearer <token>`." } },
});

@ObjectType({ description: "The outcome of requestOtp; failures are errors instead." })
export class RequestOtpPayload {
  @Field({ description: "Always true." })
  success!: boolean;

  @Field({ description: "A human-readable confirmation that the code was sent." })
  message!: string;
}

@ObjectType({ description: "A signed-in session: a short-lived access token and a single-use refresh token." })
export class Session {
  @Field({ description: "A JWT to send as `Authorization: Bearer <token>`, valid for expiresIn seconds." })
  accessToken!: string;

  @Field({ description: "An opaque token for refreshSession or logout; refreshing spends it and returns a new one." })
  refreshToken!: string;

  @Field(() => ID, { description: "The signed-in profile's id (UUID)." })
  userId!: string;

  @Field(() => TokenTypeEnum, { description: "Always BEARER." })
  tokenType!: string;

  @Field(() => Int, { description: "Seconds until the access token expires." })
  expiresIn!: number;
}

@ObjectType({ description: "The calling profile." })
export class Profile {
  @Field(() => ID, { description: "The profile's id (UUID)." })
  id!: string;

  @Field(() => String, {
    nullable: true,
    description: "The sign-in email, trimmed and lower-cased; null for a managed child, which never signs in.",
  })
  email!: string | null;

  @Field({ description: "When the profile was created: at first sign-in, or by its manager." })
  createdAt!: Date;

  @Field({ description: "When the profile record last changed." })
  updatedAt!: Date;
}
