import { createPublicKey, randomUUID, type KeyObject } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { WebhookReceiver, WebhookVerificationError, type Delivery } from "@ramp-gateway/webhook-receiver";
import { generateSigningKeyPair, signWithKey } from "../../src/webhooks/signing.js";

/**
 * The receiver package's WebhookReceiver against a stand-in for GET /v1/public-key: the key cached and
 * refreshed when the gateway rotates it (and no faster than allowed when signatures are forged), replays and
 * retries of one event reported as duplicates, and a bounded memory of event ids.
 */

const START = Date.UTC(2026, 10, 25, 12, 0, 0);
const KEY_URL = "https://gateway.test/v1/public-key";

let first: KeyObject;
let second: KeyObject;
let stranger: KeyObject;
beforeAll(async () => {
  [first, second, stranger] = (await Promise.all([1, 2, 3].map(() => generateSigningKeyPair()))).map(
    ({ privateKey }) => privateKey,
  );
});

/** The gateway's key endpoint: serves the public half of `signing`, counting the fetches. */
function gateway(signing: () => KeyObject) {
  const served = { fetches: 0, failNext: false };
  const fetchKey = (async (url: string | URL) => {
    expect(String(url)).toBe(KEY_URL);
    served.fetches += 1;
    if (served.failNext) {
      served.failNext = false;
      return new Response("unavailable", { status: 503 });
    }
    const publicKey = createPublicKey(signing()).export({ format: "pem", type: "spki" }).toString();
    return Response.json({ publicKey, algorithm: "RSA-PSS", hash: "SHA-256", saltLength: 32 });
  }) as typeof fetch;
  return { served, fetchKey };
}

/** A delivery of a new event (or of `eventId`), signed with `key` at `atMs`. */
async function delivery(key: KeyObject, atMs: number, eventId: string = randomUUID()): Promise<Delivery> {
  const rawBody = JSON.stringify({
    eventId,
    eventType: "STATUS_CHANGE",
    timestamp: new Date(atMs).toISOString(),
    payload: {
      quoteId: randomUUID(),
      transactionId: randomUUID(),
      sessionId: null,
      transactionStatus: "COMPLETE",
      transactionType: "BUY",
    },
  });
  const timestamp = Math.floor(atMs / 1000);
  return { timestamp: String(timestamp), signature: await signWithKey(key, timestamp, rawBody), rawBody };
}

function receiverOf(fetchKey: typeof fetch, clock: { now: number }, options = {}) {
  return new WebhookReceiver({ publicKeyUrl: KEY_URL, fetch: fetchKey, clock: () => clock.now, ...options });
}

async function refusal(receiving: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await receiving.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

describe("the receiver package's WebhookReceiver", () => {
  it("fetches the key once, then verifies every delivery with it", async () => {
    const clock = { now: START };
    const { served, fetchKey } = gateway(() => first);
    const receiver = receiverOf(fetchKey, clock);
    for (let i = 0; i < 5; i++) {
      const received = await receiver.receive(await delivery(first, clock.now));
      expect(received).toMatchObject({ duplicate: false, event: { eventType: "STATUS_CHANGE" } });
    }
    expect(served.fetches).toBe(1);
  });

  it("after a rotation, fetches the new key once and goes on verifying", async () => {
    const clock = { now: START };
    let signing = first;
    const { served, fetchKey } = gateway(() => signing);
    const receiver = receiverOf(fetchKey, clock);
    await receiver.receive(await delivery(first, clock.now));
    signing = second;
    clock.now += 60_000;
    for (let i = 0; i < 3; i++)
      expect((await receiver.receive(await delivery(second, clock.now))).duplicate).toBe(false);
    expect(served.fetches).toBe(2);
  });

  it("a forged signature costs at most one fetch per interval, and is refused naming the signature", async () => {
    const clock = { now: START };
    const { served, fetchKey } = gateway(() => first);
    const receiver = receiverOf(fetchKey, clock, { minRefreshIntervalMs: 10_000 });
    await receiver.receive(await delivery(first, clock.now));
    clock.now += 10_000;
    for (let i = 0; i < 20; i++)
      expect((await refusal(receiver.receive(await delivery(stranger, clock.now)))).check).toBe("signature");
    expect(served.fetches).toBe(2);
    clock.now += 10_000;
    await refusal(receiver.receive(await delivery(stranger, clock.now)));
    expect(served.fetches).toBe(3);
  });

  it("reports a retry or a replay of an event as a duplicate; an old capture fails the timestamp check", async () => {
    const clock = { now: START };
    const { fetchKey } = gateway(() => first);
    const receiver = receiverOf(fetchKey, clock, { toleranceSeconds: 300 });
    const captured = await delivery(first, clock.now);
    expect((await receiver.receive(captured)).duplicate).toBe(false);
    expect((await receiver.receive(captured)).duplicate).toBe(true);
    // The gateway's retry is signed again at its own time, with the same event id.
    const { eventId } = (await receiver.receive(captured)).event;
    clock.now += 60_000;
    expect((await receiver.receive(await delivery(first, clock.now, eventId))).duplicate).toBe(true);
    clock.now += 301_000;
    expect((await refusal(receiver.receive(captured))).check).toBe("timestamp");
  });

  it("forgets the oldest event ids beyond its bound", async () => {
    const clock = { now: START };
    const { fetchKey } = gateway(() => first);
    const receiver = receiverOf(fetchKey, clock, { maxRememberedEvents: 2 });
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => delivery(first, clock.now)));
    for (const captured of [a!, b!, c!]) expect((await receiver.receive(captured)).duplicate).toBe(false);
    expect((await receiver.receive(c!)).duplicate).toBe(true);
    expect((await receiver.receive(a!)).duplicate).toBe(false);
  });

  it("a key endpoint that fails is asked again on the next delivery", async () => {
    const clock = { now: START };
    const { served, fetchKey } = gateway(() => first);
    served.failNext = true;
    const receiver = receiverOf(fetchKey, clock);
    const captured = await delivery(first, clock.now);
    await expect(receiver.receive(captured)).rejects.toThrow(/answered 503/);
    expect((await receiver.receive(captured)).duplicate).toBe(false);
    expect(served.fetches).toBe(2);
  });
});
