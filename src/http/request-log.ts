import fastifyPlugin from "fastify-plugin";
import type { App } from "../app.js";
import { logResponse, requestLineLogger } from "../log.js";
import { hookList } from "./route-hooks.js";

/**
 * Every request carries its id back (X-Request-ID), and every answered one is one log line and one observation in
 * the request histogram, by route pattern, never the raw URL (it holds ids); requests no route matched are one
 * series.
 */
export const requestLog = fastifyPlugin<{ app: App }>(
  (server, { app }, done) => {
    const lines = requestLineLogger(app.log);
    server.addHook("onRequest", (request, reply, next) => {
      reply.header("X-Request-ID", request.id);
      next();
    });
    server.addHook("onRoute", (route) => {
      const observe = app.metrics.requestObserver(route.url);
      route.onResponse = [
        ...hookList(route.onResponse),
        (request, reply, next) => {
          observe(request.method, reply.statusCode, reply.elapsedTime);
          logResponse(lines, request, reply, route.url);
          next();
        },
      ];
    });
    const observeUnmatched = app.metrics.requestObserver(undefined);
    server.addHook("onResponse", (request, reply, next) => {
      if (request.is404) {
        observeUnmatched(request.method, reply.statusCode, reply.elapsedTime);
        logResponse(lines, request, reply, undefined);
      }
      next();
    });
    done();
  },
  { name: "request-log" },
);
