import { z } from "zod";
import { sessionView } from "../../identity/types.js";
import { logout, refreshSession, requestOtp, verifyOtp } from "../../operations/identity.js";
import type { GraphQLContext } from "../context.js";
import { operationField, operationResolver } from "../operation-field.js";
import { RequestOtpPayload } from "../types/identity.js";

const enforceSignInLimit = (context: GraphQLContext) => context.enforceSignInLimit();

export const IdentityResolver = operationResolver("IdentityResolver", [
  operationField(requestOtp, {
    mutation: "requestOtp",
    returns: () => RequestOtpPayload,
    description: "Emails a 6-digit sign-in code, valid for 10 minutes.",
    args: {
      locale: {
        type: () => String,
        nullable: true,
        description: "At most 35 characters; not used yet, as the email is always in English.",
      },
      email: { type: () => String, description: "The address to send the code to; trimmed and lower-cased." },
    },
    before: enforceSignInLimit,
  }),
  operationField(verifyOtp, {
    mutation: "verifyOtp",
    payload: { session: sessionView.describe("The new session.") },
    description: "Exchanges the emailed code for a session; creates the profile on first sign-in.",
    args: {
      token: {
        type: () => String,
        description: "The 6-digit code from the email; after 5 wrong tries it no longer works.",
      },
      email: { type: () => String, description: "The address the code was sent to." },
    },
    before: enforceSignInLimit,
  }),
  operationField(refreshSession, {
    mutation: "refreshSession",
    payload: { session: sessionView.describe("The session with a new token pair.") },
    description: "Rotates a refresh token; a spent token revokes its whole sign-in.",
    args: {
      refreshToken: { type: () => String, description: "The session's latest refresh token, spent by this call." },
    },
  }),
  operationField(logout, {
    mutation: "logout",
    payload: { loggedOut: z.boolean().describe("Always true: the sign-in has ended.") },
    description: "Ends the sign-in the refresh token belongs to.",
    args: {
      refreshToken: { type: () => String, description: "Any refresh token of the sign-in, spent ones included." },
    },
    toResult: () => ({ loggedOut: true }),
  }),
]);
