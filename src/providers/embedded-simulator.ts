import { spawn } from "node:child_process";
import { createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { once } from "node:events";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Logger } from "pino";
import { StartupError, type Config } from "../config.js";
import { settingsKey } from "../config-partners.js";
import { AveniaClient } from "./avenia/client.js";
import { registerAveniaWebhook } from "./avenia/webhook-registration.js";
import { PARTNERS } from "./partners.js";

/*
 * Outside production the partners are simulated unless configured (PARTNER_SIMULATOR=embedded): the simulator's
 * CLI runs as a child process on loopback, with credentials generated once and kept in DATA_DIR, so a restart
 * talks to it with the same ones (and a test can read them), and what the partners hold kept there too, so a restart
 * finds the customers and orders made before it.
 */

const SIMULATOR_MAIN = fileURLToPath(new URL("../../packages/partner-simulator/dist/main.js", import.meta.url));
const STOP_TIMEOUT_MS = 5_000;

type Partners = Config["partners"];

/** What is kept in the state file: the generated credentials, and where the simulator last listened. */
interface SimulatorState {
  avenia: { apiKey: string; privateKeyPem: string };
  alfredpay: { apiKey: string; apiSecret: string; callbackSecret: string };
  url?: string;
}

export interface EmbeddedSimulator {
  /** The configured partners, each simulated one's settings filled in (explicit settings kept). */
  partners: Partners;
  /** Registers the gateway's Avenia webhook at the simulator (when it simulates Avenia), once the gateway listens. */
  registerGatewayWebhook(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the simulator for every partner without a base URL, or nothing when none lacks one (or the mode is `off`).
 * `gatewayUrl` is where this gateway listens: the simulator's callbacks go there, never to PUBLIC_BASE_URL.
 */
export async function startEmbeddedSimulator(
  partners: Partners,
  gatewayUrl: string,
  log: Logger,
  startTimeoutMs = 10_000,
): Promise<EmbeddedSimulator | undefined> {
  if (partners.simulator.mode !== "embedded") return undefined;
  const simulates = PARTNERS.filter((partner) => partners[settingsKey(partner)].baseUrl === undefined);
  if (!simulates.length) return undefined;
  if (!existsSync(SIMULATOR_MAIN))
    throw new StartupError(
      `${SIMULATOR_MAIN} is missing: run \`npm run build\`, or configure the partners and set PARTNER_SIMULATOR=off`,
    );
  const { stateFile } = partners.simulator;
  const state = loadState(stateFile);
  // A simulated partner keeps the settings given for it; the generated ones fill the rest.
  const avenia = simulates.includes("Avenia") ? { ...state.avenia, ...given(partners.avenia) } : state.avenia;
  const alfredpay = simulates.includes("Alfredpay")
    ? { ...state.alfredpay, ...given(partners.alfredpay) }
    : state.alfredpay;

  const child = spawn(process.execPath, [SIMULATOR_MAIN], {
    // Its own settings only: none of the gateway's secrets.
    env: {
      ...partners.simulator.timings,
      PARTNER_SIM_HOST: "127.0.0.1",
      PARTNER_SIM_STATE_FILE: partners.simulator.partnersFile,
      AVENIA_API_KEY: avenia.apiKey,
      AVENIA_CLIENT_PUBLIC_KEY_PEM: publicKeyOf(avenia.privateKeyPem),
      ALFREDPAY_API_KEY: alfredpay.apiKey,
      ALFREDPAY_API_SECRET: alfredpay.apiSecret,
      ALFREDPAY_CALLBACK_URL: `${gatewayUrl}/v1/webhooks/alfredpay`,
      ALFREDPAY_CALLBACK_SECRET: alfredpay.callbackSecret,
    },
    // The IPC channel closes when the gateway exits, however it exits: the simulator then stops too. A process
    // group of its own: a terminal's Ctrl+C reaches the gateway alone, which drains before stopping it.
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    detached: true,
  });
  let errorOutput = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    errorOutput = (errorOutput + chunk.toString("utf8")).slice(-2_000);
    process.stderr.write(chunk);
  });
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  let stopping = false;

