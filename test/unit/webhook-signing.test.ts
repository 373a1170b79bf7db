import { constants, createPublicKey, randomUUID, verify, type KeyObject } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { RampEventBody } from "../../src/events/outbox.js";
import {
  decryptPrivateKey,
  encryptPrivateKey,
  generateSigningKeyPair,
  signedPayload,
  signWithKey,
  SigningKeyDecryptionError,
} from "../../src/webhooks/signing.js";
import { verifyWebhook, WebhookVerificationError, type VerifyWebhookInput } from "@ramp-gateway/webhook-receiver";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const TS = NOW / 1000;

function event(overrides: Partial<RampEventBody["payload"]> = {}): RampEventBody {
  return {
    eventId: randomUUID(),
    eventType: "STATUS_CHANGE",
    timestamp: new Date(NOW).toISOString(),
    payload: {
      quoteId: randomUUID(),
      transactionId: randomUUID(),
      sessionId: null,
      transactionStatus: "COMPLETE",
      transactionType: "BUY",
      ...overrides,
    },
  };
}

let privateKey: KeyObject;
let publicPem: string;
let otherPrivateKey: KeyObject;

beforeAll(async () => {
  ({ privateKey } = await generateSigningKeyPair());
  publicPem = createPublicKey(privateKey).export({ format: "pem", type: "spki" }).toString();
  ({ privateKey: otherPrivateKey } = await generateSigningKeyPair());
});

/** A signed delivery as the service sends it. */
async function delivery(
  body: unknown = event(),
  timestamp = TS,
  key = privateKey,
): Promise<VerifyWebhookInput & { signature: string }> {
  const rawBody = typeof body === "string" ? body : JSON.stringify(body);
  return {
    publicKey: publicPem,
    timestamp: String(timestamp),
    signature: await signWithKey(key, timestamp, rawBody),
    rawBody,
    now: NOW,
  };
}

