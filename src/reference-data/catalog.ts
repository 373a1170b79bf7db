import { EVM_ADDRESS, SS58_ADDRESS } from "../validation.js";
import { CORRIDOR_FIAT, type Corridor, type FiatSymbol } from "./corridors.js";
import { describedEnum } from "../enums.js";

/*
 * The checked-in reference catalog: what the public reference endpoints list and what request validation
 * looks values up in, so what is advertised and what is accepted cannot drift apart.
 */

/** Networks whose assets are ERC-20 contracts; AssetHub names its assets by id instead. */
export const EVM_NETWORKS = ["arbitrum", "avalanche", "base", "bsc", "ethereum", "polygon", "moonbeam"] as const;
type EvmNetwork = (typeof EVM_NETWORKS)[number];
/** Blockchain networks, as the reference contract's `Networks` enum names them (in its order). */
export const NETWORKS = ["assethub", ...EVM_NETWORKS] as const;
export type Network = (typeof NETWORKS)[number];

const EVM = "an EVM network whose assets are ERC-20 contracts";
describedEnum("Network", NETWORKS, {
  description: "Blockchain networks.",
  meanings: {
    assethub: "AssetHub, whose assets are named by a foreign asset id instead of a contract.",
    arbitrum: `Arbitrum, ${EVM}.`,
    avalanche: `Avalanche, ${EVM}.`,
    base: `Base, ${EVM}.`,
    bsc: `BNB Smart Chain, ${EVM}; its USDC and USDT have 18 decimals.`,
    ethereum: `Ethereum, ${EVM}.`,
    polygon: `Polygon, ${EVM}.`,
    moonbeam: `Moonbeam, ${EVM}; no asset is listed on it.`,
  },
});

/** Where a network's transactions are shown, the hash appended. */
const EXPLORERS: Readonly<Record<Network, string>> = {
  assethub: "https://assethub-polkadot.subscan.io/extrinsic/",
  arbitrum: "https://arbiscan.io/tx/",
  avalanche: "https://snowtrace.io/tx/",
  base: "https://basescan.org/tx/",
  bsc: "https://bscscan.com/tx/",
  ethereum: "https://etherscan.io/tx/",
  moonbeam: "https://moonscan.io/tx/",
  polygon: "https://polygonscan.com/tx/",
};

/** A transaction's page on its network's explorer, or null for a network without one here. */
export function explorerLink(network: string, transactionHash: string): string | null {
  const base = Object.hasOwn(EXPLORERS, network) ? EXPLORERS[network as Network] : undefined;
  return base ? base + transactionHash : null;
}

export const RAMP_DIRECTIONS = ["buy", "sell"] as const;
type RampDirection = (typeof RAMP_DIRECTIONS)[number];

// ---------------------------------------------------------------------------------------------------------
// Fiat currencies: exactly one per corridor (CORRIDOR_FIAT), so a corridor without one does not compile.

export interface FiatCurrency {
  readonly symbol: FiatSymbol;
  readonly name: string;
  /** Minor-unit digits (ISO 4217). */
  readonly decimals: number;
}

const FIAT_DETAILS: Readonly<Record<FiatSymbol, Omit<FiatCurrency, "symbol">>> = {
  EUR: { name: "Euro", decimals: 2 },
  ARS: { name: "Argentine Peso", decimals: 2 },
  BRL: { name: "Brazilian Real", decimals: 2 },
  USD: { name: "US Dollar", decimals: 2 },
  MXN: { name: "Mexican Peso", decimals: 2 },
  COP: { name: "Colombian Peso", decimals: 2 },
};

export const FIAT_CURRENCIES: readonly FiatCurrency[] = (Object.keys(FIAT_DETAILS) as FiatSymbol[]).map((symbol) => ({
  symbol,
  ...FIAT_DETAILS[symbol],
}));
export const FIAT_SYMBOLS: readonly FiatSymbol[] = FIAT_CURRENCIES.map((currency) => currency.symbol);

describedEnum("FiatCurrencySymbol", FIAT_SYMBOLS, {
  description: "ISO 4217 code of a supported fiat currency; each corridor uses exactly one.",
  meanings: {
    EUR: "Euro: the EU corridor (euro area), over SEPA.",
    ARS: "Argentine peso: the AR corridor, over CBU.",
    BRL: "Brazilian real: the BR corridor, over PIX.",
    USD: "US dollar: the US corridor, over ACH.",
    MXN: "Mexican peso: the MX corridor, over SPEI.",
    COP: "Colombian peso: the CO corridor, over ACH (ACH Colombia).",
  },
});

