import type { FastifyContextConfig, FastifyRequest } from "fastify";
import fastifyPlugin from "fastify-plugin";
import type { App } from "../app.js";
import { principalProfileId, type Principal } from "../auth/principal.js";
import type { RateLimits } from "../rate-limits/limiter.js";
import { managedProfileSelector, presentedPublicKeys, rawBodyOf, sentBody } from "../rest/http.js";
import { hookList } from "./route-hooks.js";

/**
 * Who is calling, whether the route's tasks allow it, and the caller's own rate: after the per-IP limit (onRequest),
 * before the body is read (so unauthenticated callers never see validation errors); only on the routes that declare
 * tasks (and /graphql, whose fields declare theirs). The routes that take a public key in their body decide again
 * once it is read. Partner callbacks read no credential: the partner's signature over the body's bytes is verified
 * once they are read, before the handler.
 */
export const callerAdmission = fastifyPlugin<{ app: App; limits: RateLimits }>(
  (server, { app, limits }, done) => {
    /** The caller's own rate, the route's tasks and the acting context, for the principal decided. */
    const admit = async (request: FastifyRequest, principal: Principal, rule: FastifyContextConfig) => {
      request.principal = principal;
      // A caller's own rate is counted by the profile it speaks for, so all its keys and sign-ins share one budget.
      // A manager acting for a managed child presents its own key or session (the child is only named by
      // X-Managed-Profile-Id), so it spends the manager's budget; a child's own credential spends the child's. The
      // id is the cached credential's or session's own string: a key made per request would be hashed per request.
      const caller = principalProfileId(principal);
      if (caller) limits.perCaller.hit(caller);
      const { capabilities, delegation } = rule;
      if (!capabilities) return;
      const selector = app.delegation.checkCaller(principal, managedProfileSelector(request.headers), capabilities);
      // Every route with capabilities declares its delegation rule (denyByDefault checks it as routes are added).
      request.acting = await app.delegation.resolve(principal, selector, delegation!);
    };

    // A public key presented in the body is known once the body is read: the principal is decided again from
    // every value presented. Only a caller that presented no key or session before can change (the others win
    // or mismatch), so one that stays is not admitted, nor counted, twice.
    const admitWithBody = async (request: FastifyRequest, rule: FastifyContextConfig, field: string) => {
      const inBody = presentedPublicKeys(sentBody(request), field);
      if (!inBody.length) return;
      const principal = await app.authenticator.authenticate(
        request.headers,
        [...presentedPublicKeys(request.query, field), ...inBody],
        request.raw.socket,
      );
      if (principalProfileId(principal) !== principalProfileId(request.principal))
        await admit(request, principal, rule);
    };

    server.addHook("onRoute", (route) => {
      const rule = route.config ?? {};
      if (!rule.capabilities && !rule.graphql) return;
      const field = rule.publicKeyField;
      route.preParsing = [
        (request, _reply, payload, next) => {
          app.authenticator
            .authenticate(request.headers, presentedPublicKeys(request.query, field), request.raw.socket)
            .then((principal) => admit(request, principal, rule))
            .then(() => next(null, payload), next);
        },
        ...hookList(route.preParsing),
      ];
      if (field) {
        route.preValidation = [
          ...hookList(route.preValidation),
          (request, _reply, next) => {
            admitWithBody(request, rule, field).then(() => next(), next);
          },
        ];
      }
    });

    // A partner without settings has no sender to expect: 404 before the body is read.
    server.addHook("onRoute", (route) => {
      const partner = route.config?.partnerSignature;
      if (!partner) return;
      route.onRequest = [
        ...hookList(route.onRequest),
        (_request, _reply, next) => {
          app.partnerCallbacks.requireConfigured(partner);
          next();
        },
      ];
      route.preValidation = [
        (request, _reply, next) => {
          const delivery = { rawBody: rawBodyOf(request), headers: request.headers };
          app.partnerCallbacks.verify(partner, delivery).then(() => next(), next);
        },
        ...hookList(route.preValidation),
      ];
    });
    done();
  },
  { name: "caller-admission" },
);

/**
 * Deny by default: every route added after this plugin says who may call it, or the server does not start.
 * Register it after the plugins that add routes of their own (CORS answers preflights, which carry no credentials).
 */
export const denyByDefault = fastifyPlugin(
  (server, _options, done) => {
    server.addHook("onRoute", (route) => {
      const { capabilities, delegation, public: open, graphql, partnerSignature } = route.config ?? {};
      if (!capabilities?.length && !open && !graphql && !partnerSignature) {
        throw new Error(
          `${String(route.method)} ${route.url} declares no access rule (capabilities, a partner signature, or public: true)`,
        );
      }
      if (capabilities?.length && !delegation) {
        throw new Error(`${String(route.method)} ${route.url} declares no delegation rule`);
      }
    });
    done();
  },
  { name: "deny-by-default" },
);
