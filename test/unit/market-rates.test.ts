import pino from "pino";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { money, type Money } from "../../src/money.js";
import { MarketRates, type FiatRateSource } from "../../src/providers/market-rates.js";
import type { FiatSymbol } from "../../src/reference-data/corridors.js";

/*
 * The partners' rates kept for quoting (src/providers/market-rates.ts): when a quote waits for them, and when it is
 * refused rather than priced.
 */

const OPTIONS = {
  refreshMs: 60_000,
  maxAgeMs: 300_000,
  timeoutMs: 1_000,
  log: pino({ level: "silent" }),
};

/** A source whose answers the test releases, counting the askings. */
function heldSource(rate: string) {
  const releases: (() => void)[] = [];
  let asked = 0;
  const source: FiatRateSource = () => {
    asked += 1;
    return new Promise<Money>((resolve) => releases.push(() => resolve(money(rate))));
  };
  return { source, release: () => releases.splice(0).forEach((release) => release()), asked: () => asked };
}

const refusal = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
  return "priced";
};

describe("MarketRates", () => {
  it("makes every quote before the first rates wait for the one asking, whichever partner answers last", async () => {
    const brl = heldSource("5.40");
    const rates = new MarketRates(
      new Map<FiatSymbol, FiatRateSource>([
        ["MXN", async () => money("17.20")],
        ["BRL", brl.source],
      ]),
      OPTIONS,
    );
    const quotes = [rates.current(), rates.current()];
    // MXN has answered, BRL not yet: a quote arriving now waits too.
    await new Promise((resolve) => setTimeout(resolve, 20));
    quotes.push(rates.current());
    brl.release();
    for (const priced of await Promise.all(quotes)) expect(priced("BRL").toString()).toBe("5.4");
    expect(brl.asked()).toBe(1);
  });

  it("once it has rates, asks again in the background: no quote waits for a slow partner", async () => {
    const brl = heldSource("5.40");
    const rates = new MarketRates(new Map([["BRL", brl.source]]), { ...OPTIONS, refreshMs: 10 });
    const first = rates.current();
    brl.release();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Due again: the asking starts, the quote is priced from the kept rate at once.
    expect((await rates.current())("BRL").toString()).toBe("5.4");
    expect(brl.asked()).toBe(2);
    brl.release();
  });

  it("refuses a fiat whose rate is past its maximum age, or that no partner gave", async () => {
    const failing: FiatRateSource = async () => {
      throw new Error("down");
    };
    let answered = false;
    const once: FiatRateSource = async () => {
      if (answered) throw new Error("down");
      answered = true;
      return money("17.20");
    };
    const rates = new MarketRates(
      new Map<FiatSymbol, FiatRateSource>([
        ["MXN", once],
        ["COP", failing],
      ]),
      { ...OPTIONS, refreshMs: 10, maxAgeMs: 50 },
    );
    const priced = await rates.current();
    expect(priced("MXN").toString()).toBe("17.2");
    expect(refusal(() => priced("COP"))).toBe("PROVIDER_UNAVAILABLE");
    expect(refusal(() => priced("EUR"))).toBe("PROVIDER_UNAVAILABLE");
    await new Promise((resolve) => setTimeout(resolve, 80));
    const later = await rates.current();
    expect(refusal(() => later("MXN"))).toBe("PROVIDER_UNAVAILABLE");
  });

  it("asks a partner that gave no rate again after retryMs, not only after the refresh interval, and refuses a rate of nothing", async () => {
    let down = true;
    let asked = 0;
    // Down: the first asking gets a rate of nothing, which is no rate.
    const brl: FiatRateSource = async () => {
      asked += 1;
      return money(down ? "0" : "5.40");
    };
    const rates = new MarketRates(new Map([["BRL", brl]]), { ...OPTIONS, retryMs: 30 });
    const first = await rates.current();
    expect(refusal(() => first("BRL"))).toBe("PROVIDER_UNAVAILABLE");
    expect(asked).toBe(1);
    down = false;
    // Within retryMs: not asked again.
    await rates.current();
    expect(asked).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await rates.current();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(asked).toBe(2);
    expect((await rates.current())("BRL").toString()).toBe("5.4");
  });
});
