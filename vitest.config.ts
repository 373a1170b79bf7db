import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const engines = ["sqlite", "postgresql"] as const;
/** Integration files that replace modules (vi.mock): they need a module graph of their own. */
const MOCKING_MODULES = ["test/integration/deny-by-default.test.ts"];

export default defineConfig({
  // Vite would pick graphql's .mjs build while type-graphql and Apollo load the CommonJS one.
  resolve: { alias: { graphql: "graphql/index.js" } },
  test: {
    pool: "forks",
    // Test files wait on databases and child processes more than on the CPU: two at a time even on two
    // cores (vitest's default, cores - 1, runs them one by one there and doubles the suite's time).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts", "test/contract/**/*.test.ts"] } },
      ...engines.flatMap((engine) => [
        {
          extends: true as const,
          test: {
            name: `integration-${engine}`,
            // *.pg.test.ts: distributed-mode behaviour (LISTEN/NOTIFY, several instances), PostgreSQL only.
            include: ["test/integration/**/*.test.ts"],
            exclude: [...MOCKING_MODULES, ...(engine === "postgresql" ? [] : ["test/integration/**/*.pg.test.ts"])],
            env: { TEST_DB: engine },
            // The files of a worker share one module graph: importing the app was a third of each file's time.
            // Every file builds its own app, database and server, so nothing else is shared.
            isolate: false,
          },
        },
        {
          extends: true as const,
          test: { name: `integration-${engine}-mocking`, include: MOCKING_MODULES, env: { TEST_DB: engine } },
        },
      ]),
      ...engines.map((engine) => ({
        extends: true as const,
        test: {
          name: `e2e-${engine}`,
          include: ["test/e2e/**/*.test.ts"],
          exclude: engine === "postgresql" ? [] : ["test/e2e/**/*.pg.test.ts"],
          env: { TEST_DB: engine },
        },
      })),
      { extends: true, test: { name: "audit", include: ["test/audit/**/*.test.ts"] } },
    ],
  },
});
