import { Args, Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import {
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhookDelivery,
  registerWebhook,
  sendWebhookTestEvent,
} from "../../operations/webhooks.js";
import { idField } from "../../output.js";
import { registerWebhookInput, webhookDeliveryView, webhookView, type WebhookView } from "../../webhooks/types.js";
import { Acting } from "../acting.js";
import type { GraphQLContext } from "../context.js";
import { operationField, operationResolver, Performs, performField } from "../operation-field.js";
import { connectionType, offsetPage, PageArgs, pageConnection } from "../types/connection.js";
import { inputType } from "../types/input-type.js";
import { outputType } from "../types/output-type.js";

const Webhook = outputType(webhookView);
const WebhookDeliveryConnection = connectionType(webhookDeliveryView);

const RegisterWebhookInput = inputType("RegisterWebhookInput", registerWebhookInput, {
  description: "Exactly one of quoteId and sessionId, created with the calling secret key.",
});

/**
 * Webhook subscriptions and their delivery logs (CONTRACT.md, Webhooks): a non-managed profile's secret key
 * only, like the REST routes (the capability; MANAGER_ONLY refuses the selector and a child's own key).
 */
export const WebhooksResolver = operationResolver("WebhooksResolver", [
  operationField(listWebhooks, {
    query: "webhooks",
    page: "webhooks",
  }),
  operationField(registerWebhook, {
    mutation: "registerWebhook",
    payload: { webhook: webhookView.describe("The new subscription.") },
    args: {
      input: {
        type: () => RegisterWebhookInput,
        description: "The URL, the quote or widget session to follow, and the event types.",
      },
    },
  }),
  operationField(deleteWebhook, {
    mutation: "deleteWebhook",
    payload: { deletedWebhookId: idField("The subscription removed with its delivery log.") },
    toResult: (_deleted, { id }) => ({ deletedWebhookId: id }),
  }),
  operationField(redeliverWebhookDelivery, {
    mutation: "redeliverWebhookDelivery",
    payload: { delivery: webhookDeliveryView.describe("The delivery, in its new round (a PENDING one unchanged).") },
    args: { deliveryId: {}, webhookId: { field: "id" } },
  }),
  operationField(sendWebhookTestEvent, {
    mutation: "sendWebhookTestEvent",
    payload: { delivery: webhookDeliveryView.describe("The test event's delivery, PENDING: follow it in the log.") },
    args: { webhookId: { field: "id" } },
  }),
]);

/**
 * A subscription's deliveries: a field of Webhook, read for the webhook it is asked on, which a root field's
 * declaration does not cover.
 */
@Resolver(() => Webhook)
export class WebhookDeliveriesResolver {
  @FieldResolver(() => WebhookDeliveryConnection, {
    description: "Deliveries of this subscription, newest first, with their attempts.",
  })
  @Performs(listWebhookDeliveries)
  async deliveries(
    @Root() webhook: WebhookView,
    @Args() args: PageArgs,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    const { limit, offset } = offsetPage(args);
    const page = await performField(listWebhookDeliveries, context, acting, { id: webhook.id, limit, offset });
    return pageConnection(page.deliveries, { limit, offset, total: page.totalCount }, args);
  }
}
