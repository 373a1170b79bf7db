import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { buildServer } from "../../src/server.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";

/** Which route the next server build registers with which part of its rule deleted. */
const deleted = vi.hoisted(() => ({
  route: "GET /v1/api-credentials",
  part: "capabilities" as "capabilities" | "delegation" | "partnerSignature",
}));

/** The credential routes, registered as written but with part of their rule deleted from one of them. */
vi.mock("../../src/rest/v1/api-credentials.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/rest/v1/api-credentials.js")>();
  return {
    ...real,
    apiCredentialRoutes: (server: FastifyInstance, app: App) => real.apiCredentialRoutes(withoutRule(server), app),
  };
});

/** The partner callback routes, likewise (they are registered in a scope of their own). */
vi.mock("../../src/rest/v1/partner-callbacks.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/rest/v1/partner-callbacks.js")>();
  return {
    ...real,
    partnerCallbackRoutes: (server: FastifyInstance, app: App) => real.partnerCallbackRoutes(withoutRule(server), app),
  };
});

/** The server (and any scope it registers), except that `deleted.route` is registered without `deleted.part`. */
function withoutRule(server: FastifyInstance): FastifyInstance {
  return new Proxy(server, {
    get(target, property, receiver) {
      if (property === "register")
        return (plugin: FastifyPluginAsync) => target.register(async (scope) => plugin(withoutRule(scope), {}));
      if (property !== "route") return Reflect.get(target, property, receiver);
      return (options: RouteOptions) => {
        if (`${String(options.method)} ${options.url}` !== deleted.route) return target.route(options);
        const { [deleted.part]: _deleted, ...config } = options.config ?? {};
        return target.route({ ...options, config });
      };
    },
  });
}

let database: TestDatabase;
let app: App;
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

beforeAll(async () => {
  database = await freshDatabase();
  const config = loadConfig({ DATA_DIR: database.dataDir, ...(database.url && { DATABASE_URL: database.url }) });
  app = await createApp(config, pino({ level: "silent" }));
});

describe("deny by default", () => {
  it("a /v1 route whose capabilities are deleted stops the server from starting, naming the route", async () => {
    Object.assign(deleted, { route: "GET /v1/api-credentials", part: "capabilities" });
    await expect(buildServer(app)).rejects.toThrow("GET /v1/api-credentials declares no access rule");
  });

  it("so does one whose delegation rule is deleted: no route falls back to a default", async () => {
    Object.assign(deleted, { route: "GET /v1/api-credentials", part: "delegation" });
    await expect(buildServer(app)).rejects.toThrow("GET /v1/api-credentials declares no delegation rule");
  });

  it("so does a partner callback route whose partner signature is deleted: it is its rule", async () => {
    Object.assign(deleted, { route: "POST /v1/webhooks/avenia", part: "partnerSignature" });
    await expect(buildServer(app)).rejects.toThrow("POST /v1/webhooks/avenia declares no access rule");
  });
});
