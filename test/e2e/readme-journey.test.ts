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
 * The README's walk-through, run as written (issue 15), twice (issue 43): every ```bash block of README.md and then
 * of docs/guide.md whose line before is `<!-- journey -->`, in the files' order, in ONE bash process under
 * `set -euo pipefail`, so the variables one block defines reach the next and a failing command fails the test.
 * Blocks without the marker (`npm ci && npm start`, the production example, the openssl check of a captured
 * delivery) are not part of it.
 *
 * The blocks run against the BUILT server (`npm run build` first), started on a fresh database of the project's
 * engine with no SMTP (so the sign-in code is in DATA_DIR/mail, as in a checkout), on a port and a data directory
 * other than the README's defaults, which the blocks take from BASE and DATA_DIR as the README says a reader sets
 * them; PUBLIC_BASE_URL is left to its default, so the KYC upload URLs must follow the port. The journey runs from
 * a directory laid out like the checkout (`package.json` and `dist/` for `npm run -s admin`), then again on the
 * same server and data: it cleans up after itself. The environment shortens the sandbox's delays (and the test
 * server the sign-in code's resend cooldown, which the README has a reader wait out) and sets `WEBHOOK_URL`, which
 * the README lets a reader set, to a local HTTPS receiver that checks every delivery's signature.
 */

const JOURNEY_FILES = ["README.md", "docs/guide.md"];
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const JOURNEY_MARKER = "<!-- journey -->";
const END_MARKER = "@@ journey end";
const JOURNEY_TIMEOUT_MS = 120_000;
const RUNS = 2;

interface JourneyBlock {
  /** The file and line of the block's opening fence, for failure messages. */
  where: string;
  code: string;
}

/** The marked blocks in order; a marker not directly above a ```bash fence is a mistake, and fails loudly. */
function journeyBlocks(file: string): JourneyBlock[] {
  const lines = readFileSync(join(REPO_ROOT, file), "utf8").split("\n");
  const blocks: JourneyBlock[] = [];
  lines.forEach((text, index) => {
    if (text.trim() !== JOURNEY_MARKER) return;
    if (lines[index + 1] !== "```bash")
      throw new Error(`${file} line ${index + 1}: ${JOURNEY_MARKER} must stand right above a \`\`\`bash fence`);
    const end = lines.indexOf("```", index + 2);
    if (end < 0) throw new Error(`${file} line ${index + 2}: the journey block is never closed`);
    blocks.push({ where: `${file} line ${index + 2}`, code: lines.slice(index + 2, end).join("\n") });
  });
  return blocks;
}

/** A port no one listens on now, and not the README's default, so the journey cannot pass by reaching another server. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port === 8080 ? freePort() : port;
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
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    server = await startServerProcess({
      mailOutbox: true,
      env: {
        PORT: String(port),
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
    for (const entry of ["package.json", "dist"]) symlinkSync(join(REPO_ROOT, entry), join(checkout, entry));
  });

  afterAll(async () => {
    await receiver?.close();
    await server?.dispose();
    if (checkout) rmSync(checkout, { recursive: true, force: true });
  });

  it(
    `takes a data directory to a COMPLETE EU ramp with a delivered webhook, and BR BUY and SELL ramps, ${RUNS} times in a row`,
    async () => {
      const blocks = JOURNEY_FILES.flatMap(journeyBlocks);
      const script = [
        "set -euo pipefail",
        // Names the command that stopped the journey; the last `@@` line above it names the block.
        `trap 'echo "journey stopped at: $BASH_COMMAND" >&2' ERR`,
        ...blocks.flatMap(({ where, code }) => [`printf '\\n@@ ${where}\\n'`, code]),
        // The test's own lines: what the journey ended with, one JSON document a line. Its keys are revoked, so the
        // ramps are read with the session, and the delivery log with a key the test revokes once it has waited.
        `printf '\\n${END_MARKER}\\n'`,
        ...["$RAMP", "$BR_RAMP", "$SELL_RAMP"].map(
          (ramp) => `curl -sSf $BASE/v1/ramp/${ramp} -H "Authorization: Bearer $TOKEN"; echo`,
        ),
        `curl -sSf $BASE/v1/api-credentials -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"name":"journey check"}'; echo`,
        `printf '%s\\n' "$WEBHOOK" "$SECRET" "$TOKEN" "$CODE" "$CPF"`,
      ].join("\n");
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? checkout,
        BASE: base,
        DATA_DIR: server.database.dataDir,
        WEBHOOK_URL: receiver.url("/ramp-events"),
        // `npm run -s admin` talks to the server's database, as the README says it does.
        ...(server.database.url && { DATABASE_URL: server.database.url }),
      };

      for (let run = 1; run <= RUNS; run++) {
        const journey = await runBash(script, checkout, env);
        const transcript = `run ${run}:\n${journey.stdout.slice(-6000)}\n--- stderr ---\n${journey.stderr.slice(-3000)}`;
        expect(journey.code, transcript).toBe(0);
        const [euRamp, buyRamp, sellRamp, checkKey, webhookId, secretKey, accessToken, signInCode, cpf] = journey.stdout
          .slice(journey.stdout.lastIndexOf(END_MARKER) + END_MARKER.length)
          .trim()
          .split("\n");
        const check = JSON.parse(checkKey!) as { id: string; secretKey: string };
        for (const secret of [secretKey!, check.secretKey, accessToken!, signInCode!, cpf!]) rememberSecret(secret);
        for (const issued of journey.stdout.match(/sk_test_\w+/g) ?? []) rememberSecret(issued);
        console.info(`README journey, run ${run}: ${blocks.length} blocks in ${journey.durationMs} ms`);

        const eu = JSON.parse(euRamp!);
        expect(eu).toMatchObject({ type: "BUY", status: "COMPLETE", currentPhase: "complete" });
        expect(JSON.parse(buyRamp!)).toMatchObject({ type: "BUY", status: "COMPLETE", currentPhase: "complete" });
        expect(JSON.parse(sellRamp!)).toMatchObject({ type: "SELL", status: "COMPLETE", currentPhase: "complete" });

        // The receiver the README's WEBHOOK_URL named got both events of this run's EU ramp, signed by the server.
        const received = await receiver.waitFor(2, {
          which: (delivery) => delivery.event?.payload.transactionId === eu.id,
        });
        expect(received.every((delivery) => delivery.path === "/ramp-events")).toBe(true);
        expect(received.map(({ event }) => [event!.eventType, event!.payload.transactionStatus]).sort()).toEqual([
          ["STATUS_CHANGE", "COMPLETE"],
          ["TRANSACTION_CREATED", "PENDING"],
        ]);
        const checkHeaders = { "x-api-key": check.secretKey };
        const logged = await waitFor(
          () => deliveryLog(server, checkHeaders, webhookId!),
          (settled) => settled.length === 2 && settled.every((delivery) => delivery.status === "delivered"),
          "both deliveries recorded as delivered",
        );
        expect(received.map(({ event }) => event!.eventId).sort()).toEqual(logged.map((entry) => entry.eventId).sort());
        await expectCall(204, server, "DELETE", `/v1/api-credentials/${check.id}`, {
          headers: { authorization: `Bearer ${accessToken}` },
        });
      }
    },
    RUNS * (JOURNEY_TIMEOUT_MS + 30_000),
  );
});
