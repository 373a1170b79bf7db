import type { Logger } from "pino";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from "prom-client";
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

/** One series of the request histogram: its labels, its observations per bucket (the last: above every bound). */
interface RequestSeries {
  labels: { method: string; route: string; status_code: string };
  counts: number[];
  sum: number;
}

/**
 * Request durations by method, route pattern and status code: a Prometheus histogram kept in plain arrays, read
 * by prom-client's registry when scraped. prom-client's own Histogram costs a few microseconds per observation
 * (it builds and hashes a labels object and keys its buckets by their bounds as strings); here a request finds
 * its series through two map lookups and adds to one array slot.
 */
export class RequestDurations {
  readonly name = "http_request_duration_seconds";
  readonly help =
    "Time to answer an HTTP request, by method, route pattern (unmatched: no route) and status code; /graphql is one route.";
  readonly type = "histogram";
  readonly aggregator = "sum";
  /** Each route's series by method and status; an observer holds its route's map, so the maps are never replaced. */
  private readonly routes = new Map<string, Map<string, Map<number, RequestSeries>>>();

  constructor(private readonly bounds: readonly number[]) {}

  /** Times the requests of one route pattern; asked once per route. */
  observer(route: string): RequestObserver {
    let byMethod = this.routes.get(route);
    if (!byMethod) this.routes.set(route, (byMethod = new Map()));
    const routeSeries = byMethod;
    return (method, statusCode, elapsedMs) => {
      let byStatus = routeSeries.get(method);
      if (!byStatus) routeSeries.set(method, (byStatus = new Map()));
      let series = byStatus.get(statusCode);
      if (!series) {
        const labels = { method, route, status_code: String(statusCode) };
        series = { labels, counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0 };
        byStatus.set(statusCode, series);
      }
      const seconds = elapsedMs / 1000;
      let bucket = 0;
      while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++;
      series.counts[bucket]!++;
      series.sum += seconds;
    };
  }

  /** The series as prom-client's registry prints a histogram: cumulative buckets, then the sum and the count. */
  async get() {
    const series = [...this.routes.values()].flatMap((byMethod) =>
      [...byMethod.values()].flatMap((byStatus) => [...byStatus.values()]),
    );
    const values = series.flatMap(({ labels, counts, sum }) => {
      let cumulative = 0;
      const buckets = this.bounds.map((bound, index) => {
        cumulative += counts[index]!;
        return { metricName: `${this.name}_bucket`, labels: { le: bound, ...labels }, value: cumulative };
      });
      const count = cumulative + counts[this.bounds.length]!;
      return [
        ...buckets,
        { metricName: `${this.name}_bucket`, labels: { le: "+Inf", ...labels }, value: count },
        { metricName: `${this.name}_sum`, labels, value: sum },
        { metricName: `${this.name}_count`, labels, value: count },
      ];
    });
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    for (const byMethod of this.routes.values()) byMethod.clear();
  }
}

/**
 * The operator's metrics in Prometheus form, on a registry of this app's own (several apps share one test
 * process). Labels are route patterns, methods, status codes and outcome names only: never a raw path, an id
 * or anything a caller sent.
 */
export class Metrics {
  private readonly registry = new Registry();
  private readonly requestDurations = new RequestDurations(REQUEST_BUCKETS);
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
    // The registry takes any object that reads like a metric; its typings name prom-client's own classes only.
    this.registry.registerMetric(this.requestDurations as unknown as Metric);
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
    return this.requestDurations.observer(route ?? UNMATCHED);
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