// ---------------------------------------------------------------------------------------------------------
// Payment methods (rails), as the reference's `DestinationType` names them.

export const PAYMENT_METHOD_IDS = ["pix", "sepa", "cbu", "ach", "spei"] as const;

describedEnum("PaymentMethodId", PAYMENT_METHOD_IDS, {
  description: "Payment rails.",
  meanings: {
    pix: "PIX: Brazilian instant payments in BRL.",
    sepa: "SEPA: euro transfers in the euro area.",
    cbu: "CBU: Argentine bank transfers in ARS.",
    ach: "ACH: USD in the US and COP over ACH Colombia.",
    spei: "SPEI: Mexican interbank transfers in MXN.",
  },
});

type PaymentMethodId = (typeof PAYMENT_METHOD_IDS)[number];

/** How much one ramp may move over a rail in one fiat, in whole units of that fiat. */
export interface FiatLimits {
  readonly fiat: FiatSymbol;
  readonly min: number;
  readonly max: number;
}

export interface PaymentMethod {
  readonly id: PaymentMethodId;
  readonly name: string;
  readonly directions: readonly RampDirection[];
  /** One entry per supported fiat; the first is the rail's home currency. */
  readonly limits: readonly FiatLimits[];
}

// The reference accepts every rail both as a BUY's source and as a SELL's destination.
const BOTH_DIRECTIONS: readonly RampDirection[] = ["buy", "sell"];

export const PAYMENT_METHODS: readonly PaymentMethod[] = [
  { id: "pix", name: "PIX", directions: BOTH_DIRECTIONS, limits: [{ fiat: "BRL", min: 50, max: 250_000 }] },
  { id: "sepa", name: "SEPA", directions: BOTH_DIRECTIONS, limits: [{ fiat: "EUR", min: 10, max: 50_000 }] },
  { id: "cbu", name: "CBU", directions: BOTH_DIRECTIONS, limits: [{ fiat: "ARS", min: 10_000, max: 50_000_000 }] },
  {
    id: "ach",
    name: "ACH",
    directions: BOTH_DIRECTIONS,
    // Colombia's interbank transfers also run over ACH (ACH Colombia); the reference names no other rail for COP.
    limits: [
      { fiat: "USD", min: 10, max: 50_000 },
      { fiat: "COP", min: 33_000, max: 200_000_000 },
    ],
  },
  { id: "spei", name: "SPEI", directions: BOTH_DIRECTIONS, limits: [{ fiat: "MXN", min: 150, max: 1_000_000 }] },
];

// ---------------------------------------------------------------------------------------------------------
// Cryptocurrencies: real public contracts (EVM) and asset ids (AssetHub).

interface CryptocurrencyBase {
  readonly symbol: string;
  readonly decimals: number;
}
export type Cryptocurrency =
  | (CryptocurrencyBase & { readonly network: EvmNetwork; readonly contractAddress: `0x${string}` })
  | (CryptocurrencyBase & { readonly network: "assethub"; readonly foreignAssetId: string });

const erc20 = (network: EvmNetwork, symbol: string, contractAddress: `0x${string}`, decimals = 6): Cryptocurrency => ({
  symbol,
  network,
  decimals,
  contractAddress,
});

