import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freshDatabase, testEngine, type TestDatabase } from "./database.js";
import { LOG_DIR } from "./secrets.js";
import { startSmtpCapture, type SmtpCapture } from "./smtp.js";

const MAIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const LISTENING = "ramp gateway listening";

/** Only what node itself needs from the parent: no configuration variable of the service leaks in. */
const INHERITED_ENV = ["PATH", "HOME", "TMPDIR", "LANG", "TZ", "SYSTEMROOT"];

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` as the server logged it. */
  url: string;
  /** `ws://127.0.0.1:<port>/graphql` */
  wsUrl: string;
  database: TestDatabase;
  smtp: SmtpCapture;
  /** Where the child's stdout and stderr are teed (under LOG_DIR, for the secret audit). */
  logFile: string;
  child: ChildProcess;
  /** Everything the child wrote so far. */
  output(): string;
  /** The child's JSON log lines written so far (non-JSON lines are skipped). */
  logLines(): Record<string, unknown>[];
  /** Sends `signal` and resolves with the exit code (null when the signal itself ended the process). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
  /** SIGKILL, for clean-up after a failure. */
  kill(): void;
  /** Kills the process if still running, then closes the SMTP capture and drops the database it created. */
  dispose(): Promise<void>;
}

/**
 * The settings that reach the partners `server`'s embedded simulator serves, from the state it keeps under its
 * DATA_DIR: a second process on the same database talks to the same partners, as instances of one deployment do,
 * and starts no simulator of its own.
 */
export function sharedPartners(server: ServerProcess): Record<string, string> {
  const state = JSON.parse(readFileSync(join(server.database.dataDir, "partner-simulator.json"), "utf8")) as {
    url: string;
    avenia: { apiKey: string; privateKeyPem: string };
    alfredpay: { apiKey: string; apiSecret: string; callbackSecret: string };
  };
  return {
    AVENIA_BASE_URL: state.url,
    AVENIA_API_KEY: state.avenia.apiKey,
    AVENIA_PRIVATE_KEY: state.avenia.privateKeyPem,
    ALFREDPAY_BASE_URL: state.url,
    ALFREDPAY_API_KEY: state.alfredpay.apiKey,
    ALFREDPAY_API_SECRET: state.alfredpay.apiSecret,
    ALFREDPAY_CALLBACK_SECRET: state.alfredpay.callbackSecret,
  };
}

export interface ServerProcessOptions {
  /** Reuse a database (e.g. to restart on the same data); the caller keeps ownership. */
  database?: TestDatabase;
  /** Reuse an SMTP capture; the caller keeps ownership. */
  smtp?: SmtpCapture;
  /** Extra or overriding environment variables. */
  env?: Record<string, string>;
  /**
   * Leave SMTP_URL unset, as a checkout without configuration does: sign-in mail is written under
   * DATA_DIR/mail and the SMTP capture receives nothing.
   */
  mailOutbox?: boolean;
  startTimeoutMs?: number;
}

let started = 0;

/**
 * Starts the BUILT server (`node dist/main.js`, built by `npm run build`) as a child process on a fresh
 * database of the project's engine, a random loopback port and a real SMTP capture. Resolves once the
 * server logged that it is listening, with the address it logged.
 */
export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` before the end-to-end tests`);
  const ownsDatabase = !options.database;
  const ownsSmtp = !options.smtp;
  const database = options.database ?? (await freshDatabase());
  const smtp = options.smtp ?? (await startSmtpCapture());

  mkdirSync(LOG_DIR, { recursive: true });
  const logFile = join(LOG_DIR, `e2e-${testEngine()}-${process.pid}-${++started}.log`);
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name] as string;
  Object.assign(env, {
    DATA_DIR: database.dataDir,
    ...(database.url && { DATABASE_URL: database.url }),
    PORT: "0",
    HOST: "127.0.0.1",
    ...(!options.mailOutbox && { SMTP_URL: smtp.url }),
    OTP_RESEND_COOLDOWN_SECONDS: "0",
    ...options.env,
  });

  const child = spawn(process.execPath, [MAIN], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void exited.then((info) => (exitInfo = info));

  let onLine: ((line: string) => void) | undefined;
  let pending = "";
  const tee = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    output += text;
    appendFileSync(logFile, text);
    pending += text;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) onLine?.(line);
  };
  child.stdout?.on("data", tee);
  child.stderr?.on("data", tee);

  const cleanUp = async () => {
    if (ownsSmtp) await smtp.close();
    // The embedded simulator stops when the server is gone, and writes its state under DATA_DIR as it does.
    await simulatorGone(output);
    if (ownsDatabase) await database.drop();
  };

  let address: string;
  try {
    address = await new Promise<string>((resolve, reject) => {
      const timeoutMs = options.startTimeoutMs ?? 30_000;
      const timer = setTimeout(
        () => reject(new Error(`server did not log "${LISTENING}" within ${timeoutMs} ms:\n${output.slice(-4000)}`)),
        timeoutMs,
      );
      onLine = (line) => {
        let entry: { msg?: unknown; address?: unknown };
        try {
          entry = JSON.parse(line);
        } catch {
          return;
        }
        if (entry.msg === LISTENING && typeof entry.address === "string") {
          clearTimeout(timer);
          resolve(entry.address);
        }
      };
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`server exited (code ${code}, signal ${signal}) before listening:\n${output.slice(-4000)}`));
      });
    });
  } catch (error) {
    if (!exitInfo) child.kill("SIGKILL");
    await exited;
    await cleanUp();
    throw error;
  } finally {
    onLine = undefined;
  }

  const url = address.replace(/\/$/, "");
  const stop: ServerProcess["stop"] = async (signal = "SIGTERM", timeoutMs = 20_000) => {
    if (!exitInfo) child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      exited,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new Error(`server did not exit within ${timeoutMs} ms of ${signal}`));
        }, timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
    // A next server on the same DATA_DIR, or the test's own removal of it, finds the simulator's state settled.
    await simulatorGone(output);
    return result.code;
  };

  return {
    url,
    wsUrl: `${url.replace(/^http/, "ws")}/graphql`,
    database,
    smtp,
    logFile,
    child,
    output: () => output,
    logLines: () =>
      output.split("\n").flatMap((line) => {
        try {
          const entry = JSON.parse(line);
          return entry && typeof entry === "object" ? [entry as Record<string, unknown>] : [];
        } catch {
          return [];
        }
      }),
    stop,
    kill() {
      if (!exitInfo) child.kill("SIGKILL");
    },
    async dispose() {
      if (!exitInfo) {
        child.kill("SIGKILL");
        await exited;
      }
      await cleanUp();
    },
  };
}

/** Waits until the server's embedded simulator (its pid in the server's start-up line) has exited, 10 s at most. */
async function simulatorGone(output: string): Promise<void> {
  const pid = /"simulatorPid":(\d+)/.exec(output)?.[1];
  if (!pid) return;
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    try {
      process.kill(Number(pid), 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the embedded partner simulator (pid ${pid}) outlived its server by 10 s`);
}
