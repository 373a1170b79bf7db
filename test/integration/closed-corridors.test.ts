import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.js";
import { testEngine } from "../support/database.js";
import { BUY_QUOTE, expectError, ok } from "../support/kit.js";

/*
 * A corridor CORRIDOR_PARTNERS closes (`EU=none`: no integrated partner serves EUR, and `live` refuses to run its ramps
 * on the sandbox): nothing is quoted in it, no subject can buy or sell in it, and the other corridors are as they were.
 */

const EU_BUY = {
  rampType: "BUY",
  from: "sepa",
  to: "polygon",
  inputAmount: "100",
  inputCurrency: "EUR",
  outputCurrency: "USDC",
};
const EU_SELL = {
  rampType: "SELL",
  from: "polygon",
  to: "sepa",
  inputAmount: "100",
  inputCurrency: "USDC",
  outputCurrency: "EUR",
};

let closed: TestApp;
let open: TestApp;
beforeAll(async () => {
  [closed, open] = await Promise.all([startTestApp({ CORRIDOR_PARTNERS: "EU=none" }), startTestApp({})]);
});
afterAll(async () => {
  await Promise.all([closed?.close(), open?.close()]);
});

describe(`a closed corridor (${testEngine()})`, () => {
  it("quotes nothing in its fiat, naming the field, whichever way; the open corridors are quoted", async () => {
    const profile = await closed.newProfile();
    for (const [body, field] of [
      [EU_BUY, "inputCurrency"],
      [EU_SELL, "outputCurrency"],
    ] as const) {
      const refused = await closed.request("POST", "/v1/quotes", { headers: profile.secret, body });
      expectError(refused, 400, "VALIDATION_FAILED", field);
      expect(refused.body.error.details).toEqual([{ field, message: "is not served here (EU is closed)" }]);
    }
    const best = await closed.request("POST", "/v1/quotes/best", {
      headers: profile.secret,
      body: { rampType: "BUY", from: "sepa", inputAmount: "100", inputCurrency: "EUR", outputCurrency: "USDC" },
    });
    expectError(best, 400, "VALIDATION_FAILED", "inputCurrency");
    ok(await closed.request("POST", "/v1/quotes", { headers: profile.secret, body: BUY_QUOTE }), 201);
    // Where it is open (the default), EU is quoted.
    ok(await open.request("POST", "/v1/quotes", { body: EU_BUY }), 201);
  });

  it("lets no subject buy or sell in it, whatever its KYC says", async () => {
    const [here, there] = [await closed.newProfile(), await open.newProfile()];
    const eu = async (app: TestApp, headers: Record<string, string>) =>
      ok(await app.request("GET", "/v1/ramp-info", { headers })).corridors.EU;
    expect(await eu(open, there.secret)).toEqual({ kycStatus: "approved", canBuy: true, canSell: true });
    expect(await eu(closed, here.secret)).toEqual({ kycStatus: "approved", canBuy: false, canSell: false });
  });
});
