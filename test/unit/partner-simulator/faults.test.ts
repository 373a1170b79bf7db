import { describe, expect, it } from "vitest";
import {
  alfredpay,
  avenia,
  aveniaPayin,
  aveniaPayinQuote,
  aveniaPayinTicket,
  aveniaSubAccount,
  controlCall,
  receiver,
  simulator,
  sleep,
  waitFor,
} from "./helpers.js";

const ticketsOf = async (base: string, subAccountId: string) =>
  (await avenia(base, "GET", `/v2/account/tickets?subAccountId=${subAccountId}`)).body.tickets as any[];

describe("call faults", () => {
  it("failNext before: answers the status and does nothing; the next call goes through", async () => {
    const sim = await simulator();
    const account = await aveniaSubAccount(sim.url);
    const quoteToken = await aveniaPayinQuote(sim.url, account.id, "10.00");
    sim.setFaults({ partner: "avenia", failNext: { count: 1, status: 500, when: "before" } });
    expect(await aveniaPayinTicket(sim.url, account.id, quoteToken, "ref-a")).toEqual({
      status: 500,
      body: { error: "simulated fault" },
    });
    expect(await ticketsOf(sim.url, account.id)).toEqual([]);
    expect(sim.stats().avenia.moneySteps).toEqual({});
    expect((await aveniaPayinTicket(sim.url, account.id, quoteToken, "ref-a")).status).toBe(200);
  });

  it("failNext after: executes the operation, then answers the status; the client's retry is a counted duplicate", async () => {
    const sim = await simulator();
    const account = await aveniaSubAccount(sim.url);
    const quoteToken = await aveniaPayinQuote(sim.url, account.id, "10.00");
    const put = await controlCall(sim.url, "PUT", "/_control/faults", {
      partner: "avenia",
      failNext: { count: 1, status: 503, when: "after" },
    });
    expect(put.status).toBe(204);
    expect((await aveniaPayinTicket(sim.url, account.id, quoteToken, "ref-b")).status).toBe(503);
    expect((await ticketsOf(sim.url, account.id)).map((ticket) => ticket.brlPixInputInfo.additionalData)).toEqual([
      "ref-b",
    ]);
    expect((await aveniaPayin(sim.url, account.id, "10.00", "ref-b")).status).toBe(409);
    const stats = (await controlCall(sim.url, "GET", "/_control/stats")).body.avenia;
    expect(stats.moneySteps).toEqual({ "payin:ref-b": 1 });
    expect(stats.duplicateMoneySteps).toEqual({ "payin:ref-b": 1 });
  });

  it("timeoutNext holds the socket until the client gives up, before or after the operation", async () => {
    const sim = await simulator();
    const account = await aveniaSubAccount(sim.url);
    const body = { email: "t@example.com", country: "MX", type: "INDIVIDUAL" };
    const create = () =>
      fetch(`${sim.url}/api/v1/third-party-service/penny/customers/create`, {
        method: "POST",
        headers: { "api-key": "alfred-key", "api-secret": "alfred-secret" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(150),
      });
    sim.setFaults({ partner: "alfredpay", timeoutNext: { count: 1, when: "before" } });
    await expect(create()).rejects.toThrow();
    expect((await alfredpay(sim.url, "GET", "/customers/find/t%40example.com/MX")).status).toBe(404);
    sim.setFaults({ partner: "alfredpay", timeoutNext: { count: 1, when: "after" } });
    await expect(create()).rejects.toThrow();
    expect((await alfredpay(sim.url, "GET", "/customers/find/t%40example.com/MX")).status).toBe(200);
    // The other partner is not affected.
    expect((await avenia(sim.url, "GET", `/v2/account/limits?subAccountId=${account.id}`)).status).toBe(200);
  });

  it("resetNext destroys the socket, before or after the operation", async () => {
    const sim = await simulator();
    const account = await aveniaSubAccount(sim.url);
    const quoteToken = await aveniaPayinQuote(sim.url, account.id, "10.00");
    sim.setFaults({ partner: "avenia", resetNext: { count: 1, when: "before" } });
    await expect(aveniaPayinTicket(sim.url, account.id, quoteToken, "ref-c")).rejects.toThrow();
    expect(await ticketsOf(sim.url, account.id)).toEqual([]);
    sim.setFaults({ partner: "avenia", resetNext: { count: 1, when: "after" } });
    await expect(aveniaPayinTicket(sim.url, account.id, quoteToken, "ref-c")).rejects.toThrow();
    expect(await ticketsOf(sim.url, account.id)).toHaveLength(1);
  });

  it("a fault aimed at a route meets only that route's calls: the money step, not the quote before it", async () => {
    const sim = await simulator();
    const account = await aveniaSubAccount(sim.url);
    sim.setFaults({
      partner: "avenia",
      failNext: { count: 1, status: 503, when: "after", route: "POST /v2/account/tickets" },
    });
    const quoteToken = await aveniaPayinQuote(sim.url, account.id, "10.00");
    expect(quoteToken).toEqual(expect.any(String));
    expect((await aveniaPayinTicket(sim.url, account.id, quoteToken, "ref-route")).status).toBe(503);
    expect(sim.stats().avenia.moneySteps).toEqual({ "payin:ref-route": 1 });
    expect((await avenia(sim.url, "GET", `/v2/account/limits?subAccountId=${account.id}`)).status).toBe(200);
  });

  it("latencyMs delays every answer, and faults spare the public key and /_control", async () => {
    const sim = await simulator();
    sim.setFaults({ partner: "avenia", latencyMs: 150, failNext: { count: 1, status: 500, when: "before" } });
    expect((await fetch(`${sim.url}/v2/public-key`)).status).toBe(200);
    expect((await controlCall(sim.url, "GET", "/_control/stats")).status).toBe(200);
    const started = Date.now();
    expect(
      (await avenia(sim.url, "POST", "/v2/account/sub-accounts", { accountType: "COMPANY", name: "X" })).status,
    ).toBe(500);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await controlCall(sim.url, "DELETE", "/_control/faults");
    const again = Date.now();
    expect(
      (await avenia(sim.url, "POST", "/v2/account/sub-accounts", { accountType: "COMPANY", name: "X" })).status,
    ).toBe(200);
    expect(Date.now() - again).toBeLessThan(140);
  });

  it("refuses a malformed faults body 400 and changes nothing", async () => {
    const sim = await simulator();
    const bad = [
      { partner: "other" },
      { partner: "avenia", failNext: { count: 1, status: 200, when: "before" } },
      { partner: "avenia", timeoutNext: { count: -1, when: "before" } },
      { partner: "avenia", resetNext: { count: 1, when: "later" } },
      { partner: "avenia", resetNext: { count: 1, when: "after", route: 7 } },
      { partner: "avenia", callbacks: { reorder: "yes" } },
    ];
    for (const body of bad) expect((await controlCall(sim.url, "PUT", "/_control/faults", body)).status).toBe(400);
    expect(
      (await avenia(sim.url, "POST", "/v2/account/sub-accounts", { accountType: "COMPANY", name: "X" })).status,
    ).toBe(200);
  });
});

describe("callback faults", () => {
  async function payinWithWebhook(options: Parameters<typeof simulator>[0] = {}, statuses: number[] = []) {
    const sim = await simulator(options);
    const hooks = await receiver(statuses);
    await avenia(sim.url, "POST", "/v2/notifications/webhooks", { webhookUrl: hooks.url, subscriptions: ["*"] });
    const account = await aveniaSubAccount(sim.url);
    const start = () => aveniaPayin(sim.url, account.id, "10.00", "ref-hooks");
    const statusesReceived = () => hooks.received.map((hook) => hook.body.data.ticket.status);
    const ticketStatus = async (ticketId: string) =>
      (await avenia(sim.url, "GET", `/v2/account/tickets/${ticketId}?subAccountId=${account.id}`)).body.ticket.status;
    return { sim, start, statusesReceived, ticketStatus };
  }

  it("drop: the next events are not delivered", async () => {
    const { sim, start, statusesReceived } = await payinWithWebhook();
    sim.setFaults({ partner: "avenia", callbacks: { drop: 1 } });
    await start();
    await waitFor(() => statusesReceived().length === 1);
    await sleep(60);
    expect(statusesReceived()).toEqual(["PAID"]);
    expect(sim.stats().avenia.callbacks).toEqual({ sent: 1, dropped: 1, duplicated: 0, failed: 0 });
  });

  it("duplicate: the next event is delivered that many extra times", async () => {
    const { sim, start, statusesReceived } = await payinWithWebhook();
    sim.setFaults({ partner: "avenia", callbacks: { duplicate: 2 } });
    await start();
    await waitFor(() => statusesReceived().length === 4);
    await sleep(60);
    // The copies go out at once, each on its own connection: their order of arrival is not fixed.
    expect(statusesReceived().sort()).toEqual(["PAID", "PROCESSING", "PROCESSING", "PROCESSING"]);
    expect(sim.stats().avenia.callbacks).toMatchObject({ sent: 4, duplicated: 2 });
  });

  it("reorder: events are held, then delivered newest first when the fault is lifted", async () => {
    const { sim, start, statusesReceived, ticketStatus } = await payinWithWebhook();
    sim.setFaults({ partner: "avenia", callbacks: { reorder: true } });
    const { body } = await start();
    await waitFor(async () => (await ticketStatus(body.id)) === "PAID");
    await sleep(60);
    expect(statusesReceived()).toEqual([]);
    sim.clearFaults();
    await waitFor(() => statusesReceived().length === 2);
    expect(statusesReceived()).toEqual(["PAID", "PROCESSING"]);
  });

  it("delayMs delays each delivery", async () => {
    const { sim, start, statusesReceived } = await payinWithWebhook();
    sim.setFaults({ partner: "avenia", callbacks: { delayMs: 300 } });
    const started = Date.now();
    await start();
    await waitFor(() => statusesReceived().length === 2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it("retries a delivery the receiver refuses, counting the failures", async () => {
    const { sim, start, statusesReceived } = await payinWithWebhook({}, [500, 500]);
    await start();
    await waitFor(() => sim.stats().avenia.callbacks.sent === 2);
    expect(sim.stats().avenia.callbacks).toMatchObject({ sent: 2, failed: 2 });
    expect(statusesReceived().sort()).toEqual(["PAID", "PROCESSING"]);
  });
});
