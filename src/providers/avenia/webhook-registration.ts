import type { AveniaClient } from "./client.js";

/** What the gateway's callback route handles: ticket (pay-in, payout) and KYC events. */
const SUBSCRIPTIONS = ["TICKET", "KYC"] as const;
type Subscriptions = NonNullable<Parameters<AveniaClient["updateWebhook"]>[0]["subscriptions"]>;
/** Avenia keeps at most this many webhooks per account. */
const MAX_WEBHOOKS = 3;

/** Avenia cannot take another webhook: the operator must remove one first. */
export class AveniaWebhookSlotsFull extends Error {}

/**
 * Makes Avenia send ticket and KYC events to `webhookUrl`, once however often it is called: a webhook already
 * registered for that URL is reused (its subscriptions widened when they lack ours), else one is created.
 */
export async function registerAveniaWebhook(
  client: AveniaClient,
  webhookUrl: string,
): Promise<{ webhookId: string; created: boolean }> {
  const registered = await client.webhooks();
  const existing = registered.find((webhook) => webhook.url === webhookUrl);
  if (existing) {
    const covered = (subscription: string) =>
      existing.subscriptions.includes("*") || existing.subscriptions.includes(subscription);
    if (!SUBSCRIPTIONS.every(covered)) {
      const subscriptions = [...new Set([...existing.subscriptions, ...SUBSCRIPTIONS])];
      await client.updateWebhook({ webhookId: existing.id, subscriptions: subscriptions as Subscriptions });
    }
    return { webhookId: existing.id, created: false };
  }
  if (registered.length >= MAX_WEBHOOKS)
    throw new AveniaWebhookSlotsFull(
      `Avenia already has ${registered.length} webhooks for this account, its maximum; remove one that is no longer used`,
    );
  const { webhookId } = await client.createWebhook({ webhookUrl, subscriptions: [...SUBSCRIPTIONS] });
  return { webhookId, created: true };
}
