import type { FastifyInstance } from "fastify";
import type { App } from "../../app.js";
import { jsonSchema } from "../http.js";
import { apiCredentialView, issuedCredential, type IssuedCredential } from "../../credentials/types.js";
import { createApiCredential, listApiCredentials, revokeApiCredential } from "../../operations/credentials.js";
import { operationRoute } from "../operation-route.js";

/** A new credential as REST answers it: the resource with its secret value beside it. */
export const createdCredentialResource = apiCredentialView.extend({ secretKey: issuedCredential.shape.secretKey });
/** The service's issued credential as REST answers it. */
export const createdCredential = ({ credential, secretKey }: IssuedCredential) => ({ ...credential, secretKey });

/** The session's own credential lifecycle (CONTRACT.md, API credentials). */
export function apiCredentialRoutes(server: FastifyInstance, app: App) {
  operationRoute(server, app, createApiCredential, {
    method: "POST",
    url: "/v1/api-credentials",
    tags: ["Authentication"],
    status: 201,
    response: jsonSchema(createdCredentialResource),
    errors: [400, 401, 403, 409],
    reply: createdCredential,
  });

  operationRoute(server, app, listApiCredentials, {
    method: "GET",
    url: "/v1/api-credentials",
    tags: ["Authentication"],
    errors: [400, 401, 403],
  });

  operationRoute(server, app, revokeApiCredential, {
    method: "DELETE",
    url: "/v1/api-credentials/:credentialId",
    tags: ["Authentication"],
    status: 204,
    response: null,
    errors: [401, 403, 404],
  });
}
