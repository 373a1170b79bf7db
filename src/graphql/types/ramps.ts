import { GraphQLJSONObject } from "graphql-scalars";
import { ArgsType, Field, ID, InputType } from "type-graphql";
import { enumOf, screamingEnumOf } from "./enums.js";
import { DecimalScalar } from "./scalars.js";
import { KYC_STATUSES } from "../../providers/kyc-port.js";
import { RAMP_PHASES, RAMP_STATUSES } from "../../reference-data/ramp-phases.js";
import { quoteView, type QuoteView } from "../../quotes/types.js";
import {
  rampErrorView,
  rampView,
  SIGNING_ACCOUNT_TYPES,
  type RampErrorView,
  type RampView,
} from "../../ramps/types.js";
import { connectionType, offsetPage, PageArgs } from "./connection.js";
import { CorridorEnum } from "./managed-profiles.js";
import { FiatCurrencySymbolEnum, NetworkEnum, PaymentMethodIdEnum, RampDirectionEnum } from "./reference-data.js";
import { Node } from "./node.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";
import { z } from "zod";
import {
  corridorEligibilityShape,
  ELIGIBILITY_KYC_STATUSES,
  LIMIT_PERIOD_TYPES,
  userLimitView,
} from "../../onboarding/types.js";
import { named, outputObject } from "../../output.js";
import { CORRIDORS } from "../../reference-data/corridors.js";

const RampPhaseEnum = screamingEnumOf(RAMP_PHASES);
registerGraphQLEnum(RampPhaseEnum, {
  name: "RampPhase",
  description: "The provider-agnostic step of a ramp.",
  valuesConfig: {
    INITIAL: { description: "Registered and not started: updateRamp and startRamp work until the start window ends." },
    AWAITING_PAYMENT: { description: "Started: the provider waits for the incoming funds." },
    PAYMENT_CONFIRMED: { description: "The provider has the incoming funds." },
    EXCHANGING: { description: "The funds are being converted." },
    PAYING_OUT: { description: "The converted funds are on their way out (tokens for BUY, fiat for SELL)." },
    COMPLETE: { description: "Paid out; the status is COMPLETE." },
    FAILED: { description: "Stopped by an unrecoverable error (see errors); the status is FAILED." },
    TIMED_OUT: { description: "Not started within the start window; the status is FAILED." },
  },
});
const RampStatusEnum = screamingEnumOf(RAMP_STATUSES);
registerGraphQLEnum(RampStatusEnum, {
  name: "RampStatus",
  description: "PENDING until the ramp completes or fails.",
  valuesConfig: {
    PENDING: { description: "Registered or processing: the phase is not yet COMPLETE, FAILED or TIMED_OUT." },
    COMPLETE: { description: "The ramp reached the COMPLETE phase." },
    FAILED: { description: "The ramp failed or was never started in time (phase FAILED or TIMED_OUT)." },
  },
});
const RampOrderEnum = enumOf(["NEWEST_FIRST", "OLDEST_FIRST"]);
registerGraphQLEnum(RampOrderEnum, {
  name: "RampOrder",
  description: "The order of a ramp history, by registration time.",
  valuesConfig: {
    NEWEST_FIRST: { description: "The most recently registered first (the default)." },
    OLDEST_FIRST: { description: "The earliest registered first." },
  },
});
const KycStatusEnum = screamingEnumOf(ELIGIBILITY_KYC_STATUSES);
registerGraphQLEnum(KycStatusEnum, {
  name: "KycStatus",
  description: "KYC as eligibility tells it: a case in review is PENDING.",
  valuesConfig: {
    NOT_STARTED: { description: "Nothing submitted in the corridor yet." },
    PENDING: { description: "Submitted and not yet decided (a case in review included)." },
    APPROVED: { description: "Verification approved." },
    REJECTED: { description: "Verification rejected." },
  },
});
const KycCaseStatusEnum = screamingEnumOf(KYC_STATUSES);
registerGraphQLEnum(KycCaseStatusEnum, {
  name: "KycCaseStatus",
  description: "A KYC/KYB case: IN_REVIEW once finished and awaiting the provider's decision.",
  valuesConfig: {
    NOT_STARTED: { description: "The provider customer exists; nothing was submitted." },
    PENDING: { description: "Submitted but not finished: information given, or the hosted flow opened." },
    IN_REVIEW: { description: "Finished and awaiting the provider's decision." },
    APPROVED: { description: "The provider approved the case." },
    REJECTED: { description: "The provider rejected the case." },
  },
});

