import { z } from "zod";
import { email, omissible, requiredString, text } from "../validation.js";

/** An email address as profiles store it: trimmed, lower-case. */
export const emailAddress = requiredString("email is required")
  .max(254, "must be at most 254 characters")
  .trim()
  .toLowerCase()
  .pipe(email());

export const requestOtpInput = z.object({ email: emailAddress, locale: omissible(z.string().max(35)) });
export type RequestOtpInput = z.output<typeof requestOtpInput>;

export const verifyOtpInput = z.object({ email: emailAddress, token: text("code") });
export type VerifyOtpInput = z.output<typeof verifyOtpInput>;

/** A refresh token, to renew its session with or to end its sign-in. */
export const refreshTokenInput = z.object({
  refreshToken: text("token").min(1, "is required"),
});
