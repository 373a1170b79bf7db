import { Arg, Ctx, FieldResolver, ID, Resolver, Root, Subscription } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import { AppError } from "../../errors.js";
import { streamOf } from "../../events/bus.js";
import {
  WEBHOOK_EVENT_TYPES,
  webhookEventBody,
  type OutboxEntry,
  type RampEventBody,
  type WebhookEventBody,
} from "../../events/outbox.js";
import type { FeedTopic } from "../../events/ramp-feed.js";
import type { RampView } from "../../ramps/types.js";
import { canonicalId } from "../../validation.js";
import { signedDeliveryHeaders } from "../../webhooks/sender.js";
import { signedDeliveryView } from "../../webhooks/types.js";
import { Auth } from "../auth-directive.js";
import type { GraphQLContext } from "../context.js";
import { Acting, actingFor, fieldDelegation } from "../acting.js";
import { followedStream, stillEntitled } from "../subscriptions.js";
import { Ramp } from "../types/ramps.js";
import { outputType } from "../types/output-type.js";
import { toRamp } from "./ramps.js";

const RampEvent = outputType(webhookEventBody);
const SignedWebhookDelivery = outputType(signedDeliveryView);

interface RampEventsArgs {
  quoteId?: string | null;
  sessionId?: string | null;
  rampId?: string | null;
}

/**
 * New outbox entries of a topic, from the moment of the call: the subscription filters them once authorized.
 * Arguments that name no one topic (or no id) follow nothing; authorizing them refuses the subscription.
 */
function outboxEntries(context: GraphQLContext, args: RampEventsArgs): AsyncIterableIterator<OutboxEntry> {
  const named = (["rampId", "quoteId", "sessionId"] as const).filter((name) => args[name] != null);
  const id = named.length === 1 ? canonicalId(args[named[0]!]) : null;
  const listen = (listener: (entry: OutboxEntry) => void) =>
    id ? context.app.rampEvents.listen({ [named[0]!]: id } as FeedTopic, listener) : () => undefined;
  return streamOf(listen, (entry: OutboxEntry) => entry);
}

/** How long a ramp read for an event is shared: every subscriber's result for that event is resolved by then. */
const SHARED_READ_MS = 10_000;
/** Ramp reads by event and subject: the subscribers following one ramp share one read per event, not one each. */
const rampReads = new Map<string, Promise<RampView>>();

function rampAtEvent(context: GraphQLContext, acting: ActingContext, event: RampEventBody): Promise<RampView> {
  const key = `${event.eventId} ${acting.subjectProfileId}`;
  let read = rampReads.get(key);
  if (!read) {
    read = context.app.ramps.get(acting, event.payload.transactionId);
    rampReads.set(key, read);
    const forget = () => rampReads.delete(key);
    setTimeout(forget, SHARED_READ_MS).unref();
    // A failed read (the subscriber lost access meanwhile) is not shared.
    read.catch(forget);
  }
  return read;
}

const isWebhookEvent = (entry: OutboxEntry) =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(entry.body.eventType);

/**
 * Which events a `rampEvents` subscription follows, checked once on subscribe: the object must be the
 * subject's to read. On a quote or widget session, the subject's own ramps; every ramp on it when the
 * caller's webhooks would follow them all (its creator's key), so both receive the same events.
 */
async function eventFilter(
  context: GraphQLContext,
  acting: ActingContext,
  args: RampEventsArgs,
): Promise<(entry: OutboxEntry) => boolean> {
  const given = (["quoteId", "sessionId", "rampId"] as const).filter((name) => args[name] != null);
  if (given.length !== 1) {
    throw new AppError(
      "VALIDATION_FAILED",
      "Give exactly one of quoteId, sessionId or rampId.",
      given.length
        ? given.map((field) => ({ field, message: "only one of quoteId, sessionId or rampId" }))
        : [{ field: "quoteId", message: "one of quoteId, sessionId or rampId is required" }],
    );
  }
  const { app } = context;
  const subjects = (entry: OutboxEntry) => entry.profileId === acting.subjectProfileId;
  if (args.rampId != null) {
    const { id } = await app.ramps.get(acting, args.rampId);
    return (entry) => entry.rampId === id && subjects(entry);
  }
  if (args.quoteId != null) {
    const { id } = await app.quotes.get(acting, args.quoteId);
    const everyRamp = await app.webhooks.followsEveryRamp(acting, { quoteId: id });
    return (entry) => entry.body.payload.quoteId === id && (everyRamp || subjects(entry));
  }
  const sessionId = await app.widgetSessions.requireVisible(acting, args.sessionId!);
  const everyRamp = await app.webhooks.followsEveryRamp(acting, { sessionId });
  return (entry) => entry.body.payload.sessionId === sessionId && (everyRamp || subjects(entry));
}

