import { Histogram, Registry, type Metric } from "prom-client";
import { describe, expect, it } from "vitest";
import { RequestDurations } from "../../src/metrics.js";

const BOUNDS = [0.001, 0.01, 0.1];

describe("request durations", () => {
  it("print as prom-client's own histogram prints the same observations", async () => {
    const ours = new Registry();
    const durations = new RequestDurations(BOUNDS);
    ours.registerMetric(durations as unknown as Metric);
    const theirs = new Registry();
    const histogram = new Histogram({
      name: durations.name,
      help: durations.help,
      labelNames: ["method", "route", "status_code"] as const,
      buckets: BOUNDS,
      registers: [theirs],
    });
    const observations: [string, string, number, number][] = [
      ["GET", "/v1/quotes/:id", 200, 0.4],
      ["GET", "/v1/quotes/:id", 200, 1],
      ["GET", "/v1/quotes/:id", 200, 10],
      ["GET", "/v1/quotes/:id", 404, 250],
      ["POST", "/v1/quotes", 201, 99.5],
      ["GET", "unmatched", 404, 0.01],
    ];
    const observers = new Map<string, ReturnType<RequestDurations["observer"]>>();
    for (const [method, route, status, elapsedMs] of observations) {
      if (!observers.has(route)) observers.set(route, durations.observer(route));
      observers.get(route)!(method, status, elapsedMs);
      histogram.observe({ method, route, status_code: String(status) }, elapsedMs / 1000);
    }
    const sorted = (text: string) => text.split("\n").sort();
    const printed = await ours.metrics();
    expect(printed).toContain(
      'http_request_duration_seconds_bucket{le="0.001",method="GET",route="/v1/quotes/:id",status_code="200"} 2',
    );
    expect(sorted(printed)).toEqual(sorted(await theirs.metrics()));

    // A reset (the registry's resetMetrics) forgets every series; the routes' observers go on counting.
    ours.resetMetrics();
    theirs.resetMetrics();
    observers.get("/v1/quotes")!("POST", 201, 3);
    histogram.observe({ method: "POST", route: "/v1/quotes", status_code: "201" }, 0.003);
    expect(sorted(await ours.metrics())).toEqual(sorted(await theirs.metrics()));
  });
});
