import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { describedEnums } from "../../src/enums.js";
import { loadConfig } from "../../src/config.js";
import { buildServer } from "../../src/server.js";

type Operation = { operationId?: string; summary?: string; description?: string; security?: unknown[] };

const dir = mkdtempSync(join(tmpdir(), "ramp-gateway-openapi-"));
let app: App;
let document: { paths: Record<string, Record<string, Operation>> };
beforeAll(async () => {
  app = await createApp(loadConfig({ DATA_DIR: dir }), pino({ level: "silent" }));
  const server = await buildServer(app);
  await server.ready();
  document = server.swagger() as typeof document;
  await server.close();
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const operations = () =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, ...operation })),
  );

describe("the served OpenAPI document", () => {
  it("passes redocly lint (recommended rules) with no error", () => {
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(document));
    let output: string;
    try {
      output = execFileSync("npx", ["redocly", "lint", file, "--format=json", "--max-problems=5000"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
        // CI has no network: no telemetry, no update check.
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      });
    } catch (failure) {
      output = (failure as { stdout: string }).stdout;
    }
    const { problems } = JSON.parse(output) as { problems: { severity: string; ruleId: string; message: string }[] };
    expect(problems.filter((problem) => problem.severity === "error")).toEqual([]);
  });

  it("gives every operation an operationId, a summary, a description and its security", () => {
    const incomplete = operations().filter(
      (operation) => !operation.operationId || !operation.summary || !operation.description || !operation.security,
    );
    expect(incomplete.map((operation) => operation.name)).toEqual([]);
  });

  it("says a route is public only when anyone may call it, and declares the selector where it applies", () => {
    const byName = new Map(operations().map((operation) => [operation.name, operation]));
    expect(byName.get("POST /v1/quotes")!.security).toContainEqual({});
    expect(byName.get("POST /v1/ramp/register")!.security).toEqual([{ SecretApiKey: [] }, { BearerAuth: [] }]);
    expect(byName.get("POST /v1/webhook")!.security).toEqual([{ SecretApiKey: [] }]);
    const register = byName.get("POST /v1/ramp/register") as Operation & { parameters?: { name: string }[] };
    expect(register.parameters?.map((parameter) => parameter.name)).toContain("X-Managed-Profile-Id");
  });

  it("lists what each value of a declared enum means where a field takes it, as GraphQL describes the values", () => {
    // In JSON, as the document serves each description: a ramp's phase in answers, a list's filter in a query.
    const served = JSON.stringify(document);
    for (const name of ["RampPhase", "ManagedProfileFilter"]) {
      const { values } = describedEnums.get(name)!;
      const list = values.map(({ value, description }) => `- \`${value}\`: ${description}`).join("\n");
      expect(served, name).toContain(JSON.stringify(list).slice(1, -1));
    }
  });

  it("serves every operation of the reference's document, on the same path and method", () => {
    const reference = JSON.parse(
      readFileSync(new URL("../reference/ramp-service.facts.json", import.meta.url), "utf8"),
    ) as typeof document;
    const served = new Set(operations().map((operation) => operation.name));
    const referenceOperations = Object.entries(reference.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => ["get", "post", "put", "patch", "delete"].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(referenceOperations.length).toBeGreaterThan(70);
    expect(referenceOperations.filter((name) => !served.has(name))).toEqual([]);
  });

  it("names every route path literally in the adapters, so a path can be found by searching for it", () => {
    const adapters = new URL("../../src/rest/v1/", import.meta.url);
    const source = readdirSync(adapters)
      .map((file) => readFileSync(new URL(file, adapters), "utf8"))
      .join("\n");
    const paths = Object.keys(document.paths).map((path) => path.replace(/\{(\w+)\}/g, ":$1"));
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.filter((path) => !source.includes(`"${path}"`))).toEqual([]);
  });
});
