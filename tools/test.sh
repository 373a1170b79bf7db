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
npx vitest run --project unit --project 'integration-*' --project 'e2e-*' "$@"
npx vitest run --project audit
