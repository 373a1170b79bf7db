import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.js";
import { ok } from "../support/kit.js";

/*
 * Retention (issue 13), on the project's engine: one pass prunes exactly the rows that can no longer matter,
 * older than the documented default ages, and nothing else: not pending deliveries, claims in flight, live
 * sign-ins, quotes a ramp or anything else names, accepted invitations, nor the ramp event outbox. Rows are
 * written straight into the database with their ages; the pass measures the ages from the app's clock.
 * Batches are lowered to BATCH rows, so a backlog takes several.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The documented defaults (docs/operations.md, Retention). */
const AGES = {
  delivery: 30 * DAY,
  idempotency: 24 * HOUR,
  auth: 7 * DAY,
  invitation: 30 * DAY,
  quote: 7 * DAY,
  partnerCallback: HOUR,
};
const BATCH = 3;

const now = Date.now();
const ago = (ms: number) => new Date(now - ms);
/** Just past a cut-off, and just short of it (a tenth of the age, at most an hour). */
const older = (age: number) => ago(age + Math.min(HOUR, age / 10));
const younger = (age: number) => ago(age - Math.min(HOUR, age / 10));

let t: TestApp;
let profileId: string;
beforeAll(async () => {
  t = await startTestApp({}, { seams: { clock: () => new Date(now), retentionBatchSize: BATCH } });
  profileId = (await t.signIn()).profileId;
});
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------------------
// Rows as the service writes them, with the times a test gives.

function quoteRow(expiresAt: Date, consumedAt: Date | null = null) {
  const amount = "1.00";
  return {
    id: randomUUID(),
    rampType: "BUY",
    from: "pix",
    to: "polygon",
    network: "polygon",
    paymentMethod: "pix",
    corridor: "BR",
    inputAmount: "100.00",
    inputCurrency: "BRL",
    outputAmount: "18.00",
    outputCurrency: "USDC",
    feeCurrency: "BRL",
    networkFeeFiat: amount,
    networkFeeUSD: amount,
    anchorFeeFiat: amount,
    anchorFeeUSD: amount,
    serviceFeeFiat: amount,
    serviceFeeUSD: amount,
    partnerFeeFiat: amount,
    partnerFeeUSD: amount,
    processingFeeFiat: amount,
    processingFeeUSD: amount,
    totalFeeFiat: amount,
    totalFeeUSD: amount,
    pricingProfile: "default",
    ownerProfileId: profileId,
    expiresAt,
    consumedAt,
    createdAt: new Date(expiresAt.getTime() - 10 * 60_000),
  };
}

async function quote(expiresAt: Date): Promise<string> {
  const row = quoteRow(expiresAt);
  await t.app.db.quote.create({ data: row });
  return row.id;
}

/** A registered quote and its ramp. */
async function ramp(): Promise<{ quoteId: string; rampId: string }> {
  const registered = quoteRow(older(AGES.quote * 5), older(AGES.quote * 5));
  await t.app.db.quote.create({ data: registered });
  const rampId = randomUUID();
  await t.app.db.ramp.create({
    data: {
      id: rampId,
      quoteId: registered.id,
      profileId,
      actorProfileId: profileId,
      type: "BUY",
      corridor: "BR",
      currentPhase: "complete",
      status: "COMPLETE",
      startDeadline: registered.expiresAt,
      createdAt: registered.consumedAt!,
    },
  });
  return { quoteId: registered.id, rampId };
}

async function subscription(quoteId: string): Promise<string> {
  const id = randomUUID();
  await t.app.db.webhookSubscription.create({
    data: {
      id,
      ownerProfileId: profileId,
      credentialId: randomUUID(),
      url: "https://receiver.example/hook",
      quoteId,
      events: "TRANSACTION_CREATED,STATUS_CHANGE",
    },
  });
  return id;
}

