import { Args, Ctx, FieldResolver, Query, Resolver, Root } from "type-graphql";
import { Auth } from "../auth-directive.js";
import { listApiCredentials } from "../../operations/credentials.js";
import { Performs, performField } from "../operation-field.js";
import type { ActingContext } from "../../auth/delegation.js";
import type { GraphQLContext } from "../context.js";
import { Acting } from "../acting.js";
import { offsetPage, PageArgs, pageConnection } from "../types/connection.js";
import { ApiCredentialConnection } from "../types/credentials.js";
import { outputType } from "../types/output-type.js";
import { profileView, type ProfileView } from "../../profiles/types.js";

const Profile = outputType(profileView);

@Resolver(() => Profile)
export class ProfileResolver {
  // Reading a profile: a manager may select one of its children; a child's own key reads itself.
  @Query(() => Profile, { description: "The profile the caller speaks for." })
  @Auth({ requires: ["PROFILE_READ"], delegation: "DELEGATED" })
  async me(@Acting() acting: ActingContext): Promise<Pick<ProfileView, "id">> {
    // Its other fields are read when asked for (from memory once cached): `me { apiCredentials }` reads only
    // the credentials.
    return { id: acting.subjectProfileId };
  }

  @FieldResolver(() => String, { nullable: true })
  async email(@Root() profile: Pick<ProfileView, "id">, @Ctx() context: GraphQLContext) {
    return (await context.loaders.profile.load(profile.id)).email;
  }

  @FieldResolver(() => Date)
  async createdAt(@Root() profile: Pick<ProfileView, "id">, @Ctx() context: GraphQLContext) {
    return (await context.loaders.profile.load(profile.id)).createdAt;
  }

  @FieldResolver(() => Date)
  async updatedAt(@Root() profile: Pick<ProfileView, "id">, @Ctx() context: GraphQLContext) {
    return (await context.loaders.profile.load(profile.id)).updatedAt;
  }

  @FieldResolver(() => ApiCredentialConnection, { description: "The profile's credentials, newest first." })
  @Performs(listApiCredentials)
  async apiCredentials(@Args() args: PageArgs, @Acting() acting: ActingContext, @Ctx() context: GraphQLContext) {
    // The caller's own credentials: no selector here (a child's are under managedProfile).
    const page = await performField(listApiCredentials, context, acting, offsetPage(args));
    return pageConnection(page.credentials, page.pagination, args);
  }
}
