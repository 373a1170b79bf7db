import { described, enumOf } from "./enums.js";
import { RAMP_TYPES } from "../../quotes/types.js";
import { FIAT_SYMBOLS, NETWORKS, PAYMENT_METHOD_IDS } from "../../reference-data/catalog.js";
import { registerGraphQLEnum } from "./output-type.js";

/** Turns descriptions keyed by the services' values into the valuesConfig of an `enumOf` enum. */
const valuesConfigOf = (descriptions: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(descriptions).map(([value, description]) => [value.toUpperCase(), { description }]),
  );

const EVM = "an EVM network whose assets are ERC-20 contracts";
const NETWORK_DESCRIPTIONS: Record<(typeof NETWORKS)[number], string> = {
  assethub: "AssetHub, whose assets are named by a foreign asset id instead of a contract.",
  arbitrum: `Arbitrum, ${EVM}.`,
  avalanche: `Avalanche, ${EVM}.`,
  base: `Base, ${EVM}.`,
  bsc: `BNB Smart Chain, ${EVM}; its USDC and USDT have 18 decimals.`,
  ethereum: `Ethereum, ${EVM}.`,
  polygon: `Polygon, ${EVM}.`,
  moonbeam: `Moonbeam, ${EVM}; no asset is listed on it.`,
};
registerGraphQLEnum(enumOf(NETWORKS), {
  name: "Network",
  description: "Blockchain networks.",
  valuesConfig: valuesConfigOf(NETWORK_DESCRIPTIONS),
});

registerGraphQLEnum(enumOf(FIAT_SYMBOLS), {
  name: "FiatCurrencySymbol",
  description: "ISO 4217 code of a supported fiat currency; each corridor uses exactly one.",
  valuesConfig: described({
    EUR: "Euro: the EU corridor (euro area), over SEPA.",
    ARS: "Argentine peso: the AR corridor, over CBU.",
    BRL: "Brazilian real: the BR corridor, over PIX.",
    USD: "US dollar: the US corridor, over ACH.",
    MXN: "Mexican peso: the MX corridor, over SPEI.",
    COP: "Colombian peso: the CO corridor, over ACH (ACH Colombia).",
  }),
});

const PAYMENT_METHOD_DESCRIPTIONS: Record<(typeof PAYMENT_METHOD_IDS)[number], string> = {
  pix: "PIX: Brazilian instant payments in BRL.",
  sepa: "SEPA: euro transfers in the euro area.",
  cbu: "CBU: Argentine bank transfers in ARS.",
  ach: "ACH: USD in the US and COP over ACH Colombia.",
  spei: "SPEI: Mexican interbank transfers in MXN.",
};
registerGraphQLEnum(enumOf(PAYMENT_METHOD_IDS), {
  name: "PaymentMethodId",
  description: "Payment rails.",
  valuesConfig: valuesConfigOf(PAYMENT_METHOD_DESCRIPTIONS),
});

export const RampDirectionEnum = registerGraphQLEnum(enumOf(RAMP_TYPES), {
  name: "RampDirection",
  description: "BUY = onramp (fiat to crypto), SELL = offramp.",
  valuesConfig: described({
    BUY: "Onramp: fiat is paid in and crypto is delivered.",
    SELL: "Offramp: crypto is paid in and fiat is paid out.",
  }),
});
