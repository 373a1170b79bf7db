import { otpSent, refreshTokenInput, requestOtpInput, sessionView, verifyOtpInput } from "../identity/types.js";
import { defineOpenOperation } from "./operation.js";

/** Sign-in and session renewal: open to callers without a session (who act for no subject yet). */
const SIGN_IN = { requires: ["SIGN_IN"], delegation: "NONE" } as const;

export const requestOtp = defineOpenOperation(SIGN_IN, {
  name: "requestOTP",
  summary: "Email a 6-digit sign-in code, valid for 10 minutes",
  input: requestOtpInput,
  output: otpSent,
  run: (app, _acting, input) => app.identity.requestOtp(input),
});

export const verifyOtp = defineOpenOperation(SIGN_IN, {
  name: "verifyOTP",
  summary: "Exchange an emailed code for a session; the first sign-in creates the profile",
  input: verifyOtpInput,
  output: sessionView,
  run: (app, _acting, input) => app.identity.verifyOtp(input),
});

export const refreshSession = defineOpenOperation(SIGN_IN, {
  name: "refreshSession",
  summary: "Renew a session by rotating its refresh token; a spent token revokes its whole sign-in",
  input: refreshTokenInput,
  output: sessionView,
  run: (app, _acting, { refreshToken }) => app.identity.refresh(refreshToken),
});

export const logout = defineOpenOperation(SIGN_IN, {
  name: "logout",
  summary: "End the sign-in a refresh token belongs to",
  input: refreshTokenInput,
  run: (app, _acting, { refreshToken }) => app.identity.logout(refreshToken),
});
