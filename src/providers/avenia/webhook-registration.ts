import type { Logger } from "pino";
import { AveniaClient } from "./client.js";

/** What the gateway's callback route handles: ticket (pay-in, payout) and KYC events. */
const SUBSCRIPTIONS = ["TICKET", "KYC"] as const;
type Subscriptions = NonNullable<Parameters<AveniaClient["updateWebhook"]>[0]["subscriptions"]>;
/** Avenia keeps at most this many webhooks per account. */
const MAX_WEBHOOKS = 3;

/** The registration cannot be made as configured: the message says what to change. */
export class AveniaWebhookRefused extends Error {}

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
    throw new AveniaWebhookRefused(
      `Avenia already has ${registered.length} webhooks for this account, its maximum; remove one that is no longer used`,
    );
  const { webhookId } = await client.createWebhook({ webhookUrl, subscriptions: [...SUBSCRIPTIONS] });
  return { webhookId, created: true };
}

/**
 * The operator's registration at the real Avenia (`npm run admin -- avenia register-webhook`): the account's webhook
 * slots are shared by every instance and environment on it, so it is changed on purpose, not by each start-up.
 * Events go to PUBLIC_BASE_URL, where Avenia reaches this service.
 */
export async function registerPublicAveniaWebhook(
  settings: { baseUrl?: string; apiKey?: string; privateKeyPem?: string },
  publicBaseUrl: string,
  logger: Logger,
): Promise<{ webhookUrl: string; webhookId: string; created: boolean }> {
  const { baseUrl, apiKey, privateKeyPem } = settings;
  if (baseUrl === undefined || apiKey === undefined || privateKeyPem === undefined)
    throw new AveniaWebhookRefused(
      "AVENIA_BASE_URL, AVENIA_API_KEY and AVENIA_PRIVATE_KEY must be set: the webhook is registered at the real " +
        "Avenia (the gateway registers its own at the embedded simulator when it starts)",
    );
  const webhookUrl = `${publicBaseUrl.replace(/\/$/, "")}/v1/webhooks/avenia`;
  const client = new AveniaClient({ baseUrl, apiKey, privateKeyPem, logger });
  try {
    return { webhookUrl, ...(await registerAveniaWebhook(client, webhookUrl)) };
  } finally {
    await client.close();
  }
}
