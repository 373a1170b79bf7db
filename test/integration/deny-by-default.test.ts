import type { FastifyInstance, RouteOptions } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { buildServer } from "../../src/server.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";

/** Which part of the rule the next server build leaves out of `GET /v1/api-credentials`. */
const deleted = vi.hoisted(() => ({ part: "capabilities" as "capabilities" | "delegation" }));

/** The credential routes, registered as written but with part of their rule deleted from one of them. */
vi.mock("../../src/rest/v1/api-credentials.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/rest/v1/api-credentials.js")>();
  return {
    ...real,
    apiCredentialRoutes: (server: FastifyInstance, app: App) =>
      real.apiCredentialRoutes(withoutRuleOnList(server), app),
  };
});

/** The server, except that `GET /v1/api-credentials` is registered without `deleted.part` in its config. */
function withoutRuleOnList(server: FastifyInstance): FastifyInstance {
  return new Proxy(server, {
    get(target, property, receiver) {
      if (property !== "route") return Reflect.get(target, property, receiver);
      return (options: RouteOptions) => {
        if (options.method !== "GET" || options.url !== "/v1/api-credentials") return target.route(options);
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
    deleted.part = "capabilities";
    await expect(buildServer(app)).rejects.toThrow("GET /v1/api-credentials declares no access rule");
  });

  it("so does one whose delegation rule is deleted: no route falls back to a default", async () => {
    deleted.part = "delegation";
    await expect(buildServer(app)).rejects.toThrow("GET /v1/api-credentials declares no delegation rule");
  });
});
