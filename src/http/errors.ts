import { randomUUID } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { AppError, errorBody } from "../errors.js";
import { toGraphQLError } from "../graphql/errors.js";
import type { RateLimits } from "../rate-limits/limiter.js";
import { perIpLimit } from "./rate-limiting.js";

/** Fastify errors raised before a handler runs, in the contract's table. */
function fastifyErrorToAppError(error: FastifyError): AppError | undefined {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new AppError("PAYLOAD_TOO_LARGE");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new AppError("INVALID_JSON");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new AppError("VALIDATION_FAILED", "Content-Type must be application/json.", [
        { field: "Content-Type", message: "must be application/json" },
      ]);
  }
  if (error instanceof SyntaxError && error.statusCode === 400) return new AppError("INVALID_JSON");
  return undefined;
}

/** Answers any error in the error table's envelope (GraphQL's shape on GraphQL routes); what it does not know is a 500. */
function replyWithError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const known = error instanceof AppError ? error : fastifyErrorToAppError(error as FastifyError);
  const appError = known ?? new AppError("INTERNAL");
  if (!known) request.log.error({ err: error }, "unhandled error");
  request.errorCode = appError.code;
  if (appError.headers) void reply.headers(appError.headers);
  reply.code(appError.status);
  if (request.routeOptions.config?.graphql) {
    const { message, extensions } = toGraphQLError(appError);
    return reply.send({ errors: [{ message, extensions }] });
  }
  return reply.send({ error: errorBody(appError, request.id) });
}

/** Refusals Fastify makes before routing answer in the envelope too, without echoing the path. */
export const frameworkErrors: FastifyServerOptions["frameworkErrors"] = (error, request, reply) => {
  void reply.header("X-Request-ID", request.id);
  replyWithError(
    error.code === "FST_ERR_MAX_PARAM_LENGTH"
      ? new AppError("VALIDATION_FAILED", "A path parameter is too long.")
      : new AppError("VALIDATION_FAILED", "The path is not a valid URL (check its percent-encoding)."),
    request,
    reply,
  );
};

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers over the limit, a 20 KB query
 * string among them, or no valid HTTP at all): they are answered in the envelope, with a request id.
 */
export function answerClientError(error: Error, socket: Duplex) {
  const { code } = error as { code?: string };
  if (code === "ECONNRESET" || code === "ERR_HTTP_REQUEST_TIMEOUT" || !socket.writable) {
    socket.destroy(error);
    return;
  }
  const refusal =
    code === "HPE_HEADER_OVERFLOW"
      ? new AppError("HEADERS_TOO_LARGE")
      : new AppError("VALIDATION_FAILED", "The request is not valid HTTP.");
  const requestId = randomUUID();
  const body = JSON.stringify({ error: errorBody(refusal, requestId) });
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-ID: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Errors thrown by any route, and requests no route matches (per-IP limited), answered from the error table. */
export const errorReplies = fastifyPlugin<{ limits: RateLimits }>(
  (server, { limits }, done) => {
    server.setErrorHandler((error: FastifyError, request, reply) => replyWithError(error, request, reply));
    server.setNotFoundHandler({ preValidation: perIpLimit(limits) }, (request, reply) =>
      replyWithError(
        new AppError("NOT_FOUND", `No route ${request.method} ${request.url.split("?")[0]}.`),
        request,
        reply,
      ),
    );
    done();
  },
  { name: "error-replies" },
);
