import { Field, Int, ObjectType, registerEnumType } from "type-graphql";
import { enumOf } from "./enums.js";
import { FIAT_SYMBOLS, NETWORKS, PAYMENT_METHOD_IDS, RAMP_DIRECTIONS } from "../../reference-data/catalog.js";

export const NetworkEnum = enumOf(NETWORKS);
registerEnumType(NetworkEnum, { name: "Network", description: "Blockchain networks." });
export const FiatCurrencySymbolEnum = enumOf(FIAT_SYMBOLS);
registerEnumType(FiatCurrencySymbolEnum, { name: "FiatCurrencySymbol" });
export const PaymentMethodIdEnum = enumOf(PAYMENT_METHOD_IDS);
registerEnumType(PaymentMethodIdEnum, { name: "PaymentMethodId", description: "Payment rails." });
export const RampDirectionEnum = enumOf(RAMP_DIRECTIONS);
registerEnumType(RampDirectionEnum, {
  name: "RampDirection",
  description: "BUY = onramp (fiat to crypto), SELL = offramp.",
});

@ObjectType({ description: "Which ramp directions a country is served in." })
export class RampSupport {
  @Field()
  buy!: boolean;

  @Field()
  sell!: boolean;
}

@ObjectType({ description: "A country the gateway serves." })
export class Country {
  @Field({ description: "ISO 3166-1 alpha-2." })
  countryCode!: string;

  @Field()
  name!: string;

  @Field({ description: "The country's flag." })
  emoji!: string;

  @Field(() => [FiatCurrencySymbolEnum])
  supportedCurrencies!: string[];

  @Field(() => RampSupport)
  support!: RampSupport;
}

@ObjectType({ description: "A crypto asset on one network." })
export class Cryptocurrency {
  @Field()
  assetSymbol!: string;

  @Field(() => NetworkEnum)
  assetNetwork!: string;

  @Field(() => Int)
  assetDecimals!: number;

  @Field(() => String, { nullable: true, description: "The ERC-20 contract, on EVM networks." })
  assetContractAddress!: string | null;

  @Field(() => String, { nullable: true, description: "The asset id, on AssetHub." })
  assetForeignAssetId!: string | null;
}

@ObjectType()
export class FiatCurrency {
  @Field(() => FiatCurrencySymbolEnum)
  symbol!: string;

  @Field()
  name!: string;

  @Field(() => Int, { description: "Minor-unit digits." })
  decimals!: number;
}

@ObjectType({ description: "Amount bounds of one ramp, in whole units of the fiat." })
export class PaymentMethodLimits {
  @Field(() => Int)
  min!: number;

  @Field(() => Int)
  max!: number;
}

@ObjectType({ description: "A payment rail and the fiat currencies it carries." })
export class PaymentMethod {
  @Field(() => PaymentMethodIdEnum)
  id!: string;

  @Field()
  name!: string;

  @Field(() => [FiatCurrencySymbolEnum])
  supportedFiats!: string[];

  @Field(() => PaymentMethodLimits, { description: "For the `fiat` filtered by, else for the first supported fiat." })
  limits!: PaymentMethodLimits;
}
