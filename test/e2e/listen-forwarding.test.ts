import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdirSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { verifyWebhook, WebhookVerificationError } from "@ramp-gateway/webhook-receiver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEngine } from "../support/database.js";
import { expectCall, httpSend, newSecretKey, type Headers } from "../support/e2e-http.js";
import { BUY_QUOTE, EVM_ADDRESS, waitFor } from "../support/kit.js";
import { completeKyc } from "../support/kyc.js";
import { LOG_DIR } from "../support/secrets.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { startWebhookReceiver, testCertificates, type WebhookReceiver } from "../support/webhook-receiver.js";

/**
 * The local webhook loop (`node dist/cli/listen.js`, built by `npm run build`) as a real child process against the
 * BUILT server: it follows a quote's ramp events over `rampEvents` and forwards each, as the gateway signed it, to a
 * local plain-HTTP receiver that verifies it with the receiver package. The same events' webhook deliveries, sent by
 * the server to an HTTPS receiver, carry the same bodies: the listener forwards deliveries, not look-alikes.
 */

const CLI = fileURLToPath(new URL("../../dist/cli/listen.js", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const INHERITED_ENV = ["PATH", "HOME", "TMPDIR", "LANG", "TZ", "SYSTEMROOT"];

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32",
  NODE_EXTRA_CA_CERTS: testCertificates().caFile,
  RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "1000",
  PARTNER_SIM_KYC_DECISION_MS: "0",
  WEBHOOK_DELIVERY_POLL_MS: "50",
  SANDBOX_STEP_DELAY_MS: "50",
  RAMP_PROCESSOR_INTERVAL_MS: "20",
};

interface Listener {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once the listener printed a line matching `pattern`. */
  printed(pattern: RegExp, what: string): Promise<void>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Ctrl-C, then the exit code. */
  stop(): Promise<number | null>;
}

let runs = 0;

/** Starts the CLI with only RAMP_API_KEY (when given) and what node needs; its output is teed for the secret audit. */
function startListener(args: string[], apiKey: string | undefined): Listener {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name] as string;
  if (apiKey !== undefined) env.RAMP_API_KEY = apiKey;
  const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  mkdirSync(LOG_DIR, { recursive: true });
  const log = join(LOG_DIR, `e2e-listen-${testEngine()}-${process.pid}-${++runs}.log`);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    appendFileSync(log, chunk);
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
    appendFileSync(log, chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    printed: (pattern, what) =>
      waitFor(
        async () => stdout,
        (output) => pattern.test(output),
        `the listener to print ${what}`,
      ).then(() => undefined),
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGINT");
      return exited;
    },
  };
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("npm run -s listen forwards a quote's ramp events, signed as deliveries are, to a local receiver", () => {
  let server: ServerProcess;
  let local: WebhookReceiver;
  let webhooks: WebhookReceiver;
  let secretKey: string;
  let headers: Headers;
  let publicKey: string;
  const listeners: Listener[] = [];

  beforeAll(async () => {
    server = await startServerProcess({ env: ENV });
    publicKey = (await expectCall(200, server, "GET", "/v1/public-key")).publicKey;
    local = await startWebhookReceiver({ plainHttp: true, publicKey });
    webhooks = await startWebhookReceiver({ publicKey });
    ({ secretKey, headers } = await newSecretKey(server, "e2e-listen"));
    await completeKyc(httpSend(server), headers, ["BR"]);
  });
  afterAll(async () => {
    for (const listener of listeners) await listener.stop();
    await local?.close();
    await webhooks?.close();
    await server?.dispose();
  });

  it("a ramp run to COMPLETE reaches the local receiver verified; a refused local connection is reported and passed over", async () => {
    const quote = await expectCall(201, server, "POST", "/v1/quotes", { headers, body: BUY_QUOTE });
    await expectCall(201, server, "POST", "/v1/webhook", { headers, body: { url: webhooks.url(), quoteId: quote.id } });
    const forwarding = startListener(
      ["--forward-to", local.url("/hooks"), "--quote", quote.id, "--gateway", server.url],
      secretKey,
    );
    const unreachable = startListener(
      ["--forward-to", `http://127.0.0.1:${await closedPort()}/hooks`, "--quote", quote.id, "--gateway", server.url],
      secretKey,
    );
    listeners.push(forwarding, unreachable);
    await forwarding.printed(/^Ready: forwarding the events of quote /m, "Ready");
    await unreachable.printed(/^Ready: /m, "Ready");

    const ramp = await expectCall(201, server, "POST", "/v1/ramp/register", {
      headers,
      body: { quoteId: quote.id, destinationAddress: EVM_ADDRESS },
    });
    await expectCall(200, server, "POST", "/v1/ramp/start", { headers, body: { rampId: ramp.id } });

    const forwarded = await local.waitFor(2, { timeoutMs: 30_000 });
    expect(forwarded.map((request) => request.verificationError)).toEqual([undefined, undefined]);
    expect(forwarded.map((request) => request.path)).toEqual(["/hooks", "/hooks"]);
    expect(forwarded.map(({ event }) => [event?.eventType, event?.payload.transactionStatus])).toEqual([
      ["TRANSACTION_CREATED", "PENDING"],
      ["STATUS_CHANGE", "COMPLETE"],
    ]);
    expect(forwarded.every(({ event }) => event?.payload.transactionId === ramp.id)).toBe(true);

    // The webhook deliveries of the same events: the same bodies, byte for byte, and the same headers but the time.
    const delivered = await webhooks.waitFor(2, { timeoutMs: 30_000 });
    const deliveredBody = new Map(delivered.map((request) => [request.event?.eventId, request.rawBody]));
    for (const request of forwarded) {
      expect(request.rawBody).toBe(deliveredBody.get(request.event!.eventId));
      expect(request.headers).toMatchObject({
        "content-type": "application/json",
        "user-agent": "ramp-gateway-webhooks",
        "x-service-timestamp": expect.stringMatching(/^\d+$/),
        "x-service-signature": expect.any(String),
      });
    }

    // The receiver package refuses a forwarded delivery whose body was changed.
    const [first] = forwarded;
    const tampered = () =>
      verifyWebhook({
        publicKey,
        timestamp: String(first!.headers["x-service-timestamp"]),
        signature: String(first!.headers["x-service-signature"]),
        rawBody: first!.rawBody.replace("PENDING", "COMPLETE"),
      });
    expect(tampered).toThrow(WebhookVerificationError);
    expect(tampered).toThrow(expect.objectContaining({ check: "signature" }));

    // One line per event: the time, the type, the ramp and the local answer; never the key.
    await forwarding.printed(/STATUS_CHANGE/, "the second event");
    const lines = forwarding.stdout().trim().split("\n").slice(1);
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z TRANSACTION_CREATED ramp ${ramp.id} -> 204 in \\d+ ms$`),
      ),
      expect.stringMatching(new RegExp(`^\\S+Z STATUS_CHANGE ramp ${ramp.id} -> 204 in \\d+ ms$`)),
    ]);

    // Nothing listens at the other one's URL: each event is reported as refused, and the listener carries on.
    await unreachable.printed(/STATUS_CHANGE/, "the second event");
    expect(unreachable.stdout()).toMatch(/TRANSACTION_CREATED ramp \S+ -> failed \(ECONNREFUSED\) after \d+ ms/);
    expect(unreachable.child.exitCode).toBeNull();

    for (const listener of [forwarding, unreachable]) {
      expect(await listener.stop()).toBe(0);
      expect(listener.stdout() + listener.stderr()).not.toContain(secretKey);
    }
  });

  it("without RAMP_API_KEY the process exits 2 with the reason, before connecting", async () => {
    const unconfigured = startListener(
      ["--forward-to", local.url("/hooks"), "--quote", "00000000-0000-4000-8000-000000000000"],
      undefined,
    );
    listeners.push(unconfigured);
    expect(await unconfigured.exited).toBe(2);
    expect(unconfigured.stderr()).toMatch(/^usage error: set RAMP_API_KEY /m);
  });

  it("an unreachable gateway is retried until Ctrl-C, which ends the command at once with exit code 0", async () => {
    const waiting = startListener(
      ["--forward-to", local.url("/hooks"), "--quote", "00000000-0000-4000-8000-000000000000"].concat([
        "--gateway",
        `http://127.0.0.1:${await closedPort()}`,
      ]),
      secretKey,
    );
    listeners.push(waiting);
    await waitFor(
      async () => waiting.stderr(),
      (stderr) => /cannot reach ws:\/\/127\.0\.0\.1:\d+\/graphql \(connect ECONNREFUSED .*\); retrying/.test(stderr),
      "the listener to report the refused connection",
    );
    const stopping = Date.now();
    expect(await waiting.stop()).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(1_000);
    expect(waiting.stderr()).not.toMatch(/Unhandled|Error:/);
  });

  it("a key the gateway refuses ends the command with exit code 1 and the error, not a retry", async () => {
    const refused = startListener(
      ["--forward-to", local.url("/hooks"), "--ramp", "00000000-0000-4000-8000-000000000000", "--gateway", server.url],
      "sk_not_a_key",
    );
    listeners.push(refused);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toMatch(/^refused: INVALID_SECRET_KEY: /m);
  });
});

