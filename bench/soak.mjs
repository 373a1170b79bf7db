// npm run bench:soak: the gateway on its embedded database under an hour of mixed integrator traffic over 20
// connections (issue 40), in production configuration, the server on one core and the load on the other.
// Every BENCH_SOAK_REPORT_S it prints the requests answered, the errors, the size of SQLite's write-ahead log
// and the server's memory; at the end it kills the server with SIGKILL and times its restart on the same data.
import { statSync } from "node:fs";
import { join } from "node:path";
import {
  ADDRESS,
  api,
  DASHBOARD_PAGE,
  ensureWrk,
  LOAD_CPU,
  ME_CREDENTIALS,
  median,
  pinSelf,
  QUOTE,
  rssMb,
  seed,
  SERVER_CPU,
  signIn,
  startServer,
  wrk,
} from "./support.mjs";

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 60);
const REPORT_S = Number(process.env.BENCH_SOAK_REPORT_S ?? 60);
const WAL_GOAL_MB = 64;
/** The resident set is compared with its median over the minute before this one. */
const RSS_REFERENCE_MINUTE = 2;
const RSS_DRIFT_GOAL = 0.1;
const RESTART_GOAL_S = 5;
/** Connections that create a quote, register a ramp on it and start it, one after the other (from this process). */
const REGISTERING = 2;
const MB = 1024 * 1024;

/** An access token lives 15 minutes (ACCESS_TOKEN_TTL_SECONDS): the dashboard's loads run in turns of 10. */
const SESSION_TURN_S = 600;

/** wrk's share of the 20 connections: what integrators (their secret key) and dashboards (a session) repeat. */
function traffic(gateway, seeded) {
  const { secret } = seeded;
  const integrator = [
    { name: "GET /v1/ramp-info", connections: 3, request: { url: `${gateway.url}/v1/ramp-info`, headers: secret } },
    {
      name: "GET /v1/ramp/{id}",
      connections: 4,
      request: { url: `${gateway.url}/v1/ramp/${seeded.rampId}`, headers: secret },
    },
    {
      name: "GET /v1/quotes/{id}",
      connections: 2,
      request: { url: `${gateway.url}/v1/quotes/${seeded.quoteId}`, headers: secret },
    },
    {
      name: "POST /v1/quotes",
      connections: 3,
      request: { url: `${gateway.url}/v1/quotes`, method: "POST", headers: secret, body: JSON.stringify(QUOTE) },
    },
  ];
  const dashboard = [
    {
      name: "GraphQL me { apiCredentials }",
      connections: 3,
      request: { url: `${gateway.url}/graphql`, method: "POST", body: ME_CREDENTIALS },
    },
    {
      name: "GraphQL ramps(first: 20) page",
      connections: 3,
      request: { url: `${gateway.url}/graphql`, method: "POST", body: DASHBOARD_PAGE },
    },
  ];
  return { integrator, dashboard };
}

/**
 * The dashboard's loads for `durationS`, in turns of SESSION_TURN_S, each on a session of its own: the seed's
 * first, then one signed in half a minute before the turn it serves. Each load's turns add up to one run:
 * requests and failures summed, the worst turn's p99 and max.
 */
async function dashboardTurns(gateway, loads, session, durationS) {
  const turns = [];
  for (let left = durationS; left > 0; left -= SESSION_TURN_S) {
    const turnS = Math.min(left, SESSION_TURN_S);
    const turn = Promise.all(
      loads.map((load) => wrk({ ...load.request, headers: session, connections: load.connections, durationS: turnS })),
    );
    const next =
      left > SESSION_TURN_S
        ? new Promise((resolve) => setTimeout(resolve, (turnS - 30) * 1000)).then(() => signIn(gateway))
        : undefined;
    turns.push(await turn);
    session = await next;
  }
  return loads.map((_, index) => {
    const runs = turns.map((turn) => turn[index]);
    const requests = runs.reduce((sum, run) => sum + run.requests, 0);
    return {
      rps: requests / durationS,
      p99: Math.max(...runs.map((run) => run.p99)),
      max: Math.max(...runs.map((run) => run.max)),
      failures: runs.reduce((sum, run) => sum + run.failures, 0),
    };
  });
}

