import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import type { SessionTokens } from "../../identity/service.js";
import { logout, refreshSession, requestOtp, verifyOtp } from "../../operations/identity.js";
import type { RateLimiter } from "../../rate-limits/limiter.js";
import { jsonSchema } from "../http.js";
import { operationRoute } from "../operation-route.js";

const success = z.object({ success: z.literal(true), message: z.string() });
const session = z.object({
  success: z.literal(true),
  access_token: z.string(),
  refresh_token: z.string(),
  user_id: z.uuid(),
  token_type: z.literal("bearer"),
  expires_in: z.number().int(),
});
const refreshed = session.omit({ user_id: true, token_type: true });
/** The reference names the refresh token in snake_case. */
const REFRESH_TOKEN = { refreshToken: "refresh_token" };

const renewed = (tokens: SessionTokens) => ({
  success: true,
  access_token: tokens.accessToken,
  refresh_token: tokens.refreshToken,
  expires_in: tokens.expiresIn,
});

/** Email OTP sign-in and session renewal (CONTRACT.md, Identity). */
export function authRoutes(server: FastifyInstance, app: App, signInLimit: RateLimiter) {
  const tags = ["Authentication"];
  const enforceSignInLimit = (request: FastifyRequest) => signInLimit.hit(request.ip);
  operationRoute(server, app, requestOtp, {
    method: "POST",
    url: "/v1/auth/request-otp",
    tags,
    response: jsonSchema(success),
    errors: [400, 429],
    onRequest: enforceSignInLimit,
  });
  operationRoute(server, app, verifyOtp, {
    method: "POST",
    url: "/v1/auth/verify-otp",
    tags,
    response: jsonSchema(session),
    errors: [400, 429],
    onRequest: enforceSignInLimit,
    reply: (tokens) => ({ ...renewed(tokens), user_id: tokens.profileId, token_type: "bearer" }),
  });
  operationRoute(server, app, refreshSession, {
    method: "POST",
    url: "/v1/auth/refresh",
    tags,
    response: jsonSchema(refreshed),
    errors: [400, 401],
    wireNames: REFRESH_TOKEN,
    reply: renewed,
  });
  operationRoute(server, app, logout, {
    method: "POST",
    url: "/v1/auth/logout",
    tags,
    status: 204,
    response: null,
    errors: [400, 401],
    wireNames: REFRESH_TOKEN,
  });
}
