import { createServer, type AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { createApp } from "./app.js";
import { ConfigError, listeningOn, loadConfig, readSettingsFile, StartupError } from "./config.js";
import { closeDestination, createLogger, stdoutDestination } from "./log.js";
import { startEmbeddedSimulator } from "./providers/embedded-simulator.js";
import { listenForScrapes } from "./rest/metrics.js";
import { buildServer } from "./server.js";

/**
 * V8 lets the old generation grow to about four times the live heap between full collections. Under sustained
 * load that slack is garbage kept resident (366 MB against 44 MB live after a quote burst); half again the live
 * heap keeps the resident set near what is live at no measurable cost in throughput. A flag given to node wins.
 */
function boundHeapGrowth() {
  const flag = "--heap-growing-percent";
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  if (!given.some((argument) => argument.startsWith(flag))) setFlagsFromString(`${flag}=50`);
}

/** Entry: config -> migrate -> server + workers -> graceful shutdown. */
async function main() {
  boundHeapGrowth();
  let config;
  try {
    readSettingsFile();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  // The port is known before anything starts: the embedded simulator is told where to send its callbacks.
  const port = await portToListenOn(config.port, config.host, "PORT");
  config = listeningOn(config, port);
  if (config.metricsListen)
    await portToListenOn(config.metricsListen.port, config.metricsListen.host, "METRICS_LISTEN");
  const output = stdoutDestination();
  const log = createLogger(config.logLevel, output);
  const simulator = await startEmbeddedSimulator(config.partners, loopbackUrl(config.host, port), log);
  if (simulator) config = { ...config, partners: simulator.partners };
  const app = await createApp(config, log);
  const server = await buildServer(app);
  const address = await server.listen({ port, host: config.host });
  const scrapes = config.metricsListen && (await listenForScrapes(app.metrics, config.metricsListen, log));
  await simulator?.registerGatewayWebhook();
  await app.startWorkers();
  log.info(
    {
      address,
      ...(config.metricsListen && { metrics: config.metricsListen }),
      database: config.database.engine,
      environment: config.rampEnvironment,
      production: config.production,
    },
    "ramp gateway listening",
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down: draining HTTP and WebSocket, then closing the database");
    // The work gets the timeout but a tenth (at most 1 s), the log half of that tenth to be written out (its
    // reader may have stopped), and the process the rest to exit.
    const logShareMs = Math.min(1_000, config.shutdownTimeoutMs / 10);
    const exit = async (code: number) => {
      clearTimeout(deadline);
      await closeDestination(output, logShareMs / 2);
      process.exit(code);
    };
    const deadline = setTimeout(() => {
      log.error({ timeoutMs: config.shutdownTimeoutMs }, "shutdown timed out; exiting");
      void exit(1);
    }, config.shutdownTimeoutMs - logShareMs).unref();
    try {
      // A scraper keeps its connection open between scrapes: it is not waited for.
      if (scrapes) scrapes.close().closeAllConnections();
      await server.close();
      await app.close();
      await simulator?.stop();
      log.info("shutdown complete");
      await exit(0);
    } catch (error) {
      log.error({ err: error }, "shutdown failed");
      await exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

/**
 * Exits with a plain message when the port is taken, before the database is opened or migrated: otherwise
 * the start-up would migrate and then fail on Fastify's EADDRINUSE. Port 0 picks a free one, returned.
 */
async function portToListenOn(port: number, host: string, setting: string): Promise<number> {
  const probe = createServer();
  const taken = await new Promise<boolean>((resolve, reject) => {
    probe.once("error", (error: NodeJS.ErrnoException) =>
      error.code === "EADDRINUSE" ? resolve(true) : reject(error),
    );
    probe.listen(port, host, () => resolve(false));
  });
  if (taken) {
    console.error(`Port ${port} on ${host} is already in use: stop the process listening there or set ${setting}.`);
    process.exit(1);
  }
  const chosen = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return chosen;
}

/** This gateway's URL from the same machine: a wildcard listen address is reached through loopback. */
function loopbackUrl(host: string, port: number): string {
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
}

main().catch((error) => {
  console.error(error instanceof StartupError ? error.message : error);
  process.exit(1);
});
