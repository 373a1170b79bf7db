import { z } from "zod";
import { describedEnum, hyphensAsUnderscores } from "../enums.js";
import { WEBHOOK_EVENT_TYPES } from "../events/outbox.js";
import { idField, instantField, named, outputObject, pagination } from "../output.js";
import { text, uuid } from "../validation.js";
import { SIGNATURE_SCHEME } from "./signing.js";

/** The test event a subscription is sent on request (POST /v1/webhook/{id}/test): it reports on no ramp. */
export const WEBHOOK_TEST_EVENT = "WEBHOOK_TEST";
/** What a delivery carries: a ramp event a subscription asked for, or a test event. */
const DELIVERED_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;
export type DeliveredEventType = (typeof DELIVERED_EVENT_TYPES)[number];

const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

describedEnum("WebhookEventType", DELIVERED_EVENT_TYPES, {
  description: "The events webhooks carry: ramp events, which a subscription names, and test events.",
  meanings: {
    TRANSACTION_CREATED: "A ramp was registered on the followed quote or widget session.",
    STATUS_CHANGE: "A ramp on the followed quote or widget session changed status.",
    WEBHOOK_TEST:
      "A test event sent on request (sendWebhookTestEvent); no subscription names it, every one can be sent it.",
  },
});

describedEnum("WebhookDeliveryStatus", WEBHOOK_DELIVERY_STATUSES, {
  description: "Where a delivery stands; a redelivery makes it PENDING again.",
  meanings: {
    pending: "Queued, or waiting for a retry (see nextAttemptAt).",
    delivered: "A send got a 2xx answer.",
    failed: "Every send of the round failed, or the subscription was disabled first.",
  },
});

// RSA-PSS is RSA_PSS: a GraphQL name holds no "-". The values stay WebCrypto's names, as REST writes them.
describedEnum("SignatureAlgorithm", [SIGNATURE_SCHEME.algorithm], {
  description: "How webhook bodies are signed (REST spells RSA_PSS as RSA-PSS, WebCrypto's name).",
  graphqlName: hyphensAsUnderscores,
  meanings: { "RSA-PSS": "RSA-PSS (RFC 8017), MGF1 with the same digest." },
});

describedEnum("SignatureHash", [SIGNATURE_SCHEME.hash], {
  description: "The message digest of webhook signatures (REST spells SHA_256 as SHA-256, WebCrypto's name).",
  graphqlName: hyphensAsUnderscores,
  meanings: { "SHA-256": "SHA-256." },
});

/**
 * A registration. The URL itself is checked by the URL policy (INVALID_WEBHOOK_URL), and that exactly one
 * of quoteId and sessionId is given by the service, not here.
 */
export const registerWebhookInput = z
  .object({
    url: text("token").describe(
      "HTTPS only, with no user name or password, at most 2048 characters; every address it resolves to must be publicly routable.",
    ),
    quoteId: named("ID", uuid())
      .nullish()
      .describe("A quote created with the calling secret key; null when sessionId is given."),
    sessionId: named("ID", uuid())
      .nullish()
      .describe("A widget session created with the calling secret key; null when quoteId is given."),
    events: z
      .array(named("WebhookEventType", z.enum(WEBHOOK_EVENT_TYPES)))
      .min(1, "must name at least one event type")
      .refine((events) => new Set(events).size === events.length, "must not repeat an event type")
      .optional()
      .describe("Default: both."),
  })
  .strict();
export type RegisterWebhookInput = z.output<typeof registerWebhookInput>;

