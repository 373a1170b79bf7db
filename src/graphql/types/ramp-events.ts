import { Field, ID, ObjectType } from "type-graphql";
import { RampStatusEnum } from "./ramps.js";
import { RampDirectionEnum } from "./reference-data.js";
import { WebhookEventTypeEnum } from "./webhooks.js";

/** The fields of a webhook body's payload, as the JSON spells them. */
@ObjectType({ description: "What an event says about its ramp (the webhook body's payload)." })
export class RampEventPayload {
  @Field(() => ID, { description: "The quote the ramp was registered from." })
  quoteId!: string;

  @Field(() => ID, { description: "The ramp's id." })
  transactionId!: string;

  @Field(() => ID, { nullable: true, description: "The widget session the ramp was registered with." })
  sessionId!: string | null;

  @Field(() => RampStatusEnum, { description: "The ramp's status as of the event." })
  transactionStatus!: string;

  @Field(() => RampDirectionEnum, { description: "Whether the ramp is an onramp or an offramp." })
  transactionType!: string;
}

@ObjectType({ description: "A ramp event, exactly as webhook receivers get it." })
export class RampEvent {
  @Field(() => ID, { description: "Stable across redeliveries." })
  eventId!: string;

  @Field(() => WebhookEventTypeEnum, { description: "What happened to the ramp." })
  eventType!: string;

  @Field({ description: "ISO 8601 UTC with milliseconds." })
  timestamp!: string;

  @Field(() => RampEventPayload, { description: "The ramp the event reports on, as of the event." })
  payload!: RampEventPayload;
}
