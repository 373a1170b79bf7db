import { describe, expect, it } from "vitest";
import {
  avenia,
  aveniaPayin,
  aveniaPayinQuote,
  aveniaPayinTicket,
  aveniaPayout,
  aveniaSubAccount,
  controlCall,
  isAveniaWebhookSigned,
  receiver,
  simulator,
  sleep,
  waitFor,
} from "./helpers.js";

async function publicKeyOf(base: string): Promise<string> {
  const response = await fetch(`${base}/v2/public-key`);
  return ((await response.json()) as { publicKey: string }).publicKey;
}

async function registerWebhook(base: string, url: string, subscriptions = ["*"]) {
  return avenia(base, "POST", "/v2/notifications/webhooks", { webhookUrl: url, subscriptions });
}

describe("Avenia auth", () => {
  it("refuses a wrong key, a signature over other bytes and a stale timestamp with 401 {error}", async () => {
    const sim = await simulator();
    const body = { accountType: "INDIVIDUAL", name: "Maria" };
    const path = "/v2/account/sub-accounts";
    expect((await avenia(sim.url, "POST", path, body)).status).toBe(200);
    const wrongKey = await avenia(sim.url, "POST", path, body, { apiKey: "other" });
    expect(wrongKey).toEqual({ status: 401, body: { error: "Unauthorized" } });
    expect((await avenia(sim.url, "POST", path, body, { signedBody: '{"name":"x"}' })).status).toBe(401);
    expect((await avenia(sim.url, "POST", path, body, { timestamp: Date.now() - 5 * 60_000 - 1000 })).status).toBe(401);
    expect((await avenia(sim.url, "POST", path, body, { timestamp: Date.now() - 4 * 60_000 })).status).toBe(200);
    expect((await fetch(`${sim.url}/v2/account/limits?subAccountId=x`)).status).toBe(401);
    expect(await publicKeyOf(sim.url)).toMatch(/^-----BEGIN RSA PUBLIC KEY-----/);
  });

  it("answers 404 sub-account-id does not exist for an unknown subaccount", async () => {
    const sim = await simulator();
    expect(await avenia(sim.url, "GET", "/v2/account/account-info?subAccountId=nope")).toEqual({
      status: 404,
      body: { error: "sub-account-id does not exist" },
    });
  });
});

