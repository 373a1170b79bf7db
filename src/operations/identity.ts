import type { ActingContext } from "../auth/delegation.js";
import { refreshTokenInput, requestOtpInput, verifyOtpInput } from "../identity/types.js";
import { defineOperation, type Operation } from "./operation.js";
import type { z } from "zod";

/** Sign-in and session renewal: open to callers without a session (who act for no subject yet). */
const signInOperation = <Input extends z.ZodObject, Result>(
  operation: Omit<Operation<Input, Result, ActingContext | null>, "access" | "withoutSubject">,
) =>
  defineOperation<Input, Result, ActingContext | null>({
    ...operation,
    access: { requires: ["SIGN_IN"], delegation: "NONE" },
    withoutSubject: true,
  });

export const requestOtp = signInOperation({
  name: "requestOTP",
  summary: "Send a sign-in code by email",
  input: requestOtpInput,
  run: (app, _acting, input) => app.identity.requestOtp(input),
});

export const verifyOtp = signInOperation({
  name: "verifyOTP",
  summary: "Sign in with an emailed code",
  input: verifyOtpInput,
  run: (app, _acting, input) => app.identity.verifyOtp(input),
});

export const refreshSession = signInOperation({
  name: "refreshSession",
  summary: "Renew a session with its refresh token",
  input: refreshTokenInput,
  run: (app, _acting, { refreshToken }) => app.identity.refresh(refreshToken),
});

export const logout = signInOperation({
  name: "logout",
  summary: "End a session",
  input: refreshTokenInput,
  run: (app, _acting, { refreshToken }) => app.identity.logout(refreshToken),
});
