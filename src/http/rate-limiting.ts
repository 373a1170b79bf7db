import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import fastifyPlugin from "fastify-plugin";
import type { RateLimits } from "../rate-limits/limiter.js";
import { hookList } from "./route-hooks.js";

/** Counts the request against its client IP's budget; Fastify answers what a hook throws (a 429) as the hook's error. */
export const perIpLimit =
  (limits: RateLimits) => (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    limits.perIp.hit(request.ip);
    done();
  };

/**
 * Per client IP, before anything else runs but CORS (so a browser can read the 429): every route's first hook of its
 * own (CORS's preflight route included: register this plugin before it). Sign-in has its own, stricter limit, health
 * checks none. The routes no route matched are limited by the not-found handler (./errors.ts).
 *
 * A partner's callbacks count in a budget of their own, per partner and client IP, in place of the per-IP one: a
 * partner's burst (its retries, a day's tickets) neither spends nor waits on the budget of callers behind the same
 * address, and a flood of forged ones is still cut here, before the body is read or any signature checked.
 */
export const rateLimiting = fastifyPlugin<{ limits: RateLimits }>(
  (server, { limits }, done) => {
    const ipLimit = perIpLimit(limits);
    const partnerCallbackLimit =
      (partner: string) => (request: FastifyRequest, _reply: FastifyReply, next: HookHandlerDoneFunction) => {
        limits.partnerCallbacks.hit(`${partner} ${request.ip}`);
        next();
      };
    server.addHook("onRoute", (route) => {
      if (route.config?.rateLimit === false) return;
      const partner = route.config?.partnerSignature;
      route.onRequest = [partner ? partnerCallbackLimit(partner) : ipLimit, ...hookList(route.onRequest)];
    });
    done();
  },
  { name: "rate-limiting" },
);
