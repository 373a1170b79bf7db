import { otpSent, refreshTokenInput, requestOtpInput, sessionView, verifyOtpInput } from "../identity/types.js";
import { defineOpenOperation } from "./operation.js";

/** Sign-in and session renewal: open to callers without a session (who act for no subject yet). */
const SIGN_IN = { requires: ["SIGN_IN"], delegation: "NONE" } as const;

export const requestOtp = defineOpenOperation(SIGN_IN, {
  name: "requestOTP",
  summary: "Send a sign-in code by email",
  input: requestOtpInput,
  output: otpSent,
  run: (app, _acting, input) => app.identity.requestOtp(input),
});

export const verifyOtp = defineOpenOperation(SIGN_IN, {
  name: "verifyOTP",
  summary: "Sign in with an emailed code",
  input: verifyOtpInput,
  output: sessionView,
  run: (app, _acting, input) => app.identity.verifyOtp(input),
});

export const refreshSession = defineOpenOperation(SIGN_IN, {
  name: "refreshSession",
  summary: "Renew a session with its refresh token",
  input: refreshTokenInput,
  output: sessionView,
  run: (app, _acting, { refreshToken }) => app.identity.refresh(refreshToken),
});

export const logout = defineOpenOperation(SIGN_IN, {
  name: "logout",
  summary: "End a session",
  input: refreshTokenInput,
  run: (app, _acting, { refreshToken }) => app.identity.logout(refreshToken),
});
