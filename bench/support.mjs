// Shared by the benchmark scripts: start the built server as it runs in production (NODE_ENV=production, mail
// through SMTP to a sink here) on a fresh database pinned to one core, sign in with the mailed code, and run
// wrk pinned to the other core.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { SMTPServer } from "smtp-server";

/** The server (and the floors it is compared with) run on SERVER_CPU, the load generator on LOAD_CPU. */
export const SERVER_CPU = 0;
export const LOAD_CPU = cpus().length > 1 ? 1 : 0;

/**
 * What a run would leave behind, ended or interrupted: its servers and load generators (each is SIGKILLed) and
 * the directories it made (an hour's soak writes gigabytes of data; wrk's scripts are small, but every run made one).
 */
const children = new Set();
const madeDirs = new Set();
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
});
for (const [signal, number] of [
  ["SIGINT", 2],
  ["SIGTERM", 15],
])
  process.once(signal, () => process.exit(128 + number));

function spawnTracked(command, args, options) {
  const child = spawn(command, args, options);
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
}

export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Pins this process (the bench's own client work: setup, subscribers) to the load generator's core. */
export function pinSelf() {
  spawnSync("taskset", ["-pc", String(LOAD_CPU), String(process.pid)], { stdio: "ignore" });
}

/**
 * Starts `node <args>` pinned to SERVER_CPU, in production mode; resolves once `ready()` holds, which it
 * asks every 50 ms for up to `patienceMs`.
 */
export async function startPinned(
  args,
  { env = {}, ready, stdout = "ignore", stdin = "ignore", patienceMs = 20_000 } = {},
) {
  const child = spawnTracked("taskset", ["-c", String(SERVER_CPU), process.execPath, ...args], {
    env: { ...process.env, NODE_ENV: "production", ...env },
    stdio: [stdin, stdout, "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const deadline = Date.now() + patienceMs;
  while (!(await ready(child))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${args.join(" ")} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, pid: child.pid, exited, stop: () => (child.kill("SIGTERM"), exited) };
}

/** An SMTP server on loopback that keeps the last sign-in code mailed to each address. */
async function startMailSink() {
  const codes = new Map();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let message = "";
      stream.on("data", (chunk) => (message += chunk));
      stream.on("end", () => {
        const code = /code is (\d{6})/.exec(message.replace(/=\r?\n/g, ""))?.[1];
        if (code) for (const { address } of session.envelope.rcptTo) codes.set(address.toLowerCase(), code);
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    codes,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const randomSecret = () => randomBytes(32).toString("base64url");
/** The node flags the server runs with in production (package.json's config, which `npm start` passes too). */
const NODE_FLAGS = JSON.parse(readFileSync("package.json", "utf8")).config.node_flags.split(" ");

/**
 * The built server in production mode on a fresh data directory; `nodeArgs` go to node (a profiler, say). Its
 * `env` (the data directory and secrets among it) starts it again on the same data: `startServer(first.env)`.
 */
export async function startServer(env = {}, nodeArgs = [], { patienceMs } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const mail = await startMailSink();
  const lasting = {
    DATA_DIR: env.DATA_DIR ?? madeTemporaryDir("ramp-gateway-bench-"),
    JWT_SECRET: randomSecret(),
    OPERATOR_TOKEN: randomSecret(),
    SIGNING_KEY_ENCRYPTION_KEY: randomSecret(),
    RATE_LIMIT_PER_IP_PER_MINUTE: "100000000",
    RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000000",
    RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "100000000",
    RATE_LIMIT_PARTNER_CALLBACKS_PER_IP_PER_MINUTE: "100000000",
    // KYC (and Alfredpay's corridors' ramps) go to the partners: simulated in a process of their own, as `npm start`
    // has them (production turns the embedded simulator off unless asked). It inherits the gateway's CPU.
    PARTNER_SIMULATOR: "embedded",
    ...env,
  };
  const server = await startPinned([...NODE_FLAGS, ...nodeArgs, "dist/main.js"], {
    stdout: process.env.BENCH_SERVER_STDOUT ? "inherit" : "ignore",
    // Upload URLs point to PUBLIC_BASE_URL.
    env: { ...lasting, PORT: String(port), PUBLIC_BASE_URL: url, SMTP_URL: mail.url },
    patienceMs,
    ready: () =>
      fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      ),
  });
  return {
    ...server,
    url,
    dataDir: lasting.DATA_DIR,
    env: lasting,
    mail,
    stop: () => server.stop().finally(() => mail.close()),
  };
}

function madeTemporaryDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeDirs.add(dir);
  return dir;
}

export async function signIn({ url, mail }, email = "bench@example.com") {
  const post = (path, body) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  mail.codes.delete(email);
  await post("/v1/auth/request-otp", { email });
  for (let waited = 0; !mail.codes.has(email); waited++) {
    if (waited > 200) throw new Error(`no sign-in code was mailed to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const session = await post("/v1/auth/verify-otp", { email, token: mail.codes.get(email) });
  return { authorization: `Bearer ${session.access_token}` };
}

const CLOCK_TICKS_PER_S = Number(execFileSync("getconf", ["CLK_TCK"]).toString());

/**
 * CPU time a process has used so far, user and system, in microseconds (Linux; clock-tick resolution). Over a
 * run it says what each request cost the server, which the machine's noise moves far less than requests per
 * second: time other tenants take from the core is not counted.
 */
export function cpuMicros(pid) {
  // The fields after the command name (which may hold spaces), from the third on: utime and stime are 14 and 15.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S) * 1e6;
}

/** The resident set of a process, in MB (Linux). */
export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/** Installs wrk from Debian's packages when it is missing (the bench's load generator, written in C). */
export function ensureWrk() {
  if (spawnSync("wrk", ["--version"]).error === undefined) return;
  console.error("wrk is missing: installing it with apt-get");
  const root = process.getuid?.() === 0;
  const apt = (...args) =>
    execFileSync(root ? "apt-get" : "sudo", root ? args : ["apt-get", ...args], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  apt("update", "-qq");
  apt("install", "-y", "-qq", "wrk");
}

const luaString = (text) => `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
/** wrk's Lua scripts, in a directory of their own removed on exit like the data directories. */
const scriptDir = madeTemporaryDir("ramp-gateway-wrk-");
let scripts = 0;

/** How long every connection is open before the load starts: p99 is the steady state of kept-alive connections. */
const OPEN_MS = 1000;

/**
 * A wrk run pinned to LOAD_CPU: requests per second, p50/p99/max latency (ms) and the count of failures
 * (socket errors, timeouts and non-2xx/3xx answers). Every connection sends its first request OPEN_MS after
 * it opened, so connection set-up (50 handshakes racing a saturated server) is not timed; the rate counts
 * the `durationS` seconds of load that follow. Resolves when wrk exits, so runs can overlap.
 */
export function wrk({ url, method = "GET", headers = {}, body, connections = 50, durationS = 5, timeoutS = 10 }) {
  const script = join(scriptDir, `s${++scripts}.lua`);
  writeFileSync(
    script,
    [
      `wrk.method = ${luaString(method)}`,
      ...Object.entries({ ...headers, ...(body !== undefined && { "content-type": "application/json" }) }).map(
        ([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`,
      ),
      ...(body !== undefined ? [`wrk.body = ${luaString(body)}`] : []),
      // wrk asks once per request, each connection's first request first.
      `local asked = 0`,
      `function delay() asked = asked + 1 if asked <= ${connections} then return ${OPEN_MS} end return 0 end`,
      `done = function(summary, latency, requests)`,
      `  local e = summary.errors`,
      `  io.write(string.format("RESULT %d %d %d %d %d %d %d\\n", summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status, latency:percentile(50), latency:percentile(99), latency.max))`,
      `end`,
    ].join("\n"),
  );
  const totalS = durationS + OPEN_MS / 1000;
  const args = [
    "-c",
    String(LOAD_CPU),
    "wrk",
    "-t1",
    `-c${connections}`,
    `-d${totalS}s`,
    `--timeout`,
    `${timeoutS}s`,
    "-s",
    script,
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawnTracked("taskset", args, { stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    // "close", not "exit": the result may still be on its way through the pipe when wrk exits.
    child.on("close", (code) => {
      const match = /RESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(output);
      if (code !== 0 || !match) return reject(new Error(`wrk ${url} exited ${code}: ${output}`));
      const [requests, durationUs, socketErrors, statusErrors, p50Us, p99Us, maxUs] = match.slice(1).map(Number);
      resolve({
        requests,
        rps: requests / ((durationUs - OPEN_MS * 1000) / 1e6),
        p50: p50Us / 1000,
        p99: p99Us / 1000,
        max: maxUs / 1000,
        failures: socketErrors + statusErrors,
      });
    });
  });
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A JSON caller of the gateway: `call(method, path, body, expectedStatus)` answers the parsed body. */
export function api(gateway, headers) {
  return async (method, path, body, expected) => {
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers: { ...headers, ...(body !== undefined && { "content-type": "application/json" }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** A random valid CPF: nine digits and both check digits. */
function randomCpf() {
  const digits = Array.from(
    { length: 9 },
    (_, index) => (index === 0 ? 1 : 0) + Math.floor(Math.random() * (index === 0 ? 9 : 10)),
  );
  for (const length of [9, 10]) {
    const rest = digits.reduce((sum, digit, index) => sum + digit * (length + 1 - index), 0) % 11;
    digits.push(rest < 2 ? 0 : 11 - rest);
  }
  return digits.join("");
}

/** The smallest file an upload URL takes as image/jpeg. */
const JPEG_FILE = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0xff, 0xd9]);

/**
 * Takes the caller through BR KYC (a subaccount, its identity document and selfie uploaded, then level 1), as an
 * integrator does, and waits for the partner's approval: BR ramps need it.
 */
export async function completeBrKyc(call) {
  const taxId = randomCpf();
  const { subAccountId } = await call(
    "POST",
    "/v1/brl/createSubaccount",
    { accountType: "INDIVIDUAL", name: "Ana Souza", taxId },
    200,
  );
  const { idUpload, selfieUpload } = await call("POST", "/v1/brl/getUploadUrls", { taxId, documentType: "ID" }, 200);
  for (const { uploadURLFront } of [idUpload, selfieUpload]) {
    const uploaded = await fetch(uploadURLFront, {
      method: "PUT",
      headers: { "content-type": "image/jpeg" },
      body: JPEG_FILE,
    });
    if (uploaded.status !== 204) throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);
  }
  await call(
    "POST",
    "/v1/brl/newKyc",
    {
      subAccountId,
      fullName: "Ana Souza",
      dateOfBirth: "1990-04-12",
      taxIdNumber: taxId,
      countryOfTaxId: "BR",
      email: "ana.souza@example.com",
      streetAddress: "Rua Augusta 100",
      city: "São Paulo",
      state: "SP",
      zipCode: "01304-000",
      country: "BR",
      uploadedDocumentId: idUpload.id,
      uploadedSelfieId: selfieUpload.id,
    },
    200,
  );
  const decision = await decided(
    () => call("GET", `/v1/brl/getKycStatus?taxId=${taxId}`, undefined, 200),
    ({ status, result }) => status === "COMPLETED" || result !== undefined,
  );
  if (decision.result !== "APPROVED") throw new Error(`KYC in BR was not approved: ${JSON.stringify(decision)}`);
}

/**
 * Takes the caller through an individual's KYC in a domestic corridor (AR, CO, MX, US) through the API (a customer,
 * its information, the submission) and waits for the partner's approval: that corridor's ramps need it.
 */
export async function completeDomesticKyc(call, country) {
  await call("POST", "/v1/domestic/createIndividualCustomer", { country }, 200);
  const { submissionId } = await call(
    "POST",
    "/v1/domestic/submitKycInformation",
    {
      country,
      firstName: "Ana",
      lastName: "Souza",
      dateOfBirth: "1990-04-12",
      documentType: "NATIONAL_ID",
      documentNumber: "12345678",
    },
    200,
  );
  await call("POST", "/v1/domestic/sendKycSubmission", { country, submissionId }, 200);
  const { status } = await decided(
    () => call("GET", `/v1/domestic/getKycStatus?country=${country}&type=INDIVIDUAL`, undefined, 200),
    (answer) => answer.status === "SUCCESS" || answer.status === "FAILED",
  );
  if (status !== "SUCCESS") throw new Error(`KYC in ${country} was not approved: ${status}`);
}

/** The partner's KYC decision, as `read` answers it once `isDecided`: asked every 50 ms, for up to 20 s. */
async function decided(read, isDecided) {
  for (let waited = 0; waited <= 400; waited++) {
    const answer = await read();
    if (isDecided(answer)) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the partner decided no KYC in 20 s");
}

/**
 * PostgreSQL for the distributed-mode figures: BENCH_DATABASE_URL (a server's admin URL), else a throwaway
 * cluster (as the test suite starts one) pinned to the load generator's core, not the gateway's: in production the
 * database is a network away, and on the gateway's core its backends took the CPU the gateway is measured by (quote
 * creation, one insert, fell to 0.04 of bare Fastify, the gateway idle 58 % of the time); none when PostgreSQL is not installed
 * or BENCH_ENGINES=sqlite. `database(name)` makes a fresh, empty database and answers its URL.
 */
export function benchPostgres() {
  if (process.env.BENCH_ENGINES === "sqlite") return undefined;
  let admin = process.env.BENCH_DATABASE_URL;
  let stop = () => undefined;
  if (!admin) {
    const cluster = (command) =>
      execFileSync("taskset", ["-c", String(LOAD_CPU), "bash", "tools/pg-test-cluster.sh", command], {
        env: { ...process.env, PG_TEST_PORT: "54339" },
        encoding: "utf8",
      });
    try {
      admin = /TEST_PG_URL=(\S+)/.exec(cluster("start"))[1];
    } catch (error) {
      console.error(`PostgreSQL figures skipped: ${error.message.split("\n")[0]}`);
      return undefined;
    }
    stop = () => cluster("stop");
  }
  return {
    stop,
    async database(name) {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      const url = new URL(admin);
      url.pathname = `/${name}`;
      return url.toString();
    },
  };
}

/* What integrators and dashboards send, and what they have after an hour (http.mjs, soak.mjs). */

export const graphqlBody = (query) => JSON.stringify({ query });
export const QUOTE = {
  rampType: "BUY",
  from: "pix",
  to: "polygon",
  inputAmount: "1234.56",
  inputCurrency: "BRL",
  outputCurrency: "USDC",
};
export const ADDRESS = `0x${"2".repeat(40)}`;
export const ME_CREDENTIALS = graphqlBody(
  "{ me { id email apiCredentials(first: 5) { edges { node { id name publicKey expiresAt } } } } }",
);
export const DASHBOARD_PAGE = graphqlBody(
  "{ ramps(first: 20) { edges { node { id type currentPhase status inputAmount inputCurrency outputAmount outputCurrency createdAt errors { phase error } } } pageInfo { hasNextPage endCursor } } }",
);

/**
 * What a dashboard and an integrator have after an hour: a session, a secret key with BR KYC approved, a
 * quote, and a history of 30 finished ramps (a fifth of them failed, with an error logged).
 */
export async function seed(gateway) {
  const session = await signIn(gateway);
  const credential = await api(gateway, session)("POST", "/v1/api-credentials", { name: "bench" }, 201);
  const secret = { "x-api-key": credential.secretKey };
  const call = api(gateway, secret);
  await completeBrKyc(call);
  const ramps = [];
  for (let i = 0; i < 30; i++) {
    const quote = await call("POST", "/v1/quotes", { ...QUOTE, inputAmount: i % 5 === 0 ? "250.66" : "250.00" }, 201);
    const ramp = await call("POST", "/v1/ramp/register", { quoteId: quote.id, destinationAddress: ADDRESS }, 201);
    await call("POST", "/v1/ramp/start", { rampId: ramp.id }, 200);
    ramps.push(ramp.id);
  }
  for (const id of ramps) {
    for (let waited = 0; (await call("GET", `/v1/ramp/${id}`, undefined, 200)).status === "PENDING"; waited++) {
      if (waited > 400) throw new Error(`ramp ${id} did not finish`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const quote = await call("POST", "/v1/quotes", QUOTE, 201);
  return { session, secret, quoteId: quote.id, rampId: ramps[1], secretKey: credential.secretKey };
}
