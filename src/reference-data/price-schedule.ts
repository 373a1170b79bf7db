import { money, type Money } from "../money.js";
import type { Network } from "./catalog.js";
import type { Corridor, FiatSymbol } from "./corridors.js";

/*
 * The gateway's own price schedule, beside the partners' rates (src/providers/market-rates.ts): what a stablecoin is
 * worth in US dollars, what moving it on each network costs, the rail's charge per fiat, and the monthly ceilings.
 */

const USD_PER_TOKEN: Readonly<Record<string, string>> = { USDC: "1", "USDC.e": "0.9999", USDT: "0.9998" };
const NETWORK_FEE_USD: Readonly<Record<Network, string>> = {
  assethub: "0.01",
  arbitrum: "0.03",
  avalanche: "0.05",
  base: "0.01",
  bsc: "0.05",
  ethereum: "1.50",
  moonbeam: "0.02",
  polygon: "0.02",
};
const RAIL_FEES: Readonly<Record<FiatSymbol, { fixed: string; rate: string }>> = {
  BRL: { fixed: "0", rate: "0.0025" },
  EUR: { fixed: "0.50", rate: "0" },
  ARS: { fixed: "0", rate: "0.005" },
  USD: { fixed: "1", rate: "0" },
  MXN: { fixed: "0", rate: "0.002" },
  COP: { fixed: "0", rate: "0.003" },
};
/** Monthly ceilings per corridor, the same for both directions, in the corridor's fiat. */
const MONTHLY_LIMITS: Readonly<Record<Corridor, string>> = {
  AR: "10000000",
  BR: "50000",
  CO: "80000000",
  EU: "20000",
  MX: "200000",
  US: "10000",
};

/** The schedule's parts of a quote's terms. */
export const PRICE_SCHEDULE = {
  usdPerToken: (symbol: string): Money => money(USD_PER_TOKEN[symbol]!),
  networkFeeUsd: (network: Network): Money => money(NETWORK_FEE_USD[network]),
  railFee: (fiat: FiatSymbol) => ({ fixed: money(RAIL_FEES[fiat].fixed), rate: money(RAIL_FEES[fiat].rate) }),
};

/** The monthly ceiling of a corridor, in its fiat. */
export function monthlyLimit(corridor: Corridor): string {
  return MONTHLY_LIMITS[corridor];
}
