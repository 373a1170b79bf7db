import { Field, Int, ObjectType } from "type-graphql";
import { enumOf } from "./enums.js";
import { DecimalScalar } from "./scalars.js";
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
export const NetworkEnum = enumOf(NETWORKS);
registerGraphQLEnum(NetworkEnum, {
  name: "Network",
  description: "Blockchain networks.",
  valuesConfig: valuesConfigOf(NETWORK_DESCRIPTIONS),
});

export const FiatCurrencySymbolEnum = enumOf(FIAT_SYMBOLS);
registerGraphQLEnum(FiatCurrencySymbolEnum, {
  name: "FiatCurrencySymbol",
  description: "ISO 4217 code of a supported fiat currency; each corridor uses exactly one.",
  valuesConfig: {
    EUR: { description: "Euro: the EU corridor (euro area), over SEPA." },
    ARS: { description: "Argentine peso: the AR corridor, over CBU." },
    BRL: { description: "Brazilian real: the BR corridor, over PIX." },
    USD: { description: "US dollar: the US corridor, over ACH." },
    MXN: { description: "Mexican peso: the MX corridor, over SPEI." },
    COP: { description: "Colombian peso: the CO corridor, over ACH (ACH Colombia)." },
  },
});

const PAYMENT_METHOD_DESCRIPTIONS: Record<(typeof PAYMENT_METHOD_IDS)[number], string> = {
  pix: "PIX: Brazilian instant payments in BRL.",
  sepa: "SEPA: euro transfers in the euro area.",
  cbu: "CBU: Argentine bank transfers in ARS.",
  ach: "ACH: USD in the US and COP over ACH Colombia.",
  spei: "SPEI: Mexican interbank transfers in MXN.",
};
export const PaymentMethodIdEnum = enumOf(PAYMENT_METHOD_IDS);
registerGraphQLEnum(PaymentMethodIdEnum, {
  name: "PaymentMethodId",
  description: "Payment rails.",
  valuesConfig: valuesConfigOf(PAYMENT_METHOD_DESCRIPTIONS),
});

export const RampDirectionEnum = enumOf(RAMP_TYPES);
registerGraphQLEnum(RampDirectionEnum, {
  name: "RampDirection",
  description: "BUY = onramp (fiat to crypto), SELL = offramp.",
  valuesConfig: {
    BUY: { description: "Onramp: fiat is paid in and crypto is delivered." },
    SELL: { description: "Offramp: crypto is paid in and fiat is paid out." },
  },
});

@ObjectType({ description: "Which ramp directions a country is served in." })
export class RampSupport {
  @Field({ description: "True when some rail carrying the country's currency serves BUY ramps." })
  buy!: boolean;

  @Field({ description: "True when some rail carrying the country's currency serves SELL ramps." })
  sell!: boolean;
}

@ObjectType({ description: "A country the gateway serves." })
export class Country {
  @Field({ description: "ISO 3166-1 alpha-2." })
  countryCode!: string;

  @Field({ description: "English name; the name filter matches it exactly, ignoring case." })
  name!: string;

  @Field({ description: "The country's flag." })
  emoji!: string;

  @Field(() => [FiatCurrencySymbolEnum], {
    description: "The fiat the country ramps in: its corridor's currency (EUR across the euro area).",
  })
  supportedCurrencies!: string[];

  @Field(() => RampSupport, { description: "Which ramp directions the country's currency can be used for." })
  support!: RampSupport;
}

@ObjectType({ description: "A crypto asset on one network." })
export class Cryptocurrency {
  @Field({
    description: "Token symbol, such as USDC, USDT or USDC.e; a token on several networks has one entry per network.",
  })
  assetSymbol!: string;

  @Field(() => NetworkEnum, { description: "The network this entry of the token lives on." })
  assetNetwork!: string;

  @Field(() => Int, {
    description: "Decimal places of the token on this network; a SELL quote's input amount may have no more.",
  })
  assetDecimals!: number;

  @Field(() => String, { nullable: true, description: "The ERC-20 contract, on EVM networks." })
  assetContractAddress!: string | null;

  @Field(() => String, { nullable: true, description: "The asset id, on AssetHub." })
  assetForeignAssetId!: string | null;
}

@ObjectType({ description: "A fiat currency the gateway ramps in, one per corridor." })
export class FiatCurrency {
  @Field(() => FiatCurrencySymbolEnum, { description: "ISO 4217 code." })
  symbol!: string;

  @Field({ description: "English name, such as Mexican Peso." })
  name!: string;

  @Field(() => Int, { description: "Minor-unit digits." })
  decimals!: number;
}

@ObjectType({ description: "Amount bounds of one ramp, in whole units of the fiat." })
export class PaymentMethodLimits {
  @Field(() => DecimalScalar, { description: "Smallest fiat value a quote on this rail may have (inclusive)." })
  min!: number;

  @Field(() => DecimalScalar, { description: "Largest fiat value a quote on this rail may have (inclusive)." })
  max!: number;
}

@ObjectType({ description: "A payment rail and the fiat currencies it carries." })
export class PaymentMethod {
  @Field(() => PaymentMethodIdEnum, { description: "The rail, as a quote's paymentMethod names it." })
  id!: string;

  @Field({ description: "Display name, such as PIX or SEPA." })
  name!: string;

  @Field(() => [FiatCurrencySymbolEnum], { description: "The fiats the rail carries; the first is its home currency." })
  supportedFiats!: string[];

  @Field(() => PaymentMethodLimits, { description: "For the `fiat` filtered by, else for the first supported fiat." })
  limits!: PaymentMethodLimits;
}
