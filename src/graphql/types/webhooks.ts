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
import { inputType } from "./input-type.js";
import { outputType } from "./output-type.js";
import { describedEnum, hyphensAsUnderscores } from "../../enums.js";

export const WebhookDeliveryConnection = connectionType(webhookDeliveryView);

export const Webhook = outputType(webhookView);
export type Webhook = WebhookView;

export const RegisterWebhookInput = inputType("RegisterWebhookInput", registerWebhookInput, {
  description: "Exactly one of quoteId and sessionId, created with the calling secret key.",
});

export const WebhookSigningKey = outputType(signingKeyView);

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
