import { Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { SIGNATURE_SCHEME } from "../../webhooks/signing.js";
import { Connection } from "./connection.js";
import { namedEnumOf } from "./enums.js";

export enum WebhookEventTypeEnum {
  TRANSACTION_CREATED = "TRANSACTION_CREATED",
  STATUS_CHANGE = "STATUS_CHANGE",
}
registerEnumType(WebhookEventTypeEnum, {
  name: "WebhookEventType",
  description: "The ramp events webhooks carry.",
  valuesConfig: {
    TRANSACTION_CREATED: { description: "A ramp was registered on the followed quote or widget session." },
    STATUS_CHANGE: { description: "A ramp on the followed quote or widget session changed status." },
  },
});

export enum WebhookDeliveryStatusEnum {
  PENDING = "pending",
  DELIVERED = "delivered",
  FAILED = "failed",
}
registerEnumType(WebhookDeliveryStatusEnum, {
  name: "WebhookDeliveryStatus",
  description: "Where a delivery stands; a redelivery makes it PENDING again.",
  valuesConfig: {
    PENDING: { description: "Queued, or waiting for a retry (see nextAttemptAt)." },
    DELIVERED: { description: "A send got a 2xx answer." },
    FAILED: { description: "Every send of the round failed, or the subscription was disabled first." },
  },
});

@ObjectType({ description: "One send of a delivery." })
export class WebhookAttempt {
  @Field({ description: "When the send began." })
  startedAt!: Date;

  @Field(() => Int, { description: "How long the send took until the answer or the failure, in milliseconds." })
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
  @Field(() => ID, { description: "The delivery's id, which redeliverWebhookDelivery takes." })
  id!: string;

  @Field(() => ID, { description: "The event's stable id, the same in every send." })
  eventId!: string;

  @Field(() => WebhookEventTypeEnum, { description: "The kind of ramp event delivered." })
  eventType!: WebhookEventTypeEnum;

  @Field(() => WebhookDeliveryStatusEnum, { description: "Where the delivery stands now." })
  status!: WebhookDeliveryStatusEnum;

  @Field(() => [WebhookAttempt], { description: "Oldest first, across redeliveries." })
  attempts!: WebhookAttempt[];

  @Field(() => Date, { nullable: true, description: "When the next send is due (PENDING only)." })
  nextAttemptAt!: Date | null;

  @Field(() => Date, { nullable: true, description: "When a send got a 2xx answer; null unless DELIVERED." })
  deliveredAt!: Date | null;

  @Field({ description: "When the event was recorded for this subscription." })
  createdAt!: Date;
}

export const WebhookDeliveryConnection = Connection(WebhookDelivery, "WebhookDelivery");

@ObjectType({ description: "A webhook subscription: signed POSTs of a quote's or widget session's ramp events." })
export class Webhook {
  @Field(() => ID, { description: "The subscription's id." })
  id!: string;

  @Field({ description: "The HTTPS address the signed events are POSTed to." })
  url!: string;

  @Field(() => ID, { nullable: true, description: "The followed quote; null when a widget session is followed." })
  quoteId!: string | null;

  @Field(() => ID, { nullable: true, description: "The followed widget session; null when a quote is followed." })
  sessionId!: string | null;

  @Field(() => [WebhookEventTypeEnum], { description: "The event types sent to the URL." })
  events!: WebhookEventTypeEnum[];

  @Field({ description: "False once five deliveries in a row failed; register again to resume." })
  isActive!: boolean;

  @Field({ description: "When the subscription was registered." })
  createdAt!: Date;
}

export const WebhookConnection = Connection(Webhook, "Webhook");

@InputType({ description: "Exactly one of quoteId and sessionId, created with the calling secret key." })
export class RegisterWebhookInput {
  @Field({
    description:
      "HTTPS only, with no user name or password, at most 2048 characters; every address it resolves to must be publicly routable.",
  })
  url!: string;

  @Field(() => ID, {
    nullable: true,
    description: "A quote created with the calling secret key; null when sessionId is given.",
  })
  quoteId?: string | null;

  @Field(() => ID, {
    nullable: true,
    description: "A widget session created with the calling secret key; null when quoteId is given.",
  })
  sessionId?: string | null;

  @Field(() => [WebhookEventTypeEnum], { nullable: true, description: "Default: both." })
  events?: WebhookEventTypeEnum[] | null;
}

// RSA-PSS is RSA_PSS: a GraphQL name holds no "-". The values stay WebCrypto's names, as REST writes them.
const webCryptoName = (name: string) => name.replace(/-/g, "_");

const SignatureAlgorithmEnum = namedEnumOf([SIGNATURE_SCHEME.algorithm], webCryptoName);
registerEnumType(SignatureAlgorithmEnum, {
  name: "SignatureAlgorithm",
  description: "How webhook bodies are signed (REST spells RSA_PSS as RSA-PSS, WebCrypto's name).",
  valuesConfig: { RSA_PSS: { description: "RSA-PSS (RFC 8017), MGF1 with the same digest." } },
});

const SignatureHashEnum = namedEnumOf([SIGNATURE_SCHEME.hash], webCryptoName);
registerEnumType(SignatureHashEnum, {
  name: "SignatureHash",
  description: "The message digest of webhook signatures (REST spells SHA_256 as SHA-256, WebCrypto's name).",
  valuesConfig: { SHA_256: { description: "SHA-256." } },
});

@ObjectType({
  description: "The key webhook signatures verify with, and how they are made (REST: GET /v1/public-key).",
})
export class WebhookSigningKey {
  @Field({ description: "SPKI PEM of the key that signs webhook deliveries." })
  publicKey!: string;

  @Field(() => SignatureAlgorithmEnum, { description: "The signature algorithm." })
  algorithm!: string;

  @Field(() => SignatureHashEnum, { description: "The message digest, also used by MGF1." })
  hash!: string;

  @Field(() => Int, { description: "The salt length in bytes." })
  saltLength!: number;
}
