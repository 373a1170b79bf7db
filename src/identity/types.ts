import { z } from "zod";
import { idField, named, outputObject } from "../output.js";
import { email, omissible, requiredString, text } from "../validation.js";
import { describedEnum } from "../enums.js";

/** An email address as profiles store it: trimmed, lower-case. */
export const emailAddress = requiredString("email is required")
  .max(254, "must be at most 254 characters")
  .trim()
  .toLowerCase()
  .pipe(email());

export const requestOtpInput = z.object({
  email: emailAddress.describe("The address to send the code to; trimmed and lower-cased."),
  locale: omissible(z.string().max(35)).describe(
    "At most 35 characters; not used yet, as the email is always in English.",
  ),
});
export type RequestOtpInput = z.output<typeof requestOtpInput>;

export const verifyOtpInput = z.object({
  email: emailAddress.describe("The address the code was sent to."),
  token: text("code").describe("The 6-digit code from the email; after 5 wrong tries it no longer works."),
});
export type VerifyOtpInput = z.output<typeof verifyOtpInput>;

/** A refresh token, to renew its session with or to end its sign-in. */
export const refreshTokenInput = z.object({
  refreshToken: text("token").min(1, "is required").describe("The session's latest refresh token, spent by this call."),
});

export const otpSent = outputObject("RequestOtpPayload", "The outcome of requestOtp; failures are errors instead.", {
  success: z.literal(true).describe("Always true."),
  message: z.string().describe("A human-readable confirmation that the code was sent."),
});

const TOKEN_TYPES = ["bearer"] as const;

describedEnum("TokenType", TOKEN_TYPES, {
  description: "How an access token is sent (REST spells BEARER as bearer).",
  meanings: { bearer: "As `Authorization: Bearer <token>`." },
});

export const sessionView = outputObject(
  "Session",
  "A signed-in session: a short-lived access token and a single-use refresh token.",
  {
    accessToken: z.string().describe("A JWT to send as `Authorization: Bearer <token>`, valid for expiresIn seconds."),
    refreshToken: z
      .string()
      .describe("An opaque token for refreshSession or logout; refreshing spends it and returns a new one."),
    userId: idField("The signed-in profile's id (UUID)."),
    tokenType: named("TokenType", z.literal(TOKEN_TYPES)).describe("Always bearer."),
    expiresIn: z.number().int().describe("Seconds until the access token expires."),
  },
);
export type SessionView = z.output<typeof sessionView>;
