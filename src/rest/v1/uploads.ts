import type { FastifyInstance, FastifyRequest } from "fastify";
import type { App } from "../../app.js";
import {
  DOCUMENT_MEDIA_TYPES,
  MAX_UPLOAD_BYTES,
  SELFIE_MEDIA_TYPES,
  UPLOAD_URL_LIFETIME_MS,
} from "../../uploads/service.js";
import { errorResponses } from "../http.js";

type UploadRequest = FastifyRequest<{ Params: { uploadId: string }; Querystring: { token?: unknown } }>;

const binaryFile = { schema: { type: "string", format: "binary" } };

/**
 * The URLs document uploads hand out (`PUT /v1/uploads/{uploadId}?token=...`), like S3's presigned URLs: the
 * token authorizes one file for one side of one document, until it expires, so the route reads no credential.
 * The body is the file's bytes as they are; the side decides which media types it takes. The token travels in
 * the query string, which no log line shows (log.ts).
 */
export function uploadRoutes(server: FastifyInstance, app: App) {
  return server.register(async (scope) => {
    // Every body is a file here, whatever its Content-Type: the service checks it against the side's types.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
    scope.route({
      method: "PUT",
      url: "/v1/uploads/:uploadId",
      config: { public: true },
      // Fastify answers 413 PAYLOAD_TOO_LARGE before reading more.
      bodyLimit: MAX_UPLOAD_BYTES,
      // A forged or lapsed URL is refused before its body is read.
      onRequest: async (request: UploadRequest) => {
        app.uploads.verifyUrl(request.params.uploadId, request.query.token);
      },
      schema: {
        operationId: "uploadDocumentFile",
        summary: "Upload a document's file to its upload URL",
        description:
          "The URL an upload was answered with (uploadURLFront, uploadURLBack), as it is: no credential, its token " +
          `authorizes one file within ${UPLOAD_URL_LIFETIME_MS / 60_000} minutes. The body is the file's bytes, at ` +
          `most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB, under its Content-Type: a document's ` +
          `${DOCUMENT_MEDIA_TYPES.join(", ")}, a selfie's ${SELFIE_MEDIA_TYPES.join(", ")}. Sent again: 409 ` +
          "UPLOAD_URL_USED; forged or expired: 403 INVALID_UPLOAD_URL.",
        tags: ["Document uploads"],
        params: {
          type: "object",
          properties: { uploadId: { type: "string", format: "uuid" } },
          required: ["uploadId"],
        },
        querystring: { type: "object", properties: { token: { type: "string" } }, required: ["token"] },
        body: { content: Object.fromEntries(DOCUMENT_MEDIA_TYPES.map((type) => [type, binaryFile])) },
        response: {
          204: { type: "null", description: "Stored: the side is uploaded, and its URL takes nothing more." },
          ...errorResponses(400, 403, 404, 409, 413),
        },
      },
      handler: async (request: UploadRequest, reply) => {
        await app.uploads.receive(request.params.uploadId, request.query.token, {
          contentType: request.headers["content-type"],
          bytes: Buffer.isBuffer(request.body) ? request.body : undefined,
        });
        return reply.code(204).send();
      },
    });
  });
}