/** An outbox event of the ramp and its delivery to the subscription, in `status` since `settledAt`, with attempts. */
async function delivery(
  following: { rampId: string; subscriptionId: string },
  status: "pending" | "delivered" | "failed",
  settledAt: Date,
  attempts: number,
): Promise<{ deliveryId: string; attemptIds: string[] }> {
  const eventId = randomUUID();
  await t.app.db.rampEvent.create({
    data: { eventId, rampId: following.rampId, eventType: "STATUS_CHANGE", body: "{}", createdAt: settledAt },
  });
  const deliveryId = randomUUID();
  await t.app.db.webhookDelivery.create({
    data: {
      id: deliveryId,
      subscriptionId: following.subscriptionId,
      eventId,
      status,
      roundAttempts: attempts,
      nextAttemptAt: status === "pending" ? settledAt : null,
      deliveredAt: status === "delivered" ? settledAt : null,
      createdAt: settledAt,
      updatedAt: settledAt,
    },
  });
  const attemptIds = Array.from({ length: attempts }, () => randomUUID());
  await t.app.db.webhookDeliveryAttempt.createMany({
    data: attemptIds.map((id) => ({ id, deliveryId, startedAt: settledAt, durationMs: 12, statusCode: 500 })),
  });
  return { deliveryId, attemptIds };
}

async function idempotencyRecord(state: "in_flight" | "done", updatedAt: Date): Promise<string> {
  const id = randomUUID();
  await t.app.db.idempotencyRecord.create({
    data: {
      id,
      scope: `import-token:${profileId}`,
      key: id,
      requestHash: "0".repeat(64),
      state,
      lockedUntil: new Date(updatedAt.getTime() + 60_000),
      ...(state === "done" && { responseStatus: 202, responseBody: "{}" }),
      createdAt: updatedAt,
      updatedAt,
    },
  });
  return id;
}

async function signInCode(expiresAt: Date): Promise<string> {
  const email = `${randomUUID()}@example.com`;
  await t.app.db.otpChallenge.create({
    data: { email, codeHash: "0".repeat(64), sentAt: new Date(expiresAt.getTime() - 10 * 60_000), expiresAt },
  });
  return email;
}

/** A sign-in begun at `startedAt`, revoked at `revokedAt`, with a refresh token per expiry given. */
async function signIn(
  startedAt: Date,
  revokedAt: Date | null,
  tokenExpiries: Date[],
): Promise<{ familyId: string; tokenIds: string[] }> {
  const familyId = randomUUID();
  await t.app.db.sessionFamily.create({ data: { id: familyId, profileId, revokedAt, createdAt: startedAt } });
  const tokenIds = tokenExpiries.map(() => randomUUID());
  await t.app.db.refreshToken.createMany({
    data: tokenExpiries.map((expiresAt, index) => ({
      id: tokenIds[index]!,
      familyId,
      tokenHash: randomUUID(),
      expiresAt,
      spentAt: index < tokenExpiries.length - 1 ? startedAt : null,
      createdAt: startedAt,
    })),
  });
  return { familyId, tokenIds };
}

async function invitation(expiresAt: Date, state: { archived?: boolean; accepted?: boolean } = {}): Promise<string> {
  const id = randomUUID();
  await t.app.db.recipientInvitation.create({
    data: {
      id,
      senderProfileId: profileId,
      email: `${id}@example.com`,
      relationship: "family",
      codeHash: randomUUID(),
      status: state.accepted ? "accepted" : "pending",
      expiresAt,
      archivedAt: state.archived ? expiresAt : null,
      acceptedAt: state.accepted ? expiresAt : null,
      recipientProfileId: state.accepted ? profileId : null,
      createdAt: new Date(expiresAt.getTime() - 7 * DAY),
    },
  });
  return id;
}

/** The keys of every table retention could touch, and of those it must not. */
/** A stored partner callback that arrived then, applied then or not at all. */
async function partnerCallback(receivedAt: Date, appliedAt: Date | null) {
  const id = randomUUID();
  await t.app.db.partnerCallback.create({
    data: {
      id,
      partner: "Alfredpay",
      dedupeKey: id,
      subjectKind: "kyc",
      subjectId: randomUUID(),
      partnerStatus: "COMPLETED",
      partnerCustomerId: randomUUID(),
      rawBody: "{}",
      receivedAt,
      appliedAt,
    },
  });
  return id;
}

