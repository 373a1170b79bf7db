import { randomUUID } from "node:crypto";
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { App } from "./app.js";
import { graphqlRoutes } from "./graphql/http.js";
import { callerAdmission, denyByDefault } from "./http/access.js";
import { corsForOrigins } from "./http/cors.js";
import { answerClientError, errorReplies, frameworkErrors } from "./http/errors.js";
import { openApiDocument } from "./http/openapi.js";
import { rateLimiting } from "./http/rate-limiting.js";
import { requestLog } from "./http/request-log.js";
import { serviceRoutes } from "./http/service-routes.js";
import { LazyChildLogger, withRequestSerializer } from "./log.js";
import { writeResponsesAtTurnEnd } from "./rest/batched-writes.js";
import { restRoutes } from "./rest/routes.js";
import { sharedSerializers } from "./rest/serializers.js";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Builds the HTTP server from plugins: first those every route passes through (in the order their hooks run), then
 * the routes, each group in a context of its own (REST, GraphQL with its WebSocket, the service's own routes).
 * No business logic lives here.
 */
export async function buildServer(app: App): Promise<FastifyInstance> {
  const { config } = app;
  const server = Fastify({
    // Fastify logs through the app's pino logger; the typings differ only on an optional field.
    loggerInstance: withRequestSerializer(app.log) as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // One line per request, written by the request log (src/http/request-log.ts), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    forceCloseConnections: "idle",
    frameworkErrors,
    clientErrorHandler: answerClientError,
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers } },
  });
  server.setChildLoggerFactory((logger, bindings) => new LazyChildLogger(logger as Logger, bindings));
  // Request bodies are validated by the services (zod, after authentication); route schemas document them.
  server.setValidatorCompiler(() => (data) => ({ value: data }));
  // Bodies are JSON only; anything else is refused as the wrong media type.
  server.removeContentTypeParser("text/plain");
  writeResponsesAtTurnEnd(server);

  const limits = app.rateLimits;
  await server.register(requestLog, { app });
  await server.register(rateLimiting, { limits });
  await server.register(corsForOrigins, { origins: config.corsOrigins });
  await server.register(callerAdmission, { app, limits });
  await server.register(errorReplies, { limits });
  await server.register(openApiDocument);
  await server.register(denyByDefault);

  await server.register(serviceRoutes, { app });
  await server.register(restRoutes, { app });
  await server.register(graphqlRoutes, { app });
  return server;
}
