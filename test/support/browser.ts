import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { startServerProcess, type ServerProcess } from "./server-process.js";

/** Debian's Chromium, which `.ci/run` installs. */
const CHROMIUM = "/usr/bin/chromium";

/**
 * The BUILT server and Chromium for a browser test file: started before its tests, stopped after them. Read
 * `server` and `browser` inside the tests, once they are started.
 */
export function serverAndBrowser(options?: Parameters<typeof startServerProcess>[0]) {
  const started = {} as { server: ServerProcess; browser: Browser };
  beforeAll(async () => {
    started.server = await startServerProcess(options);
    started.browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });
  afterAll(async () => {
    await started.browser?.close();
    await started.server?.dispose();
  });
  return started;
}