function rejection(input: VerifyWebhookInput): WebhookVerificationError {
  try {
    verifyWebhook(input);
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error("verifyWebhook accepted the delivery");
}

describe("webhook signatures", () => {
  it("round trip: a signed delivery verifies and yields the typed event", async () => {
    const body = event({ sessionId: randomUUID(), transactionStatus: "PENDING", transactionType: "SELL" });
    expect(verifyWebhook(await delivery(body))).toEqual(body);
    // Buffers and KeyObjects are accepted as well.
    const input = await delivery(body);
    expect(
      verifyWebhook({
        ...input,
        rawBody: Buffer.from(input.rawBody as string),
        publicKey: createPublicKey(publicPem),
        timestamp: TS,
      }),
    ).toEqual(body);
  });

  it("non-ASCII bodies are signed as UTF-8", async () => {
    const rawBody = JSON.stringify({ ...event(), note: "café ✓" });
    const input = await delivery(rawBody);
    expect(verifyWebhook(input).eventType).toBe("STATUS_CHANGE");
    expect(
      verify(
        "sha256",
        Buffer.from(`${TS}.${rawBody}`, "utf8"),
        { key: publicPem, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
        Buffer.from(input.signature, "base64"),
      ),
    ).toBe(true);
  });

  it("a body with one flipped byte is rejected by the signature check", async () => {
    const input = await delivery();
    const raw = Buffer.from(input.rawBody as string);
    const index = raw.indexOf("COMPLETE");
    raw[index] = raw[index]! ^ 0x01;
    const error = rejection({ ...input, rawBody: raw });
    expect(error.check).toBe("signature");
    expect(error.message).toMatch(/signature/);
  });

  it("a signature made with another key is rejected", async () => {
    expect(rejection(await delivery(event(), TS, otherPrivateKey)).check).toBe("signature");
  });

  it("a signature over another timestamp is rejected (the timestamp is signed)", async () => {
    const input = await delivery();
    expect(rejection({ ...input, timestamp: String(TS + 1) }).check).toBe("signature");
  });

  it("timestamps outside the window are rejected in both directions; the edges are accepted", async () => {
    const old = rejection(await delivery(event(), TS - 301));
    expect(old.check).toBe("timestamp");
    expect(old.message).toMatch(/301 s old/);
    const future = rejection(await delivery(event(), TS + 301));
    expect(future.check).toBe("timestamp");
    expect(future.message).toMatch(/301 s in the future/);
    expect(verifyWebhook(await delivery(event(), TS - 300)).eventType).toBe("STATUS_CHANGE");
    expect(verifyWebhook(await delivery(event(), TS + 300)).eventType).toBe("STATUS_CHANGE");
    // A custom tolerance.
    expect(rejection({ ...(await delivery(event(), TS - 61)), toleranceSeconds: 60 }).check).toBe("timestamp");
    expect(verifyWebhook({ ...(await delivery(event(), TS - 60)), toleranceSeconds: 60 }).eventType).toBe(
      "STATUS_CHANGE",
    );
  });

  it("a timestamp that is not Unix seconds is rejected", async () => {
    for (const timestamp of ["", "abc", "1.5", "-1", new Date(NOW).toISOString()]) {
      expect(rejection({ ...(await delivery()), timestamp }).check).toBe("timestamp");
    }
  });

  it("malformed signatures are rejected by the signature check", async () => {
    const input = await delivery();
    for (const signature of [
      "",
      "not base64!",
      "abc",
      Buffer.from("short").toString("base64"),
      input.signature.slice(0, -8),
    ]) {
      const error = rejection({ ...input, signature });
      expect(error.check).toBe("signature");
    }
  });

  it("an unreadable public key is reported as a signature failure", async () => {
    const error = rejection({
      ...(await delivery()),
      publicKey: "-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----\n",
    });
    expect(error.check).toBe("signature");
    expect(error.message).toMatch(/public key/);
  });

  it("a correctly signed body of the wrong shape is rejected by the payload check, naming the field", async () => {
    const cases: [unknown, RegExp][] = [
      ["not json", /not JSON/],
      [{ ...event(), eventId: undefined }, /eventId/],
      [{ ...event(), eventType: "SOMETHING_ELSE" }, /eventType/],
      [{ ...event(), timestamp: "yesterday" }, /timestamp/],
      [{ ...event(), payload: undefined }, /payload/],
      [{ ...event(), payload: { ...event().payload, transactionId: 42 } }, /payload\.transactionId/],
      [{ ...event(), payload: { ...event().payload, transactionStatus: "DONE" } }, /payload\.transactionStatus/],
      [{ ...event(), payload: { ...event().payload, quoteId: undefined } }, /payload\.quoteId/],
      [[event()], /body/],
    ];
    for (const [body, reason] of cases) {
      const error = rejection(await delivery(body));
      expect(error.check).toBe("payload");
      expect(error.message).toMatch(reason);
    }
  });

  it("uses RSA-PSS with salt length 32: node verifies with saltLength 32 and not with another", async () => {
    const rawBody = JSON.stringify(event());
    const signature = Buffer.from(await signWithKey(privateKey, TS, rawBody), "base64");
    expect(signature).toHaveLength(256);
    const check = (saltLength: number, padding = constants.RSA_PKCS1_PSS_PADDING) =>
      verify("sha256", signedPayload(TS, rawBody), { key: publicPem, padding, saltLength }, signature);
    expect(check(32)).toBe(true);
    expect(check(20)).toBe(false);
    expect(check(64)).toBe(false);
    expect(check(constants.RSA_PSS_SALTLEN_DIGEST)).toBe(true); // SHA-256's digest length is 32
    expect(check(32, constants.RSA_PKCS1_PADDING)).toBe(false);
  });
});

describe("signing key encryption at rest", () => {
  const secret = "a".repeat(32) + "-encryption-key";

  it("round trips, authenticates the key id, and a wrong secret never yields a key", async () => {
    const stored = encryptPrivateKey(privateKey, secret, "key-1");
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain("PRIVATE KEY");
    const decrypted = decryptPrivateKey(stored, secret, "key-1");
    expect(
      decrypted.export({ format: "der", type: "pkcs8" }).equals(privateKey.export({ format: "der", type: "pkcs8" })),
    ).toBe(true);
    expect(() => decryptPrivateKey(stored, `${secret}x`, "key-1")).toThrow(SigningKeyDecryptionError);
    expect(() => decryptPrivateKey(stored, secret, "key-2")).toThrow(SigningKeyDecryptionError);
    expect(() => decryptPrivateKey("garbage", secret, "key-1")).toThrow(SigningKeyDecryptionError);
    // Each encryption uses a fresh IV.
    expect(encryptPrivateKey(privateKey, secret, "key-1")).not.toBe(stored);
  });
});
