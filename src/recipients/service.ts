import { createHmac, hkdfSync, randomBytes, randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { z } from "zod";
import type { ActingContext } from "../auth/delegation.js";
import { isUniqueViolation } from "../db/tx.js";
import { AppError } from "../errors.js";
import type { KycService } from "../kyc/service.js";
import type { Mailer } from "../mail/mailer.js";
import { CORRIDORS } from "../reference-data/corridors.js";
import { DOMESTIC_COUNTRIES } from "../reference-data/domestic.js";
import { canonicalId, fieldError, storedOneOf, type ListPage } from "../validation.js";
import type { Pagination } from "../output.js";
import type { InvitationRow, RecipientRepository } from "./repo.js";
import {
  RELATIONSHIPS,
  type acceptedInvitation,
  type InvitationPreview,
  type InvitationView,
  type inviteInput,
  type RecipientEligibility,
  type RecipientView,
  type relationshipInput,
} from "./types.js";

const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found.`);

/**
 * Sender-side recipients (CONTRACT.md, capability matrix: a session only): a sender invites a person by
 * email; the invitee, signed in with that email, previews and accepts with the code mailed to it. The code
 * is kept only as an HMAC. Invitations and recipients are the sender's (another sender's is 404); preview
 * and acceptance are the invitee's own (no selector).
 */
export class RecipientService {
  private readonly codeKey: Buffer;

  constructor(
    private readonly repository: RecipientRepository,
    private readonly mailer: Mailer,
    private readonly kyc: KycService,
    hashSecret: string,
    private readonly log: Logger,
  ) {
    this.codeKey = Buffer.from(hkdfSync("sha256", hashSecret, "", "ramp-gateway recipient invitation code", 32));
  }

  /** Invites a person; inviting the same email again while pending mails a new code (the old one stops working). */
  async invite(
    acting: ActingContext,
    form: z.output<typeof inviteInput>,
  ): Promise<{ invitation: InvitationView; created: boolean }> {
    const sender = await this.repository.findProfileEmail(acting.subjectProfileId);
    if (sender === form.email) throw fieldError("email", "is the sender's own");
    const code = randomBytes(24).toString("base64url");
    const now = new Date();
    const fields = {
      relationship: form.relationship,
      codeHash: this.hash(code),
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      archivedAt: null,
    };
    const existing = await this.repository.findInvitationByEmail(acting.subjectProfileId, form.email);
    if (existing?.status === "accepted") throw fieldError("email", "is already a recipient");
    let row: InvitationRow;
    try {
      row = existing
        ? await this.repository.updateInvitation(existing.id, fields)
        : await this.repository.insertInvitation({
            id: randomUUID(),
            senderProfileId: acting.subjectProfileId,
            email: form.email,
            status: "pending",
            createdAt: now,
            ...fields,
          });
    } catch (error) {
      // Two invitations to one email raced: the other one stands.
      if (isUniqueViolation(error)) throw fieldError("email", "was invited by a concurrent request");
      throw error;
    }
    try {
      await this.mailer.send({
        to: form.email,
        subject: "You are invited to receive payouts",
        text: `${maskEmail(sender)} invites you to receive payouts. Your invitation code is ${code}. Sign in with this email address and accept it within 7 days. If you do not know the sender, ignore this message.`,
      });
    } catch (error) {
      this.log.error({ err: error }, "recipient invitation could not be mailed");
      if (!existing) await this.repository.deleteInvitation(row.id);
      throw new AppError("INTERNAL", "The invitation could not be sent.");
    }
    return { invitation: invitationView(row, now), created: !existing };
  }

  /** A page of the sender's invitations not yet accepted, newest first: the current ones, or the archived ones. */
  async invitations(
    acting: ActingContext,
    { archived, limit, offset }: { archived: boolean } & ListPage,
  ): Promise<{ invitations: InvitationView[]; pagination: Pagination }> {
    const now = new Date();
    const { rows, total } = await this.repository.listPendingInvitations(acting.subjectProfileId, archived, {
      limit,
      offset,
    });
    return { invitations: rows.map((row) => invitationView(row, now)), pagination: { limit, offset, total } };
  }

  async archive(acting: ActingContext, invitationId: string, archived: boolean): Promise<InvitationView> {
    const row = await this.ownPending(acting, invitationId);
    return invitationView(
      await this.repository.updateInvitation(row.id, { archivedAt: archived ? (row.archivedAt ?? new Date()) : null }),
      new Date(),
    );
  }

  /** A page of the sender's recipients (accepted invitations), newest first. */
  async recipients(
    acting: ActingContext,
    { limit, offset }: ListPage,
  ): Promise<{ recipients: RecipientView[]; pagination: Pagination }> {
    const { rows, total } = await this.repository.listRecipients(acting.subjectProfileId, { limit, offset });
    return { recipients: rows.map(recipientView), pagination: { limit, offset, total } };
  }

  /** Changes how the sender relates to a recipient or a pending invitee. */
  async updateRelationship(
    acting: ActingContext,
    { id, relationship }: z.output<typeof relationshipInput>,
  ): Promise<RecipientView | InvitationView> {
    const row = await this.own(acting, id);
    const updated = await this.repository.updateInvitation(row.id, { relationship });
    return updated.status === "accepted" ? recipientView(updated) : invitationView(updated, new Date());
  }

  /**
   * Where a recipient can receive payouts now, per corridor: its KYC is approved there and, in the
   * fiat-account corridors, it has a payout account. Nothing else about the recipient is told.
   */
  async eligibility(acting: ActingContext, id: string): Promise<RecipientEligibility> {
    const row = await this.own(acting, id);
    if (row.status !== "accepted" || !row.recipientProfileId) throw notFound("Recipient");
    const recipient = row.recipientProfileId;
    const entries = await Promise.all(
      CORRIDORS.map(async (corridor) => {
        const approved = (await this.kyc.corridorStatus(recipient, corridor)) === "approved";
        const needsAccount = (DOMESTIC_COUNTRIES as readonly string[]).includes(corridor);
        const canReceive =
          approved && (!needsAccount || (await this.repository.hasUsableFiatAccount(recipient, corridor)));
        return [corridor, { canReceive }] as const;
      }),
    );
    return { recipientId: row.id, corridors: Object.fromEntries(entries) as RecipientEligibility["corridors"] };
  }

  /** What the invitee signed in with the invited email sees before accepting. */
  async preview(acting: ActingContext, code: string): Promise<InvitationPreview> {
    const row = await this.invitedTo(acting, code);
    const sender = await this.repository.findProfileEmail(row.senderProfileId);
    return {
      invitationId: row.id,
      sender: maskEmail(sender),
      relationship: storedOneOf(RELATIONSHIPS, row.relationship),
      expiresAt: row.expiresAt,
    };
  }

  /** The invitee accepts: it becomes the sender's recipient (once: a conditional update). */
  async accept(acting: ActingContext, code: string): Promise<z.output<typeof acceptedInvitation>> {
    const row = await this.invitedTo(acting, code);
    const acceptedAt = new Date();
    if (!(await this.repository.acceptInvitation(row.id, acting.subjectProfileId, acceptedAt)))
      throw notFound("Invitation");
    return { invitationId: row.id, relationship: storedOneOf(RELATIONSHIPS, row.relationship), acceptedAt };
  }

  /** A pending, unexpired, unarchived invitation to the caller's own login email with this code; else NOT_FOUND. */
  private async invitedTo(acting: ActingContext, code: string): Promise<InvitationRow> {
    const row = await this.repository.findInvitationByCode(this.hash(code));
    const email = await this.repository.findProfileEmail(acting.subjectProfileId);
    const usable =
      row &&
      row.status === "pending" &&
      !row.archivedAt &&
      row.expiresAt > new Date() &&
      row.email === email &&
      row.senderProfileId !== acting.subjectProfileId;
    if (!usable) throw notFound("Invitation");
    return row;
  }

  /** One of the sender's invitations (pending or accepted); another sender's, or none, is NOT_FOUND. */
  private async own(acting: ActingContext, id: string, what = "Recipient"): Promise<InvitationRow> {
    const key = canonicalId(id);
    const row = key ? await this.repository.findInvitation(key, acting.subjectProfileId) : null;
    if (!row) throw notFound(what);
    return row;
  }

  private async ownPending(acting: ActingContext, id: string): Promise<InvitationRow> {
    const row = await this.own(acting, id, "Invitation");
    if (row.status !== "pending") throw notFound("Invitation");
    return row;
  }

  private hash(code: string): string {
    return createHmac("sha256", this.codeKey).update(code).digest("hex");
  }
}

function invitationView(row: InvitationRow, now: Date): InvitationView {
  return {
    id: row.id,
    email: row.email,
    relationship: storedOneOf(RELATIONSHIPS, row.relationship),
    status: row.expiresAt > now ? "pending" : "expired",
    archived: row.archivedAt !== null,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
  };
}

function recipientView(row: InvitationRow): RecipientView {
  return {
    id: row.id,
    email: row.email,
    relationship: storedOneOf(RELATIONSHIPS, row.relationship),
    acceptedAt: row.acceptedAt!,
  };
}

/** `ana.souza@example.com` -> `a***@example.com`: enough to recognize, not to harvest. */
function maskEmail(email: string | null): string {
  if (!email) return "a managed profile";
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 1)}***@${domain}`;
}