export const Quote = outputType(quoteView, { implements: [Node] });
export type Quote = QuoteView;
export const RampError = outputType(rampErrorView);
export type RampError = RampErrorView;
export const Ramp = outputType(rampView, { implements: [Node] });
export type Ramp = RampView;

export const RampConnection = connectionType(rampView);

/** A page of a ramp history and its filters: the subject's (`ramps`), or a managed child's (`ManagedProfile.ramps`). */
@ArgsType()
export class RampHistoryArgs extends PageArgs {
  @Field(() => String, {
    nullable: true,
    description: "Only the ramps whose tokens go to or come from this address (EVM addresses in any case).",
  })
  walletAddress?: string | null;

  @Field(() => RampStatusEnum, { nullable: true, description: "Only the ramps with this status." })
  status?: string | null;

  @Field(() => RampDirectionEnum, { nullable: true, description: "Only onramps (BUY) or only offramps (SELL)." })
  type?: string | null;

  @Field(() => CorridorEnum, { nullable: true, description: "Only the ramps of this corridor." })
  corridor?: string | null;

  @Field(() => Date, { nullable: true, description: "Only the ramps registered at or after this instant." })
  createdFrom?: Date | null;

  @Field(() => Date, { nullable: true, description: "Only the ramps registered before this instant." })
  createdBefore?: Date | null;

  @Field(() => RampOrderEnum, {
    defaultValue: "NEWEST_FIRST",
    description: "By registration time: newest first or oldest first.",
  })
  orderBy!: string;
}

/** The history operation's input (REST's names and paging) from the arguments. */
export function historyInputOf(args: RampHistoryArgs) {
  const { walletAddress, status, type, corridor, createdFrom, createdBefore, orderBy } = args;
  return {
    walletAddress,
    status,
    type,
    corridor,
    createdFrom: createdFrom?.toISOString(),
    createdBefore: createdBefore?.toISOString(),
    order: orderBy,
    ...offsetPage(args),
  };
}

/** GraphQL lists ramp-info's corridors, each naming itself, where REST keys them by corridor. */
const corridorEligibilityView = outputObject("CorridorEligibility", "Whether the subject can ramp in one corridor.", {
  corridor: named("Corridor", z.enum(CORRIDORS)).describe("The corridor, by country code (EU: the euro area)."),
  ...corridorEligibilityShape,
});
const rampInfoList = outputObject("RampInfo", "The subject's ramp eligibility per corridor (no PII, ids or limits).", {
  corridors: z.array(corridorEligibilityView).describe("One entry per corridor: AR, BR, CO, EU, MX and US."),
});
export const RampInfo = outputType(rampInfoList);
export type RampInfo = z.output<typeof rampInfoList>;

const LimitPeriodTypeEnum = enumOf(LIMIT_PERIOD_TYPES);
registerGraphQLEnum(LimitPeriodTypeEnum, {
  name: "LimitPeriodType",
  description: "How a limit's use is counted.",
  valuesConfig: { CALENDAR_MONTH: { description: "Over the calendar month, in UTC." } },
});

export const UserLimit = outputType(userLimitView);
export type UserLimit = z.output<typeof userLimitView>;

// ---------------------------------------------------------------------------------------------------------
// Inputs: their shapes only; the services validate the values as they do for REST.

@InputType({ description: "What to price: the direction, the two sides of the conversion and the amount." })
export class CreateQuoteInput {
  @Field(() => RampDirectionEnum, { description: "BUY pays fiat in for tokens; SELL sends tokens for a fiat payout." })
  rampType!: string;

  @Field({ description: "BUY: the payment method; SELL: the network." })
  from!: string;

  @Field({ description: "BUY: the network; SELL: the payment method." })
  to!: string;

  @Field(() => DecimalScalar, { description: "What is paid in, in inputCurrency." })
  inputAmount!: string;

  @Field({ description: "BUY: the fiat symbol (such as BRL); SELL: the token symbol, in any case." })
  inputCurrency!: string;

