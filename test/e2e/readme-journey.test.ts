import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveryLog, expectCall } from "../support/e2e-http.js";
import { waitFor } from "../support/kit.js";
import { rememberSecret } from "../support/secrets.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { startWebhookReceiver, testCertificates, type WebhookReceiver } from "../support/webhook-receiver.js";

/**
 * The README's walk-through, run as written (issue 15): every ```bash block of README.md whose line before is
 * `<!-- journey -->`, in the README's order, in ONE bash process under `set -euo pipefail`, so the variables
 * one block defines reach the next and a failing command fails the test. Blocks without the marker (`npm ci
 * && npm start`, the production example, the openssl check of a captured delivery) are not part of it.
 *
 * The blocks run against the BUILT server (`npm run build` first), started on a fresh database of the
 * project's engine with no SMTP (so the sign-in code is in DATA_DIR/mail, as in a checkout), from a
 * directory laid out like the checkout: `data/` is the server's DATA_DIR, and `package.json` and `dist/` are
 * there for `npm run -s admin`. The command text is the README's but for the port (`localhost:8080` becomes
 * the server's); the environment shortens the sandbox's delays and sets `WEBHOOK_URL`, which the README lets
 * a reader set, to a local HTTPS receiver that checks every delivery's signature.
 */

const README = fileURLToPath(new URL("../../README.md", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const JOURNEY_MARKER = "<!-- journey -->";
const END_MARKER = "@@ journey end";
const JOURNEY_TIMEOUT_MS = 120_000;

interface JourneyBlock {
  /** The README line of the block's opening fence, for failure messages. */
  line: number;
  code: string;
}

/** The marked blocks in order; a marker not directly above a ```bash fence is a mistake, and fails loudly. */
function journeyBlocks(markdown: string): JourneyBlock[] {
  const lines = markdown.split("\n");
  const blocks: JourneyBlock[] = [];
  lines.forEach((text, index) => {
    if (text.trim() !== JOURNEY_MARKER) return;
    if (lines[index + 1] !== "```bash")
      throw new Error(`README.md line ${index + 1}: ${JOURNEY_MARKER} must stand right above a \`\`\`bash fence`);
    const end = lines.indexOf("```", index + 2);
    if (end < 0) throw new Error(`README.md line ${index + 2}: the journey block is never closed`);
    blocks.push({ line: index + 2, code: lines.slice(index + 2, end).join("\n") });
  });
  return blocks;
}

/** A port no one listens on now, so the server's PUBLIC_BASE_URL (upload URLs) can name it before it starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function runBash(script: string, cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; durationMs: number }>((resolve) => {
    writeFileSync(join(cwd, "journey.sh"), script);
    const started = Date.now();
    const child = spawn("bash", ["journey.sh"], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), JOURNEY_TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, durationMs: Date.now() - started });
    });
  });
}

describe("the README's walk-through, as written", () => {
  let server: ServerProcess;
  let receiver: WebhookReceiver;
  let checkout: string;

  beforeAll(async () => {
    const port = await freePort();
    server = await startServerProcess({
      mailOutbox: true,
      env: {
        PORT: String(port),
        PUBLIC_BASE_URL: `http://localhost:${port}`,
        // Short sandbox delays: the journey's polling loops end after a round or two.
        SANDBOX_STEP_DELAY_MS: "100",
        PARTNER_SIM_KYC_DECISION_MS: "300",
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32",
        NODE_EXTRA_CA_CERTS: testCertificates().caFile,
      },
    });
    receiver = await startWebhookReceiver({
      publicKey: (await expectCall(200, server, "GET", "/v1/public-key")).publicKey,
    });
    checkout = mkdtempSync(join(tmpdir(), "readme-journey-"));
    symlinkSync(server.database.dataDir, join(checkout, "data"));
    for (const entry of ["package.json", "dist"]) symlinkSync(join(REPO_ROOT, entry), join(checkout, entry));
  });

  afterAll(async () => {
    await receiver?.close();
    await server?.dispose();
    if (checkout) rmSync(checkout, { recursive: true, force: true });
  });

  it(
    "takes an empty data directory to a COMPLETE BUY and SELL ramp and a delivered webhook",
    async () => {
      const blocks = journeyBlocks(readFileSync(README, "utf8"));
      const origin = server.url.replace("http://127.0.0.1:", "localhost:");
      const withPort = (code: string) => code.replaceAll("localhost:8080", origin);
      const script = [
        "set -euo pipefail",
        // Names the command that stopped the journey; the last `@@` line above it names the block.
        `trap 'echo "journey stopped at: $BASH_COMMAND" >&2' ERR`,
        ...blocks.flatMap(({ line, code }) => [`printf '\\n@@ README.md line ${line}\\n'`, withPort(code)]),
        // The test's own lines: what the journey ended with, one JSON document a line.
        `printf '\\n${END_MARKER}\\n'`,
        ...["ramp/$RAMP", "ramp/$SELL_RAMP", "webhook/$WEBHOOK/deliveries"].map(
          (path) => `curl -sSf ${origin}/v1/${path} -H "X-API-Key: $SECRET"; echo`,
        ),
        `printf '%s\\n' "$WEBHOOK" "$SECRET" "$TOKEN" "$CODE" "$CPF"`,
      ].join("\n");
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? checkout,
        WEBHOOK_URL: receiver.url("/ramp-events"),
        // `npm run -s admin` talks to the server's database, as the README says it does.
        ...(server.database.url && { DATABASE_URL: server.database.url }),
      };

      const run = await runBash(script, checkout, env);
      const transcript = `${run.stdout.slice(-6000)}\n--- stderr ---\n${run.stderr.slice(-3000)}`;
      expect(run.code, transcript).toBe(0);
      const [buyRamp, sellRamp, log, webhookId, secretKey, accessToken, signInCode, cpf] = run.stdout
        .slice(run.stdout.lastIndexOf(END_MARKER) + END_MARKER.length)
        .trim()
        .split("\n");
      for (const secret of [secretKey!, accessToken!, signInCode!, cpf!]) rememberSecret(secret);
      for (const issued of run.stdout.match(/sk_test_\w+/g) ?? []) rememberSecret(issued);
      console.info(`README journey: ${blocks.length} blocks in ${run.durationMs} ms`);

      const buy = JSON.parse(buyRamp!);
      const sell = JSON.parse(sellRamp!);
      expect(buy).toMatchObject({ type: "BUY", status: "COMPLETE", currentPhase: "complete" });
      expect(sell).toMatchObject({ type: "SELL", status: "COMPLETE", currentPhase: "complete" });
      const logged = JSON.parse(log!).deliveries as { eventId: string; eventType: string }[];
      expect(logged.map((delivery) => delivery.eventType).sort()).toEqual(["STATUS_CHANGE", "TRANSACTION_CREATED"]);

      // The receiver the README's WEBHOOK_URL named got both events of the BUY ramp, signed by the server.
      const received = await receiver.waitFor(2, { which: (delivery) => delivery.event !== undefined });
      expect(received.every((delivery) => delivery.path === "/ramp-events")).toBe(true);
      expect(received.map(({ event }) => [event!.eventType, event!.payload.transactionStatus]).sort()).toEqual([
        ["STATUS_CHANGE", "COMPLETE"],
        ["TRANSACTION_CREATED", "PENDING"],
      ]);
      expect(received.map(({ event }) => event!.payload.transactionId)).toEqual([buy.id, buy.id]);
      expect(received.map(({ event }) => event!.eventId).sort()).toEqual(logged.map((entry) => entry.eventId).sort());
      await waitFor(
        () => deliveryLog(server, { "x-api-key": secretKey! }, webhookId!),
        (settled) => settled.length === 2 && settled.every((delivery) => delivery.status === "delivered"),
        "both deliveries recorded as delivered",
      );
    },
    JOURNEY_TIMEOUT_MS + 30_000,
  );
});
