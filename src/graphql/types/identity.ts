import { Field, ID, Int, ObjectType } from "type-graphql";

@ObjectType()
export class OtpRequestResult {
  @Field()
  success!: boolean;

  @Field()
  message!: string;
}

@ObjectType({ description: "A signed-in session: a short-lived access token and a single-use refresh token." })
export class Session {
  @Field()
  accessToken!: string;

  @Field()
  refreshToken!: string;

  @Field(() => ID)
  userId!: string;

  @Field()
  tokenType!: string;

  @Field(() => Int, { description: "Seconds until the access token expires." })
  expiresIn!: number;
}

@ObjectType({ description: "The calling profile." })
export class Profile {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  email!: string | null;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;
}
