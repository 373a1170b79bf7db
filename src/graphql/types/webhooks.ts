import { SIGNATURE_SCHEME } from "../../webhooks/signing.js";
import {
  DELIVERED_EVENT_TYPES,
  registerWebhookInput,
  signingKeyView,
  WEBHOOK_DELIVERY_STATUSES,
  webhookDeliveryView,
  webhookView,
  type WebhookView,
} from "../../webhooks/types.js";
import { connectionType } from "./connection.js";
import { enumOf, namedEnumOf } from "./enums.js";
import { inputType } from "./input-type.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";

registerGraphQLEnum(enumOf(DELIVERED_EVENT_TYPES), {
  name: "WebhookEventType",
  description: "The events webhooks carry: ramp events, which a subscription names, and test events.",
  valuesConfig: {
    TRANSACTION_CREATED: { description: "A ramp was registered on the followed quote or widget session." },
    STATUS_CHANGE: { description: "A ramp on the followed quote or widget session changed status." },
    WEBHOOK_TEST: {
      description:
        "A test event sent on request (sendWebhookTestEvent); no subscription names it, every one can be sent it.",
    },
  },
});

registerGraphQLEnum(enumOf(WEBHOOK_DELIVERY_STATUSES), {
  name: "WebhookDeliveryStatus",
  description: "Where a delivery stands; a redelivery makes it PENDING again.",
  valuesConfig: {
    PENDING: { description: "Queued, or waiting for a retry (see nextAttemptAt)." },
    DELIVERED: { description: "A send got a 2xx answer." },
    FAILED: { description: "Every send of the round failed, or the subscription was disabled first." },
  },
});

export const WebhookDeliveryConnection = connectionType(webhookDeliveryView);

export const Webhook = outputType(webhookView);
export type Webhook = WebhookView;

export const RegisterWebhookInput = inputType("RegisterWebhookInput", registerWebhookInput, {
  description: "Exactly one of quoteId and sessionId, created with the calling secret key.",
});

// RSA-PSS is RSA_PSS: a GraphQL name holds no "-". The values stay WebCrypto's names, as REST writes them.
const webCryptoName = (name: string) => name.replace(/-/g, "_");

registerGraphQLEnum(namedEnumOf([SIGNATURE_SCHEME.algorithm], webCryptoName), {
  name: "SignatureAlgorithm",
  description: "How webhook bodies are signed (REST spells RSA_PSS as RSA-PSS, WebCrypto's name).",
  valuesConfig: { RSA_PSS: { description: "RSA-PSS (RFC 8017), MGF1 with the same digest." } },
});

registerGraphQLEnum(namedEnumOf([SIGNATURE_SCHEME.hash], webCryptoName), {
  name: "SignatureHash",
  description: "The message digest of webhook signatures (REST spells SHA_256 as SHA-256, WebCrypto's name).",
  valuesConfig: { SHA_256: { description: "SHA-256." } },
});

export const WebhookSigningKey = outputType(signingKeyView);
