import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import {
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhookDelivery,
  registerWebhook,
} from "../../operations/webhooks.js";
import type { GraphQLContext } from "../context.js";
import { Acting } from "../acting.js";
import { Performs, performField } from "../operation-field.js";
import { offsetPage, PageArgs, pageConnection } from "../types/connection.js";
import { RegisterWebhookInput, Webhook, WebhookConnection, WebhookDeliveryConnection } from "../types/webhooks.js";
import { webhookDeliveryView, webhookView } from "../../webhooks/types.js";
import { idField } from "../../output.js";
import { payloadType } from "../types/payload.js";

const RegisterWebhookPayload = payloadType("registerWebhook", {
  webhook: webhookView.describe("The new subscription."),
});
const DeleteWebhookPayload = payloadType("deleteWebhook", {
  deletedWebhookId: idField("The subscription removed with its delivery log."),
});
const RedeliverWebhookDeliveryPayload = payloadType("redeliverWebhookDelivery", {
  delivery: webhookDeliveryView.describe("The delivery, in its new round (a PENDING one unchanged)."),
});

/**
 * Webhook subscriptions and their delivery logs (CONTRACT.md, Webhooks): a non-managed profile's secret key
 * only, like the REST routes (the capability; MANAGER_ONLY refuses the selector and a child's own key).
 */
@Resolver(() => Webhook)
export class WebhooksResolver {
  @Query(() => WebhookConnection, { description: "The profile's webhook subscriptions, newest first." })
  @Performs(listWebhooks)
  async webhooks(@Args() args: PageArgs, @Acting() acting: ActingContext, @Ctx() context: GraphQLContext) {
    const page = await performField(listWebhooks, context, acting, offsetPage(args));
    return pageConnection(page.webhooks, page.pagination, args);
  }

  @FieldResolver(() => WebhookDeliveryConnection, {
    description: "Deliveries of this subscription, newest first, with their attempts.",
  })
  @Performs(listWebhookDeliveries)
  async deliveries(
    @Root() webhook: Webhook,
    @Args() args: PageArgs,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    const { limit, offset } = offsetPage(args);
    const page = await performField(listWebhookDeliveries, context, acting, { id: webhook.id, limit, offset });
    return pageConnection(page.deliveries, { limit, offset, total: page.totalCount }, args);
  }

  @Mutation(() => RegisterWebhookPayload, {
    description: "Subscribes a URL to the events of a quote or widget session created with this secret key.",
  })
  @Performs(registerWebhook)
  async registerWebhook(
    @Arg("input", () => RegisterWebhookInput, {
      description: "The URL, the quote or widget session to follow, and the event types.",
    })
    input: InstanceType<typeof RegisterWebhookInput>,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof RegisterWebhookPayload>> {
    return { webhook: await performField(registerWebhook, context, acting, input) };
  }

  @Mutation(() => DeleteWebhookPayload, { description: "Removes a subscription and its delivery log." })
  @Performs(deleteWebhook)
  async deleteWebhook(
    @Arg("id", () => ID, { description: "The subscription's id (Webhook.id)." }) id: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof DeleteWebhookPayload>> {
    await performField(deleteWebhook, context, acting, { id });
    return { deletedWebhookId: id };
  }

  @Mutation(() => RedeliverWebhookDeliveryPayload, {
    description: "Sends a delivered or failed event again in a new round, with the same eventId.",
  })
  @Performs(redeliverWebhookDelivery)
  async redeliverWebhookDelivery(
    @Arg("webhookId", () => ID, { description: "The subscription's id (Webhook.id)." }) webhookId: string,
    @Arg("deliveryId", () => ID, {
      description: "One of the subscription's deliveries (WebhookDelivery.id); a PENDING one is left as it is.",
    })
    deliveryId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof RedeliverWebhookDeliveryPayload>> {
    const delivery = await performField(redeliverWebhookDelivery, context, acting, { id: webhookId, deliveryId });
    return { delivery };
  }
}
