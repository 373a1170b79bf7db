import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectCall, newSecretKey, type Headers } from "../support/e2e-http.js";
import { waitFor } from "../support/kit.js";
import { rememberSecret } from "../support/secrets.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

/**
 * A managed child from creation to a completed SELL ramp on the BUILT server over real HTTP (issue 6):
 * approved KYC, a payout account, then the ramp, entirely through the manager's secret key with the
 * selector, and again entirely through the child's own credential. Every step is a call an integrator
 * makes; nothing is set up in the database. The payout account is read back at the partner (the embedded simulator).
 */

const SELL_QUOTE = {
  rampType: "SELL",
  from: "polygon",
  to: "spei",
  inputAmount: "40.00",
  inputCurrency: "USDC",
  outputCurrency: "MXN",
};
const WALLET = `0x${"5".repeat(40)}`;
const CLABE = "032180000118359719";

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess({
    env: {
      PARTNER_SIM_KYC_DECISION_MS: "0",
      SANDBOX_STEP_DELAY_MS: "20",
      RAMP_PROCESSOR_INTERVAL_MS: "10",
      RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "1000",
    },
  });
});
afterAll(() => server?.dispose());

/** The accounts the embedded simulator's Alfredpay holds for its customer, asked with the gateway's credentials there. */
async function alfredpayAccounts(customerId: string): Promise<Record<string, unknown>[]> {
  const { url, alfredpay } = JSON.parse(
    readFileSync(join(server.database.dataDir, "partner-simulator.json"), "utf8"),
  ) as {
    url: string;
    alfredpay: { apiKey: string; apiSecret: string };
  };
  rememberSecret(alfredpay.apiSecret);
  const response = await fetch(
    `${url}/api/v1/third-party-service/penny/fiatAccounts?customerId=${encodeURIComponent(customerId)}`,
    { headers: { "api-key": alfredpay.apiKey, "api-secret": alfredpay.apiSecret } },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>[];
}

/** KYC, a payout account and a SELL ramp to COMPLETE, every call with `headers` (acting as the child). */
async function childSellsThrough(headers: Headers): Promise<void> {
  await expectCall(200, server, "POST", "/v1/mx/createIndividualCustomer", { headers, body: {} });
  const { submissionId } = await expectCall(200, server, "POST", "/v1/mx/submitKycInformation", {
    headers,
    body: {
      firstName: "Lucía",
      lastName: "Hernández",
      dateOfBirth: "1992-07-30",
      documentType: "INE",
      documentNumber: "HRLU920730",
    },
  });
  await expectCall(200, server, "POST", "/v1/mx/sendKycSubmission", { headers, body: { submissionId } });
  // In review until Alfredpay's decision is observed (its callback, or the gateway's check).
  const decided = await waitFor(
    () => expectCall(200, server, "GET", "/v1/mx/getKycStatus", { headers }),
    (answer) => answer.status !== "VERIFYING",
    "Alfredpay's decision",
  );
  expect(decided.status).toBe("SUCCESS");
  expect((await expectCall(200, server, "GET", "/v1/ramp-info", { headers })).corridors.MX).toEqual({
    kycStatus: "approved",
    canBuy: true,
    canSell: true,
  });

  const { fiatAccountId } = await expectCall(200, server, "POST", "/v1/mx/fiatAccounts", {
    headers,
    body: { type: "SPEI", accountNumber: CLABE, accountName: "Lucía Hernández" },
  });
  // The account is Alfredpay's too (the embedded simulator's), under the child's customer listed with it.
  const [listed] = await expectCall(200, server, "GET", "/v1/mx/fiatAccounts", { headers });
  expect(listed.fiatAccountId).toBe(fiatAccountId);
  expect(await alfredpayAccounts(listed.customerId)).toEqual([
    expect.objectContaining({ type: "SPEI", accountNumber: CLABE, accountType: "CLABE" }),
  ]);
  const quote = await expectCall(201, server, "POST", "/v1/quotes", { headers, body: SELL_QUOTE });
  const registered = await expectCall(201, server, "POST", "/v1/ramp/register", {
    headers,
    body: { quoteId: quote.id, fiatAccountId, additionalData: { walletAddress: WALLET } },
  });
  expect(registered).toMatchObject({ type: "SELL", fiatAccountId, status: "PENDING" });
  const presignedTxs = registered.unsignedTxs.map((tx: Record<string, unknown>) => ({
    ...tx,
    signature: `0x${"cd".repeat(65)}`,
  }));
  await expectCall(200, server, "POST", "/v1/ramp/update", { headers, body: { rampId: registered.id, presignedTxs } });
  await expectCall(200, server, "POST", "/v1/ramp/start", { headers, body: { rampId: registered.id } });
  const done = await waitFor(
    () => expectCall(200, server, "GET", `/v1/ramp/${registered.id}`, { headers }),
    (ramp) => ramp.status !== "PENDING",
    "the SELL ramp to finish",
  );
  expect(done).toMatchObject({ status: "COMPLETE", currentPhase: "complete", fiatAccountId });
}

describe("a managed child sells end to end", () => {
  let manager: Headers;
  beforeAll(async () => {
    manager = (await newSecretKey(server, "e2e-manager")).headers;
    const profileId = (
      await expectCall(200, server, "POST", "/graphql", { headers: manager, body: { query: "{ me { id } }" } })
    ).data.me.id;
    // The server generated the operator token under DATA_DIR (no OPERATOR_TOKEN set).
    const { operatorToken } = JSON.parse(readFileSync(join(server.database.dataDir, "secrets.json"), "utf8")) as {
      operatorToken: string;
    };
    rememberSecret(operatorToken);
    await expectCall(201, server, "PUT", `/v1/admin/managers/${profileId}`, {
      headers: { authorization: `Bearer ${operatorToken}` },
      body: { allowedCorridors: ["MX"], isActive: true },
    });
  });

  async function newChild(): Promise<string> {
    const child = await expectCall(201, server, "POST", "/v1/managed-profiles", {
      headers: manager,
      body: {
        externalSubjectId: `subject-${randomUUID()}`,
        contactEmail: `child-${randomUUID()}@example.com`,
        customerType: "individual",
      },
    });
    return child.managedProfile.profileId as string;
  }

  it("through the manager's secret key and the selector", async () => {
    const childId = await newChild();
    await childSellsThrough({ ...manager, "x-managed-profile-id": childId });
  });

  it("through the child's own credential", async () => {
    const childId = await newChild();
    const key = await expectCall(201, server, "POST", `/v1/managed-profiles/${childId}/api-credentials`, {
      headers: manager,
      body: { name: "child's own" },
    });
    rememberSecret(key.secretKey);
    await childSellsThrough({ "x-api-key": key.secretKey });
  });
});
