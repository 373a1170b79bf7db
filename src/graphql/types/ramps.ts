import { GraphQLJSONObject } from "graphql-scalars";
import { Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { screamingEnumOf } from "./enums.js";
import { ELIGIBILITY_KYC_STATUSES } from "../../onboarding/service.js";
import { KYC_STATUSES } from "../../providers/ports.js";
import { RAMP_PHASES, RAMP_STATUSES } from "../../ramps/phases.js";
import { Connection } from "./connection.js";
import { CorridorEnum } from "./managed-profiles.js";
import { FiatCurrencySymbolEnum, NetworkEnum, PaymentMethodIdEnum, RampDirectionEnum } from "./reference-data.js";

const RampPhaseEnum = screamingEnumOf(RAMP_PHASES);
registerEnumType(RampPhaseEnum, { name: "RampPhase", description: "The provider-agnostic step of a ramp." });
const RampStatusEnum = screamingEnumOf(RAMP_STATUSES);
registerEnumType(RampStatusEnum, { name: "RampStatus", description: "PENDING until the ramp completes or fails." });
const KycStatusEnum = screamingEnumOf(ELIGIBILITY_KYC_STATUSES);
registerEnumType(KycStatusEnum, {
  name: "KycStatus",
  description: "KYC as eligibility tells it: a case in review is PENDING.",
});
export const KycCaseStatusEnum = screamingEnumOf(KYC_STATUSES);
registerEnumType(KycCaseStatusEnum, {
  name: "KycCaseStatus",
  description: "A KYC/KYB case: IN_REVIEW once finished and awaiting the provider's decision.",
});

/** The services spell ramp types BUY/SELL; the RampDirection enum's values are buy/sell. */
export const toDirection = (type: "BUY" | "SELL") => type.toLowerCase();
export const toRampType = (direction: string) => direction.toUpperCase();

/** What a quote fixes, shared by quotes and ramps: the conversion and its fee breakdown (decimal strings). */
@ObjectType({ description: "Not emitted itself: the fields Quote and Ramp share." })
abstract class QuoteTerms {
  @Field(() => ID)
  id!: string;

  @Field({ description: "BUY: the payment method; SELL: the network." })
  from!: string;

  @Field({ description: "BUY: the network; SELL: the payment method." })
  to!: string;

  @Field(() => NetworkEnum)
  network!: string;

  @Field(() => PaymentMethodIdEnum)
  paymentMethod!: string;

  @Field(() => String, { nullable: true })
  countryCode!: string | null;

  @Field({ description: "Decimal string." })
  inputAmount!: string;

  @Field()
  inputCurrency!: string;

  @Field({ description: "Decimal string." })
  outputAmount!: string;

  @Field()
  outputCurrency!: string;

  @Field(() => FiatCurrencySymbolEnum, { description: "The fiat of the *Fiat fee fields." })
  feeCurrency!: string;

  @Field({ description: "The network's cost, in the fee currency." })
  networkFeeFiat!: string;

  @Field()
  networkFeeUSD!: string;

  @Field({ description: "The rail's (anchor's) fee." })
  anchorFeeFiat!: string;

  @Field()
  anchorFeeUSD!: string;

  @Field({ description: "The service fee." })
  vortexFeeFiat!: string;

  @Field()
  vortexFeeUSD!: string;

  @Field({ description: "The partner's markup." })
  partnerFeeFiat!: string;

  @Field()
  partnerFeeUSD!: string;

  @Field({ description: "Anchor fee plus service fee." })
  processingFeeFiat!: string;

  @Field()
  processingFeeUSD!: string;

  @Field({ description: "Network, processing and partner fees." })
  totalFeeFiat!: string;

  @Field()
  totalFeeUSD!: string;
}

@ObjectType({ description: "A priced conversion, valid 10 minutes; registering a ramp consumes it." })
export class Quote extends QuoteTerms {
  @Field(() => RampDirectionEnum)
  rampType!: string;

  @Field()
  expiresAt!: Date;

  @Field()
  createdAt!: Date;
}

@ObjectType({ description: "BUY: how to pay the fiat in." })
export class PaymentInstructions {
  @Field()
  method!: string;

  @Field({ description: "Decimal string." })
  amount!: string;

  @Field()
  currency!: string;

  @Field({ description: "The reference the transfer must carry." })
  reference!: string;

  @Field()
  beneficiary!: string;
}

@ObjectType({ description: "An entry of a ramp's error log." })
export class RampError {
  @Field()
  timestamp!: Date;

  @Field(() => RampPhaseEnum)
  phase!: string;

  @Field()
  error!: string;

  @Field(() => String, { nullable: true })
  details!: string | null;

  @Field({ description: "True when processing retries and may still complete." })
  recoverable!: boolean;
}

@ObjectType({ description: "A ramp: a registered quote on its way through the provider's phases." })
export class Ramp extends QuoteTerms {
  @Field(() => ID)
  quoteId!: string;

  @Field(() => RampDirectionEnum)
  type!: string;

  @Field(() => RampPhaseEnum)
  currentPhase!: string;

  @Field(() => RampStatusEnum)
  status!: string;

  @Field(() => String, { nullable: true, description: "BUY: where the tokens go; SELL: where they come from." })
  walletAddress!: string | null;

  @Field(() => ID, { nullable: true, description: "The widget session the ramp was registered with." })
  sessionId!: string | null;

  @Field(() => ID, { nullable: true })
  fiatAccountId!: string | null;

  @Field(() => PaymentInstructions, { nullable: true, description: "BUY: how to pay the fiat in; null for SELL." })
  paymentInstructions!: PaymentInstructions | null;

  @Field(() => String, { nullable: true, description: "PIX BR Code (copy and paste), for PIX payments." })
  depositQrCode!: string | null;

  @Field(() => [GraphQLJSONObject], { description: "SELL: what the user signs and returns with updateRamp." })
  unsignedTxs!: Record<string, unknown>[];

  @Field(() => String, { nullable: true })
  transactionHash!: string | null;

  @Field(() => String, { nullable: true })
  transactionExplorerLink!: string | null;

  @Field({ description: "The deadline for starting the ramp." })
  expiresAt!: Date;

  @Field(() => Date, { nullable: true })
  startedAt!: Date | null;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;

  /** The error log when the list the ramp came in read it already (resolved by the `errors` field resolver). */
  errors?: RampError[];
}

export const RampConnection = Connection(Ramp, "Ramp");

@ObjectType({ description: "Whether the subject can ramp in one corridor." })
export class CorridorEligibility {
  @Field(() => CorridorEnum)
  corridor!: string;

  @Field(() => KycStatusEnum)
  kycStatus!: string;

  @Field()
  canBuy!: boolean;

  @Field()
  canSell!: boolean;
}

@ObjectType({ description: "The subject's ramp eligibility per corridor (no PII, ids or limits)." })
export class RampInfo {
  @Field(() => [CorridorEligibility])
  corridors!: CorridorEligibility[];
}

@ObjectType()
export class LimitPeriod {
  @Field({ description: "calendar_month" })
  type!: string;

  @Field()
  startsAt!: Date;

  @Field()
  endsAt!: Date;
}

@ObjectType({ description: "The subject's monthly maximum and use in one corridor and direction." })
export class UserLimit {
  @Field(() => CorridorEnum)
  corridor!: string;

  @Field(() => FiatCurrencySymbolEnum)
  currency!: string;

  @Field(() => RampDirectionEnum)
  direction!: string;

  @Field({ description: "Decimal string, in the currency." })
  max!: string;

  @Field({ description: "Decimal string: completed ramps this period." })
  used!: string;

  @Field(() => LimitPeriod)
  period!: LimitPeriod;
}

@ObjectType({ description: "A hosted widget session; ramps and webhooks may refer to it." })
export class WidgetSession {
  @Field(() => ID)
  sessionId!: string;

  @Field()
  url!: string;
}

// ---------------------------------------------------------------------------------------------------------
// Inputs: their shapes only; the services validate the values as they do for REST.

@InputType()
export class CreateQuoteInput {
  @Field(() => RampDirectionEnum)
  rampType!: string;

  @Field({ description: "BUY: the payment method; SELL: the network." })
  from!: string;

  @Field({ description: "BUY: the network; SELL: the payment method." })
  to!: string;

  @Field({ description: "Decimal string." })
  inputAmount!: string;

  @Field()
  inputCurrency!: string;

  @Field()
  outputCurrency!: string;

  @Field(() => String, { nullable: true, description: "Must match the network in from/to." })
  network?: string | null;

  @Field(() => String, { nullable: true, description: "Must match the payment method in from/to." })
  paymentMethod?: string | null;

  @Field(() => String, { nullable: true })
  countryCode?: string | null;
}

@InputType()
export class CreateBestQuoteInput {
  @Field(() => RampDirectionEnum)
  rampType!: string;

  @Field(() => String, { nullable: true })
  from?: string | null;

  @Field(() => String, { nullable: true })
  to?: string | null;

  @Field({ description: "Decimal string." })
  inputAmount!: string;

  @Field()
  inputCurrency!: string;

  @Field()
  outputCurrency!: string;

  @Field(() => [String], {
    nullable: true,
    description: "Candidate networks (default: all); the one paying out the most wins.",
  })
  networks?: string[] | null;

  @Field(() => String, { nullable: true })
  paymentMethod?: string | null;

  @Field(() => String, { nullable: true })
  countryCode?: string | null;
}

@InputType({
  description:
    "Either quoteId (a locked quote) or rampType, network, inputAmount and externalSessionId (the widget quotes).",
})
export class CreateWidgetSessionInput {
  @Field(() => ID, { nullable: true })
  quoteId?: string | null;

  @Field(() => String, { nullable: true })
  callbackUrl?: string | null;

  @Field(() => String, { nullable: true })
  externalSessionId?: string | null;

  @Field(() => String, { nullable: true })
  walletAddressLocked?: string | null;

  @Field(() => RampDirectionEnum, { nullable: true })
  rampType?: string | null;

  @Field(() => NetworkEnum, { nullable: true })
  network?: string | null;

  @Field(() => String, { nullable: true, description: "Decimal string." })
  inputAmount?: string | null;

  @Field(() => String, { nullable: true })
  fiat?: string | null;

  @Field(() => String, { nullable: true })
  cryptoLocked?: string | null;

  @Field(() => String, { nullable: true })
  paymentMethod?: string | null;

  @Field(() => String, { nullable: true })
  countryCode?: string | null;
}

@InputType()
export class SigningAccountInput {
  @Field()
  address!: string;

  @Field({ description: "EVM or Substrate." })
  type!: string;
}

@InputType()
export class PaymentDataInput {
  @Field(() => String, { nullable: true })
  amount?: string | null;

  @Field(() => String, { nullable: true })
  memo?: string | null;

  @Field(() => String, { nullable: true })
  memoType?: string | null;
}

@InputType()
export class RegisterRampAdditionalDataInput {
  @Field(() => String, { nullable: true })
  destinationAddress?: string | null;

  @Field(() => String, { nullable: true, description: "SELL: where the tokens come from (required)." })
  walletAddress?: string | null;

  @Field(() => String, { nullable: true })
  pixDestination?: string | null;

  @Field(() => String, { nullable: true })
  receiverTaxId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "BRL: deprecated cross-check; must match the profile's verified tax id.",
  })
  taxId?: string | null;

  @Field(() => PaymentDataInput, { nullable: true })
  paymentData?: PaymentDataInput | null;
}