/** Quote, ramp registration and start, again and again until `until`, on one connection. */
async function registerRamps(gateway, secret, until, tally) {
  const call = api(gateway, secret);
  while (Date.now() < until) {
    try {
      const quote = await call("POST", "/v1/quotes", QUOTE, 201);
      const ramp = await call("POST", "/v1/ramp/register", { quoteId: quote.id, destinationAddress: ADDRESS }, 201);
      await call("POST", "/v1/ramp/start", { rampId: ramp.id }, 200);
      tally.ramps++;
    } catch (error) {
      tally.errors++;
      tally.lastError = error.message;
    }
  }
}

const walMb = (dataDir) => {
  try {
    return statSync(join(dataDir, "ramp-gateway.db-wal")).size / MB;
  } catch {
    return 0;
  }
};

/** What the server's /metrics says: requests answered (all, and those not 2xx/3xx), heap and external memory. */
async function scrape(gateway) {
  const response = await fetch(`${gateway.url}/metrics`, {
    headers: { authorization: `Bearer ${gateway.env.OPERATOR_TOKEN}` },
  });
  const text = await response.text();
  let answered = 0;
  let failed = 0;
  for (const [, route, status, count] of text.matchAll(
    /^http_request_duration_seconds_count\{[^}]*route="([^"]*)"[^}]*status_code="(\d+)"[^}]*\} (\d+)/gm,
  )) {
    if (route === "/metrics") continue;
    answered += Number(count);
    if (Number(status) >= 400) failed += Number(count);
  }
  const gauge = (name) => Number(new RegExp(`^${name} (\\S+)`, "m").exec(text)?.[1] ?? NaN) / MB;
  return {
    answered,
    failed,
    heapMb: gauge("nodejs_heap_size_used_bytes"),
    externalMb: gauge("nodejs_external_memory_bytes"),
  };
}

const verdict = (met) => (met ? "met" : "MISSED");
const column = (value, width, digits = 0) => value.toFixed(digits).padStart(width);