async function snapshot() {
  const { db } = t.app;
  const ids = (rows: { id: string }[]) => rows.map((row) => row.id).sort();
  const select = { select: { id: true } } as const;
  return {
    webhookDeliveries: ids(await db.webhookDelivery.findMany(select)),
    webhookDeliveryAttempts: ids(await db.webhookDeliveryAttempt.findMany(select)),
    idempotencyRecords: ids(await db.idempotencyRecord.findMany(select)),
    signInCodes: (await db.otpChallenge.findMany({ select: { email: true } })).map((row) => row.email).sort(),
    refreshTokens: ids(await db.refreshToken.findMany(select)),
    sessionFamilies: ids(await db.sessionFamily.findMany(select)),
    recipientInvitations: ids(await db.recipientInvitation.findMany(select)),
    quotes: ids(await db.quote.findMany(select)),
    ramps: ids(await db.ramp.findMany(select)),
    rampEvents: (await db.rampEvent.findMany({ select: { eventId: true } })).map((row) => row.eventId).sort(),
    webhookSubscriptions: ids(await db.webhookSubscription.findMany(select)),
    widgetSessions: ids(await db.widgetSession.findMany(select)),
    profiles: ids(await db.profile.findMany(select)),
    partnerCallbacks: ids(await db.partnerCallback.findMany(select)),
  };
}
type Snapshot = Awaited<ReturnType<typeof snapshot>>;

const without = (before: Snapshot, gone: Partial<Record<keyof Snapshot, string[]>>): Snapshot =>
  Object.fromEntries(
    Object.entries(before).map(([table, keys]) => [
      table,
      keys.filter((key) => !gone[table as keyof Snapshot]?.includes(key)),
    ]),
  ) as Snapshot;

// ---------------------------------------------------------------------------------------------------------