/** One page of a subscription's delivery log. */
export const webhookDeliveriesInput = z
  .object({
    id: uuid(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .strict();
export type WebhookDeliveryPage = z.output<typeof webhookDeliveriesInput>;

const eventType = () => named("WebhookEventType", z.enum(WEBHOOK_EVENT_TYPES));

/** A webhook registration as callers see it. */
export const webhookView = outputObject(
  "Webhook",
  "A webhook subscription: signed POSTs of a quote's or widget session's ramp events.",
  {
    id: idField("The subscription's id."),
    url: z.string().describe("The HTTPS address the signed events are POSTed to."),
    quoteId: idField("The followed quote; null when a widget session is followed.").nullable(),
    sessionId: idField("The followed widget session; null when a quote is followed.").nullable(),
    events: z.array(eventType()).describe("The event types sent to the URL."),
    isActive: z.boolean().describe("False once five deliveries in a row failed; register again to resume."),
    createdAt: instantField("When the subscription was registered."),
  },
);
export type WebhookView = z.output<typeof webhookView>;

const requestHeader = outputObject("WebhookRequestHeader", "A header of a delivery's request.", {
  name: z.string().describe("The header's name, in lower case."),
  value: z.string().describe("Its value, as sent."),
});

const sentRequest = outputObject(
  "WebhookAttemptRequest",
  "The request an attempt sent: a receiver's signature check can be reproduced from its headers and body.",
  {
    headers: z
      .array(requestHeader)
      .describe("Every header of ours (X-Service-Timestamp, X-Service-Signature, Content-Type, User-Agent)."),
    body: z.string().describe("The body exactly as sent: the event's, the same in every attempt."),
  },
);

/** An event as a webhook delivery sends it, signed when it was asked for: what `npm run -s listen` forwards. */
export const signedDeliveryView = outputObject(
  "SignedWebhookDelivery",
  "An event as a webhook delivery sends it: POST the body with these headers and a receiver verifies it as a delivery.",
  {
    headers: z
      .array(requestHeader)
      .describe("Every header a delivery sends (X-Service-Timestamp, X-Service-Signature, Content-Type, User-Agent)."),
    body: z.string().describe("The body exactly as a delivery sends it."),
  },
);

const attemptView = outputObject("WebhookAttempt", "One send of a delivery.", {
  startedAt: instantField("When the send began."),
  durationMs: z.number().int().describe("How long the send took until the answer or the failure, in milliseconds."),
  statusCode: z.number().int().nullable().describe("The receiver's status code; null when there was no answer."),
  error: z
    .string()
    .nullable()
    .describe("Why the send failed without a usable answer (timeout, refused address, redirect, ...)."),
  request: sentRequest.nullable().describe("The request sent; null for attempts made before requests were logged."),
});

/** An event owed to a subscription, with every send made for it. */
export const webhookDeliveryView = outputObject(
  "WebhookDelivery",
  "An event owed to a webhook subscription, with every send made for it.",
  {
    id: idField("The delivery's id, which a redelivery names."),
    eventId: idField("The event's stable id, the same in every send."),
    eventType: named("WebhookEventType", z.enum(DELIVERED_EVENT_TYPES)).describe(
      "The kind of event delivered: a ramp event, or WEBHOOK_TEST for a test event.",
    ),
    status: named("WebhookDeliveryStatus", z.enum(WEBHOOK_DELIVERY_STATUSES)).describe(
      "Where the delivery stands now.",
    ),
    attempts: z.array(attemptView).describe("Oldest first, across redeliveries."),
    nextAttemptAt: instantField("When the next send is due (pending only).").nullable(),
    deliveredAt: instantField("When a send got a 2xx answer; null unless delivered.").nullable(),
    createdAt: instantField("When the event was recorded for this subscription."),
  },
);
export type WebhookDeliveryView = z.output<typeof webhookDeliveryView>;

/** A page of the profile's subscriptions. */
export const webhookList = z.object({ webhooks: z.array(webhookView), pagination });

/** A page of a subscription's delivery log, and how many deliveries it holds. */
export const deliveryLog = z.object({ totalCount: z.number().int(), deliveries: z.array(webhookDeliveryView) });

export const signingKeyView = outputObject(
  "WebhookSigningKey",
  "The key webhook signatures verify with, and how they are made (REST: GET /v1/public-key).",
  {
    publicKey: z.string().describe("SPKI PEM of the key that signs webhook deliveries."),
    algorithm: named("SignatureAlgorithm", z.literal(SIGNATURE_SCHEME.algorithm)).describe("The signature algorithm."),
    hash: named("SignatureHash", z.literal(SIGNATURE_SCHEME.hash)).describe("The message digest, also used by MGF1."),
    saltLength: z.literal(SIGNATURE_SCHEME.saltLength).describe("The salt length in bytes."),
  },
);

/** The signing key as receivers are told it: its public half and the one scheme every signature is made with. */
export const signingKeyViewOf = ({ publicKey }: { publicKey: string }): z.output<typeof signingKeyView> => ({
  publicKey,
  ...SIGNATURE_SCHEME,
});
