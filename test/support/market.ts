import { DEFAULT_FIAT_PER_USD } from "../../packages/partner-simulator/src/index.js";
import { money } from "../../src/money.js";
import type { MarketTerms } from "../../src/providers/ramp-port.js";
import { PRICE_SCHEDULE } from "../../src/reference-data/price-schedule.js";

/** The terms the gateway prices at while the partner simulator's market is where it starts. */
export const SIMULATOR_MARKET_TERMS: MarketTerms = {
  fiatPerUsd: (fiat) => money(String(DEFAULT_FIAT_PER_USD[fiat])),
  ...PRICE_SCHEDULE,
};
