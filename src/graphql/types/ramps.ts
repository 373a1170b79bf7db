import { ArgsType, Field } from "type-graphql";
import { described, enumOf, screamingEnumOf } from "./enums.js";
import { KYC_STATUSES } from "../../providers/kyc-port.js";
import { RAMP_PHASES, RAMP_STATUSES } from "../../reference-data/ramp-phases.js";
import { bestQuoteInput, quoteInput, quoteView } from "../../quotes/types.js";
import {
  rampErrorView,
  rampView,
  registerInput,
  SIGNING_ACCOUNT_TYPES,
  updateInput,
  type RampErrorView,
  type RampView,
} from "../../ramps/types.js";
import { connectionType, offsetPage, PageArgs } from "./connection.js";
import { CorridorEnum } from "./managed-profiles.js";
import { RampDirectionEnum } from "./reference-data.js";
import { Node } from "./node.js";
import { inputType } from "./input-type.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";
import { z } from "zod";
import { corridorEligibilityShape, ELIGIBILITY_KYC_STATUSES, LIMIT_PERIOD_TYPES } from "../../onboarding/types.js";
import { named, outputObject } from "../../output.js";
import { CORRIDORS } from "../../reference-data/corridors.js";
import { createWidgetSessionInput } from "../../widget-sessions/types.js";

registerGraphQLEnum(screamingEnumOf(RAMP_PHASES), {
  name: "RampPhase",
  description: "The provider-agnostic step of a ramp.",
  valuesConfig: described({
    INITIAL: "Registered and not started: updateRamp and startRamp work until the start window ends.",
    AWAITING_PAYMENT: "Started: the provider waits for the incoming funds.",
    PAYMENT_CONFIRMED: "The provider has the incoming funds.",
    EXCHANGING: "The funds are being converted.",
    PAYING_OUT: "The converted funds are on their way out (tokens for BUY, fiat for SELL).",
    COMPLETE: "Paid out; the status is COMPLETE.",
    FAILED: "Stopped by an unrecoverable error (see errors); the status is FAILED.",
    TIMED_OUT: "Not started within the start window; the status is FAILED.",
  }),
});
const RampStatusEnum = registerGraphQLEnum(screamingEnumOf(RAMP_STATUSES), {
  name: "RampStatus",
  description: "PENDING until the ramp completes or fails.",
  valuesConfig: described({
    PENDING: "Registered or processing: the phase is not yet COMPLETE, FAILED or TIMED_OUT.",
    COMPLETE: "The ramp reached the COMPLETE phase.",
    FAILED: "The ramp failed or was never started in time (phase FAILED or TIMED_OUT).",
  }),
});
const RampOrderEnum = registerGraphQLEnum(enumOf(["NEWEST_FIRST", "OLDEST_FIRST"]), {
  name: "RampOrder",
  description: "The order of a ramp history, by registration time.",
  valuesConfig: described({
    NEWEST_FIRST: "The most recently registered first (the default).",
    OLDEST_FIRST: "The earliest registered first.",
  }),
});
registerGraphQLEnum(screamingEnumOf(ELIGIBILITY_KYC_STATUSES), {
  name: "KycStatus",
  description: "KYC as eligibility tells it: a case in review is PENDING.",
  valuesConfig: described({
    NOT_STARTED: "Nothing submitted in the corridor yet.",
    PENDING: "Submitted and not yet decided (a case in review included).",
    APPROVED: "Verification approved.",
    REJECTED: "Verification rejected.",
  }),
});
registerGraphQLEnum(screamingEnumOf(KYC_STATUSES), {
  name: "KycCaseStatus",
  description: "A KYC/KYB case: IN_REVIEW once finished and awaiting the provider's decision.",
  valuesConfig: described({
    NOT_STARTED: "The provider customer exists; nothing was submitted.",
    PENDING: "Submitted but not finished: information given, or the hosted flow opened.",
    IN_REVIEW: "Finished and awaiting the provider's decision.",
    APPROVED: "The provider approved the case.",
    REJECTED: "The provider rejected the case.",
  }),
});

// A quote is a Node: its type is built here, before the fields that answer one name it.
outputType(quoteView, { implements: [Node] });
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

registerGraphQLEnum(enumOf(LIMIT_PERIOD_TYPES), {
  name: "LimitPeriodType",
  description: "How a limit's use is counted.",
  valuesConfig: described({ CALENDAR_MONTH: "Over the calendar month, in UTC." }),
});

// ---------------------------------------------------------------------------------------------------------
// Inputs: the operations' own; their schemas validate the values, as for REST.

export const CreateQuoteInput = inputType("CreateQuoteInput", quoteInput, {
  description: "What to price: the direction, the two sides of the conversion and the amount.",
});

export const CreateBestQuoteInput = inputType("CreateBestQuoteInput", bestQuoteInput, {
  description: "What to price, with the candidate networks to compare.",
});

export const CreateWidgetSessionInput = inputType("CreateWidgetSessionInput", createWidgetSessionInput, {
  description:
    "Either quoteId (a locked quote) or rampType, network, inputAmount and externalSessionId (the widget quotes).",
  // The locked form's fields first; not the reference's partnerId, since attribution comes from the credentials.
  fields: [
    ...(["quoteId", "callbackUrl", "externalSessionId", "walletAddressLocked", "rampType", "network"] as const),
    ...(["inputAmount", "fiat", "cryptoLocked", "paymentMethod", "countryCode"] as const),
  ],
});

registerGraphQLEnum(screamingEnumOf(SIGNING_ACCOUNT_TYPES), {
  name: "SigningAccountType",
  description: "The kind of chain a signing account is on (REST spells SUBSTRATE as Substrate).",
  valuesConfig: described({
    EVM: "An EVM chain: a 0x address.",
    SUBSTRATE: "A Substrate chain (AssetHub): an SS58 address.",
  }),
});

export const RegisterRampInput = inputType("RegisterRampInput", registerInput, {
  description: "A registration: the quote, where the tokens go or come from, and the payout account.",
});

export const UpdateRampInput = inputType("UpdateRampInput", updateInput, {
  description: "What updateRamp adds to a ramp still initial and within its start window.",
});
