// npm run bench: request rate and p99 latency of the built server, next to a bare Fastify route measured
// in the same run on the same machine, so the ratios say what the gateway's own layers cost.
import { spawn } from "node:child_process";
import autocannon from "autocannon";
import { signIn, startServer } from "./support.mjs";

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

const BARE_FASTIFY = `
  const app = (await import("fastify")).default();
  app.get("/", async () => ({ status: "ok" }));
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  console.log(address);
`;

async function startBareFastify() {
  const child = spawn(process.execPath, ["--input-type=module", "-e", BARE_FASTIFY], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve) => child.stdout.once("data", (chunk) => resolve(String(chunk).trim())));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return { url, stop: () => (child.kill("SIGTERM"), exited) };
}

function measure(name, options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx || result.errors) return reject(new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve({ name, rps: result.requests.average, p99: result.latency.p99 });
    });
  });
}

const bare = await startBareFastify();
// BENCH_DATABASE_URL=postgresql://... measures distributed mode instead of the embedded default.
const databaseUrl = process.env.BENCH_DATABASE_URL;
const gateway = await startServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {});
try {
  const session = await signIn(gateway);
  const results = [];
  results.push(await measure("bare Fastify route", { url: bare.url }));
  results.push(await measure("GET /healthz (full plugin stack)", { url: `${gateway.url}/healthz` }));
  results.push(await measure("GET /v1/api-credentials (session)", { url: `${gateway.url}/v1/api-credentials`, headers: session }));
  results.push(
    await measure("GraphQL me { apiCredentials }", {
      url: `${gateway.url}/graphql`,
      method: "POST",
      headers: { ...session, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ me { apiCredentials { edges { node { id } } } } }" }),
    }),
  );
  const quoteBody = JSON.stringify({ rampType: "BUY", from: "pix", to: "polygon", inputAmount: "1234.56", inputCurrency: "BRL", outputCurrency: "USDC" });
  results.push(
    await measure("POST /v1/quotes (session)", {
      url: `${gateway.url}/v1/quotes`,
      method: "POST",
      headers: { ...session, "content-type": "application/json" },
      body: quoteBody,
    }),
  );
  const quote = await (await fetch(`${gateway.url}/v1/quotes`, { method: "POST", headers: { ...session, "content-type": "application/json" }, body: quoteBody })).json();
  results.push(await measure("GET /v1/quotes/{id} (session)", { url: `${gateway.url}/v1/quotes/${quote.id}`, headers: session }));
  const baseline = results[0].rps;
  const engine = databaseUrl ? "PostgreSQL" : "embedded SQLite";
  console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s each, ${engine}, LOG_LEVEL=warn\n`);
  console.log(`${"scenario".padEnd(40)} ${"req/s".padStart(9)} ${"p99 ms".padStart(8)} ${"vs bare".padStart(8)}`);
  for (const { name, rps, p99 } of results) {
    console.log(`${name.padEnd(40)} ${rps.toFixed(0).padStart(9)} ${String(p99).padStart(8)} ${(rps / baseline).toFixed(2).padStart(8)}`);
  }
} finally {
  await gateway.stop();
  await bare.stop();
}
