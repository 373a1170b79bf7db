import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { buildServer } from "../../src/server.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";

/** The credential routes, registered as written but with their access rule deleted from one of them. */
vi.mock("../../src/rest/v1/api-credentials.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/rest/v1/api-credentials.js")>();
  return {
    ...real,
    apiCredentialRoutes: (server: FastifyInstance, app: App) =>
      real.apiCredentialRoutes(withoutRuleOnList(server), app),
  };
});

/** The server, except that `GET /v1/api-credentials` is registered with no capabilities in its config. */
function withoutRuleOnList(server: FastifyInstance): FastifyInstance {
  return new Proxy(server, {
    get(target, property, receiver) {
      if (property !== "get") return Reflect.get(target, property, receiver);
      return (url: string, options: { config?: Record<string, unknown> }, handler: unknown) => {
        const { capabilities: _deleted, ...config } = options.config ?? {};
        return target.get(url, url === "/v1/api-credentials" ? { ...options, config } : options, handler as never);
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

describe("deny by default", () => {
  it("a /v1 route whose access rule is deleted stops the server from starting, naming the route", async () => {
    database = await freshDatabase();
    const config = loadConfig({ DATA_DIR: database.dataDir, ...(database.url && { DATABASE_URL: database.url }) });
    app = await createApp(config, pino({ level: "silent" }));
    await expect(buildServer(app)).rejects.toThrow("GET /v1/api-credentials declares no access rule");
  });
});
