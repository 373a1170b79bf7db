import { request as httpRequest, type ClientRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { PartnerFaults } from "./faults.js";
import type { Scheduler } from "./scheduler.js";
import type { PartnerStats } from "./stats.js";

/** Tries per delivery; the waits between them double from the retry base (spec decision 5). */
const DELIVERY_TRIES = 5;
const DELIVERY_TIMEOUT_MS = 5_000;

export interface CallbackEvent {
  url: string;
  rawBody: string;
  /** Computed per try: a Standard Webhooks timestamp must be fresh on a retry. */
  headers: () => Record<string, string>;
}

/** Delivers one partner's callbacks, with retries and the callback faults. */
export class CallbackSender {
  private held: CallbackEvent[] = [];
  private readonly inFlight = new Set<ClientRequest>();
  /** Bumped by cancelAll(), so that an answer to a cancelled delivery schedules no retry. */
  private generation = 0;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly retryBaseMs: number,
    private readonly faults: () => PartnerFaults,
    private readonly stats: () => PartnerStats,
  ) {}

  send(event: CallbackEvent): void {
    const faults = this.faults().callbacks ?? {};
    if (faults.drop) {
      faults.drop -= 1;
      this.stats().callbacks.dropped += 1;
      return;
    }
    if (faults.reorder) {
      this.held.push(event);
      return;
    }
    const copies = faults.duplicate ?? 0;
    faults.duplicate = 0;
    this.stats().callbacks.duplicated += copies;
    for (let copy = 0; copy <= copies; copy += 1) void this.deliver(event, 1);
  }

  /** Called when the reorder fault is lifted: the held batch goes out newest first, one after another. */
  releaseHeld(): void {
    const held = this.held.reverse();
    this.held = [];
    void held.reduce((previous, event) => previous.then(() => this.deliver(event, 1)), Promise.resolve());
  }

  /** Forgets held events and aborts deliveries in flight (the simulator stops or resets). */
  cancelAll(): void {
    this.generation += 1;
    this.held = [];
    for (const request of this.inFlight) request.destroy();
    this.inFlight.clear();
  }

  /** Settles once this attempt has been answered; a retry is scheduled, not awaited. */
  private async deliver(event: CallbackEvent, attempt: number): Promise<void> {
    const generation = this.generation;
    await new Promise<void>((resolve) => this.scheduler.after(this.faults().callbacks?.delayMs ?? 0, resolve));
    const ok = await this.post(event);
    if (generation !== this.generation) return;
    if (ok) {
      this.stats().callbacks.sent += 1;
      return;
    }
    this.stats().callbacks.failed += 1;
    if (attempt < DELIVERY_TRIES)
      this.scheduler.after(this.retryBaseMs * 2 ** (attempt - 1), () => void this.deliver(event, attempt + 1));
  }

  private post(event: CallbackEvent): Promise<boolean> {
    const body = Buffer.from(event.rawBody);
    const send = event.url.startsWith("https:") ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      const request = send(event.url, {
        method: "POST",
        agent: false,
        timeout: DELIVERY_TIMEOUT_MS,
        headers: { "content-type": "application/json", "content-length": body.length, ...event.headers() },
      });
      this.inFlight.add(request);
      const settle = (ok: boolean) => {
        this.inFlight.delete(request);
        resolve(ok);
      };
      request.on("response", (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        response.on("end", () => settle(status >= 200 && status < 300));
      });
      request.on("timeout", () => request.destroy());
      request.on("error", () => settle(false));
      request.end(body);
    });
  }
}
