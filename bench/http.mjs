// npm run bench, first part: the requests integrators and dashboards repeat, each next to the floor it is
// measured against (a bare Fastify route, or Apollo on Fastify answering `{ hello }`), both measured in the
// same run on the same core. The server and the floors run on one core, wrk (C) on the other; every target
// is measured in several interleaved rounds, and the table shows medians.
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import {
  api,
  benchPostgres,
  cpuMicros,
  DASHBOARD_PAGE,
  ensureWrk,
  freePort,
  graphqlBody,
  LOAD_CPU,
  ME_CREDENTIALS,
  median,
  pinSelf,
  QUOTE,
  rssMb,
  seed,
  SERVER_CPU,
  startPinned,
  startServer,
  wrk,
} from "./support.mjs";

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const P99_GOAL_MS = 50;
const RSS_GOAL_MB = 250;

const BARE_FASTIFY = `
  const app = (await import("fastify")).default();
  app.get("/", async () => ({ status: "ok" }));
  await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
`;
const APOLLO_HELLO = `
  const { ApolloServer } = await import("@apollo/server");
  const { fastifyApolloDrainPlugin, fastifyApolloHandler } = await import("@as-integrations/fastify");
  const app = (await import("fastify")).default();
  const apollo = new ApolloServer({ typeDefs: "type Query { hello: String }", resolvers: { Query: { hello: () => "world" } }, plugins: [fastifyApolloDrainPlugin(app)] });
  await apollo.start();
  app.route({ url: "/graphql", method: ["GET", "POST", "OPTIONS"], handler: fastifyApolloHandler(apollo) });
  await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
`;