describe("Avenia tickets", () => {
  it("moves a PIX pay-in UNPAID -> PROCESSING -> PAID and signs a TICKET webhook per change", async () => {
    const sim = await simulator({ timing: { paymentDelayMs: 300 } });
    const hooks = await receiver();
    await registerWebhook(sim.url, hooks.url, ["TICKET"]);
    const account = await aveniaSubAccount(sim.url);
    const created = await aveniaPayin(sim.url, account.id, "100.00", "ramp-ref-1");
    expect(created.status).toBe(200);
    expect(created.body.brCode).toBeTruthy();
    const ticketPath = `/v2/account/tickets/${created.body.id}?subAccountId=${account.id}`;
    expect((await avenia(sim.url, "GET", ticketPath)).body.ticket.status).toBe("UNPAID");

    const paid = await waitFor(() => hooks.received.find((hook) => hook.body.data.ticket.status === "PAID"));
    const publicKey = await publicKeyOf(sim.url);
    expect(hooks.received.map((hook) => hook.body.data.ticket.status)).toEqual(["PROCESSING", "PAID"]);
    expect(hooks.received.every((hook) => isAveniaWebhookSigned(hook, publicKey))).toBe(true);
    expect(isAveniaWebhookSigned({ ...paid, rawBody: paid.rawBody.replace("PAID", "FAILED") }, publicKey)).toBe(false);
    expect(paid.body).toMatchObject({ subscription: "TICKET", subAccountId: account.id });
    expect(paid.body.data.ticket.blockchainReceiverInfo.txHash).toMatch(/^0x[0-9a-f]{64}$/);

    const listed = await avenia(sim.url, "GET", `/v2/account/tickets?subAccountId=${account.id}`);
    const found = listed.body.tickets.find((ticket: any) => ticket.brlPixInputInfo.additionalData === "ramp-ref-1");
    expect(found).toMatchObject({ id: created.body.id, status: "PAID" });
    expect(sim.stats().avenia.moneySteps).toEqual({ "payin:ramp-ref-1": 1 });
  });

  it("refuses a second pay-in with the same reference 409 and counts it", async () => {
    const sim = await simulator();
    const account = await aveniaSubAccount(sim.url);
    expect((await aveniaPayin(sim.url, account.id, "10.00", "same-ref")).status).toBe(200);
    expect(await aveniaPayin(sim.url, account.id, "10.00", "same-ref")).toMatchObject({ status: 409 });
    expect(sim.stats().avenia.duplicateMoneySteps).toEqual({ "payin:same-ref": 1 });
  });

  it("fails an order of .66 at the exchange", async () => {
    const sim = await simulator();
    const account = await aveniaSubAccount(sim.url);
    const created = await aveniaPayin(sim.url, account.id, "100.66", "ref-66");
    const path = `/v2/account/tickets/${created.body.id}?subAccountId=${account.id}`;
    const ticket = await waitFor(async () => {
      const { body } = await avenia(sim.url, "GET", path);
      return ["PAID", "FAILED"].includes(body.ticket.status) && body.ticket;
    });
    expect(ticket).toMatchObject({ status: "FAILED", failureReason: "Exchange refused" });
  });

  it("runs a payout PENDING -> PROCESSING -> PAID; the same permit again is refused 409 and counted", async () => {
    // Long enough for the first read to see PENDING on a busy machine.
    const sim = await simulator({ timing: { depositDelayMs: 300 } });
    const account = await aveniaSubAccount(sim.url);
    const created = await aveniaPayout(sim.url, account.id, account.walletAddress, "50.00", 7);
    expect(created.status).toBe(200);
    const path = `/v2/account/tickets/${created.body.id}?subAccountId=${account.id}`;
    expect((await avenia(sim.url, "GET", path)).body.ticket.status).toBe("PENDING");
    const ticket = await waitFor(async () => {
      const { body } = await avenia(sim.url, "GET", path);
      return body.ticket.status === "PAID" && body.ticket;
    });
    expect(ticket.brazilianFiatReceiverInfo.endToEndId).toMatch(/^E/);
    expect(ticket.blockchainInputInfo.nonce).toBe(7);
    expect(ticket.blockchainSenderInfo.walletAddress).toBe(account.walletAddress);

    const again = await aveniaPayout(sim.url, account.id, account.walletAddress, "50.00", 7);
    expect(again).toEqual({ status: 409, body: { error: "permit already used" } });
    const identity = `payout:${account.walletAddress}:7`;
    const stats = sim.stats().avenia;
    expect(stats.moneySteps).toEqual({ [identity]: 1 });
    expect(stats.duplicateMoneySteps).toEqual({ [identity]: 1 });
    expect(stats.calls["POST /v2/account/tickets"]).toBe(2);
    expect(stats.calls["GET /v2/account/tickets/{id}"]).toBeGreaterThanOrEqual(2);
  });

  it("answers .77's first payout creation 503 without creating anything, then succeeds", async () => {
    const sim = await simulator();
    const account = await aveniaSubAccount(sim.url);
    const first = await aveniaPayout(sim.url, account.id, account.walletAddress, "20.77", 1);
    expect(first.status).toBe(503);
    expect((await avenia(sim.url, "GET", `/v2/account/tickets?subAccountId=${account.id}`)).body.tickets).toEqual([]);
    expect(sim.stats().avenia.moneySteps).toEqual({});
    expect((await aveniaPayout(sim.url, account.id, account.walletAddress, "20.77", 1)).status).toBe(200);
  });

  it("moves an internal-to-chain transfer PROCESSING -> PAID with the receiver's txHash", async () => {
    const sim = await simulator();
    const account = await aveniaSubAccount(sim.url);
    const quote = new URLSearchParams({
      inputAmount: "10.00",
      inputCurrency: "BRLA",
      inputPaymentMethod: "INTERNAL",
      outputCurrency: "BRLA",
      outputPaymentMethod: "BASE",
      subAccountId: account.id,
    });
    const { body } = await avenia(sim.url, "GET", `/v2/account/quote/fixed-rate?${quote}`);
    expect(body).toMatchObject({
      inputAmount: "10.00",
      outputAmount: "9.95",
      appliedFees: [{ type: "Markup Fee", amount: "0.05" }],
    });
    const wallet = "0x3333333333333333333333333333333333333333";
    const ticketBlockchainOutput = { walletAddress: wallet, walletChain: "BASE" };
    const created = await avenia(sim.url, "POST", `/v2/account/tickets?subAccountId=${account.id}`, {
      quoteToken: body.quoteToken,
      ticketBlockchainOutput,
    });
    const path = `/v2/account/tickets/${created.body.id}?subAccountId=${account.id}`;
    const ticket = await waitFor(async () => {
      const answer = await avenia(sim.url, "GET", path);
      return answer.body.ticket.status === "PAID" && answer.body.ticket;
    });
    expect(ticket.blockchainReceiverInfo).toMatchObject({
      walletAddress: wallet,
      txHash: expect.stringMatching(/^0x/),
    });
  });

  it("counts a PAID pay-in in the month's used limit, in BRL and in USD", async () => {
    const sim = await simulator();
    const account = await aveniaSubAccount(sim.url);
    const created = await aveniaPayin(sim.url, account.id, "108.00", "ref-limit");
    const path = `/v2/account/tickets/${created.body.id}?subAccountId=${account.id}`;
    await waitFor(async () => (await avenia(sim.url, "GET", path)).body.ticket.status === "PAID");
    const { body } = await avenia(sim.url, "GET", `/v2/account/limits?subAccountId=${account.id}`);
    expect(body.limitInfo.limits).toMatchObject([
      { currency: "*", usedLimit: { usedFiatIn: "20.00", usedFiatOut: "0.00" } },
    ]);
  });

  it("refuses a ticket on an expired quote 400", async () => {
    const sim = await simulator({ timing: { quoteTtlMs: 30 } });
    const account = await aveniaSubAccount(sim.url);
    const quoteToken = await aveniaPayinQuote(sim.url, account.id, "10.00");
    await sleep(60);
    const refused = await aveniaPayinTicket(sim.url, account.id, quoteToken, "late");
    expect(refused).toEqual({ status: 400, body: { error: "quoteToken has expired" } });
  });

  it("pays an UNPAID ticket at once through the control route", async () => {
    const sim = await simulator({ timing: { paymentDelayMs: 60_000 } });
    const account = await aveniaSubAccount(sim.url);
    const created = await aveniaPayin(sim.url, account.id, "5.00", "pay-now");
    expect((await controlCall(sim.url, "POST", `/_control/avenia/tickets/${created.body.id}/pay`)).status).toBe(204);
    const path = `/v2/account/tickets/${created.body.id}?subAccountId=${account.id}`;
    await waitFor(async () => (await avenia(sim.url, "GET", path)).body.ticket.status === "PAID");
    expect((await controlCall(sim.url, "POST", `/_control/avenia/tickets/${created.body.id}/pay`)).status).toBe(409);
  });
});

