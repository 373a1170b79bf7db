import { webhookEventBody } from "../../events/outbox.js";
import { signedDeliveryView } from "../../webhooks/types.js";
import { outputType } from "./output-type.js";

export const RampEvent = outputType(webhookEventBody);
export const SignedWebhookDelivery = outputType(signedDeliveryView);
