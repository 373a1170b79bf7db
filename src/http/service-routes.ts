import type { FastifyPluginAsync } from "fastify";
import type { App } from "../app.js";
import { apiReferenceRoutes } from "../rest/api-reference.js";
import { metricsRoute } from "../rest/metrics.js";
import { statusPageRoutes } from "../rest/status-page.js";

/**
 * What serves the service rather than its callers: health, readiness, the OpenAPI document and its rendered reference,
 * metrics, the status page.
 */
export const serviceRoutes: FastifyPluginAsync<{ app: App }> = async (server, { app }) => {
  server.get("/healthz", { config: { rateLimit: false, public: true } }, async () => ({ status: "ok" }));
  server.get("/readyz", { config: { rateLimit: false, public: true } }, async (_request, reply) => {
    try {
      await app.ping();
      return { status: "ready" };
    } catch (error) {
      app.log.warn({ err: error }, "readiness check failed");
      return reply.code(503).send({ status: "unavailable" });
    }
  });
  server.get("/v1/openapi.json", { config: { public: true } }, async () => server.swagger());
  metricsRoute(server, app);
  statusPageRoutes(server);
  apiReferenceRoutes(server);
};
