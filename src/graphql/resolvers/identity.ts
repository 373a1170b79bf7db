import { z } from "zod";
import { sessionView } from "../../identity/types.js";
import { logout, refreshSession, requestOtp, verifyOtp } from "../../operations/identity.js";
import type { GraphQLContext } from "../context.js";
import { operationField, operationResolver } from "../operation-field.js";

const enforceSignInLimit = (context: GraphQLContext) => context.enforceSignInLimit();

export const IdentityResolver = operationResolver("IdentityResolver", [
  operationField(requestOtp, {
    mutation: "requestOtp",
    description: "Emails a 6-digit sign-in code, valid for 10 minutes.",
    args: { locale: {}, email: {} },
    before: enforceSignInLimit,
  }),
  operationField(verifyOtp, {
    mutation: "verifyOtp",
    payload: { session: sessionView.describe("The new session.") },
    description: "Exchanges the emailed code for a session; creates the profile on first sign-in.",
    args: { token: {}, email: {} },
    before: enforceSignInLimit,
  }),
  operationField(refreshSession, {
    mutation: "refreshSession",
    payload: { session: sessionView.describe("The session with a new token pair.") },
    description: "Rotates a refresh token; a spent token revokes its whole sign-in.",
  }),
  operationField(logout, {
    mutation: "logout",
    payload: { loggedOut: z.boolean().describe("Always true: the sign-in has ended.") },
    description: "Ends the sign-in the refresh token belongs to.",
    args: { refreshToken: { description: "Any refresh token of the sign-in, spent ones included." } },
    toResult: () => ({ loggedOut: true }),
  }),
]);
