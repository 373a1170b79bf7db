import { ArgsType, Field } from "type-graphql";
import { rampStatusEnum } from "../../reference-data/ramp-phases.js";
import { quoteView, rampDirectionEnum } from "../../quotes/types.js";
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

// ---------------------------------------------------------------------------------------------------------
// Inputs: the operations' own; their schemas validate the values, as for REST.

export const RegisterRampInput = inputType("RegisterRampInput", registerInput, {
  description: "A registration: the quote, where the tokens go or come from, and the payout account.",
});

export const UpdateRampInput = inputType("UpdateRampInput", updateInput, {
  description: "What updateRamp adds to a ramp still initial and within its start window.",
});