ensureWrk();
pinSelf();
const gateway = await startServer({ SANDBOX_STEP_DELAY_MS: "20", PARTNER_SIM_KYC_DECISION_MS: "0" });
let restarted;
try {
  const seeded = await seed(gateway);
  const durationS = MINUTES * 60;
  const { integrator, dashboard } = traffic(gateway, seeded);
  const loads = [...integrator, ...dashboard];
  const connections = loads.reduce((sum, load) => sum + load.connections, REGISTERING);
  console.log(
    `${MINUTES} min of mixed integrator traffic over ${connections} keep-alive connections: server on CPU ${SERVER_CPU}, load on CPU ${LOAD_CPU}; NODE_ENV=production, package.json's node flags, embedded SQLite.`,
  );
  console.log(
    `Every ${REPORT_S} s: requests answered per second and those answered with an error (server's /metrics), the largest WAL\nfile seen (sampled every second, goal < ${WAL_GOAL_MB} MB), the median resident set of the server's per-second samples (goal: within\n${RSS_DRIFT_GOAL * 100} % of the median over minute ${RSS_REFERENCE_MINUTE}) and its JS heap in use and external memory.\n`,
  );
  console.log(
    ["  min", "req/s", "errors", "WAL MB", "goal", "RSS MB", "goal", "heap MB", "ext MB"]
      .map((head, index) => head.padStart(index === 0 ? 5 : 8))
      .join(" "),
  );

  const started = Date.now();
  const until = started + durationS * 1000;
  const tally = { ramps: 0, errors: 0, lastError: undefined };
  const wrkRuns = Promise.all([
    ...integrator.map((load) => wrk({ ...load.request, connections: load.connections, durationS })),
    dashboardTurns(gateway, dashboard, seeded.session, durationS),
  ]).then((runs) => runs.flat());
  const registering = Promise.all(
    Array.from({ length: REGISTERING }, () => registerRamps(gateway, seeded.secret, until, tally)),
  );

  let interval = { walMax: 0, rss: [] };
  let referenceRss;
  let rssMinute = [];
  const overall = { walMax: 0, rssDrift: 0, failed: 0 };
  let previous = await scrape(gateway);
  let lastReport = Date.now();
  const sampler = setInterval(() => {
    const wal = walMb(gateway.dataDir);
    const rss = rssMb(gateway.pid);
    interval.walMax = Math.max(interval.walMax, wal);
    interval.rss.push(rss);
    overall.walMax = Math.max(overall.walMax, wal);
    const minute = Math.floor((Date.now() - started) / 60_000);
    if (minute === RSS_REFERENCE_MINUTE - 1) rssMinute.push(rss);
    if (minute >= RSS_REFERENCE_MINUTE && referenceRss === undefined) referenceRss = median(rssMinute);
  }, 1000);
  const reporter = setInterval(async () => {
    const now = Date.now();
    const current = await scrape(gateway);
    const rss = median(interval.rss);
    const failed = current.failed - previous.failed;
    overall.failed += failed;
    const drift = referenceRss === undefined ? undefined : Math.abs(rss - referenceRss) / referenceRss;
    if (drift !== undefined) overall.rssDrift = Math.max(overall.rssDrift, drift);
    console.log(
      [
        column((now - started) / 60_000, 5, 1),
        column(((current.answered - previous.answered) * 1000) / (now - lastReport), 8),
        column(failed, 8),
        column(interval.walMax, 8, 1),
        verdict(interval.walMax < WAL_GOAL_MB).padStart(8),
        column(rss, 8, 1),
        (drift === undefined ? "(ref.)" : `${verdict(drift <= RSS_DRIFT_GOAL)}`).padStart(8),
        column(current.heapMb, 8, 1),
        column(current.externalMb, 8, 1),
      ].join(" "),
    );
    previous = current;
    lastReport = now;
    interval = { walMax: 0, rss: [] };
  }, REPORT_S * 1000);

  const runs = await wrkRuns;
  await registering;
  clearInterval(sampler);
  clearInterval(reporter);

  // Killed at the end of the load, with the log as the load left it.
  gateway.child.kill("SIGKILL");
  await gateway.exited;
  await gateway.mail.close();
  const walAtKill = walMb(gateway.dataDir);
  const killed = performance.now();
  restarted = await startServer(gateway.env, [], { patienceMs: 300_000 });
  await api(restarted, seeded.secret)("GET", `/v1/ramp/${seeded.rampId}`, undefined, 200);
  const restartS = (performance.now() - killed) / 1000;

  console.log(
    `\n${"load".padEnd(32)} ${"req/s".padStart(8)} ${"p99 ms".padStart(8)} ${"max ms".padStart(8)} failures   (GraphQL: turns of ${SESSION_TURN_S / 60} min on a new session, the worst turn's p99)`,
  );
  runs.forEach((run, index) =>
    console.log(
      `${loads[index].name.padEnd(32)} ${column(run.rps, 8)} ${column(run.p99, 8, 1)} ${column(run.max, 8, 1)} ${run.failures}`,
    ),
  );
  console.log(
    `${`quote + register + start (x${REGISTERING})`.padEnd(32)} ${column(tally.ramps / durationS, 8)} ramps/s${tally.errors ? `, ${tally.errors} errors, the last: ${tally.lastError}` : ""}`,
  );
  // A failure the load generators saw (a socket error, a time-out, an error status), or an error the server answered.
  const errors = Math.max(runs.reduce((sum, run) => sum + run.failures, 0) + tally.errors, overall.failed);
  console.log(
    `\nWAL: largest ${overall.walMax.toFixed(1)} MB (goal < ${WAL_GOAL_MB} MB ${verdict(overall.walMax < WAL_GOAL_MB)}); ${walAtKill.toFixed(1)} MB when killed`,
  );
  console.log(
    referenceRss === undefined
      ? "RSS: the run was too short to have a reference"
      : `RSS: ${referenceRss.toFixed(1)} MB over minute ${RSS_REFERENCE_MINUTE}, then at most ${(overall.rssDrift * 100).toFixed(1)} % away (goal <= ${RSS_DRIFT_GOAL * 100} % ${verdict(overall.rssDrift <= RSS_DRIFT_GOAL)})`,
  );
  console.log(
    `errors: ${errors}: the load generators' failures, or the server's error answers if more (goal 0 ${verdict(errors === 0)})`,
  );
  console.log(
    `restart after kill -9: answering in ${restartS.toFixed(2)} s (goal <= ${RESTART_GOAL_S} s ${verdict(restartS <= RESTART_GOAL_S)})`,
  );
} finally {
  if (gateway.child.exitCode === null) await gateway.stop();
  await restarted?.stop();
}
