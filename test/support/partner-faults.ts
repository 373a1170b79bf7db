import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { expectCall, type Headers } from "./e2e-http.js";
import { PIX_KEY, SELL_QUOTE, signedTxs, waitFor } from "./kit.js";
import { rememberSecret } from "./secrets.js";
import type { ServerProcess } from "./server-process.js";

/*
 * The fault suite's tools (issue 41): the embedded partner simulator's control API, reached at the address the
 * server wrote under its DATA_DIR, MX BUY ramps at Alfredpay and BR SELL ramps at Avenia driven to their end over
 * HTTP, and a row per fault.
 */

export const PENNY = "/api/v1/third-party-service/penny";
const MX_BUY = { rampType: "BUY", from: "spei", to: "polygon", inputCurrency: "MXN", outputCurrency: "USDC" };
const WALLET = `0x${"3".repeat(40)}`;

interface PartnerStats {
  calls: Record<string, number>;
  moneySteps: Record<string, number>;
  duplicateMoneySteps: Record<string, number>;
  callbacks: { sent: number; dropped: number; duplicated: number; failed: number };
}
export type SimulatorStats = Record<"avenia" | "alfredpay", PartnerStats>;

export interface Simulator {
  url: string;
  alfredpayCallbackSecret: string;
  /** Replaces the partner's faults (`PUT /_control/faults`). */
  setFaults(faults: Record<string, unknown> & { partner: "avenia" | "alfredpay" }): Promise<void>;
  clearFaults(): Promise<void>;
  stats(): Promise<SimulatorStats>;
}

/** The simulator `server` started beside itself, through its control API. */
export function simulatorOf(server: ServerProcess): Simulator {
  const state = JSON.parse(readFileSync(join(server.database.dataDir, "partner-simulator.json"), "utf8")) as {
    url: string;
    alfredpay: { callbackSecret: string };
  };
  rememberSecret(state.alfredpay.callbackSecret);
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${state.url}/_control${path}`, {
      method,
      ...(body !== undefined && { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    expect(response.status, `${method} /_control${path}: ${text}`).toBeLessThan(300);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    url: state.url,
    alfredpayCallbackSecret: state.alfredpay.callbackSecret,
    setFaults: (faults) => control("PUT", "/faults", faults),
    clearFaults: () => control("DELETE", "/faults"),
    stats: () => control("GET", "/stats"),
  };
}

/** A fresh MX BUY quote's id. */
export async function quoteMxBuy(server: ServerProcess, headers: Headers, inputAmount: string): Promise<string> {
  const quote = await expectCall(201, server, "POST", "/v1/quotes", { headers, body: { ...MX_BUY, inputAmount } });
  return quote.id as string;
}

/** Registers an MX BUY at Alfredpay (its order made there): the ramp's id. */
export async function registerMxBuy(server: ServerProcess, headers: Headers, quoteId: string): Promise<string> {
  const ramp = await expectCall(201, server, "POST", "/v1/ramp/register", {
    headers,
    body: { quoteId, destinationAddress: WALLET },
  });
  return ramp.id as string;
}

/**
 * BR SELLs registered at Avenia with their signed permits, then started: the first step of each sends its payout
 * ticket, the money step the gateway sends itself. Their ids.
 */
export async function startedBrSells(server: ServerProcess, headers: Headers, count: number): Promise<string[]> {
  const rampIds: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const body = { ...SELL_QUOTE, inputAmount: `${50 + index}.00` };
    const quote = await expectCall(201, server, "POST", "/v1/quotes", { headers, body });
    const ramp = await expectCall(201, server, "POST", "/v1/ramp/register", {
      headers,
      body: { quoteId: quote.id, additionalData: { walletAddress: WALLET, pixDestination: PIX_KEY } },
    });
    const presignedTxs = signedTxs(ramp.unsignedTxs);
    await expectCall(200, server, "POST", "/v1/ramp/update", { headers, body: { rampId: ramp.id, presignedTxs } });
    rampIds.push(ramp.id as string);
  }
  for (const rampId of rampIds) await expectCall(200, server, "POST", "/v1/ramp/start", { headers, body: { rampId } });
  return rampIds;
}

/** Amounts without the simulator's triggers (.66, .77): every order goes through. */
export const plainAmount = (index: number) => `${500 + index}.00`;

/** Waits for each ramp to leave PENDING and insists it ended COMPLETE. */
export async function expectAllComplete(server: ServerProcess, headers: Headers, rampIds: string[]): Promise<void> {
  for (const rampId of rampIds) {
    const done = await waitFor(
      () => expectCall(200, server, "GET", `/v1/ramp/${rampId}`, { headers }),
      (ramp) => ramp.status !== "PENDING",
      `ramp ${rampId} to finish`,
      30_000,
    );
    expect(done, rampId).toMatchObject({ status: "COMPLETE", currentPhase: "complete" });
  }
}

/** What a fault cost at the partner, between two reads of the simulator's stats. */
export interface FaultRow {
  fault: string;
  ramps: number;
  partnerCalls: number;
  /** Money steps executed more than once (must be 0). */
  duplicates: number;
  note: string;
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((total, count) => total + count, 0);

/** The partner's calls made since `before`, and its money steps executed more than once in all. */
export function partnerCost(before: SimulatorStats, after: SimulatorStats, partner: "avenia" | "alfredpay") {
  const [then, now] = [before[partner], after[partner]];
  return {
    partnerCalls: sum(now.calls) - sum(then.calls),
    duplicates: Object.values(now.moneySteps).filter((count) => count > 1).length,
    newMoneySteps: Object.keys(now.moneySteps).length - Object.keys(then.moneySteps).length,
    callsOf: (route: string) => (now.calls[route] ?? 0) - (then.calls[route] ?? 0),
  };
}

export function printFaultTable(title: string, rows: FaultRow[]): void {
  const header = ["fault", "ramps", "partner calls", "duplicates", "note"];
  const cells = rows.map((row) => [
    row.fault,
    String(row.ramps),
    String(row.partnerCalls),
    String(row.duplicates),
    row.note,
  ]);
  const widths = header.map((name, column) => Math.max(name.length, ...cells.map((cell) => cell[column]!.length)));
  const line = (cell: string[]) => cell.map((text, column) => text.padEnd(widths[column]!)).join(" | ");
  console.log([title, line(header), line(widths.map((width) => "-".repeat(width))), ...cells.map(line)].join("\n"));
}
