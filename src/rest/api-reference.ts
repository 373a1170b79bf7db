import { createReadStream } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance } from "fastify";

/*
 * The REST API's reference for people: `GET /docs`, the served OpenAPI document (/v1/openapi.json) rendered in the
 * browser by Redoc, whose one script this service serves from its npm package, so the page works offline.
 */

const require = createRequire(import.meta.url);
/** Redoc's browser build, which its package's exports do not name: found beside its package.json. */
const REDOC_SCRIPT = join(dirname(require.resolve("redoc/package.json")), "bundles/redoc.standalone.js");

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Ramp gateway REST API reference</title>
    <link rel="icon" href="data:," />
    <style>body { margin: 0; }</style>
  </head>
  <body>
    <redoc spec-url="/v1/openapi.json" expand-responses="200,201" required-props-first sort-required-props-first></redoc>
    <script src="/docs/redoc.standalone.js"></script>
  </body>
</html>
`;

/**
 * The page loads from this service alone: Redoc's menu shows Redocly's logo from their CDN, which the browser is
 * told not to fetch (a reader's visit is not announced elsewhere, and the page is the same offline). Redoc styles
 * itself with inline styles and searches in a worker it makes from a blob.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "worker-src 'self' blob:",
].join("; ");

export function apiReferenceRoutes(server: FastifyInstance) {
  server.get("/docs", { config: { public: true } }, async (_request, reply) =>
    reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-cache")
      .header("content-security-policy", CONTENT_SECURITY_POLICY)
      .send(PAGE),
  );
  // A megabyte read from disk when asked for, not kept in memory for a page few open.
  server.get("/docs/redoc.standalone.js", { config: { public: true } }, async (_request, reply) =>
    reply
      .type("text/javascript; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .send(createReadStream(REDOC_SCRIPT)),
  );
}
