import { z } from "zod";
import { sessionView } from "../../identity/types.js";
import { logout, refreshSession, requestOtp, verifyOtp } from "../../operations/identity.js";
import type { GraphQLContext } from "../context.js";
import { operationField, operationResolver } from "../operation-field.js";

const enforceSignInLimit = (context: GraphQLContext) => context.enforceSignInLimit();

export const IdentityResolver = operationResolver("IdentityResolver", [
  operationField(requestOtp, {
    mutation: "requestOtp",
    args: { locale: {}, email: {} },
    before: enforceSignInLimit,
  }),
  operationField(verifyOtp, {
    mutation: "verifyOtp",
    payload: { session: sessionView.describe("The new session.") },
    args: { token: {}, email: {} },
    before: enforceSignInLimit,
  }),
  operationField(refreshSession, {
    mutation: "refreshSession",
    payload: { session: sessionView.describe("The session with a new token pair.") },
  }),
  operationField(logout, {
    mutation: "logout",
    payload: { loggedOut: z.boolean().describe("Always true: the sign-in has ended.") },
    args: { refreshToken: { description: "Any refresh token of the sign-in, spent ones included." } },
    toResult: () => ({ loggedOut: true }),
  }),
]);
