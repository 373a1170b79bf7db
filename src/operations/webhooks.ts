import { z } from "zod";
import { idInput } from "../output.js";
import { listPage } from "../validation.js";
import {
  deliveryLog,
  registerWebhookInput,
  webhookDeliveriesInput,
  webhookDeliveryView,
  webhookList,
  webhookView,
} from "../webhooks/types.js";
import { defineOpenOperation, defineOperation, gate } from "./operation.js";
import { REFERENCE_DATA } from "./reference-data.js";

/** A non-managed profile's secret key only: no selector (400), no child's own key (403). */
const WEBHOOKS = { requires: ["WEBHOOK_MANAGEMENT"], delegation: "MANAGER_ONLY" } as const;
const byId = z.object({ id: idInput("The subscription's id (Webhook.id).") });

export const registerWebhook = defineOperation({
  name: "registerWebhook",
  summary: "Subscribe a URL to the events of a quote or widget session created with this secret key",
  access: WEBHOOKS,
  input: registerWebhookInput,
  output: webhookView,
  run: (app, acting, form) => app.webhooks.register(acting, form),
});

export const listWebhooks = defineOperation({
  name: "listWebhooks",
  summary: "List the profile's webhook subscriptions, newest first",
  access: WEBHOOKS,
  input: listPage,
  output: webhookList,
  run: (app, acting, page) => app.webhooks.list(acting, page),
});

export const deleteWebhook = defineOperation({
  name: "deleteWebhook",
  summary: "Delete a webhook subscription and its delivery log",
  access: WEBHOOKS,
  input: byId,
  run: (app, acting, { id }) => app.webhooks.delete(acting, id),
});

export const listWebhookDeliveries = defineOperation({
  name: "listWebhookDeliveries",
  summary: "List a webhook's deliveries",
  access: WEBHOOKS,
  // Another profile's subscription is NOT_FOUND before the page is validated.
  gate: gate(byId, (app, acting, { id }) => app.webhooks.subscription(acting, id)),
  input: webhookDeliveriesInput,
  output: deliveryLog,
  run: (app, _acting, page, subscription) => app.webhooks.deliveries(subscription, page),
});

export const redeliverWebhookDelivery = defineOperation({
  name: "redeliverWebhookDelivery",
  summary: "Send a delivered or failed event again in a new round, with the same eventId",
  access: WEBHOOKS,
  input: byId.extend({
    deliveryId: idInput("One of the subscription's deliveries (WebhookDelivery.id); a PENDING one is left as it is."),
  }),
  output: webhookDeliveryView,
  run: (app, acting, { id, deliveryId }) => app.webhooks.redeliver(acting, id, deliveryId),
});

export const sendWebhookTestEvent = defineOperation({
  name: "sendWebhookTestEvent",
  summary: "Send a signed WEBHOOK_TEST event to the subscription's URL, as any delivery is sent and logged",
  access: WEBHOOKS,
  input: byId,
  output: webhookDeliveryView,
  run: (app, acting, { id }) => app.webhooks.sendTest(acting, id),
});

/** The key webhook signatures verify with: public, like the reference data. */
export const getPublicKey = defineOpenOperation(REFERENCE_DATA, {
  name: "getPublicKey",
  summary: "Get the public key webhook signatures verify with; after a rotation, the new one",
  input: z.object({}),
  run: (app) => app.signingKeys.info(),
});
