import { createApp } from "./app.js";
import { ConfigError, loadConfig } from "./config.js";
import { createLogger } from "./log.js";
import { buildServer } from "./server.js";

/** Entry: config -> migrate -> server + workers -> graceful shutdown. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  const app = await createApp(config, log);
  const server = await buildServer(app);
  const address = await server.listen({ port: config.port, host: config.host });
  await app.startWorkers();
  log.info(
    { address, database: config.database.engine, environment: config.rampEnvironment, production: config.production },
    "ramp gateway listening",
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down: draining HTTP and WebSocket, then closing the database");
    const deadline = setTimeout(() => {
      log.error({ timeoutMs: config.shutdownTimeoutMs }, "shutdown timed out; exiting");
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    try {
      await server.close();
      await app.close();
      clearTimeout(deadline);
      log.info("shutdown complete");
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
