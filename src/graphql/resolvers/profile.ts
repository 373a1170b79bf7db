import { Args, Ctx, FieldResolver, Query, Resolver } from "type-graphql";
import { Auth } from "../auth-directive.js";
import { callerProfileId, type GraphQLContext } from "../context.js";
import { PageArgs } from "../types/connection.js";
import { ApiCredentialConnection } from "../types/credentials.js";
import { Profile } from "../types/identity.js";
import { credentialPage } from "./credentials.js";

@Resolver(() => Profile)
export class ProfileResolver {
  @Query(() => Profile, { description: "The profile the caller speaks for." })
  @Auth("PROFILE_READ")
  me(@Ctx() context: GraphQLContext) {
    return context.app.profiles.get(callerProfileId(context));
  }

  @FieldResolver(() => ApiCredentialConnection, { description: "The profile's credentials, newest first." })
  @Auth("OWN_CREDENTIALS")
  apiCredentials(@Args() page: PageArgs, @Ctx() context: GraphQLContext) {
    return credentialPage(context, page);
  }
}
