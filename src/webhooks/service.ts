import { randomUUID } from "node:crypto";
import { allows } from "../auth/capabilities.js";
import type { ActingContext } from "../auth/delegation.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { canonicalId, type ListPage } from "../validation.js";
import type { Pagination } from "../output.js";
import * as repo from "./repo.js";
import type { WebhookSubscription } from "./repo.js";
import * as deliveryRepo from "./delivery-repo.js";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../events/outbox.js";
import type { OutboxSignal } from "../events/outbox-signal.js";
import type {
  DeliveredEventType,
  RegisterWebhookInput,
  WebhookDeliveryPage,
  WebhookDeliveryView,
  WebhookView,
} from "./types.js";
import { checkWebhookUrl, systemResolver, type HostResolver } from "./url-policy.js";

export interface WebhookServiceOptions {
  /** CIDR ranges an operator allows as targets although they are not public (WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
  allowPrivateNetworks: readonly string[];
  /** Host name resolution for the URL policy; node's resolver unless a test injects one. */
  resolve?: HostResolver;
}

const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found.`);

/**
 * Webhook registrations (CONTRACT.md, Webhooks). Only a non-managed profile's secret key manages them
 * (the route's capability and MANAGER_ONLY rule); a subscription is owned by the key's profile, and may
 * follow only a quote or widget session created with that very key.
 */
export class WebhookService {
  private readonly resolve: HostResolver;

  constructor(
    private readonly db: Db,
    private readonly outbox: OutboxSignal,
    private readonly options: WebhookServiceOptions,
  ) {
    this.resolve = options.resolve ?? systemResolver;
  }

  async register(acting: ActingContext, form: RegisterWebhookInput): Promise<WebhookView> {
    const { ownerProfileId, credentialId } = keyOwner(acting);
    if ((form.quoteId == null) === (form.sessionId == null)) {
      const message = "exactly one of quoteId and sessionId is required";
      throw new AppError("VALIDATION_FAILED", undefined, [
        { field: "quoteId", message },
        { field: "sessionId", message },
      ]);
    }
    const target = form.quoteId != null ? await this.ownQuote(form.quoteId, ownerProfileId, credentialId) : null;
    const session = form.sessionId != null ? await this.ownSession(form.sessionId, ownerProfileId, credentialId) : null;
    await checkWebhookUrl(form.url, { resolve: this.resolve, allowPrivateNetworks: this.options.allowPrivateNetworks });
    const events = WEBHOOK_EVENT_TYPES.filter((event) => !form.events || form.events.includes(event));
    const created = await repo.insertSubscription(this.db, {
      id: randomUUID(),
      ownerProfileId,
      credentialId,
      url: form.url,
      quoteId: target,
      sessionId: session,
      events: events.join(","),
    });
    return view(created);
  }

  /** A page of the caller's subscriptions (any key of its profile registered them), newest first. */
  async list(
    acting: ActingContext,
    { limit, offset }: ListPage,
  ): Promise<{ webhooks: WebhookView[]; pagination: Pagination }> {
    const { rows, total } = await repo.listSubscriptions(this.db, keyOwner(acting).ownerProfileId, { limit, offset });
    return { webhooks: rows.map(view), pagination: { limit, offset, total } };
  }

  /**
   * Removes one of the caller's subscriptions for good: no further deliveries. Another profile's, an
   * unknown id, or one already deleted is NOT_FOUND (a second delete answers 404, like credentials).
   */
  async delete(acting: ActingContext, id: string): Promise<void> {
    const { ownerProfileId } = keyOwner(acting);
    const subscriptionId = canonicalId(id);
    if (!subscriptionId || !(await repo.deleteSubscription(this.db, subscriptionId, ownerProfileId)))
      throw notFound("Webhook");
  }

  /** A page of the deliveries of a subscription `subscription` gave, newest first, each with its attempt log. */
  async deliveries(
    subscription: WebhookSubscription,
    { limit, offset }: WebhookDeliveryPage,
  ): Promise<{ totalCount: number; deliveries: WebhookDeliveryView[] }> {
    const [totalCount, rows] = await Promise.all([
      deliveryRepo.countDeliveries(this.db, subscription.id),
      deliveryRepo.listDeliveries(this.db, subscription.id, { limit, offset }),
    ]);
    return { totalCount, deliveries: rows.map(deliveryView) };
  }

  /**
   * Sends a delivered or failed event again, with a fresh round of attempts and the same eventId. A
   * pending one is already on its way and stays as it is. A disabled subscription is registered again
   * instead.
   */
  async redeliver(acting: ActingContext, id: string, deliveryId: string): Promise<WebhookDeliveryView> {
    const subscription = await this.subscription(acting, id);
    const deliveryKey = canonicalId(deliveryId);
    const found = deliveryKey ? await deliveryRepo.findDelivery(this.db, deliveryKey, subscription.id) : null;
    if (!found) throw notFound("Delivery");
    refuseDisabled(subscription);
    await deliveryRepo.restartDelivery(this.db, found.id, new Date());
    this.outbox.committed();
    return deliveryView((await deliveryRepo.findDelivery(this.db, found.id, subscription.id))!);
  }

  /**
   * Queues a signed test event for one of the caller's subscriptions: one delivery per call, sent, retried and
   * logged as any other. A disabled subscription is refused as a redelivery is: nothing would be sent to it.
   */
  async sendTest(acting: ActingContext, id: string): Promise<WebhookDeliveryView> {
    const subscription = await this.subscription(acting, id);
    refuseDisabled(subscription);
    const delivery = await deliveryRepo.enqueueTestDelivery(this.db, subscription, new Date());
    // Deleted since it was read: as unknown as it is now.
    if (!delivery) throw notFound("Webhook");
    this.outbox.committed();
    return deliveryView(delivery);
  }

  /** One of the caller's subscriptions; another profile's, an unknown or a malformed id is NOT_FOUND. */
  async subscription(acting: ActingContext, id: string): Promise<WebhookSubscription> {
    const { ownerProfileId } = keyOwner(acting);
    const subscriptionId = canonicalId(id);
    const subscription = subscriptionId ? await repo.findSubscription(this.db, subscriptionId, ownerProfileId) : null;
    if (!subscription) throw notFound("Webhook");
    return subscription;
  }

  /**
   * Whether the caller's webhooks could follow this quote or widget session (the rule of `register`: a key
   * that may manage webhooks, of a non-managed profile acting for itself, that created it). Its subscriptions
   * then receive what those webhooks would: every ramp on it, not only the subject's own.
   */
  async followsEveryRamp(acting: ActingContext, target: Followed): Promise<boolean> {
    const { principalKind, credentialId, controllingManagerId, actorProfileId, subjectProfileId } = acting;
    if (!allows("WEBHOOK_MANAGEMENT", principalKind) || controllingManagerId || actorProfileId !== subjectProfileId)
      return false;
    return credentialId !== null && this.madeWith(target, subjectProfileId, credentialId);
  }

  /** The quote's id when it was created with this very key for this profile; otherwise not found. */
  private async ownQuote(quoteId: string, ownerProfileId: string, credentialId: string): Promise<string> {
    const id = canonicalId(quoteId);
    if (!id || !(await this.madeWith({ quoteId: id }, ownerProfileId, credentialId))) throw notFound("Quote");
    return id;
  }

  private async ownSession(sessionId: string, ownerProfileId: string, credentialId: string): Promise<string> {
    const id = canonicalId(sessionId);
    if (!id || !(await this.madeWith({ sessionId: id }, ownerProfileId, credentialId)))
      throw notFound("Widget session");
    return id;
  }

  /** Whether the quote or widget session exists and was created with this key for this profile (`createdWith`). */
  private async madeWith(target: Followed, ownerProfileId: string, credentialId: string): Promise<boolean> {
    const record =
      "quoteId" in target
        ? await repo.findQuoteAttribution(this.db, target.quoteId)
        : await repo.findWidgetSessionAttribution(this.db, target.sessionId);
    return record !== null && createdWith(record, ownerProfileId, credentialId);
  }
}

/** What a webhook follows: one quote or one widget session. */
type Followed = { quoteId: string } | { sessionId: string };

/**
 * Created with the caller's key: the same credential, and not for another profile (a manager's key that
 * created a quote for a child through the selector made it the child's, which the manager cannot follow).
 * A quote made with the key's public value is unowned, but still the same credential's.
 */
function createdWith(
  record: { ownerProfileId: string | null; credentialId: string | null },
  ownerProfileId: string,
  credentialId: string,
) {
  return (
    record.credentialId === credentialId && (record.ownerProfileId === null || record.ownerProfileId === ownerProfileId)
  );
}

/**
 * The profile and secret key a webhook call speaks for. The route's capability (secret key only) and its
 * MANAGER_ONLY rule (no selector, no child's key) have decided who may call; this only reads the answer.
 */
function keyOwner(acting: ActingContext): { ownerProfileId: string; credentialId: string } {
  if (!acting.credentialId) throw new AppError("AUTHENTICATION_REQUIRED", "Webhook management needs a secret key.");
  return { ownerProfileId: acting.subjectProfileId, credentialId: acting.credentialId };
}

/** A disabled subscription is sent nothing (400: the contract's error table is closed); registering it again resumes. */
function refuseDisabled(subscription: WebhookSubscription): void {
  if (subscription.isActive) return;
  throw new AppError("VALIDATION_FAILED", "The webhook is disabled: register it again to resume deliveries.", [
    { field: "id", message: "is a disabled webhook: register it again to resume deliveries" },
  ]);
}

function deliveryView(row: deliveryRepo.DeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.event.eventType as DeliveredEventType,
    status: row.status as deliveryRepo.DeliveryStatus,
    attempts: row.attempts.map((attempt) => attemptView(attempt, row.event.body)),
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
    deliveredAt: row.deliveredAt,
    createdAt: row.createdAt,
  };
}

/** An attempt with the request it sent: its own headers, and the event's body, which every attempt sends as is. */
function attemptView(
  attempt: deliveryRepo.DeliveryRow["attempts"][number],
  body: string,
): WebhookDeliveryView["attempts"][number] {
  const { startedAt, durationMs, statusCode, error, requestHeaders } = attempt;
  const headers = requestHeaders === null ? null : (JSON.parse(requestHeaders) as Record<string, string>);
  return {
    startedAt,
    durationMs,
    statusCode,
    error,
    request:
      headers === null ? null : { headers: Object.entries(headers).map(([name, value]) => ({ name, value })), body },
  };
}

function view(row: WebhookSubscription): WebhookView {
  return {
    id: row.id,
    url: row.url,
    quoteId: row.quoteId,
    sessionId: row.sessionId,
    events: row.events
      .split(",")
      .filter((event): event is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(event)),
    isActive: row.isActive,
    createdAt: row.createdAt,
  };
}
