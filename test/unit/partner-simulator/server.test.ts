import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  alfredpay,
  ALFREDPAY,
  AVENIA_KEY,
  aveniaPayin,
  aveniaSubAccount,
  clientKeys,
  controlCall,
  PENNY,
  simulator,
} from "./helpers.js";

/** The simulator process's settings: the test partners' credentials, and payments a minute away. */
function processEnv() {
  return {
    AVENIA_API_KEY: AVENIA_KEY,
    AVENIA_CLIENT_PUBLIC_KEY_PEM: clientKeys.publicKey
      .export({ type: "spki", format: "pem" })
      .toString()
      .replace(/\n/g, "\\n"),
    ALFREDPAY_API_KEY: ALFREDPAY.apiKey,
    ALFREDPAY_API_SECRET: ALFREDPAY.apiSecret,
    PARTNER_SIM_PAYMENT_DELAY_MS: "60000",
  };
}

describe("partner simulator server", () => {
  it("answers 413 past 1 MB, 400 to malformed JSON and 404 to an unknown route", async () => {
    const sim = await simulator();
    const post = (path: string, body: string) =>
      fetch(sim.url + path, {
        method: "POST",
        headers: { "api-key": ALFREDPAY.apiKey, "api-secret": ALFREDPAY.apiSecret },
        body,
      });
    const large = JSON.stringify({ email: "x".repeat(1024 * 1024), country: "MX", type: "INDIVIDUAL" });
    const tooLarge = await post(`${PENNY}/customers/create`, large);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ errorCode: 413, errorMessage: "body larger than 1 MB" });
    const malformed = await post(`${PENNY}/customers/create`, "{not json");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ errorCode: 110002 });
    const unknown = await post(`${PENNY}/customers/nothing-here`, "{}");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ errorCode: 404, errorMessage: "no such route" });
    expect((await controlCall(sim.url, "GET", "/_control/nothing")).status).toBe(404);
  });

  it("empties state and stats on reset", async () => {
    const sim = await simulator();
    await alfredpay(sim.url, "POST", "/customers/create", {
      email: "r@example.com",
      country: "MX",
      type: "INDIVIDUAL",
    });
    expect((await controlCall(sim.url, "POST", "/_control/reset")).status).toBe(204);
    expect(sim.stats().alfredpay.calls).toEqual({});
    expect((await alfredpay(sim.url, "GET", "/customers/find/r%40example.com/MX")).status).toBe(404);
  });

  it("runs as a process: prints its URL, and on SIGTERM stops with an order pending and a socket held, and exits", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "@swc-node/register/esm-register", "packages/partner-simulator/src/main.ts"],
      {
        env: { ...process.env, ...processEnv() },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    onTestFinished(() => {
      // A failing run must not leave the process behind.
      if (child.exitCode === null) child.kill("SIGKILL");
    });
    const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
    const { url } = JSON.parse(line) as { url: string };
    const account = await aveniaSubAccount(url);
    expect((await aveniaPayin(url, account.id, "10.00", "in-a-process")).status).toBe(200);
    await controlCall(url, "PUT", "/_control/faults", {
      partner: "alfredpay",
      timeoutNext: { count: 1, when: "before" },
    });
    const held = alfredpay(url, "GET", "/quotes/any");
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The payment timer (a minute) and the held socket would keep the process alive if stop() left them.
    child.kill("SIGTERM");
    await expect(held).rejects.toThrow();
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  }, 20_000);

  it("started with an IPC channel, stops and exits when the channel closes (its parent is gone)", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "@swc-node/register/esm-register", "packages/partner-simulator/src/main.ts"],
      { env: { ...process.env, ...processEnv() }, stdio: ["ignore", "pipe", "inherit", "ipc"] },
    );
    onTestFinished(() => {
      if (child.exitCode === null) child.kill("SIGKILL");
    });
    const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
    const { url } = JSON.parse(line) as { url: string };
    // A pending payment (a minute) would keep a process alive that ignored the channel.
    const account = await aveniaSubAccount(url);
    expect((await aveniaPayin(url, account.id, "10.00", "parent-gone")).status).toBe(200);
    const exited = once(child, "exit");
    child.disconnect();
    const [code] = await exited;
    expect(code).toBe(0);
  }, 20_000);
});
