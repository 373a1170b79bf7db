import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors.js";

/*
 * GraphiQL for development: `GET /graphql` from a browser. Every file it loads is served from this service, the
 * page's own from static/graphiql/ and the rest out of npm packages (GraphiQL bundles graphql-ws for
 * subscriptions), so it works offline; production never serves it (the packages are development dependencies).
 */

/** The page, its script and its example documents: beside src/ and dist/ alike, so both find them. */
const PAGE_FILES = new URL("../../static/graphiql/", import.meta.url);
const readPageFile = (name: string) => readFileSync(new URL(name, PAGE_FILES), "utf8");

const require = createRequire(import.meta.url);
/**
 * The page's other files: browser builds their packages' exports do not name, found beside each package.json and
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

/** One tab GraphiQL opens with, as its `defaultTabs` take it. */
interface ExampleTab {
  query: string;
  variables?: string;
}

/**
 * The operations GraphiQL opens with, one tab each, in the order examples.json lists their documents, each saying
 * which header it needs (the first needs none and welcomes the reader).
 */
export function exampleTabs(): ExampleTab[] {
  const listed = JSON.parse(readPageFile("examples.json")) as { document: string; variables?: object }[];
  return listed.map(({ document, variables }) => ({
    query: readPageFile(document),
    ...(variables && { variables: JSON.stringify(variables, null, 2) }),
  }));
}

/**
 * Serves the page's files under /graphiql/, read once, and answers with the page itself a browser's request for
 * /graphql (a GET that takes HTML and asks no query): the hook returned.
 */
export function registerGraphiQL(server: FastifyInstance) {
  const page = readPageFile("index.html");
  const files = new Map<string, { body: Buffer | string; type: string }>([
    ["start.js", { body: readPageFile("start.js"), type: "text/javascript" }],
    ["examples.json", { body: JSON.stringify(exampleTabs()), type: "application/json" }],
  ]);
  for (const [name, [packageJson, path, type]] of Object.entries(ASSETS))
    files.set(name, { body: readFileSync(join(dirname(packageJson()), path)), type });
  server.get<{ Params: { file: string } }>("/graphiql/:file", { config: { public: true } }, async (request, reply) => {
    const file = files.get(request.params.file);
    if (!file) throw new AppError("NOT_FOUND");
    return reply.type(`${file.type}; charset=utf-8`).header("cache-control", "no-cache").send(file.body);
  });
  return async function sendGraphiQLToBrowsers(request: FastifyRequest, reply: FastifyReply) {
    const query = request.query as Record<string, unknown> | undefined;
    if (request.method === "GET" && !query?.query && (request.headers.accept ?? "").includes("text/html"))
      return reply.type("text/html; charset=utf-8").send(page);
  };
}
