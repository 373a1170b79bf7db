import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { DELEGATION_RULES } from "../auth/delegation.js";
import type { App } from "../app.js";
import { AppError, errorBody } from "../errors.js";
import type { Metrics } from "../metrics.js";

/**
 * `GET /metrics`, Prometheus' text for the operator (`Authorization: Bearer <OPERATOR_TOKEN>`), refused to
 * anyone else as the operator surface is. Untagged, so it stays out of the integrators' OpenAPI document.
 */
export function metricsRoute(server: FastifyInstance, app: App) {
  server.get(
    "/metrics",
    { config: { capabilities: ["OPERATOR"], delegation: DELEGATION_RULES.NONE } },
    async (_request, reply) => reply.type(app.metrics.contentType).send(await app.metrics.text()),
  );
}

/**
 * `METRICS_LISTEN`: the same text on an address of its own, without a token, for a scraper on a network only
 * the operator reaches. It answers `GET /metrics` and nothing else (404, in the error envelope).
 */
export async function listenForScrapes(
  metrics: Metrics,
  address: { host: string; port: number },
  log: Logger,
): Promise<Server> {
  const server = createServer((request, response) => {
    const requestId = randomUUID();
    const refuse = (error: AppError) =>
      response
        .writeHead(error.status, { "Content-Type": "application/json; charset=utf-8", "X-Request-ID": requestId })
        .end(JSON.stringify({ error: errorBody(error, requestId) }));
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") return refuse(new AppError("NOT_FOUND"));
    metrics.text().then(
      (text) => response.writeHead(200, { "Content-Type": metrics.contentType, "X-Request-ID": requestId }).end(text),
      (error: unknown) => {
        log.error({ err: error, requestId }, "serving /metrics failed");
        refuse(new AppError("INTERNAL"));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(address.port, address.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}