describe("a retention pass", () => {
  it("prunes exactly what is past its age and can no longer matter, and keeps everything else", async () => {
    // Deliveries: settled ones by when they settled; a pending one never, however old.
    const { quoteId: rampQuote, rampId } = await ramp();
    const following = { rampId, subscriptionId: await subscription(rampQuote) };
    const deliveredOld = await delivery(following, "delivered", older(AGES.delivery), 2);
    const failedOld = await delivery(following, "failed", older(AGES.delivery), 5);
    await delivery(following, "delivered", younger(AGES.delivery), 1);
    await delivery(following, "failed", younger(AGES.delivery), 5);
    await delivery(following, "pending", older(AGES.delivery * 2), 3);

    // Idempotency records: finished ones by when they finished, claims by when they were abandoned; a claim
    // held now never.
    const doneOld = await idempotencyRecord("done", older(AGES.idempotency));
    await idempotencyRecord("done", younger(AGES.idempotency));
    const abandonedOld = await idempotencyRecord("in_flight", older(AGES.idempotency * 2));
    await idempotencyRecord("in_flight", younger(AGES.idempotency));
    await idempotencyRecord("in_flight", ago(30_000));

    // Sign-in codes by expiry.
    const codeOld = await signInCode(older(AGES.auth));
    await signInCode(younger(AGES.auth));

    // Refresh tokens expired or ended long enough ago, and the sign-ins they leave empty.
    const longLived = await signIn(older(AGES.auth * 10), null, [older(AGES.auth), ago(-DAY)]);
    const revokedOld = await signIn(older(AGES.auth * 2), older(AGES.auth), [ago(-DAY)]);
    await signIn(older(AGES.auth * 2), younger(AGES.auth), [ago(-DAY)]);
    const expiredOld = await signIn(older(AGES.auth * 10), null, [older(AGES.auth * 2), older(AGES.auth)]);
    await signIn(older(AGES.auth * 10), null, [younger(AGES.auth)]);

    // Invitations that expired unaccepted, archived or not; an accepted one is a recipient.
    const expiredInvitation = await invitation(older(AGES.invitation));
    const archivedInvitation = await invitation(older(AGES.invitation), { archived: true });
    await invitation(younger(AGES.invitation));
    await invitation(ago(-DAY));
    await invitation(older(AGES.invitation * 3), { accepted: true });

    // Quotes that expired unregistered and that nothing names.
    const quoteOld = await quote(older(AGES.quote));
    await quote(younger(AGES.quote));
    const followedQuote = await quote(older(AGES.quote));
    await subscription(followedQuote);
    const widgetQuote = await quote(older(AGES.quote));
    await t.app.db.widgetSession.create({ data: { id: randomUUID(), quoteId: widgetQuote, parameters: "{}" } });
    const kycStartQuote = await quote(older(AGES.quote));
    await t.app.db.initialBrazilKycAttempt.create({
      data: { id: randomUUID(), profileId: randomUUID(), actorProfileId: randomUUID(), quoteId: kycStartQuote },
    });

    // Partner callbacks once applied, by when they arrived; unapplied ones never, however old.
    const appliedOld = await partnerCallback(older(AGES.partnerCallback), older(AGES.partnerCallback));
    await partnerCallback(younger(AGES.partnerCallback), younger(AGES.partnerCallback));
    await partnerCallback(older(AGES.partnerCallback * 24), null);

    // A live sign-in through the API, whose session must go on working.
    const live = await t.signIn();

    const before = await snapshot();
    expect(await t.app.retention.runOnce()).toEqual({
      webhookDeliveries: 2,
      idempotencyRecords: 2,
      signInCodes: 1,
      refreshTokens: 4,
      sessionFamilies: 2,
      recipientInvitations: 2,
      quotes: 1,
      partnerCallbacks: 1,
    });
    expect(await snapshot()).toEqual(
      without(before, {
        webhookDeliveries: [deliveredOld.deliveryId, failedOld.deliveryId],
        webhookDeliveryAttempts: [...deliveredOld.attemptIds, ...failedOld.attemptIds],
        idempotencyRecords: [doneOld, abandonedOld],
        signInCodes: [codeOld],
        refreshTokens: [longLived.tokenIds[0]!, ...revokedOld.tokenIds, ...expiredOld.tokenIds],
        sessionFamilies: [revokedOld.familyId, expiredOld.familyId],
        recipientInvitations: [expiredInvitation, archivedInvitation],
        quotes: [quoteOld],
        partnerCallbacks: [appliedOld],
      }),
    );

    ok(await t.request("GET", "/v1/api-credentials", { headers: live.headers }));
    ok(await t.request("POST", "/v1/auth/refresh", { body: { refresh_token: live.refreshToken } }));
  });

  it("with nothing past its age, prunes nothing and changes nothing", async () => {
    await t.app.retention.runOnce();
    await quote(younger(AGES.quote));
    await signInCode(younger(AGES.auth));
    await partnerCallback(younger(AGES.partnerCallback), younger(AGES.partnerCallback));
    const before = await snapshot();
    const pruned = await t.app.retention.runOnce();
    expect(Object.values(pruned!)).toEqual(Array(8).fill(0));
    expect(await snapshot()).toEqual(before);
  });

  it("takes a backlog larger than a batch in several batches, to the last row", async () => {
    const rows = BATCH * 3 + 1;
    const each = <T>(make: () => Promise<T>) => Promise.all(Array.from({ length: rows }, make));
    const { quoteId, rampId } = await ramp();
    const following = { rampId, subscriptionId: await subscription(quoteId) };
    await each(() => delivery(following, "delivered", older(AGES.delivery), 1));
    await each(() => idempotencyRecord("done", older(AGES.idempotency)));
    await each(() => signInCode(older(AGES.auth)));
    await each(() => signIn(older(AGES.auth * 10), null, [older(AGES.auth)]));
    await each(() => invitation(older(AGES.invitation)));
    await each(() => quote(older(AGES.quote)));
    await each(() => partnerCallback(older(AGES.partnerCallback), older(AGES.partnerCallback)));

    expect(await t.app.retention.runOnce()).toEqual({
      webhookDeliveries: rows,
      idempotencyRecords: rows,
      signInCodes: rows,
      refreshTokens: rows,
      sessionFamilies: rows,
      recipientInvitations: rows,
      quotes: rows,
      partnerCallbacks: rows,
    });
    expect(Object.values((await t.app.retention.runOnce())!)).toEqual(Array(8).fill(0));
  });
});