async function startFloor(source, path) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}${path}`;
  const ready = () =>
    fetch(url, {
      method: path === "/graphql" ? "POST" : "GET",
      headers: { "content-type": "application/json" },
      body: path === "/graphql" ? '{"query":"{hello}"}' : undefined,
    }).then(
      (r) => r.ok,
      () => false,
    );
  const floor = await startPinned(["--input-type=module", "-e", source], { env: { PORT: String(port) }, ready });
  return { ...floor, url };
}

/** The scenarios of one gateway, as wrk requests; `floor` names the route each is compared with. */
function scenarios(gateway, seeded) {
  const { session, secret } = seeded;
  return [
    { name: "GET /healthz (full plugin stack)", floor: "fastify", request: { url: `${gateway.url}/healthz` } },
    {
      name: "GET /v1/ramp-info (secret key)",
      floor: "fastify",
      goal: 0.4,
      request: { url: `${gateway.url}/v1/ramp-info`, headers: secret },
    },
    {
      name: "GET /v1/ramp/{id} (secret key)",
      floor: "fastify",
      goal: 0.35,
      request: { url: `${gateway.url}/v1/ramp/${seeded.rampId}`, headers: secret },
    },
    {
      name: "GET /v1/quotes/{id} (secret key)",
      floor: "fastify",
      goal: 0.35,
      request: { url: `${gateway.url}/v1/quotes/${seeded.quoteId}`, headers: secret },
    },
    {
      name: "GraphQL me { apiCredentials(first: 5) } (session)",
      floor: "apollo",
      goal: 0.5,
      request: {
        url: `${gateway.url}/graphql`,
        method: "POST",
        headers: session,
        body: ME_CREDENTIALS,
      },
    },
    {
      name: "GraphQL ramps(first: 20) { ... errors } (session)",
      floor: "apollo",
      goal: 0.25,
      request: { url: `${gateway.url}/graphql`, method: "POST", headers: session, body: DASHBOARD_PAGE },
    },
    {
      name: "POST /v1/quotes (secret key)",
      floor: "fastify",
      goal: 0.1,
      request: { url: `${gateway.url}/v1/quotes`, method: "POST", headers: secret, body: JSON.stringify(QUOTE) },
    },
  ];
}

/** Status reads at full load while 10 connections create quotes: the reads' rate and p99. */
async function mixed(gateway, seeded) {
  const [reads] = await Promise.all([
    wrk({
      url: `${gateway.url}/v1/ramp/${seeded.rampId}`,
      headers: seeded.secret,
      durationS: DURATION_S,
      connections: CONNECTIONS,
    }),
    wrk({
      url: `${gateway.url}/v1/quotes`,
      method: "POST",
      headers: seeded.secret,
      body: JSON.stringify(QUOTE),
      durationS: DURATION_S,
      connections: 10,
    }),
  ]);
  return reads;
}

/** SUBSCRIBERS graphql-ws connections, each following a widget session through rampEvents (held by this process). */
async function openSubscribers(gateway, seeded) {
  const call = api(gateway, seeded.secret);
  const { sessionId } = await call(
    "POST",
    "/v1/session/create",
    { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "bench" },
    201,
  );
  const url = `${gateway.url.replace(/^http/, "ws")}/graphql`;
  const clients = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { "X-API-Key": seeded.secretKey },
      lazy: false,
      retryAttempts: 0,
    });
    client.subscribe(
      {
        query: "subscription ($sessionId: ID) { rampEvents(sessionId: $sessionId) { eventId } }",
        variables: { sessionId },
      },
      {
        next: () => undefined,
        error: (error) => clients.closing || console.error("subscriber failed", error),
        complete: () => undefined,
      },
    );
    clients.push(client);
  }
  return clients;
}

/** The ramp-info load with SUBSCRIBERS subscribers connected; the server's peak resident set meanwhile. */
async function rssUnderLoad(gateway, seeded) {
  const clients = await openSubscribers(gateway, seeded);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  let peak = rssMb(gateway.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(gateway.pid))), 100);
  const load = await wrk({
    url: `${gateway.url}/v1/ramp-info`,
    headers: seeded.secret,
    durationS: DURATION_S,
    connections: CONNECTIONS,
  });
  clearInterval(sampler);
  clients.closing = true;
  await Promise.all(clients.map((client) => client.dispose()));
  return { peak, load };
}

async function measureEngine(engine, databaseUrl, floors) {
  const gateway = await startServer({
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    SANDBOX_STEP_DELAY_MS: "20",
    PARTNER_SIM_KYC_DECISION_MS: "0",
  });
  try {
    const seeded = await seed(gateway);
    const list = scenarios(gateway, seeded);
    const targets = [
      {
        name: "floor: bare Fastify route",
        key: "fastify",
        pid: floors.fastify.pid,
        request: { url: floors.fastify.url },
      },
      {
        name: "floor: Apollo on Fastify { hello }",
        key: "apollo",
        pid: floors.apollo.pid,
        request: { url: floors.apollo.url, method: "POST", body: graphqlBody("{ hello }") },
      },
      ...list.map((scenario) => ({ ...scenario, pid: gateway.pid })),
    ];
    for (const target of targets) await wrk({ ...target.request, durationS: 1, connections: CONNECTIONS }); // warm-up
    const runs = new Map(targets.map((target) => [target, []]));
    const measure = async (target) => {
      const cpuBefore = cpuMicros(target.pid);
      const result = await wrk({ ...target.request, durationS: DURATION_S, connections: CONNECTIONS });
      if (result.failures) throw new Error(`${engine}: ${target.name}: ${result.failures} failed requests`);
      const run = { ...result, cpuUs: (cpuMicros(target.pid) - cpuBefore) / result.requests };
      runs.get(target).push(run);
      return run;
    };
    const floorOf = Object.fromEntries(targets.filter((target) => target.key).map((target) => [target.key, target]));
    // Each scenario's floor is measured right before it, and the ratio is taken per pair: the machine's speed
    // drifts by a fifth from one minute to the next, more than a floor measured minutes apart can account for.
    const ratios = new Map();
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        if (target.key) continue;
        const floor = await measure(floorOf[target.floor]);
        const run = await measure(target);
        ratios.set(target, [...(ratios.get(target) ?? []), run.rps / floor.rps]);
      }
    }
    const summary = (target) => ({
      rps: median(runs.get(target).map((run) => run.rps)),
      p99: median(runs.get(target).map((run) => run.p99)),
      cpuUs: median(runs.get(target).map((run) => run.cpuUs)),
    });
    const floorRps = { fastify: summary(floorOf.fastify).rps, apollo: summary(floorOf.apollo).rps };
    const rows = targets.map((target) => ({
      ...target,
      ...summary(target),
      ratio: target.floor ? median(ratios.get(target)) : undefined,
    }));
    const mix = [];
    for (let round = 0; round < ROUNDS; round++) mix.push(await mixed(gateway, seeded));
    rows.push({
      name: "GET /v1/ramp/{id} while 10 connections create quotes",
      rps: median(mix.map((run) => run.rps)),
      p99: median(mix.map((run) => run.p99)),
      // The server's time goes to the quotes as well: no cost per read to show.
      floor: "fastify",
      ratio: median(mix.map((run) => run.rps)) / floorRps.fastify,
    });
    const rss = await rssUnderLoad(gateway, seeded);
    return { rows, rss };
  } finally {
    await gateway.stop();
  }
}

const fmt = (value, digits = 0) => (value === undefined ? "-" : value.toFixed(digits));

function print(results) {
  const engines = Object.keys(results);
  const head = [
    "scenario".padEnd(54),
    ...engines.flatMap((engine) => [
      `${engine} req/s`.padStart(16),
      "p99 ms".padStart(8),
      "ratio".padStart(6),
      "CPU µs".padStart(7),
    ]),
    `goal (${engines.join("/")})`.padStart(28),
  ];
  console.log(head.join(" "));
  const first = results[engines[0]].rows;
  first.forEach((row, index) => {
    const cells = engines.flatMap((engine) => {
      const r = results[engine].rows[index];
      return [
        fmt(r.rps).padStart(16),
        fmt(r.p99, 1).padStart(8),
        fmt(r.ratio, 3).padStart(6),
        fmt(r.cpuUs).padStart(7),
      ];
    });
    const verdicts = engines.map((engine) => {
      const r = results[engine].rows[index];
      const met = (row.goal === undefined || r.ratio >= row.goal) && r.p99 <= P99_GOAL_MS;
      return met ? "met" : "MISSED";
    });
    const goal = row.key
      ? "(floor)"
      : `${row.goal !== undefined ? `>= ${row.goal} x, ` : ""}p99 <= ${P99_GOAL_MS} ${verdicts.join("/")}`;
    console.log([row.name.padEnd(54), ...cells, goal.padStart(28)].join(" "));
  });
  for (const engine of engines) {
    const { peak, load } = results[engine].rss;
    console.log(
      `${engine}: server RSS with ${SUBSCRIBERS} rampEvents subscribers during the ramp-info load: ${peak.toFixed(0)} MB (goal <= ${RSS_GOAL_MB} MB ${peak <= RSS_GOAL_MB ? "met" : "MISSED"}); ramp-info meanwhile ${load.rps.toFixed(0)} req/s, p99 ${load.p99.toFixed(1)} ms`,
    );
  }
}

ensureWrk();
pinSelf();
const floors = { fastify: await startFloor(BARE_FASTIFY, "/"), apollo: await startFloor(APOLLO_HELLO, "/graphql") };
const postgresql = benchPostgres();
try {
  const results = { SQLite: await measureEngine("SQLite", undefined, floors) };
  if (postgresql)
    results.PostgreSQL = await measureEngine("PostgreSQL", await postgresql.database("ramp_bench_http"), floors);
  console.log(
    `\n${CONNECTIONS} keep-alive connections, server and floors on CPU ${SERVER_CPU}, wrk on CPU ${LOAD_CPU}; ${ROUNDS} rounds of ${DURATION_S} s, medians; NODE_ENV=production, the default LOG_LEVEL (info); each run opens its connections 1 s before the load`,
  );
  console.log(
    "Each engine's ratios are to the floors measured in its own rounds; the goals apply to each engine, judged one by one.",
  );
  console.log(
    "CPU µs: the server's (or floor's) CPU time per request, user and system, median of the rounds. It leaves out the time\nother tenants of a shared machine take from the core, so it says what a request costs; like req/s, compare it within one run.\n",
  );
  print(results);
} finally {
  await floors.fastify.stop();
  await floors.apollo.stop();
  postgresql?.stop();
}
