// Shared by the benchmark scripts: start the built server on a fresh database pinned to one core, sign in
// through the local mail outbox (no SMTP configured outside production), and run wrk pinned to the other.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";

/** The server (and the floors it is compared with) run on SERVER_CPU, the load generator on LOAD_CPU. */
export const SERVER_CPU = 0;
export const LOAD_CPU = cpus().length > 1 ? 1 : 0;

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

/** Starts `node <args>` pinned to SERVER_CPU; resolves once `ready()` holds. */
export async function startPinned(args, { env = {}, ready, stdout = "ignore" } = {}) {
  const child = spawn("taskset", ["-c", String(SERVER_CPU), process.execPath, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", stdout, "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  for (let attempt = 0; !(await ready(child)); attempt++) {
    if (attempt > 400 || child.exitCode !== null) throw new Error(`${args.join(" ")} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, pid: child.pid, stop: () => (child.kill("SIGTERM"), exited) };
}

/** The built server on a fresh data directory; `nodeArgs` go to node (a profiler, say). */
export async function startServer(env = {}, nodeArgs = []) {
  const dataDir = mkdtempSync(join(tmpdir(), "ramp-gateway-bench-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startPinned([...nodeArgs, "dist/main.js"], {
    env: {
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_IP_PER_MINUTE: "100000000",
      RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000000",
      RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "100000000",
      ...env,
    },
    ready: () => fetch(`${url}/readyz`).then((r) => r.ok, () => false),
  });
  return { ...server, url, dataDir };
}

export async function signIn({ url, dataDir }, email = "bench@example.com") {
  const post = (path, body) =>
    fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json());
  await post("/v1/auth/request-otp", { email });
  const mailDir = join(dataDir, "mail");
  const [latest] = readdirSync(mailDir).sort().reverse();
  const token = /code is (\d{6})/.exec(readFileSync(join(mailDir, latest), "utf8"))[1];
  const session = await post("/v1/auth/verify-otp", { email, token });
  return { authorization: `Bearer ${session.access_token}` };
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
  const apt = (...args) => execFileSync(root ? "apt-get" : "sudo", root ? args : ["apt-get", ...args], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  apt("update", "-qq");
  apt("install", "-y", "-qq", "wrk");
}

const luaString = (text) => `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
const scriptDir = mkdtempSync(join(tmpdir(), "ramp-gateway-wrk-"));
let scripts = 0;

/**
 * A wrk run pinned to LOAD_CPU: requests per second, p50/p99 latency (ms) and the count of failures
 * (socket errors, timeouts and non-2xx/3xx answers). Resolves when wrk exits, so runs can overlap.
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
      `done = function(summary, latency, requests)`,
      `  local e = summary.errors`,
      `  io.write(string.format("RESULT %d %d %d %d %d %d\\n", summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status, latency:percentile(50), latency:percentile(99)))`,
      `end`,
    ].join("\n"),
  );
  const args = ["-c", String(LOAD_CPU), "wrk", "-t1", `-c${connections}`, `-d${durationS}s`, `--timeout`, `${timeoutS}s`, "-s", script, url];
  return new Promise((resolve, reject) => {
    const child = spawn("taskset", args, { stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => {
      const match = /RESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(output);
      if (code !== 0 || !match) return reject(new Error(`wrk ${url} exited ${code}: ${output}`));
      const [requests, durationUs, socketErrors, statusErrors, p50Us, p99Us] = match.slice(1).map(Number);
      resolve({ rps: requests / (durationUs / 1e6), p50: p50Us / 1000, p99: p99Us / 1000, failures: socketErrors + statusErrors });
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
  const digits = Array.from({ length: 9 }, (_, index) => (index === 0 ? 1 : 0) + Math.floor(Math.random() * (index === 0 ? 9 : 10)));
  for (const length of [9, 10]) {
    const rest = digits.reduce((sum, digit, index) => sum + digit * (length + 1 - index), 0) % 11;
    digits.push(rest < 2 ? 0 : 11 - rest);
  }
  return digits.join("");
}

/** Takes the caller through BR KYC (a subaccount, then level 1), as an integrator does: BR ramps need it approved. */
export async function completeBrKyc(call) {
  const taxId = randomCpf();
  const { subAccountId } = await call("POST", "/v1/brl/createSubaccount", { accountType: "INDIVIDUAL", name: "Ana Souza", taxId }, 200);
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
      uploadedDocumentId: "sandbox-document",
      uploadedSelfieId: "sandbox-selfie",
    },
    200,
  );
}
