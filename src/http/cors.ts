import cors from "@fastify/cors";
import fastifyPlugin from "fastify-plugin";

const ALLOWED_HEADERS = [
  "Content-Type",
  "Authorization",
  "X-API-Key",
  "X-Public-Key",
  "X-Managed-Profile-Id",
  "X-Request-ID",
  "Idempotency-Key",
];

/**
 * Browsers at the listed origins may call. With none listed no browser may call and no answer varies by origin:
 * @fastify/cors, whose work on every request (a Vary header, the origin check, two copies of the route's options)
 * would change nothing, is not loaded.
 */
export const corsForOrigins = fastifyPlugin<{ origins: readonly string[] }>(
  async (server, { origins }) => {
    if (!origins.length) return;
    await server.register(cors, {
      origin: (origin, callback) => callback(null, origin !== undefined && origins.includes(origin)),
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: ["X-Request-ID", "Retry-After"],
      methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
      maxAge: 600,
    });
  },
  { name: "cors-for-origins" },
);
