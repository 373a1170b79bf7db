import { z } from "zod";
import { omissible, requiredString } from "../validation.js";

/** An email address as profiles store it: trimmed, lower-case. */
export const emailAddress = requiredString("email is required")
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "must be an email address" }).max(254));

export const requestOtpInput = z.object({ email: emailAddress, locale: omissible(z.string().max(35)) });
export type RequestOtpInput = z.output<typeof requestOtpInput>;

export const verifyOtpInput = z.object({ email: emailAddress, token: requiredString("token is required") });
export type VerifyOtpInput = z.output<typeof verifyOtpInput>;

/** A refresh token, to renew its session with or to end its sign-in. */
export const refreshTokenInput = z.object({
  refreshToken: requiredString().min(1, "is required"),
});