  let url: string;
  try {
    url = await firstUrl(child.stdout!, exited, startTimeoutMs, () => errorOutput);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  void exited.then(([code, signal]) => {
    if (!stopping)
      log.error({ code, signal }, "the embedded partner simulator exited; simulated partners are unreachable");
  });
  writeState(stateFile, { ...state, url });
  log.info({ url, partners: simulates, simulatorPid: child.pid }, "partner simulator started (embedded)");

  const filled = { ...partners };
  if (simulates.includes("Avenia")) filled.avenia = { ...avenia, baseUrl: url };
  if (simulates.includes("Alfredpay")) filled.alfredpay = { ...alfredpay, baseUrl: url };
  return {
    partners: filled,
    async registerGatewayWebhook() {
      if (!simulates.includes("Avenia")) return;
      const client = new AveniaClient({ ...avenia, baseUrl: url, logger: log });
      try {
        await registerAveniaWebhook(client, `${gatewayUrl}/v1/webhooks/avenia`);
      } catch (error) {
        throw new StartupError(
          `The gateway's webhook could not be registered at the embedded partner simulator: ${(error as Error).message}`,
        );
      } finally {
        await client.close();
      }
    },
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The settings given explicitly, without the unset ones (which must not hide generated values). */
function given<T extends object>(settings: T): Partial<T> {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The simulator's one stdout line, `{"url": …}`; a clear StartupError if it exits or stays silent first. */
async function firstUrl(
  stdout: NodeJS.ReadableStream,
  exited: Promise<[number | null, NodeJS.Signals | null]>,
  timeoutMs: number,
  errorOutput: () => string,
): Promise<string> {
  const lines = createInterface({ input: stdout });
  let timer: NodeJS.Timeout | undefined;
  const stderrTail = () => (errorOutput().trim() ? `:\n${errorOutput().trim()}` : "");
  try {
    return await Promise.race([
      once(lines, "line").then(([line]: string[]) => {
        const { url } = JSON.parse(line!) as { url?: unknown };
        if (typeof url !== "string") throw new Error("no url");
        return url;
      }),
      exited.then(([code, signal]) => {
        throw new StartupError(
          `The embedded partner simulator exited (code ${code}, signal ${signal}) before it listened${stderrTail()}`,
        );
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new StartupError(`The embedded partner simulator did not say where it listens within ${timeoutMs} ms`),
            ),
          timeoutMs,
        );
      }),
    ]).catch((error: unknown) => {
      if (error instanceof StartupError) throw error;
      throw new StartupError(`The embedded partner simulator's first line was not {"url": …}${stderrTail()}`);
    });
  } finally {
    clearTimeout(timer);
    lines.close();
  }
}

/** The kept state, its missing credentials generated and written back (mode 0600). */
function loadState(file: string): SimulatorState {
  const corrupt = (reason: string) =>
    new StartupError(`${file} is corrupt (${reason}). Remove it: the partner simulator then makes new credentials.`);
  let kept: Partial<SimulatorState> = {};
  try {
    kept = JSON.parse(readFileSync(file, "utf8")) as Partial<SimulatorState>;
  } catch (error) {
    if (error instanceof SyntaxError) throw corrupt(error.message);
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (typeof kept !== "object" || kept === null || Array.isArray(kept)) throw corrupt("not a JSON object");
  const state: SimulatorState = {
    ...kept,
    avenia: {
      apiKey: kept.avenia?.apiKey ?? randomBytes(24).toString("base64url"),
      privateKeyPem:
        kept.avenia?.privateKeyPem ??
        generateKeyPairSync("rsa", { modulusLength: 2048 })
          .privateKey.export({ type: "pkcs8", format: "pem" })
          .toString(),
    },
    alfredpay: {
      apiKey: kept.alfredpay?.apiKey ?? randomBytes(24).toString("base64url"),
      apiSecret: kept.alfredpay?.apiSecret ?? randomBytes(32).toString("base64url"),
      callbackSecret: kept.alfredpay?.callbackSecret ?? `whsec_${randomBytes(32).toString("base64")}`,
    },
  };
  writeState(file, state);
  return state;
}

function writeState(file: string, state: SimulatorState) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

/** The simulator's setting: the SPKI PEM, each newline written `\n`. */
function publicKeyOf(privateKeyPem: string): string {
  return createPublicKey(privateKeyPem).export({ type: "spki", format: "pem" }).toString().replace(/\n/g, "\\n");
}
