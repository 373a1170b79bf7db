#!/usr/bin/env bash
# The whole test suite: build, then unit, integration and end-to-end tests on SQLite and PostgreSQL,
# then the audit of every log the suite wrote. Without TEST_PG_URL it starts a throwaway PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${TEST_PG_URL:-}" ]; then
  eval "$(bash tools/pg-test-cluster.sh start)"
  trap 'bash tools/pg-test-cluster.sh stop' EXIT
fi
export TEST_PG_URL

rm -rf test-output
npm run --silent build
# Tests and tools are type-checked too (the build covers src/ only).
npm run --silent typecheck
# Formatting, lint rules with the layer boundaries, and unused exports or dependencies.
npm run --silent lint
report() { echo "--reporter=default --reporter=json --outputFile.json=test-output/results-$1.json"; }
status=0
npx vitest run --project unit --project 'integration-*' --project 'e2e-*' $(report suite) "$@" || status=$?
npx vitest run --project audit $(report audit) || status=$?

# One closing line for the whole run, over both vitest invocations.
node -e '
  const { readFileSync, existsSync } = require("node:fs");
  const runs = ["suite", "audit"].map((name) => `test-output/results-${name}.json`).filter(existsSync);
  const sum = (key) => runs.reduce((total, file) => total + JSON.parse(readFileSync(file, "utf8"))[key], 0);
  console.log(`Tests: ${sum("numPassedTests")} passed, ${sum("numFailedTests")} failed`);
'
exit $status