describe("Avenia KYC", () => {
  async function submit(base: string, subAccountId: string, fullName: string) {
    const form = { fullName, dateOfBirth: "1990-01-01", email: "maria@example.com", taxIdNumber: "12345678909" };
    return avenia(base, "POST", `/v2/kyc/new-level-1/api?subAccountId=${subAccountId}`, form);
  }

  it("approves a level-1 attempt PENDING -> PROCESSING -> COMPLETED, confirms the account and opens the BRL limit", async () => {
    const sim = await simulator({ timing: { stageDelayMs: 300 } });
    const hooks = await receiver();
    await registerWebhook(sim.url, hooks.url, ["KYC"]);
    const account = await aveniaSubAccount(sim.url);
    const limitsBefore = await avenia(sim.url, "GET", `/v2/account/limits?subAccountId=${account.id}`);
    expect(limitsBefore.body.limitInfo.limits.map((row: any) => row.currency)).toEqual(["*"]);
    const { body } = await submit(sim.url, account.id, "Maria Silva");
    const attemptPath = `/v2/kyc/attempts/${body.id}?subAccountId=${account.id}`;
    expect((await avenia(sim.url, "GET", attemptPath)).body.attempt.status).toBe("PENDING");
    await waitFor(() => hooks.received.length === 2);
    expect(hooks.received.map((hook) => [hook.body.data.attempt.status, hook.body.data.attempt.result])).toEqual([
      ["PROCESSING", ""],
      ["COMPLETED", "APPROVED"],
    ]);
    const info = await avenia(sim.url, "GET", `/v2/account/account-info?subAccountId=${account.id}`);
    expect(info.body.accountInfo.identityStatus).toBe("CONFIRMED");
    const limits = await avenia(sim.url, "GET", `/v2/account/limits?subAccountId=${account.id}`);
    expect(limits.body.limitInfo.limits.map((row: any) => row.currency)).toEqual(["BRL", "*"]);
    const listed = await avenia(sim.url, "GET", `/v2/kyc/attempts?subAccountId=${account.id}`);
    expect(listed.body).toMatchObject({ attempts: [{ id: body.id, status: "COMPLETED" }], cursor: null });
  });

  it("rejects a name containing 'reject', a UBO so named, and a KYB with sandboxReject", async () => {
    const sim = await simulator();
    const person = await aveniaSubAccount(sim.url);
    const rejected = await submit(sim.url, person.id, "Maria REJECTED Silva");
    const company = await aveniaSubAccount(sim.url, "Acme Ltda");
    const ubo = await avenia(sim.url, "POST", `/v2/account/ubos?subAccountId=${company.id}`, {
      fullName: "Joao Reject",
    });
    const kyb = (extra: object) =>
      avenia(sim.url, "POST", `/v2/kyc/new-level-1/api?subAccountId=${company.id}`, {
        companyLegalName: "Acme Ltda",
        ...extra,
      });
    const byUbo = await kyb({ uboIds: [ubo.body.id] });
    const bySandbox = await kyb({ uboIds: [], sandboxReject: true });
    const approved = await kyb({ uboIds: [] });
    const outcome = (id: string, subAccountId: string) =>
      waitFor(async () => {
        const { body } = await avenia(sim.url, "GET", `/v2/kyc/attempts/${id}?subAccountId=${subAccountId}`);
        return body.attempt.status === "COMPLETED" && body.attempt;
      });
    expect(await outcome(rejected.body.id, person.id)).toMatchObject({
      result: "REJECTED",
      levelName: "level-1",
      retryable: true,
    });
    expect(await outcome(byUbo.body.id, company.id)).toMatchObject({ result: "REJECTED", levelName: "kyb-level-1-v2" });
    expect(await outcome(bySandbox.body.id, company.id)).toMatchObject({ result: "REJECTED" });
    expect(await outcome(approved.body.id, company.id)).toMatchObject({ result: "APPROVED" });
    const hosted = await avenia(sim.url, "POST", `/v2/kyc/new-level-1/web-sdk?subAccountId=${company.id}`, {
      redirectUrl: "",
    });
    expect(await outcome(hosted.body.attemptId, company.id)).toMatchObject({ result: "APPROVED" });
  });

  it("imports a Sumsub share token at its trailing-slash route as a sumsub-token- attempt; a token with 'reject' is rejected", async () => {
    const sim = await simulator();
    const account = await aveniaSubAccount(sim.url);
    const importToken = (token: string) =>
      avenia(sim.url, "POST", `/v2/kyc/import-token/?subAccountId=${account.id}`, { importToken: token });
    const approved = await importToken("_act-sbx-jwt-share-token");
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({ id: expect.any(String), message: "processing KYC" });
    const rejected = await importToken("_act-sbx-REJECT-token");
    const outcome = (id: string) =>
      waitFor(async () => {
        const { body } = await avenia(sim.url, "GET", `/v2/kyc/attempts/${id}?subAccountId=${account.id}`);
        return body.attempt.status === "COMPLETED" && body.attempt;
      });
    expect(await outcome(approved.body.id)).toMatchObject({
      result: "APPROVED",
      levelName: expect.stringMatching(/^sumsub-token-/),
    });
    expect(await outcome(rejected.body.id)).toMatchObject({ result: "REJECTED", retryable: true });
    expect((await importToken("")).status).toBe(400);
    const withoutSlash = await avenia(sim.url, "POST", `/v2/kyc/import-token?subAccountId=${account.id}`, {
      importToken: "t",
    });
    expect(withoutSlash.status).toBe(404);
  });

  it("hands out upload URLs that take a PUT, and a liveness URL with its token", async () => {
    const sim = await simulator();
    const account = await aveniaSubAccount(sim.url);
    const documents = `/v2/documents?subAccountId=${account.id}`;
    const id = await avenia(sim.url, "POST", documents, { documentType: "ID", isDoubleSided: true });
    expect(id.body.uploadURLFront).toBe(`${sim.url}/_uploads/avenia/${id.body.id}/front`);
    const put = (url: string) =>
      fetch(url, { method: "PUT", headers: { "content-type": "image/png" }, body: Buffer.from("png") });
    expect((await put(id.body.uploadURLFront)).status).toBe(200);
    expect((await put(id.body.uploadURLBack)).status).toBe(200);
    expect((await put(`${sim.url}/_uploads/avenia/unknown/front`)).status).toBe(404);
    const liveness = await avenia(sim.url, "POST", documents, {
      documentType: "SELFIE-FROM-LIVENESS",
      isDoubleSided: false,
    });
    expect(liveness.body).toMatchObject({ livenessUrl: expect.any(String), validateLivenessToken: expect.any(String) });
    expect((await avenia(sim.url, "POST", documents, { documentType: "PHOTO" })).status).toBe(400);
  });
});

describe("Avenia webhook registrations", () => {
  it("keeps at most three, and updates and deletes them", async () => {
    const sim = await simulator();
    const ids = [];
    for (const n of [1, 2, 3]) ids.push((await registerWebhook(sim.url, `http://127.0.0.1:9/${n}`)).body.webhookId);
    expect((await registerWebhook(sim.url, "http://127.0.0.1:9/4")).status).toBe(422);
    const patch = { webhookId: ids[0], subscriptions: ["KYC"] };
    expect((await avenia(sim.url, "PATCH", "/v2/notifications/webhooks", patch)).status).toBe(200);
    expect((await avenia(sim.url, "DELETE", `/v2/notifications/webhooks/${ids[1]}`)).status).toBe(200);
    const listed = await avenia(sim.url, "GET", "/v2/notifications/webhooks");
    expect(listed.body.webhooks).toEqual([
      { id: ids[0], url: "http://127.0.0.1:9/1", subscriptions: ["KYC"] },
      { id: ids[2], url: "http://127.0.0.1:9/3", subscriptions: ["*"] },
    ]);
  });
});
