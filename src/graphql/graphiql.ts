import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors.js";

/*
 * GraphiQL for development: `GET /graphql` from a browser. Every file it loads is served from this service
 * out of npm packages (GraphiQL bundles graphql-ws for subscriptions), so it works offline; production never
 * serves it (the packages are development dependencies).
 */

const require = createRequire(import.meta.url);
/**
 * The page's files: browser builds their packages' exports do not name, found beside each package.json and
 * resolved only when development serves them.
 */
const ASSETS = {
  "react.js": [() => require.resolve("react/package.json"), "umd/react.production.min.js", "text/javascript"],
  "react-dom.js": [
    () => require.resolve("react-dom/package.json"),
    "umd/react-dom.production.min.js",
    "text/javascript",
  ],
  "graphiql.js": [() => require.resolve("graphiql/package.json"), "graphiql.min.js", "text/javascript"],
  "graphiql.css": [() => require.resolve("graphiql/package.json"), "graphiql.min.css", "text/css"],
} as const;

/** The headers a caller may need, as the headers editor starts: fill in one way of signing in. */
const STARTING_HEADERS = JSON.stringify(
  { "X-API-Key": "sk_test_...", Authorization: "Bearer <access token>", "X-Managed-Profile-Id": "<child profile id>" },
  null,
  2,
);

/** Starts GraphiQL on the page: queries over HTTP and subscriptions over graphql-ws, with the editor's headers. */
const START = `const url = new URL("/graphql", location.href);
const socket = new URL(url);
socket.protocol = location.protocol === "https:" ? "wss:" : "ws:";
ReactDOM.createRoot(document.getElementById("graphiql")).render(
  React.createElement(GraphiQL, {
    fetcher: GraphiQL.createFetcher({ url: url.href, subscriptionUrl: socket.href }),
    defaultHeaders: ${JSON.stringify(STARTING_HEADERS)},
    isHeadersEditorEnabled: true,
    shouldPersistHeaders: false,
  }),
);
`;

/** The page: GraphiQL and its files, all from this service. */
const GRAPHIQL_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Ramp gateway GraphiQL</title>
    <link rel="stylesheet" href="/graphiql/graphiql.css" />
    <style>body { margin: 0; } #graphiql { height: 100vh; }</style>
  </head>
  <body>
    <div id="graphiql">Loading GraphiQL...</div>
    <script src="/graphiql/react.js"></script>
    <script src="/graphiql/react-dom.js"></script>
    <script src="/graphiql/graphiql.js"></script>
    <script src="/graphiql/start.js"></script>
  </body>
</html>
`;

/** Answers a browser's request for the page itself (a GET that takes HTML and asks no query) with GraphiQL. */
export async function sendGraphiQLToBrowsers(request: FastifyRequest, reply: FastifyReply) {
  const query = request.query as Record<string, unknown> | undefined;
  if (request.method === "GET" && !query?.query && (request.headers.accept ?? "").includes("text/html"))
    return reply.type("text/html; charset=utf-8").send(GRAPHIQL_PAGE);
}

/** The page's files under /graphiql/, read once from their packages. */
export function registerGraphiQLAssets(server: FastifyInstance): void {
  const files = new Map<string, { body: Buffer | string; type: string }>([
    ["start.js", { body: START, type: "text/javascript" }],
  ]);
  for (const [name, [packageJson, path, type]] of Object.entries(ASSETS))
    files.set(name, { body: readFileSync(join(dirname(packageJson()), path)), type });
  server.get<{ Params: { file: string } }>("/graphiql/:file", { config: { public: true } }, async (request, reply) => {
    const file = files.get(request.params.file);
    if (!file) throw new AppError("NOT_FOUND");
    return reply.type(`${file.type}; charset=utf-8`).header("cache-control", "no-cache").send(file.body);
  });
}
