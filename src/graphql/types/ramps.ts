import { ArgsType, Field } from "type-graphql";
import { rampStatusEnum } from "../../reference-data/ramp-phases.js";
import { bestQuoteInput, quoteInput, quoteView, rampDirectionEnum } from "../../quotes/types.js";
import {
  rampErrorView,
  rampView,
  rampOrderEnum,
  registerInput,
  updateInput,
  type RampErrorView,
  type RampView,
} from "../../ramps/types.js";
import { connectionType, offsetPage, PageArgs } from "./connection.js";
import { CorridorEnum } from "./managed-profiles.js";
import { Node } from "./node.js";
import { inputType } from "./input-type.js";
import { graphqlEnum, outputType } from "./output-type.js";
import { z } from "zod";
import { corridorEligibilityShape } from "../../onboarding/types.js";
import { named, outputObject } from "../../output.js";
import { CORRIDORS } from "../../reference-data/corridors.js";
import { createWidgetSessionInput } from "../../widget-sessions/types.js";

export const RampDirectionEnum = graphqlEnum(rampDirectionEnum);
const RampStatusEnum = graphqlEnum(rampStatusEnum);
const RampOrderEnum = graphqlEnum(rampOrderEnum);

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

export const RegisterRampInput = inputType("RegisterRampInput", registerInput, {
  description: "A registration: the quote, where the tokens go or come from, and the payout account.",
});

export const UpdateRampInput = inputType("UpdateRampInput", updateInput, {
  description: "What updateRamp adds to a ramp still initial and within its start window.",
});
