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
# The build, the type check of tests and tools too (the build covers src/ only), and the lint (formatting, rules
# with the layer boundaries, unused exports or dependencies) are independent and single-threaded: they run side
# by side, each one's output shown whole once all have ended, and any failure stops the run.
checks=$(mktemp -d)
for check in build typecheck lint; do
  (npm run --silent "$check" >"$checks/$check.log" 2>&1 && touch "$checks/$check.ok") &
done
wait
failed=0
for check in build typecheck lint; do
  cat "$checks/$check.log"
  [ -e "$checks/$check.ok" ] || { echo "npm run $check failed"; failed=1; }
done
rm -rf "$checks"
[ "$failed" = 0 ] || exit 1
report() { echo "--reporter=default --reporter=json --outputFile.json=test-output/results-$1.json"; }
status=0
npx vitest run --project unit --project 'integration-*' --project 'e2e-*' $(report suite) "$@" || status=$?
npx vitest run --project audit $(report audit) || status=$?

# One closing line for the whole run, over both vitest invocations.
node -e '
  const { readFileSync, existsSync } = require("node:fs");
  const runs = ["suite", "audit"].map((name) => `test-output/results-${name}.json`).filter(existsSync);
  const sum = (key) => runs.reduce((total, file) => total + JSON.parse(readFileSync(file, "utf8"))[key], 0);
  // A suite whose setup fails runs none of its tests (they count as skipped): its failure is counted apart.
  console.log(`Tests: ${sum("numPassedTests")} passed, ${sum("numFailedTests")} failed, ${sum("numFailedTestSuites")} suites failed`);
'
exit $status
