import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEngine } from "../support/database.js";
import { expectCall, httpSend, signIn, type Headers } from "../support/e2e-http.js";
import { BUY_QUOTE, EVM_ADDRESS, sleep } from "../support/kit.js";
import { completeKyc } from "../support/kyc.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

/**
 * The live status page (`/status/{rampId}`) of the BUILT server in Debian's Chromium, driven by playwright-core:
 * it follows a ramp from registration to COMPLETE as the ramp moves, shows a failure, a ramp it may not see,
 * missing credentials and a lost connection, and loads nothing but from the server. The final screen of the
 * completed ramp is kept as test-output/status-page-<engine>.png.
 */

const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOT = `test-output/status-page-${testEngine()}.png`;
const PHASES = ["INITIAL", "AWAITING_PAYMENT", "PAYMENT_CONFIRMED", "EXCHANGING", "PAYING_OUT", "COMPLETE"];

let server: ServerProcess;
let browser: Browser;
let headers: Headers;
let token: string;

beforeAll(async () => {
  // Steps slow enough to see: a ramp takes a few seconds from start to COMPLETE.
  server = await startServerProcess({ env: { SANDBOX_STEP_DELAY_MS: "400", PARTNER_SIM_KYC_DECISION_MS: "0" } });
  const session = await signIn(server, "status-page");
  headers = session.headers;
  token = headers.authorization!.slice("Bearer ".length);
  await completeKyc(httpSend(server), headers, ["BR"]);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

async function registeredRamp(inputAmount: string = BUY_QUOTE.inputAmount): Promise<string> {
  const quote = await expectCall(201, server, "POST", "/v1/quotes", { headers, body: { ...BUY_QUOTE, inputAmount } });
  const ramp = await expectCall(201, server, "POST", "/v1/ramp/register", {
    headers,
    body: { quoteId: quote.id, destinationAddress: EVM_ADDRESS },
  });
  return ramp.id;
}

/** The page for `rampId`, and the origins of every request it made. */
async function openStatus(rampId: string, fragment = `#token=${token}`): Promise<{ page: Page; origins: Set<string> }> {
  const page = await browser.newPage();
  const origins = new Set<string>();
  page.on("request", (request) => origins.add(new URL(request.url()).origin.replace(/^ws/, "http")));
  await page.goto(`${server.url}/status/${rampId}${fragment}`);
  return { page, origins };
}

const state = (page: Page, expected: string, timeout = 20_000) =>
  page.waitForSelector(`body[data-state="${expected}"]`, { timeout });

describe("the live status page in a browser", () => {
  it("follows a ramp from registration to COMPLETE as it happens", async () => {
    const rampId = await registeredRamp();
    const { page, origins } = await openStatus(rampId);
    await state(page, "PENDING");
    expect(await page.textContent("#status")).toBe("Registered, waiting to start");
    // Each phase the page shows on its way, as the subscription brings it (read in the page, every 25 ms).
    const seen: string[] = [];
    let watching = true;
    const watched = (async () => {
      while (watching) {
        const phase = await page.evaluate("document.querySelector('#phases li.current')?.dataset.phase ?? null");
        if (typeof phase === "string" && seen.at(-1) !== phase) seen.push(phase);
        await sleep(25);
      }
    })();

    await expectCall(200, server, "POST", "/v1/ramp/start", { headers, body: { rampId } });
    await state(page, "COMPLETE");
    watching = false;
    await watched;
    expect(await page.textContent("#status")).toBe("Complete");
    expect(
      await page.$$eval("#phases li.done", (items) => items.map((item) => item.getAttribute("data-phase"))),
    ).toEqual(["INITIAL", "AWAITING_PAYMENT", "PAYMENT_CONFIRMED", "EXCHANGING", "PAYING_OUT"]);
    // In order, never backwards, at least three of the steps seen one by one.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.map((phase) => PHASES.indexOf(phase))).toEqual(seen.map((phase) => PHASES.indexOf(phase)).sort());
    expect(seen.at(-1)).toBe("COMPLETE");
    mkdirSync("test-output", { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect([...origins]).toEqual([server.url]);
    await page.close();
  });

  it("shows a failed ramp with its error", async () => {
    const rampId = await registeredRamp("250.66");
    const { page } = await openStatus(rampId);
    await state(page, "PENDING");
    await expectCall(200, server, "POST", "/v1/ramp/start", { headers, body: { rampId } });
    await state(page, "FAILED");
    expect(await page.textContent("#status")).toMatch(/^Failed at exchanging: /);
    await page.close();
  });

  it("says so for a ramp the credentials may not see, and without credentials", async () => {
    const unknown = await openStatus(randomUUID());
    await state(unknown.page, "NOT_FOUND");
    const signedOut = await openStatus(randomUUID(), "");
    await state(signedOut.page, "SIGNED_OUT");
    expect(await signedOut.page.textContent("#status")).toContain("#token=");
    await Promise.all([unknown.page.close(), signedOut.page.close()]);
  });

  it("shows a lost connection when the server goes away", async () => {
    const { page } = await openStatus(await registeredRamp());
    await state(page, "PENDING");
    await server.stop();
    await state(page, "DISCONNECTED");
    expect(await page.textContent("#status")).toMatch(/^Connection lost: trying again in \d+ s$/);
    await page.close();
  });
});