export const CRYPTOCURRENCIES: readonly Cryptocurrency[] = [
  { symbol: "USDC", network: "assethub", decimals: 6, foreignAssetId: "1337" },
  { symbol: "USDT", network: "assethub", decimals: 6, foreignAssetId: "1984" },
  erc20("arbitrum", "USDC", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"),
  erc20("arbitrum", "USDT", "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9"),
  erc20("avalanche", "USDC", "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E"),
  erc20("avalanche", "USDT", "0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7"),
  erc20("base", "USDC", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"),
  erc20("base", "USDT", "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2"),
  // The Binance-pegged tokens on BNB Smart Chain have 18 decimals, unlike their Ethereum originals.
  erc20("bsc", "USDC", "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", 18),
  erc20("bsc", "USDT", "0x55d398326f99059fF775485246999027B3197955", 18),
  erc20("ethereum", "USDC", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"),
  erc20("ethereum", "USDT", "0xdAC17F958D2ee523a2206206994597C13D831ec7"),
  erc20("polygon", "USDC", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"),
  erc20("polygon", "USDC.e", "0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174"),
  erc20("polygon", "USDT", "0xc2132D05D31c914a87C6611C10748AEb04B58e8F"),
];

// ---------------------------------------------------------------------------------------------------------
// Countries: each belongs to one corridor and pays in that corridor's fiat; the euro area is served via SEPA.

export interface Country {
  /** ISO 3166-1 alpha-2. */
  readonly countryCode: string;
  readonly name: string;
  readonly emoji: string;
  readonly corridor: Corridor;
  readonly supportedCurrencies: readonly FiatSymbol[];
  /** Whether some rail of the country's currencies serves the direction. */
  readonly support: { readonly buy: boolean; readonly sell: boolean };
}

const COUNTRY_CORRIDORS: readonly (readonly [countryCode: string, name: string, corridor: Corridor])[] = [
  ["AR", "Argentina", "AR"],
  ["AT", "Austria", "EU"],
  ["BE", "Belgium", "EU"],
  ["BG", "Bulgaria", "EU"],
  ["BR", "Brazil", "BR"],
  ["CO", "Colombia", "CO"],
  ["CY", "Cyprus", "EU"],
  ["DE", "Germany", "EU"],
  ["EE", "Estonia", "EU"],
  ["ES", "Spain", "EU"],
  ["FI", "Finland", "EU"],
  ["FR", "France", "EU"],
  ["GR", "Greece", "EU"],
  ["HR", "Croatia", "EU"],
  ["IE", "Ireland", "EU"],
  ["IT", "Italy", "EU"],
  ["LT", "Lithuania", "EU"],
  ["LU", "Luxembourg", "EU"],
  ["LV", "Latvia", "EU"],
  ["MT", "Malta", "EU"],
  ["MX", "Mexico", "MX"],
  ["NL", "Netherlands", "EU"],
  ["PT", "Portugal", "EU"],
  ["SI", "Slovenia", "EU"],
  ["SK", "Slovakia", "EU"],
  ["US", "United States", "US"],
];

/** The flag: the code's two letters as Unicode regional indicator symbols. */
const flagEmoji = (countryCode: string) =>
  String.fromCodePoint(...[...countryCode].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 65));

const served = (currencies: readonly FiatSymbol[], direction: RampDirection) =>
  PAYMENT_METHODS.some(
    (method) => method.directions.includes(direction) && method.limits.some((limit) => currencies.includes(limit.fiat)),
  );

export const COUNTRIES: readonly Country[] = COUNTRY_CORRIDORS.map(([countryCode, name, corridor]) => {
  const supportedCurrencies = [CORRIDOR_FIAT[corridor]];
  return {
    countryCode,
    name,
    emoji: flagEmoji(countryCode),
    corridor,
    supportedCurrencies,
    support: { buy: served(supportedCurrencies, "buy"), sell: served(supportedCurrencies, "sell") },
  };
});

// ---------------------------------------------------------------------------------------------------------
// Lookups for validation: exact, case-sensitive values as listed above.

export function fiatCurrency(symbol: string): FiatCurrency | undefined {
  return FIAT_CURRENCIES.find((currency) => currency.symbol === symbol);
}

export function paymentMethod(id: string): PaymentMethod | undefined {
  return PAYMENT_METHODS.find((method) => method.id === id);
}

/** A rail's limits in one fiat; undefined when the rail does not carry that fiat. */
export function paymentMethodLimits(id: string, fiat: string): FiatLimits | undefined {
  return paymentMethod(id)?.limits.find((limit) => limit.fiat === fiat);
}

export function cryptocurrency(symbol: string, network: string): Cryptocurrency | undefined {
  return CRYPTOCURRENCIES.find((asset) => asset.symbol === symbol && asset.network === network);
}

export function country(countryCode: string): Country | undefined {
  return COUNTRIES.find((candidate) => candidate.countryCode === countryCode);
}

/** Whether `address` is an account address as `network` writes it: EVM networks' 0x form, AssetHub's SS58. */
export function isAddressOn(network: string, address: string): boolean {
  return (EVM_NETWORKS as readonly string[]).includes(network) ? EVM_ADDRESS.test(address) : SS58_ADDRESS.test(address);
}
