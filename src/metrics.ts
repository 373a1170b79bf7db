import type { Logger } from "pino";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { StepCallOutcome } from "./ramps/processor.js";
import type { DeliveryOutcome } from "./webhooks/delivery-worker.js";

/** The webhook queue as the database holds it now. */
interface DeliveryBacklog {
  /** Not yet delivered nor given up. */
  pending: number;
  /** Due now and claimed by no worker. */
  due: number;
  /** How long the earliest-due of those has been due (0: none is). */
  longestWaitMs: number;
}

/** What `GET /metrics` reads when it is scraped, and only then (never on a request). */
interface ScrapedSources {
  /** The webhook queue in the database (one statement). */
  deliveryBacklog(): Promise<DeliveryBacklog>;
  /** Outbox events written that this instance's subscription feed has not read yet (one statement). */
  unreadFeedEvents(): Promise<number>;
  /** Listeners on this instance's subscription feed. */
  feedListeners(): number;
  /** Entries each of this instance's caches holds. */
  cacheSizes(): ReadonlyMap<string, number>;
}

/** Open GraphQL WebSocket connections of this instance and the subscriptions they hold. */
interface Subscribers {
  connections: number;
  subscriptions: number;
}

/** The route label of a request that matched no route: its path is the caller's, and may hold anything. */
const UNMATCHED = "unmatched";
/** Seconds; most requests answer within a few milliseconds, so the low end is finer than prom-client's default. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Times one answered request of a route. */
type RequestObserver = (method: string, statusCode: number, elapsedMs: number) => void;

/**
 * The operator's metrics in Prometheus form, on a registry of this app's own (several apps share one test
 * process). Labels are route patterns, methods, status codes and outcome names only: never a raw path, an id
 * or anything a caller sent.
 */
export class Metrics {
  private readonly registry = new Registry();
  private readonly requestDurations = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern (unmatched: no route) and status code; /graphql is one route.",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });
  private readonly deliveryOutcomes = new Counter({
    name: "webhook_delivery_outcomes_total",
    help:
      "What became of each claimed webhook delivery on this instance: delivered; retry_scheduled (a failed attempt, " +
      "sent again after the retry wait); failed (the last attempt failed, or the subscription was disabled); " +
      "released (a send cut short by shutdown, due again at once).",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  private readonly rampStepCalls = new Histogram({
    name: "ramp_provider_step_duration_seconds",
    help:
      "Time the ramp provider took to answer a call for a ramp's next step, by what it answered: advance, retry, " +
      "fail, or no_answer (an error, the call's timeout, or shutdown; the step is asked again).",
    labelNames: ["outcome"] as const,
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });
  private subscribers: () => Subscribers = () => ({ connections: 0, subscriptions: 0 });

  constructor(sources: ScrapedSources, log: Logger) {
    collectDefaultMetrics({ register: this.registry });
    for (const outcome of ["delivered", "retry_scheduled", "failed", "released"] as const)
      this.deliveryOutcomes.inc({ outcome }, 0);

    // A failed read is NaN (unknown), not a failed scrape: the process metrics still answer when the database does not.
    const unlessFailed = <T>(reading: Promise<T>, what: string) =>
      reading.catch((error: unknown) => {
        log.warn({ err: error }, `reading ${what} for /metrics failed`);
        return undefined;
      });
    // The three backlog gauges are collected together in one scrape: they share one read of the queue.
    let backlogRead: Promise<DeliveryBacklog | undefined> | undefined;
    const backlog = () =>
      (backlogRead ??= unlessFailed(sources.deliveryBacklog(), "the webhook backlog").finally(
        () => (backlogRead = undefined),
      ));
    const gauge = (name: string, help: string, read: () => number | Promise<number>) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          this.set(await read());
        },
      });
    gauge(
      "webhook_deliveries_pending",
      "Webhook deliveries not yet delivered nor given up: waiting for a retry, being sent, or due (the same on every instance).",
      async () => (await backlog())?.pending ?? NaN,
    );
    gauge(
      "webhook_deliveries_due",
      "Webhook deliveries due now that no worker has claimed yet (the same on every instance).",
      async () => (await backlog())?.due ?? NaN,
    );
    gauge(
      "webhook_delivery_backlog_age_seconds",
      "How long the longest-waiting due webhook delivery has waited for a worker (0: none waits); grows when the " +
        "delivery workers fall behind or stop (the same on every instance).",
      async () => ((await backlog())?.longestWaitMs ?? NaN) / 1000,
    );
    gauge(
      "ramp_event_feed_lag_events",
      "Ramp events in the outbox that this instance's subscription feed has not read yet.",
      async () => (await unlessFailed(sources.unreadFeedEvents(), "the outbox")) ?? NaN,
    );
    gauge(
      "ramp_event_feed_listeners",
      "Listeners on this instance's subscription feed (subscribers sharing one execution share one listener).",
      () => sources.feedListeners(),
    );
    new Gauge({
      name: "cache_entries",
      help: "Entries each named cache of this instance holds (bounded per cache; dropped on expiry or invalidation).",
      labelNames: ["cache"] as const,
      registers: [this.registry],
      collect() {
        for (const [cache, entries] of sources.cacheSizes()) this.set({ cache }, entries);
      },
    });
    gauge(
      "graphql_ws_connections",
      "Open GraphQL WebSocket connections on this instance.",
      () => this.subscribers().connections,
    );
    gauge(
      "graphql_ws_subscriptions",
      "Subscriptions running on this instance's GraphQL WebSocket connections.",
      () => this.subscribers().subscriptions,
    );
  }

  /** The Content-Type of `text()`. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every metric in Prometheus' text format, the scraped ones read now. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** Times the requests of one route pattern (undefined: those no route matched); asked once per route. */
  requestObserver(route: string | undefined): RequestObserver {
    const routeLabel = route ?? UNMATCHED;
    return (method, statusCode, elapsedMs) =>
      this.requestDurations.observe({ method, route: routeLabel, status_code: statusCode }, elapsedMs / 1000);
  }

  countDeliveryOutcome(outcome: DeliveryOutcome): void {
    this.deliveryOutcomes.inc({ outcome });
  }

  observeRampStepCall(outcome: StepCallOutcome, elapsedMs: number): void {
    this.rampStepCalls.observe({ outcome }, elapsedMs / 1000);
  }

  /** Where the open WebSocket subscribers are counted (the server that accepts them tells). */
  countSubscribersWith(read: () => Subscribers): void {
    this.subscribers = read;
  }
}
