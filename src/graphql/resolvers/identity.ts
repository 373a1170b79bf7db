import { Arg, Ctx, Mutation, Resolver } from "type-graphql";
import type { SessionTokens } from "../../identity/service.js";
import { Auth } from "../auth-directive.js";
import type { GraphQLContext } from "../context.js";
import { OtpRequestResult, Session } from "../types/identity.js";

const toSession = (tokens: SessionTokens): Session => ({
  accessToken: tokens.accessToken,
  refreshToken: tokens.refreshToken,
  userId: tokens.profileId,
  tokenType: "bearer",
  expiresIn: tokens.expiresIn,
});

@Resolver()
export class IdentityResolver {
  @Mutation(() => OtpRequestResult, { description: "Emails a 6-digit sign-in code, valid for 10 minutes." })
  @Auth({ requires: ["SIGN_IN"], delegation: "NONE" })
  async requestOtp(
    @Arg("email", { description: "The address to send the code to; trimmed and lower-cased." }) email: string,
    @Arg("locale", () => String, {
      nullable: true,
      description: "At most 35 characters; not used yet, as the email is always in English.",
    })
    locale: string | null,
    @Ctx() { app, enforceSignInLimit }: GraphQLContext,
  ) {
    enforceSignInLimit();
    return app.identity.requestOtp({ email, locale: locale ?? undefined });
  }

  @Mutation(() => Session, {
    description: "Exchanges the emailed code for a session; creates the profile on first sign-in.",
  })
  @Auth({ requires: ["SIGN_IN"], delegation: "NONE" })
  async verifyOtp(
    @Arg("email", { description: "The address the code was sent to." }) email: string,
    @Arg("token", { description: "The 6-digit code from the email; after 5 wrong tries it no longer works." })
    token: string,
    @Ctx() { app, enforceSignInLimit }: GraphQLContext,
  ) {
    enforceSignInLimit();
    return toSession(await app.identity.verifyOtp({ email, token }));
  }

  @Mutation(() => Session, { description: "Rotates a refresh token; a spent token revokes its whole sign-in." })
  @Auth({ requires: ["SIGN_IN"], delegation: "NONE" })
  async refreshSession(
    @Arg("refreshToken", { description: "The session's latest refresh token, spent by this call." })
    refreshToken: string,
    @Ctx() { app }: GraphQLContext,
  ) {
    return toSession(await app.identity.refresh(refreshToken));
  }

  @Mutation(() => Boolean, { description: "Ends the sign-in the refresh token belongs to." })
  @Auth({ requires: ["SIGN_IN"], delegation: "NONE" })
  async logout(
    @Arg("refreshToken", { description: "Any refresh token of the sign-in, spent ones included." })
    refreshToken: string,
    @Ctx() { app }: GraphQLContext,
  ) {
    await app.identity.logout(refreshToken);
    return true;
  }
}
