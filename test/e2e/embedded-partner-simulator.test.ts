import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";
import { AveniaClient } from "../../src/providers/avenia/client.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { pixPayInTicket } from "../support/partner-fixtures.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

/**
 * The BUILT gateway with its default PARTNER_SIMULATOR=embedded: the simulator runs beside it with credentials kept
 * in DATA_DIR, its Avenia webhook points at the gateway, a real callback is stored once, the simulator dies with the
 * gateway, even on SIGKILL, and what its partners hold outlives a restart.
 */

const STARTED = "partner simulator started (embedded)";
const WALLET = "0x1111111111111111111111111111111111111111";
/** Fast stages; the payer pays only when the test says so. */
const SIMULATOR_TIMINGS = {
  PARTNER_SIM_PAYMENT_DELAY_MS: "600000",
  PARTNER_SIM_STAGE_DELAY_MS: "20",
  PARTNER_SIM_KYC_DECISION_MS: "20",
  PARTNER_SIM_CALLBACK_RETRY_BASE_MS: "50",
};

interface SimulatorState {
  avenia: { apiKey: string; privateKeyPem: string };
  alfredpay: { apiKey: string; apiSecret: string; callbackSecret: string };
  url: string;
}

function simulatorOf(server: ServerProcess): { url: string; simulatorPid: number; partners: string[] } {
  const line = server.logLines().find((entry) => entry.msg === STARTED);
  expect(line, "the simulator's start-up line").toBeDefined();
  return line as unknown as { url: string; simulatorPid: number; partners: string[] };
}

function stateOf(database: TestDatabase): SimulatorState {
  return JSON.parse(readFileSync(join(database.dataDir, "partner-simulator.json"), "utf8")) as SimulatorState;
}

/** Whether a process with this id still runs (signal 0 only asks). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the embedded partner simulator", () => {
  let database: TestDatabase;
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await server.dispose();
    await database?.drop();
  });

  it("starts with the gateway, registers the gateway's Avenia webhook, delivers a callback that is stored once, dies with a SIGKILLed gateway, and keeps its credentials across a restart", async () => {
    database = await freshDatabase();
    const first = await startServerProcess({ database, env: SIMULATOR_TIMINGS });
    servers.push(first);
    const simulator = simulatorOf(first);
    expect(simulator.partners).toEqual(["Avenia", "Alfredpay"]);
    expect(simulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.output()).not.toContain(stateOf(database).avenia.apiKey);

    const stateFile = join(database.dataDir, "partner-simulator.json");
    expect(statSync(stateFile).mode & 0o077).toBe(0);
    const state = stateOf(database);
    expect(state.url).toBe(simulator.url);
    /** The subaccount and pay-in ticket made before the restart, looked for after it. */
    let made: { subAccountId: string; ticketId: string } | undefined;
    const avenia = new AveniaClient({
      baseUrl: simulator.url,
      apiKey: state.avenia.apiKey,
      privateKeyPem: state.avenia.privateKeyPem,
      logger: pino({ level: "silent" }),
    });
    try {
      // (a) The gateway's webhook, at the address it listens on.
      expect(await avenia.webhooks()).toEqual([
        { id: expect.any(String), url: `${first.url}/v1/webhooks/avenia`, subscriptions: ["TICKET", "KYC"] },
      ]);

      // (b) A PIX pay-in paid at the simulator: its events reach the gateway, the first sent three times.
      const { id: subAccountId } = await avenia.createSubAccount({ accountType: "INDIVIDUAL", name: "Ana Embedded" });
      const ticketId = await pixPayInTicket(avenia, subAccountId, "embedded-e2e", WALLET);
      made = { subAccountId, ticketId };
      const control = (method: string, path: string, body?: unknown) =>
        fetch(`${simulator.url}${path}`, {
          method,
          headers: { "content-type": "application/json" },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        });
      expect(
        (await control("PUT", "/_control/faults", { partner: "avenia", callbacks: { duplicate: 2 } })).status,
      ).toBeLessThan(300);
      expect((await control("POST", `/_control/avenia/tickets/${ticketId}/pay`)).status).toBeLessThan(300);

      const opened = await openDatabase(database.config);
      try {
        const stored = () => opened.db.partnerCallback.findMany({ where: { partner: "Avenia", subjectId: ticketId } });
        const rows = await eventually(stored, (found) => found.length >= 2);
        const stats = await eventually(
          async () =>
            (await (await control("GET", "/_control/stats")).json()) as {
              avenia: { callbacks: Record<string, number> };
            },
          (answer) => answer.avenia.callbacks.sent >= 4,
        );
        // PROCESSING (three copies) and PAID: every copy answered, each event stored once.
        expect(stats.avenia.callbacks).toMatchObject({ sent: 4, duplicated: 2, failed: 0 });
        // Both verified signatures wait on the first fetch of Avenia's key: they may be stored in either order.
        expect(rows.map((row) => [row.subjectKind, row.partnerStatus, row.partnerCustomerId]).sort()).toEqual([
          ["ticket", "PAID", subAccountId],
          ["ticket", "PROCESSING", subAccountId],
        ]);
        expect(await stored()).toHaveLength(2);
      } finally {
        await opened.close();
      }
    } finally {
      await avenia.close();
    }

    // (c) SIGKILL leaves the gateway no chance to stop it: the simulator notices the closed channel and exits.
    const pid = simulator.simulatorPid;
    expect(running(pid)).toBe(true);
    expect(await first.stop("SIGKILL")).toBeNull();
    expect(
      await eventually(
        async () => running(pid),
        (alive) => !alive,
        5_000,
      ),
    ).toBe(false);

    // (d) A restart: the same credentials, a new simulator, the webhook registered for the new address only, and what
    // the partners held before (kept under DATA_DIR when the SIGKILLed gateway's simulator stopped).
    const second = await startServerProcess({ database, env: SIMULATOR_TIMINGS });
    servers.push(second);
    const restarted = simulatorOf(second);
    expect(restarted.url).not.toBe(simulator.url);
    expect(stateOf(database)).toEqual({ ...state, url: restarted.url });
    const again = new AveniaClient({ ...state.avenia, baseUrl: restarted.url, logger: pino({ level: "silent" }) });
    try {
      expect((await again.webhooks()).map((webhook) => webhook.url)).toEqual([`${second.url}/v1/webhooks/avenia`]);
      expect(await again.ticket(made!.subAccountId, made!.ticketId)).toMatchObject({
        id: made!.ticketId,
        status: "PAID",
      });
      expect(statSync(join(database.dataDir, "partner-simulator-partners.json")).mode & 0o077).toBe(0);
    } finally {
      await again.close();
    }
    expect(await second.stop("SIGTERM")).toBe(0);
    expect(second.logLines().some((entry) => entry.msg === "shutdown complete")).toBe(true);
    expect(running(restarted.simulatorPid)).toBe(false);
  }, 60_000);
});
