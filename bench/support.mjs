// Shared by the benchmark scripts: start the built server on a fresh embedded database and sign in
// through the local mail outbox (no SMTP configured outside production).
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startServer(env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "ramp-gateway-bench-"));
  const port = await freePort();
  const child = spawn(process.execPath, ["dist/main.js"], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_IP_PER_MINUTE: "100000000",
      RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000000",
      RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "100000000",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ready) break;
    if (attempt > 200 || child.exitCode !== null) throw new Error("the server did not become ready");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, dataDir, stop: () => (child.kill("SIGTERM"), exited) };
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
