import { Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { Connection } from "./connection.js";

export enum WebhookEventTypeEnum {
  TRANSACTION_CREATED = "TRANSACTION_CREATED",
  STATUS_CHANGE = "STATUS_CHANGE",
}
registerEnumType(WebhookEventTypeEnum, { name: "WebhookEventType", description: "The ramp events webhooks carry." });

export enum WebhookDeliveryStatusEnum {
  PENDING = "pending",
  DELIVERED = "delivered",
  FAILED = "failed",
}
registerEnumType(WebhookDeliveryStatusEnum, {
  name: "WebhookDeliveryStatus",
  description:
    "PENDING: queued or waiting for a retry; DELIVERED: a 2xx answer; FAILED: every send failed, or the subscription was disabled.",
});

@ObjectType({ description: "One send of a delivery." })
export class WebhookAttempt {
  @Field()
  startedAt!: Date;

  @Field(() => Int)
  durationMs!: number;

  @Field(() => Int, { nullable: true, description: "The receiver's status code; null when there was no answer." })
  statusCode!: number | null;

  @Field(() => String, {
    nullable: true,
    description: "Why the send failed without a usable answer (timeout, refused address, redirect, ...).",
  })
  error!: string | null;
}

@ObjectType({ description: "An event owed to a webhook subscription, with every send made for it." })
export class WebhookDelivery {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { description: "The event's stable id, the same in every send." })
  eventId!: string;

  @Field(() => WebhookEventTypeEnum)
  eventType!: WebhookEventTypeEnum;

  @Field(() => WebhookDeliveryStatusEnum)
  status!: WebhookDeliveryStatusEnum;

  @Field(() => [WebhookAttempt], { description: "Oldest first, across redeliveries." })
  attempts!: WebhookAttempt[];

  @Field(() => Date, { nullable: true, description: "When the next send is due (PENDING only)." })
  nextAttemptAt!: Date | null;

  @Field(() => Date, { nullable: true })
  deliveredAt!: Date | null;

  @Field()
  createdAt!: Date;
}

export const WebhookDeliveryConnection = Connection(WebhookDelivery, "WebhookDelivery");

@ObjectType({ description: "A webhook subscription: signed POSTs of a quote's or widget session's ramp events." })
export class Webhook {
  @Field(() => ID)
  id!: string;

  @Field()
  url!: string;

  @Field(() => ID, { nullable: true })
  quoteId!: string | null;

  @Field(() => ID, { nullable: true })
  sessionId!: string | null;

  @Field(() => [WebhookEventTypeEnum])
  events!: WebhookEventTypeEnum[];

  @Field({ description: "False once five deliveries in a row failed; register again to resume." })
  isActive!: boolean;

  @Field()
  createdAt!: Date;
}

export const WebhookConnection = Connection(Webhook, "Webhook");

@InputType({ description: "Exactly one of quoteId and sessionId, created with the calling secret key." })
export class RegisterWebhookInput {
  @Field({ description: "https only; every address it resolves to must be publicly routable." })
  url!: string;

  @Field(() => ID, { nullable: true })
  quoteId?: string | null;

  @Field(() => ID, { nullable: true })
  sessionId?: string | null;

  @Field(() => [WebhookEventTypeEnum], { nullable: true, description: "Default: both." })
  events?: WebhookEventTypeEnum[] | null;
}
