import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { sessionView, type SessionView } from "../../identity/types.js";
import { logout, refreshSession, requestOtp, verifyOtp } from "../../operations/identity.js";
import type { RateLimiter } from "../../rate-limits/limiter.js";
import { jsonSchema } from "../http.js";
import { operationRoute } from "../operation-route.js";
import { toWire, wireSchema, type WireForm } from "../wire-form.js";

/** The reference spells a session in snake_case. */
const SESSION: WireForm = {
  names: {
    accessToken: "access_token",
    refreshToken: "refresh_token",
    userId: "user_id",
    tokenType: "token_type",
    expiresIn: "expires_in",
  },
};
/** A renewed session tells its new tokens only. */
const RENEWED: WireForm = { ...SESSION, only: ["accessToken", "refreshToken", "expiresIn"] };
/** The reference names the refresh token in snake_case. */
const REFRESH_TOKEN = { refreshToken: SESSION.names!.refreshToken! };

/** A session as the reference answers it: that the call succeeded, then the session's fields. */
const answered = (form: WireForm) => ({
  response: jsonSchema(z.object({ success: z.literal(true), ...wireSchema(sessionView, form).shape })),
  reply: (session: SessionView) => ({ success: true, ...(toWire(session, form) as object) }),
});

/** Email OTP sign-in and session renewal (CONTRACT.md, Identity). */
export function authRoutes(server: FastifyInstance, app: App, signInLimit: RateLimiter) {
  const tags = ["Authentication"];
  const enforceSignInLimit = (request: FastifyRequest) => signInLimit.hit(request.ip);
  operationRoute(server, app, requestOtp, {
    method: "POST",
    url: "/v1/auth/request-otp",
    tags,
    errors: [400, 429],
    onRequest: enforceSignInLimit,
  });
  operationRoute(server, app, verifyOtp, {
    method: "POST",
    url: "/v1/auth/verify-otp",
    tags,
    ...answered(SESSION),
    errors: [400, 429],
    onRequest: enforceSignInLimit,
  });
  operationRoute(server, app, refreshSession, {
    method: "POST",
    url: "/v1/auth/refresh",
    tags,
    ...answered(RENEWED),
    errors: [400, 401],
    wireNames: REFRESH_TOKEN,
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
