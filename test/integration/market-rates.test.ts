import { afterEach, describe, expect, it } from "vitest";
import { ALFREDPAY_PREFIX } from "../../packages/partner-simulator/src/index.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { testEngine } from "../support/database.js";
import { BUY_QUOTE, expectError, ok, sleep, waitFor } from "../support/kit.js";

/*
 * Quotes are priced at the rates of the partner serving each corridor (src/providers/market-rates.ts): asked for in
 * the background once MARKET_RATES_REFRESH_MS old, so a quote costs no partner call, and not quoted from at all once
 * MARKET_RATES_MAX_AGE_MS old. Both partners quote from the simulator's market, which `setRates` moves.
 */

const MX_BUY = {
  rampType: "BUY",
  from: "spei",
  to: "polygon",
  inputAmount: "1000",
  inputCurrency: "MXN",
  outputCurrency: "USDC",
};
const LIMITS = { RATE_LIMIT_PER_IP_PER_MINUTE: "100000" };
const ALFREDPAY_QUOTES = `POST ${ALFREDPAY_PREFIX}/quotes`;

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const quote = async (started: TestApp, body: Record<string, unknown>) =>
  started.request("POST", "/v1/quotes", { body });
const outputOf = async (started: TestApp, body: Record<string, unknown>) =>
  Number(ok(await quote(started, body), 201).outputAmount);
const partnerQuotes = (started: TestApp) => started.partners.simulator.stats().alfredpay.calls[ALFREDPAY_QUOTES] ?? 0;

describe(`quotes priced at the partners' rates (${testEngine()})`, () => {
  it("follow the partner's rate once it is asked again, and cost the partner no call of their own", async () => {
    app = await startTestApp({ ...LIMITS, MARKET_RATES_REFRESH_MS: "300" });
    const started = app;
    const before = await outputOf(started, MX_BUY);
    // Within the refresh interval, quotes are priced from the rates kept: no partner call.
    const asked = partnerQuotes(started);
    const askedAt = Date.now();
    for (let i = 0; i < 20; i++) await outputOf(started, MX_BUY);
    expect(partnerQuotes(started)).toBe(asked);

    // The market moves: a peso buys half the dollars it did.
    started.partners.simulator.setRates({ MXN: 34.4 });
    const after = await waitFor(
      () => outputOf(started, MX_BUY),
      (output) => output !== before,
      "quotes at the new rate",
    );
    expect(after / before).toBeGreaterThan(0.49);
    expect(after / before).toBeLessThan(0.51);
    // One asking of each of Alfredpay's four fiats per refresh at most, however many quotes were made meanwhile.
    const refreshes = Math.ceil((Date.now() - askedAt) / 300) + 1;
    expect(partnerQuotes(started) - asked).toBeLessThanOrEqual(4 * refreshes);
  });

  it("are refused, not guessed, once a partner's rates are too old; the other partner's fiats are quoted, and the prices come back with it", async () => {
    // The partner refuses to quote (a 4xx: an outage's 5xx would also open its client's breaker for 30 s).
    app = await startTestApp({ ...LIMITS, MARKET_RATES_REFRESH_MS: "50", MARKET_RATES_MAX_AGE_MS: "300" });
    const started = app;
    ok(await quote(started, MX_BUY), 201);
    started.partners.simulator.setFaults({
      partner: "alfredpay",
      failNext: { count: 1_000_000, status: 400, when: "before", route: `POST ${ALFREDPAY_PREFIX}/quotes` },
    });
    // The rates kept serve until they are MARKET_RATES_MAX_AGE_MS old.
    ok(await quote(started, MX_BUY), 201);
    const refused = await waitFor(
      () => quote(started, MX_BUY),
      (response) => response.status !== 201,
      "the MXN rate to lapse",
    );
    expectError(refused, 502, "PROVIDER_UNAVAILABLE");
    expect(refused.body.error.message).toBe("Prices in MXN are not available now; try again shortly.");
    ok(await quote(started, BUY_QUOTE), 201);

    started.partners.simulator.clearFaults();
    await sleep(100);
    await waitFor(
      () => quote(started, MX_BUY),
      (response) => response.status === 201,
      "the MXN rate to come back",
    );
  });
});
