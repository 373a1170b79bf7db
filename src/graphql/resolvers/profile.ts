import { Args, Ctx, FieldResolver, Query, Resolver } from "type-graphql";
import { Auth } from "../auth-directive.js";
import type { DelegationRule } from "../../auth/delegation.js";
import { actingContext, type GraphQLContext } from "../context.js";
import { PageArgs } from "../types/connection.js";
import { ApiCredentialConnection } from "../types/credentials.js";
import { Profile } from "../types/identity.js";
import { credentialPage } from "./credentials.js";

/** Reading a profile: a manager may select one of its children; a child's own key reads itself. */
const READ_FOR_CHILD: DelegationRule = { selector: "supported", childCredential: "allowed" };

@Resolver(() => Profile)
export class ProfileResolver {
  @Query(() => Profile, { description: "The profile the caller speaks for." })
  @Auth("PROFILE_READ")
  async me(@Ctx() context: GraphQLContext) {
    return context.app.profiles.get((await actingContext(context, READ_FOR_CHILD)).subjectProfileId);
  }

  @FieldResolver(() => ApiCredentialConnection, { description: "The profile's credentials, newest first." })
  @Auth("OWN_CREDENTIALS")
  async apiCredentials(@Args() page: PageArgs, @Ctx() context: GraphQLContext) {
    // The caller's own credentials: no selector here (a child's are under managedProfile).
    return credentialPage(context, (await actingContext(context)).subjectProfileId, page);
  }
}