  @Field({ description: "BUY: the token symbol, in any case; SELL: the fiat symbol." })
  outputCurrency!: string;

  @Field(() => NetworkEnum, { nullable: true, description: "Must match the network in from/to." })
  network?: string | null;

  @Field(() => PaymentMethodIdEnum, { nullable: true, description: "Must match the payment method in from/to." })
  paymentMethod?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "ISO 3166-1 alpha-2 code, in any case, of a country served in the quote's fiat.",
  })
  countryCode?: string | null;
}

@InputType({ description: "What to price, with the candidate networks to compare." })
export class CreateBestQuoteInput {
  @Field(() => RampDirectionEnum, { description: "BUY pays fiat in for tokens; SELL sends tokens for a fiat payout." })
  rampType!: string;

  @Field(() => String, {
    nullable: true,
    description: "BUY: the payment method (null: paymentMethod, else the fiat's home rail); not read for SELL.",
  })
  from?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "SELL: the payment method (null: paymentMethod, else the fiat's home rail); not read for BUY.",
  })
  to?: string | null;

  @Field(() => DecimalScalar, { description: "What is paid in, in inputCurrency." })
  inputAmount!: string;

  @Field({ description: "BUY: the fiat symbol (such as BRL); SELL: the token symbol, in any case." })
  inputCurrency!: string;

  @Field({ description: "BUY: the token symbol, in any case; SELL: the fiat symbol." })
  outputCurrency!: string;

  @Field(() => [NetworkEnum], {
    nullable: true,
    description: "Candidate networks (default: all); the one paying out the most wins.",
  })
  networks?: string[] | null;

  @Field(() => PaymentMethodIdEnum, {
    nullable: true,
    description: "The payment method when from (BUY) or to (SELL) is null; must match it otherwise.",
  })
  paymentMethod?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "ISO 3166-1 alpha-2 code, in any case, of a country served in the quote's fiat.",
  })
  countryCode?: string | null;
}

@InputType({
  description:
    "Either quoteId (a locked quote) or rampType, network, inputAmount and externalSessionId (the widget quotes).",
})
export class CreateWidgetSessionInput {
  @Field(() => ID, {
    nullable: true,
    description:
      "Locks the widget to this quote (one the caller may see); then only callbackUrl, externalSessionId and walletAddressLocked may join it.",
  })
  quoteId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "An http(s) URL, at most 2048 characters, the widget returns the user to once the ramp is created.",
  })
  callbackUrl?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "Your own reference for the session, 1 to 128 characters; required without quoteId.",
  })
  externalSessionId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "A wallet address the user cannot change in the widget, at most 128 characters.",
  })
  walletAddressLocked?: string | null;

  @Field(() => RampDirectionEnum, {
    nullable: true,
    description: "Without quoteId: the direction to quote (required).",
  })
  rampType?: string | null;

  @Field(() => NetworkEnum, { nullable: true, description: "Without quoteId: the network to quote on (required)." })
  network?: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: "Without quoteId: the amount to quote (required)." })
  inputAmount?: string | null;

  @Field(() => FiatCurrencySymbolEnum, { nullable: true, description: "Without quoteId: the fiat to quote in." })
  fiat?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "Without quoteId: a token of the chosen network (exact symbol) that the user cannot change.",
  })
  cryptoLocked?: string | null;

  @Field(() => PaymentMethodIdEnum, { nullable: true, description: "Without quoteId: the payment method." })
  paymentMethod?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "Without quoteId: a supported country's ISO 3166-1 alpha-2 code, in capitals.",
  })
  countryCode?: string | null;
}

const SigningAccountTypeEnum = screamingEnumOf(SIGNING_ACCOUNT_TYPES);
registerGraphQLEnum(SigningAccountTypeEnum, {
  name: "SigningAccountType",
  description: "The kind of chain a signing account is on (REST spells SUBSTRATE as Substrate).",
  valuesConfig: {
    EVM: { description: "An EVM chain: a 0x address." },
    SUBSTRATE: { description: "A Substrate chain (AssetHub): an SS58 address." },
  },
});

@InputType({ description: "An account that signs the ramp's transactions; stored with the ramp." })
export class SigningAccountInput {
  @Field({ description: "The account's public address, 1 to 256 characters." })
  address!: string;

