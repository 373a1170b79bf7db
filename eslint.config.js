// Lint rules, and the boundaries between layers: the ORM client stays in the data-access modules, services
// never see a transport, and nothing but the entry point imports the server.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const restrict = (...patterns) => ({ "no-restricted-imports": ["error", { patterns }] });
const ORM = {
  group: ["**/generated/**"],
  message: "The ORM client is for data-access modules (repo.ts, *-repo.ts, db/) only.",
};
const TRANSPORTS = {
  group: ["fastify", "@fastify/*", "graphql", "graphql/*", "type-graphql", "@apollo/*", "**/rest/**", "**/graphql/**"],
  message: "Services are transport-neutral: no Fastify, GraphQL or adapter imports.",
};
const OTHER_MODULES_DATA = {
  group: ["../*/repo.js", "../*/*-repo.js", "../../*/repo.js", "../../*/*-repo.js"],
  message: "A module reads another module's data through that module's service, not its repository.",
};
const SERVER = { group: ["**/server.js"], message: "Only the entry point imports the server (the composition root)." };
const ORM_ERROR_CODES = {
  "no-restricted-syntax": [
    "error",
    { selector: "Literal[value=/^P[0-9]{4}$/]", message: "ORM error codes are translated in src/db only." },
    {
      // On SQLite the ORM's read operations run inside a mark (db/sqlite-adapter.ts, withReadsMarked), which a batch
      // of the ORM's lazy promises cannot take.
      selector: "CallExpression[callee.property.name='$transaction'] > ArrayExpression.arguments",
      message: "Use inTransaction (an interactive transaction), not a batch of the ORM's promises.",
    },
  ],
};
const DATA_ACCESS = ["src/db/**", "src/**/repo.ts", "src/**/*-repo.ts"];

export default tseslint.config(
  { ignores: ["**/dist/", "data/", "src/generated/", "test-output/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: { "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }] },
  },
  {
    // GraphiQL's page script, a classic script after the React, ReactDOM and GraphiQL builds the page loads.
    files: ["static/**/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: { ...globals.browser, React: "readonly", ReactDOM: "readonly", GraphiQL: "readonly" },
    },
  },
  // Tests read parsed JSON answers: `any` there is the honest type.
  { files: ["test/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  {
    files: ["src/**/*.ts"],
    ignores: ["src/main.ts", ...DATA_ACCESS],
    rules: restrict(ORM, SERVER, OTHER_MODULES_DATA),
  },
  { files: ["src/**/*.ts"], ignores: ["src/db/**"], rules: ORM_ERROR_CODES },
  {
    // Output types name enums by their GraphQL names: an enum registered around that registry is unknown to them.
    files: ["src/graphql/**/*.ts"],
    ignores: ["src/graphql/types/output-type.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [ORM, SERVER, OTHER_MODULES_DATA],
          paths: [
            {
              name: "type-graphql",
              importNames: ["registerEnumType"],
              message: "Declare the enum with describedEnum (src/enums.ts).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/*/**/*.ts"],
    // The adapters: REST, GraphQL, and the HTTP server's plugins both pass through (src/http).
    ignores: ["src/http/**", "src/rest/**", "src/graphql/**", ...DATA_ACCESS],
    rules: restrict(ORM, TRANSPORTS, SERVER, OTHER_MODULES_DATA),
  },
  {
    // The composition root's parts (app.ts's, in a folder): they hand workers the repository functions they run.
    files: ["src/wiring/**/*.ts"],
    rules: restrict(ORM, TRANSPORTS, SERVER),
  },
);
