import {
  registerWebhookInput,
  signingKeyView,
  webhookDeliveryView,
  webhookView,
  type WebhookView,
} from "../../webhooks/types.js";
import { connectionType } from "./connection.js";
import { inputType } from "./input-type.js";
import { outputType } from "./output-type.js";

export const WebhookDeliveryConnection = connectionType(webhookDeliveryView);

export const Webhook = outputType(webhookView);
export type Webhook = WebhookView;

export const RegisterWebhookInput = inputType("RegisterWebhookInput", registerWebhookInput, {
  description: "Exactly one of quoteId and sessionId, created with the calling secret key.",
});

export const WebhookSigningKey = outputType(signingKeyView);