  @Field(() => SigningAccountTypeEnum, { description: "The kind of chain the account is on." })
  type!: string;
}

@InputType({ description: "The reference contract's payment data, stored with the ramp as given." })
export class PaymentDataInput {
  @Field(() => String, { nullable: true, description: "The payment's amount, 1 to 256 characters." })
  amount?: string | null;

  @Field(() => String, { nullable: true, description: "The payment memo, 1 to 256 characters." })
  memo?: string | null;

  @Field(() => String, { nullable: true, description: "How to read memo (such as text or id), 1 to 256 characters." })
  memoType?: string | null;
}

@InputType({ description: "Direction- and corridor-specific details of a registration, stored with the ramp." })
export class RegisterRampAdditionalDataInput {
  @Field(() => String, {
    nullable: true,
    description:
      "BUY: where the tokens go, instead of the input's destinationAddress (they must match if both are given).",
  })
  destinationAddress?: string | null;

  @Field(() => String, { nullable: true, description: "SELL: where the tokens come from (required)." })
  walletAddress?: string | null;

  @Field(() => String, { nullable: true, description: "BRL: a PIX key, 1 to 256 characters, stored as given." })
  pixDestination?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "BRL: the receiver's tax id, 1 to 256 characters, stored as given.",
  })
  receiverTaxId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "BRL: deprecated cross-check; must match the profile's verified tax id.",
  })
  taxId?: string | null;

  @Field(() => PaymentDataInput, { nullable: true, description: "Payment details, stored as given." })
  paymentData?: PaymentDataInput | null;
}

@InputType({ description: "A registration: the quote, where the tokens go or come from, and the payout account." })
export class RegisterRampInput {
  @Field(() => ID, {
    description: "The quote to consume: the caller's own or an unowned one, unexpired and not yet registered.",
  })
  quoteId!: string;

  @Field(() => String, { nullable: true, description: "BUY: where the tokens go (required)." })
  destinationAddress?: string | null;

  @Field(() => ID, {
    nullable: true,
    description:
      "SELL in AR, CO, MX or US: the subject's fiat account for the payout (required there, refused elsewhere).",
  })
  fiatAccountId?: string | null;

  @Field(() => ID, { nullable: true, description: "A widget session (createWidgetSession)." })
  sessionId?: string | null;

  @Field(() => [SigningAccountInput], { nullable: true, description: "At most 10 signing accounts." })
  signingAccounts?: SigningAccountInput[] | null;

  @Field(() => RegisterRampAdditionalDataInput, {
    nullable: true,
    description: "Extra details; a SELL gives its walletAddress here.",
  })
  additionalData?: RegisterRampAdditionalDataInput | null;
}

@InputType({ description: "Client-reported transaction hashes; a null clears one." })
export class UpdateRampAdditionalDataInput {
  @Field(() => String, { nullable: true, description: "Hash of the AssetHub-to-Pendulum transfer." })
  assethubToPendulumHash?: string | null;

  @Field(() => String, { nullable: true, description: "Hash of the Squid Router approval." })
  squidRouterApproveHash?: string | null;

  @Field(() => String, { nullable: true, description: "Hash of the Squid Router approval without permit." })
  squidRouterNoPermitApproveHash?: string | null;

  @Field(() => String, { nullable: true, description: "Hash of the Squid Router swap without permit." })
  squidRouterNoPermitSwapHash?: string | null;

  @Field(() => String, { nullable: true, description: "Hash of the Squid Router transfer without permit." })
  squidRouterNoPermitTransferHash?: string | null;

  @Field(() => String, { nullable: true, description: "Hash of the Squid Router swap." })
  squidRouterSwapHash?: string | null;
}

@InputType({ description: "What updateRamp adds to a ramp still initial and within its start window." })
export class UpdateRampInput {
  @Field(() => ID, { description: "The UUID of the subject's ramp to update." })
  rampId!: string;

  @Field(() => [GraphQLJSONObject], { description: "SELL: the signed unsignedTxs (at most 20, 16 KB in all)." })
  presignedTxs!: Record<string, unknown>[];

  @Field(() => UpdateRampAdditionalDataInput, {
    nullable: true,
    description: "Hashes to record; each one given replaces the stored value, and the others stay.",
  })
  additionalData?: UpdateRampAdditionalDataInput | null;
}
