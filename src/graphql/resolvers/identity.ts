import { Arg, Ctx, Mutation, Resolver } from "type-graphql";
import { logout, refreshSession, requestOtp, verifyOtp } from "../../operations/identity.js";
import { Performs, performField } from "../operation-field.js";
import type { GraphQLContext } from "../context.js";
import { RequestOtpPayload } from "../types/identity.js";
import { sessionView } from "../../identity/types.js";
import { z } from "zod";
import { payloadType } from "../types/payload.js";

const VerifyOtpPayload = payloadType("verifyOtp", { session: sessionView.describe("The new session.") });
const RefreshSessionPayload = payloadType("refreshSession", {
  session: sessionView.describe("The session with a new token pair."),
});
const LogoutPayload = payloadType("logout", { loggedOut: z.boolean().describe("Always true: the sign-in has ended.") });

@Resolver()
export class IdentityResolver {
  @Mutation(() => RequestOtpPayload, { description: "Emails a 6-digit sign-in code, valid for 10 minutes." })
  @Performs(requestOtp)
  async requestOtp(
    @Arg("email", { description: "The address to send the code to; trimmed and lower-cased." }) email: string,
    @Arg("locale", () => String, {
      nullable: true,
      description: "At most 35 characters; not used yet, as the email is always in English.",
    })
    locale: string | null,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof RequestOtpPayload>> {
    context.enforceSignInLimit();
    return performField(requestOtp, context, null, { email, locale });
  }

  @Mutation(() => VerifyOtpPayload, {
    description: "Exchanges the emailed code for a session; creates the profile on first sign-in.",
  })
  @Performs(verifyOtp)
  async verifyOtp(
    @Arg("email", { description: "The address the code was sent to." }) email: string,
    @Arg("token", { description: "The 6-digit code from the email; after 5 wrong tries it no longer works." })
    token: string,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof VerifyOtpPayload>> {
    context.enforceSignInLimit();
    return { session: await performField(verifyOtp, context, null, { email, token }) };
  }

  @Mutation(() => RefreshSessionPayload, {
    description: "Rotates a refresh token; a spent token revokes its whole sign-in.",
  })
  @Performs(refreshSession)
  async refreshSession(
    @Arg("refreshToken", { description: "The session's latest refresh token, spent by this call." })
    refreshToken: string,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof RefreshSessionPayload>> {
    return { session: await performField(refreshSession, context, null, { refreshToken }) };
  }

  @Mutation(() => LogoutPayload, { description: "Ends the sign-in the refresh token belongs to." })
  @Performs(logout)
  async logout(
    @Arg("refreshToken", { description: "Any refresh token of the sign-in, spent ones included." })
    refreshToken: string,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof LogoutPayload>> {
    await performField(logout, context, null, { refreshToken });
    return { loggedOut: true };
  }
}
