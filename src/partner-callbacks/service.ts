import { createHash } from "node:crypto";
import type { Logger } from "pino";
import { v7 as timeOrderedUuid } from "uuid";
import { AppError } from "../errors.js";
import { verifyAlfredpayCallback } from "../providers/alfredpay/signing.js";
import { verifyAveniaCallback, type AveniaCallbackKey } from "../providers/avenia/signing.js";
import type { Partner } from "../providers/partners.js";
import type { PartnerCallbackFacts } from "../providers/callback-port.js";
import { fieldError } from "../validation.js";
import type { PartnerCallbackRepository } from "./repo.js";

/**
 * Avenia signs no time, id or nonce: a callback about an object its partner last changed longer ago than this
 * before it arrived is refused as a replay. That is far beyond Avenia's retries (seconds), and reconciliation
 * reads any state such a callback would have carried; within the window a replayed body is a copy (its digest is
 * stored), so callbacks must be kept at least this long.
 */
export const AVENIA_REPLAY_WINDOW_MS = 60 * 60 * 1000;
/** The longest Alfredpay `webhook-id` kept as a dedupe key (Standard Webhooks ids are short: `msg_` and a KSUID). */
const MAX_WEBHOOK_ID_LENGTH = 256;

type CallbackHeaders = Record<string, string | string[] | undefined>;

/** A callback as it arrived: the body's bytes, exactly, and the headers. */
export interface CallbackDelivery {
  rawBody: Buffer;
  headers: CallbackHeaders;
}

/** Where each partner's callbacks are verified from; a partner left out is not configured. */
export interface CallbackVerifiers {
  /** The key Avenia signs with, from its API (`GET /v2/public-key`), kept and refreshed. */
  avenia?: AveniaCallbackKey;
  /** The Standard Webhooks secret (`whsec_...`) Alfredpay signs with. */
  alfredpaySecret?: string;
}

export type CallbackOutcome = "stored" | "copy";

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Partner callbacks, verified and stored as they arrived (this module applies none: a later step reads them from
 * the table). Only ids, statuses and outcomes reach the log: a body can carry a payer's name or bank details.
 */
export class PartnerCallbackService {
  constructor(
    private readonly repository: PartnerCallbackRepository,
    private readonly verifiers: CallbackVerifiers,
    private readonly log: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** NOT_FOUND for a partner whose callbacks are not configured: no sender is expected there. */
  requireConfigured(partner: Partner): void {
    const configured = partner === "Avenia" ? this.verifiers.avenia : this.verifiers.alfredpaySecret;
    if (configured === undefined) throw new AppError("NOT_FOUND", `No ${partner} partner is configured here.`);
  }

  /**
   * AUTHENTICATION_REQUIRED unless the partner signed these bytes: a missing, malformed or wrong signature, and an unknown
   * sender, are all one. A genuine Alfredpay callback whose timestamp is more than 5 minutes from our clock is a
   * replay, said so. Avenia's key is fetched from its API when none is held (PROVIDER_UNAVAILABLE if it cannot be).
   */
  async verify(partner: Partner, { rawBody, headers }: CallbackDelivery): Promise<void> {
    this.requireConfigured(partner);
    if (partner === "Avenia") {
      if (await verifyAveniaCallback(rawBody, single(headers.signature), this.verifiers.avenia!)) return;
      throw this.refused(partner, "bad-signature");
    }
    const secret = this.verifiers.alfredpaySecret!;
    if (verifyAlfredpayCallback(rawBody, headers, secret, this.clock().getTime())) return;
    // Signed, but at a time too far from ours: the signature holds at the time it names.
    const sentAt = Number(single(headers["webhook-timestamp"])) * 1000;
    if (Number.isSafeInteger(sentAt) && verifyAlfredpayCallback(rawBody, headers, secret, sentAt))
      throw this.refused(
        partner,
        "replay",
        "The callback's webhook-timestamp is more than 5 minutes from our clock: refused as a replay.",
      );
    throw this.refused(partner, "bad-signature");
  }

  /**
   * Stores a verified callback, once: a copy (the same dedupe key) changes nothing. One insert, no partner call.
   * An Avenia callback about an object last changed more than AVENIA_REPLAY_WINDOW_MS before now is refused.
   */
  async receive(partner: Partner, delivery: CallbackDelivery, facts: PartnerCallbackFacts): Promise<CallbackOutcome> {
    const receivedAt = this.clock();
    const dedupeKey = this.dedupeKey(partner, delivery);
    const { subjectKind, subjectId, partnerStatus, partnerCustomerId, updatedAt } = facts;
    const subject = { partner, dedupeKey: dedupeKey.slice(0, 12), subjectKind, subjectId };
    if (partner === "Avenia" && receivedAt.getTime() - Date.parse(updatedAt!) > AVENIA_REPLAY_WINDOW_MS) {
      this.log.warn({ ...subject, outcome: "replay" }, "partner callback refused");
      throw new AppError(
        "AUTHENTICATION_REQUIRED",
        "The callback's object was last updated more than an hour before it arrived: refused as a replay.",
      );
    }
    const stored = await this.repository.insertCallback({
      id: timeOrderedUuid(),
      partner,
      dedupeKey,
      subjectKind,
      subjectId,
      partnerStatus,
      partnerCustomerId,
      // The verified body is UTF-8 JSON (the route refused anything else): the text is its bytes.
      rawBody: delivery.rawBody.toString("utf8"),
      receivedAt,
    });
    const outcome = stored ? "stored" : "copy";
    this.log.info({ ...subject, partnerStatus, outcome }, "partner callback");
    return outcome;
  }

  /** Avenia signs no event id: the body's digest stands for one. Alfredpay's `webhook-id` is signed with the body. */
  private dedupeKey(partner: Partner, { rawBody, headers }: CallbackDelivery): string {
    if (partner === "Avenia") return createHash("sha256").update(rawBody).digest("hex");
    const id = single(headers["webhook-id"])!;
    if (id.length > MAX_WEBHOOK_ID_LENGTH)
      throw fieldError("webhook-id", `must be at most ${MAX_WEBHOOK_ID_LENGTH} characters`);
    return id;
  }

  private refused(partner: Partner, outcome: "bad-signature" | "replay", message?: string): AppError {
    this.log.warn({ partner, outcome }, "partner callback refused");
    return new AppError("AUTHENTICATION_REQUIRED", message ?? "The partner's signature is missing or does not verify.");
  }
}
