import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig, StartupError } from "../../../src/config.js";
import { startEmbeddedSimulator, type EmbeddedSimulator } from "../../../src/providers/embedded-simulator.js";

/**
 * The embedded simulator's start-up (src/providers/embedded-simulator.ts), against the BUILT simulator CLI
 * (`npm run build`): which partners it fills in, the credentials it keeps, and the StartupErrors that name a failure.
 */

const GATEWAY = "http://127.0.0.1:1";
const log = pino({ level: "silent" });
const dirs: string[] = [];
const started: EmbeddedSimulator[] = [];
afterEach(async () => {
  for (const simulator of started.splice(0)) await simulator.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function partners(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "ramp-gateway-simulator-"));
  dirs.push(dir);
  return loadConfig({ DATA_DIR: dir, JWT_SECRET: "unit-test-jwt-secret-0123456789abcdefghij", ...env }).partners;
}

async function start(configured: ReturnType<typeof partners>, timeoutMs?: number) {
  const simulator = await startEmbeddedSimulator(configured, GATEWAY, log, timeoutMs);
  if (simulator) started.push(simulator);
  return simulator;
}

describe("startEmbeddedSimulator", () => {
  it("fills in every partner without a base URL, keeps the credentials (0600) and reuses them on the next start", async () => {
    const configured = partners();
    const first = await start(configured);
    const filled = first!.partners;
    expect(filled.avenia.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(filled.alfredpay.baseUrl).toBe(filled.avenia.baseUrl);
    expect(filled.alfredpay.callbackSecret).toMatch(/^whsec_/);
    expect(filled.avenia.privateKeyPem).toContain("PRIVATE KEY");
    expect(statSync(configured.simulator.stateFile).mode & 0o077).toBe(0);
    await first!.stop();

    const second = await start(configured);
    const { baseUrl: _first, ...aveniaCredentials } = filled.avenia;
    expect(second!.partners.avenia).toMatchObject(aveniaCredentials);
    expect(second!.partners.alfredpay.apiSecret).toBe(filled.alfredpay.apiSecret);
    expect(JSON.parse(readFileSync(configured.simulator.stateFile, "utf8")).url).toBe(second!.partners.avenia.baseUrl);
  });

  it("leaves a partner given a base URL as configured, and keeps a simulated partner's explicit settings", async () => {
    const configured = partners({ AVENIA_BASE_URL: "https://api.avenia.io:8443", ALFREDPAY_API_KEY: "given-key" });
    const filled = (await start(configured))!.partners;
    expect(filled.avenia).toEqual(configured.avenia);
    expect(filled.alfredpay.apiKey).toBe("given-key");
    expect(filled.alfredpay.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });

  it("starts nothing when the mode is off or every partner has a base URL", async () => {
    expect(await start(partners({ PARTNER_SIMULATOR: "off" }))).toBeUndefined();
    expect(
      await start(partners({ AVENIA_BASE_URL: "https://a.example", ALFREDPAY_BASE_URL: "https://b.example" })),
    ).toBeUndefined();
  });

  it("names a simulator that exits before saying where it listens, with what it wrote on stderr", async () => {
    const configured = partners();
    const broken = {
      ...configured,
      simulator: { ...configured.simulator, timings: { PARTNER_SIM_STAGE_DELAY_MS: "soon" } },
    };
    const failure = start(broken);
    await expect(failure).rejects.toThrow(StartupError);
    await expect(failure).rejects.toThrow(
      /^The embedded partner simulator exited \(code 1, signal null\) before it listened:\n[\s\S]*PARTNER_SIM_STAGE_DELAY_MS must be a whole number/,
    );
  });

  it("names a simulator that stays silent past the timeout", async () => {
    await expect(start(partners(), 1)).rejects.toThrow(
      new StartupError("The embedded partner simulator did not say where it listens within 1 ms"),
    );
  });

  it("names a corrupt state file and leaves it as it was", async () => {
    const configured = partners();
    writeFileSync(configured.simulator.stateFile, "[1]");
    await expect(start(configured)).rejects.toThrow(
      /partner-simulator\.json is corrupt \(not a JSON object\)\. Remove it/,
    );
    expect(readFileSync(configured.simulator.stateFile, "utf8")).toBe("[1]");
  });
});