describe("npm run -s listen and a gateway restart", () => {
  const servers: ServerProcess[] = [];
  let local: WebhookReceiver;
  let listener: Listener | undefined;

  afterAll(async () => {
    await listener?.stop();
    await local?.close();
    // The last first: the first owns the database the others reuse.
    for (const server of servers.reverse()) await server.dispose();
  });

  it("reconnects to the restarted gateway and forwards the events after it", { timeout: 60_000 }, async () => {
    const first = await startServerProcess({ env: ENV });
    servers.push(first);
    local = await startWebhookReceiver({
      plainHttp: true,
      publicKey: (await expectCall(200, first, "GET", "/v1/public-key")).publicKey,
    });
    const { secretKey, headers } = await newSecretKey(first, "e2e-listen-restart");
    await completeKyc(httpSend(first), headers, ["BR"]);
    const session = await expectCall(201, first, "POST", "/v1/session/create", {
      headers,
      body: { rampType: "BUY", network: "polygon", inputAmount: "250", externalSessionId: "e2e-listen" },
    });
    listener = startListener(
      ["--forward-to", local.url(), "--session", session.sessionId, "--gateway", first.url],
      secretKey,
    );
    await listener.printed(/^Ready: forwarding the events of session /m, "Ready");

    expect(await first.stop("SIGTERM")).toBe(0);
    await listener.printed(/connection to the gateway lost; reconnecting$/m, "the lost connection");
    const second = await startServerProcess({
      database: first.database,
      smtp: first.smtp,
      env: { ...ENV, PORT: new URL(first.url).port },
    });
    servers.push(second);
    await listener.printed(/ reconnected to /, "the reconnection");

    const quote = await expectCall(201, second, "POST", "/v1/quotes", { headers, body: BUY_QUOTE });
    const ramp = await expectCall(201, second, "POST", "/v1/ramp/register", {
      headers,
      body: { quoteId: quote.id, destinationAddress: EVM_ADDRESS, sessionId: session.sessionId },
    });
    const [forwarded] = await local.waitFor(1);
    expect(forwarded).toMatchObject({
      verificationError: undefined,
      event: { eventType: "TRANSACTION_CREATED", payload: { transactionId: ramp.id } },
    });
    expect(await listener.stop()).toBe(0);
    // The loss and the reconnection are told once each, however many attempts it took.
    expect(listener.stdout().match(/ connection to the gateway lost; reconnecting$/gm)).toHaveLength(1);
    expect(listener.stdout().match(/ reconnected to /g)).toHaveLength(1);
  });
});