/** Live ramp events over graphql-ws: the webhook bodies, and the ramp itself on every phase change. */
@Resolver()
export class RampEventsResolver {
  @Subscription(() => RampEvent, {
    description:
      "TRANSACTION_CREATED and STATUS_CHANGE events of one quote, widget session or ramp, exactly the webhook bodies: of the subject's own ramps, or, on a quote or session created with the caller's own secret key, of every ramp on it, as that key's webhooks receive them.",
    subscribe: ({ args, context, info }) => {
      const ctx = context as GraphQLContext;
      return followedStream(
        outboxEntries(ctx, args as RampEventsArgs),
        async () => {
          const acting = await actingFor(ctx, info);
          const matches = await eventFilter(ctx, acting, args as RampEventsArgs);
          return (entry) => (isWebhookEvent(entry) && matches(entry) ? entry.body : undefined);
        },
        (entry) => stillEntitled(ctx, fieldDelegation(info), entry.body),
      );
    },
  })
  @Auth({ requires: ["RAMP_OPERATIONS"], delegation: "DELEGATED" })
  rampEvents(
    @Arg("quoteId", () => ID, {
      nullable: true,
      description: "Follows the ramps registered from this quote (one the subject may see); give exactly one id.",
    })
    _quoteId: string | null,
    @Arg("sessionId", () => ID, {
      nullable: true,
      description:
        "Follows the ramps registered with this widget session (one the subject may see); give exactly one id.",
    })
    _sessionId: string | null,
    @Arg("rampId", () => ID, {
      nullable: true,
      description: "Follows this one ramp of the subject's; give exactly one id.",
    })
    _rampId: string | null,
    @Root() event: WebhookEventBody,
  ): WebhookEventBody {
    return event;
  }

  @Subscription(() => Ramp, {
    description: "The subject's ramp each time it enters a phase (as of that phase).",
    subscribe: ({ args, context, info }) => {
      const ctx = context as GraphQLContext;
      return followedStream(
        outboxEntries(ctx, { rampId: (args as { rampId: string }).rampId }),
        async () => {
          const acting = await actingFor(ctx, info);
          const { id } = await ctx.app.ramps.get(acting, (args as { rampId: string }).rampId);
          return (entry) =>
            entry.body.eventType === "PHASE_CHANGE" &&
            entry.rampId === id &&
            entry.profileId === acting.subjectProfileId
              ? entry.body
              : undefined;
        },
        (entry) => stillEntitled(ctx, fieldDelegation(info), entry.body),
      );
    },
  })
  @Auth({ requires: ["RAMP_OPERATIONS"], delegation: "DELEGATED" })
  async rampProgress(
    @Arg("rampId", () => ID, { description: "The UUID of the subject's ramp to follow." }) _rampId: string,
    @Root() event: RampEventBody,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<Ramp> {
    const ramp = await rampAtEvent(context, acting, event);
    // The phase this event reports, even if the ramp has moved on since.
    return toRamp({ ...ramp, currentPhase: event.payload.currentPhase!, status: event.payload.transactionStatus });
  }
}

/**
 * A ramp event as a webhook delivery sends it, signed by the gateway when selected (an RSA signature per event and
 * audience): `npm run -s listen` forwards it to a local receiver. Callers who may have webhooks only.
 */
@Resolver(() => RampEvent)
export class RampEventDeliveryResolver {
  @FieldResolver(() => SignedWebhookDelivery, {
    description:
      "The event as a webhook delivery sends it, signed now: the same body and headers, so a receiver verifies it as one. A non-managed profile's secret key only.",
  })
  @Auth({ requires: ["WEBHOOK_MANAGEMENT"], delegation: "MANAGER_ONLY" })
  async delivery(
    @Root() event: WebhookEventBody,
    // Resolved for its rule alone: MANAGER_ONLY refuses a selector and a managed child's own key, as webhooks do.
    @Acting() _acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    // The stored body was JSON.stringify's output, and the event its parse: stringified again, the same bytes.
    const body = JSON.stringify(event);
    const headers = await signedDeliveryHeaders(
      (timestamp, rawBody) => context.app.signingKeys.sign(timestamp, rawBody),
      body,
      new Date(),
    );
    return { headers: Object.entries(headers).map(([name, value]) => ({ name, value })), body };
  }
}
