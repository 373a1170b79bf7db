import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import type { RateLimiter } from "../../rate-limiter.js";
import { errorResponses, jsonSchema } from "../http.js";
import { NO_DELEGATION } from "../../auth/delegation.js";
import { parseInput } from "../../validation.js";

const requestOtpBody = z.object({ email: z.string(), locale: z.string().optional() });
const verifyOtpBody = z.object({ email: z.string(), token: z.string() });
const refreshBody = z.object({ refresh_token: z.string({ error: "is required" }).min(1, "is required") });
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

/** Email OTP sign-in and session renewal (CONTRACT.md, Identity). */
export function authRoutes(server: FastifyInstance, app: App, signInLimit: RateLimiter) {
  const config = { capabilities: ["SIGN_IN"] as const, delegation: NO_DELEGATION };
  const signInLimited = { ...config, rateLimit: false as const };
  const enforceSignInLimit = async (request: FastifyRequest) => signInLimit.hit(request.ip);

  server.post("/v1/auth/request-otp", {
    config: signInLimited,
    onRequest: enforceSignInLimit,
    schema: {
      operationId: "requestOTP",
      summary: "Send a sign-in code by email",
      tags: ["Authentication"],
      body: jsonSchema(requestOtpBody, "input"),
      response: { 200: jsonSchema(success), ...errorResponses(400, 429) },
    },
    handler: (request) => app.identity.requestOtp(request.body),
  });

  server.post("/v1/auth/verify-otp", {
    config: signInLimited,
    onRequest: enforceSignInLimit,
    schema: {
      operationId: "verifyOTP",
      summary: "Sign in with an emailed code",
      tags: ["Authentication"],
      body: jsonSchema(verifyOtpBody, "input"),
      response: { 200: jsonSchema(session), ...errorResponses(400, 429) },
    },
    handler: async (request) => {
      const tokens = await app.identity.verifyOtp(request.body);
      return {
        success: true,
        access_token: tokens.accessToken,
        refresh_token: tokens.refreshToken,
        user_id: tokens.profileId,
        token_type: "bearer",
        expires_in: tokens.expiresIn,
      };
    },
  });

  server.post("/v1/auth/refresh", {
    config,
    schema: {
      operationId: "refreshSession",
      summary: "Renew a session with its refresh token",
      tags: ["Authentication"],
      body: jsonSchema(refreshBody, "input"),
      response: { 200: jsonSchema(refreshed), ...errorResponses(400, 401) },
    },
    handler: async (request) => {
      const tokens = await app.identity.refresh(parseInput(refreshBody, request.body ?? {}).refresh_token);
      return {
        success: true,
        access_token: tokens.accessToken,
        refresh_token: tokens.refreshToken,
        expires_in: tokens.expiresIn,
      };
    },
  });

  server.post("/v1/auth/logout", {
    config,
    schema: {
      operationId: "logout",
      summary: "End a session",
      tags: ["Authentication"],
      body: jsonSchema(refreshBody, "input"),
      response: { 204: { type: "null" }, ...errorResponses(400, 401) },
    },
    handler: async (request, reply) => {
      await app.identity.logout(parseInput(refreshBody, request.body ?? {}).refresh_token);
      return reply.code(204).send();
    },
  });
}