@InputType()
export class RegisterRampInput {
  @Field(() => ID)
  quoteId!: string;

  @Field(() => String, { nullable: true, description: "BUY: where the tokens go (required)." })
  destinationAddress?: string | null;

  @Field(() => ID, { nullable: true })
  fiatAccountId?: string | null;

  @Field(() => ID, { nullable: true, description: "A widget session (createWidgetSession)." })
  sessionId?: string | null;

  @Field(() => [SigningAccountInput], { nullable: true })
  signingAccounts?: SigningAccountInput[] | null;

  @Field(() => RegisterRampAdditionalDataInput, { nullable: true })
  additionalData?: RegisterRampAdditionalDataInput | null;
}

@InputType({ description: "Client-reported transaction hashes; a null clears one." })
export class UpdateRampAdditionalDataInput {
  @Field(() => String, { nullable: true })
  assethubToPendulumHash?: string | null;

  @Field(() => String, { nullable: true })
  squidRouterApproveHash?: string | null;

  @Field(() => String, { nullable: true })
  squidRouterNoPermitApproveHash?: string | null;

  @Field(() => String, { nullable: true })
  squidRouterNoPermitSwapHash?: string | null;

  @Field(() => String, { nullable: true })
  squidRouterNoPermitTransferHash?: string | null;

  @Field(() => String, { nullable: true })
  squidRouterSwapHash?: string | null;
}

@InputType()
export class UpdateRampInput {
  @Field(() => ID)
  rampId!: string;

  @Field(() => [GraphQLJSONObject], { description: "SELL: the signed unsignedTxs (at most 20, 16 KB in all)." })
  presignedTxs!: Record<string, unknown>[];

  @Field(() => UpdateRampAdditionalDataInput, { nullable: true })
  additionalData?: UpdateRampAdditionalDataInput | null;
}
