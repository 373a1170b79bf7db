import swagger from "@fastify/swagger";
import fastifyPlugin from "fastify-plugin";
import { documentedAccess, ERROR_RESPONSE_SCHEMA, PARTNER_SIGNATURE_SCHEMES } from "../rest/http.js";

/**
 * The OpenAPI document of every route added after this plugin (served at /v1/openapi.json), with the error
 * envelope as a shared schema every route's answers refer to.
 */
export const openApiDocument = fastifyPlugin(
  async (server) => {
    server.addSchema(ERROR_RESPONSE_SCHEMA);
    await server.register(swagger, {
      openapi: {
        openapi: "3.1.0",
        info: { title: "Ramp gateway REST API", version: "1" },
        servers: [{ url: "/", description: "This gateway" }],
        components: {
          securitySchemes: {
            BearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
            SecretApiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
            PublicApiKey: { type: "apiKey", in: "header", name: "X-Public-Key" },
            OperatorToken: { type: "http", scheme: "bearer", description: "OPERATOR_TOKEN, on /v1/admin/* only" },
            [PARTNER_SIGNATURE_SCHEMES.Avenia]: {
              type: "apiKey",
              in: "header",
              name: "signature",
              description:
                "Avenia's webhooks only: base64 RSA-PSS/SHA-256 (MGF1 SHA-256, maximum salt) over the raw body, " +
                "verified with the key Avenia serves at GET /v2/public-key.",
            },
            [PARTNER_SIGNATURE_SCHEMES.Alfredpay]: {
              type: "apiKey",
              in: "header",
              name: "webhook-signature",
              description:
                "Alfredpay's callbacks only: Standard Webhooks, `v1,` and the base64 HMAC-SHA256 of " +
                "`webhook-id.webhook-timestamp.body` under the shared whsec_ secret; the timestamp within 5 minutes.",
            },
          },
        },
      },
      hideUntagged: true,
      // Shared schemas keep their own names in components (the error envelope is ErrorResponse).
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
      // Who may call each route is documented from the rule the server enforces, not written twice.
      transform: ({ schema, url, route }) => ({ url, schema: documentedAccess(schema, route.config) }),
    });
  },
  { name: "openapi-document" },
);
