import { randomUUID } from "node:crypto";
import type { ActingContext, Delegation } from "../auth/delegation.js";
import type { Caches } from "../cache/caches.js";
import { isUniqueViolation } from "../db/tx.js";
import { fieldError } from "../validation.js";
import { AppError } from "../errors.js";
import { PartnerError } from "../providers/http/partner-http.js";
import type { ProfileService } from "../profiles/service.js";
import type {
  DomesticKybForm,
  DomesticKycForm,
  HostedKyc,
  KycCustomer,
  KycFileBytes,
  KycObservation,
  KycProvider,
  KycStatus,
  LivenessCheck,
} from "../providers/kyc-port.js";
import type { Corridor, CustomerType } from "../reference-data/corridors.js";
import { KycReads, type CaseKey } from "./reads.js";
import { attemptOf, changedMeanwhile, customerOf, flowName, notOpen } from "./cases.js";
import type { KycCaseRow, KycRepository } from "./repo.js";

/** How long a send holds its submission: longer than the partner's call may take (its transport gives up in 10 s). */
const SEND_CLAIM_MS = 60_000;

/** A subject's case in one corridor as this module hands it out. */
export type KycCase = KycCaseRow;

/** A hosted KYC (KYB) flow's page, and the attempt it opens. */
interface HostedLink {
  submissionId: string;
  url: string;
}

/**
 * Customers and their KYC/KYB cases with the partner, per subject, corridor and customer type (CONTRACT.md,
 * KYC/KYB and fiat accounts). Every state change is a conditional update on the state it was read in, so
 * concurrent requests cannot both start or decide an attempt. The partner's decision is observed (KycReconciler:
 * when a callback says the attempt changed, or when the check is due) and applied forward only, so however often
 * and in whatever order it is seen, it is applied once. Why a case was rejected is kept for support only.
 *
 * Operations that change a case are bound to its corridor and customer type: for a managed child, the
 * manager's current policy and the child's customer type apply. The reads it adds to (KycReads) skip the corridor
 * policy.
 */
export class KycService extends KycReads {
  constructor(
    repository: KycRepository,
    caches: Caches,
    private readonly provider: KycProvider,
    private readonly delegation: Delegation,
    private readonly profiles: ProfileService,
    /** How long after an attempt was sent, or last checked, the partner is asked where it stands. */
    private readonly checkIntervalMs: number,
  ) {
    super(repository, caches);
  }

  /**
   * Records which of its customers (individual or business) the subject acts as; choosing the same again
   * changes nothing. The choice is final: another one is refused.
   */
  async chooseCustomerType(subjectProfileId: string, customerType: CustomerType): Promise<void> {
    if (!(await this.repository.chooseCustomerType(subjectProfileId, customerType)))
      throw new AppError("ACTIVE_ENTITY_CHOSEN");
    await this.changed(subjectProfileId);
  }

  /**
   * Creates the partner's customer of the subject for a corridor and customer type (one each); a BR subaccount is
   * created with the name given and its CPF or CNPJ is kept.
   */
  async createCustomer(
    acting: ActingContext,
    key: CaseKey,
    brazil?: { name: string; taxId: string },
  ): Promise<KycCaseRow> {
    await this.delegation.authorizeCorridor(acting, key.corridor, key.customerType);
    const exists = () => fieldError("country", `already has a ${key.customerType} customer in ${key.corridor}`);
    if (await this.repository.findCase(acting.subjectProfileId, key.corridor, key.customerType)) throw exists();
    const subject = await this.profiles.kycSubject(acting.subjectProfileId);
    if (!subject) throw new AppError("NOT_FOUND", "Profile not found.");
    const providerCustomerId = await this.provider.createCustomer({
      ...key,
      contactEmail: subject.email,
      name: brazil?.name ?? null,
    });
    try {
      const created = await this.repository.insertCase({
        id: randomUUID(),
        profileId: acting.subjectProfileId,
        corridor: key.corridor,
        customerType: key.customerType,
        providerCustomerId,
        contactEmail: subject.email,
        status: "not_started",
        taxId: brazil?.taxId ?? null,
      });
      await this.changed(acting.subjectProfileId);
      return created;
    } catch (error) {
      if (isUniqueViolation(error)) throw exists();
      throw error;
    }
  }

  /** Opens the partner's liveness check for a selfie of the case's customer (BR). */
  startLiveness(row: KycCaseRow): Promise<LivenessCheck> {
    return this.provider.startLiveness(customerOf(row));
  }

  /**
   * Hands an API submission's information to the partner, which opens an attempt (pending) that takes files until
   * it is sent. Giving KYC information again before sending opens another (KYB: refused, one form at a time). A KYB submission's related persons get the
   * partner's ids, kept with the attempt for their documents.
   */
  async submitInformation(
    acting: ActingContext,
    key: CaseKey,
    form: DomesticKycForm | DomesticKybForm,
  ): Promise<{ submissionId: string }> {
    const row = await this.caseToChange(acting, key);
    if (!(row.status === "not_started" || (row.status === "pending" && row.method === "api"))) throw notOpen(row);
    // The partner keeps one open KYB form per business and takes no second one until it is sent.
    if (row.status === "pending" && key.customerType === "business")
      throw fieldError("country", "has a KYB submission open: upload its files and send it");
    const opened = await this.provider.openSubmission(customerOf(row), form);
    const submissionId = await this.recordAttempt(row, {
      status: "pending",
      method: "api",
      partnerAttemptId: opened.attemptId,
      hostedFlowUrl: null,
      nextCheckAt: null,
      relatedPersonIds: opened.relatedPersonIds.length ? JSON.stringify(opened.relatedPersonIds) : null,
    });
    return { submissionId };
  }

  /** Hands a file of an open API submission (or of one of its related persons) to the partner. */
  async sendFile(
    row: KycCaseRow & { submissionId: string },
    file: KycFileBytes & { fileType: string; relatedPersonId?: string },
  ): Promise<void> {
    await this.provider.sendFile(customerOf(row), attemptOf(row), file);
  }

  /**
   * Sends the API submission for review: in review until the partner's decision is observed. The send is claimed
   * before the partner is asked (a submission not sent has no check due; the claim is one, a failed call gives it
   * back), so of concurrent sends one reaches the partner and the others are refused as a change made meanwhile. A call
   * whose outcome is unknown (its answer lost) is checked at once instead: the check finds the attempt in review, or
   * not sent, which gives it back.
   */
  async sendSubmission(acting: ActingContext, key: CaseKey, submissionId: string): Promise<void> {
    const row = await this.caseToChange(acting, key);
    if (row.submissionId !== submissionId || row.method !== "api")
      throw new AppError("NOT_FOUND", "Submission not found.");
    if (row.status !== "pending") throw notOpen(row);
    const unsent = { id: row.id, status: row.status, submissionId };
    const claim = { nextCheckAt: new Date(Date.now() + SEND_CLAIM_MS) };
    if (!(await this.repository.updateCaseIf({ ...unsent, nextCheckAt: null }, claim))) throw changedMeanwhile(row);
    try {
      await this.provider.sendSubmission(customerOf(row), attemptOf(row));
    } catch (error) {
      const mayHaveReached = error instanceof PartnerError && error.kind === "unknown";
      await this.repository.updateCaseIf(unsent, { nextCheckAt: mayHaveReached ? new Date() : null });
      throw error;
    }
    // A partner's callback may have had the attempt observed in review (or decided) first: the send went through.
    if (!(await this.repository.updateCaseIf(unsent, { status: "in_review", nextCheckAt: this.nextCheck() }))) {
      const current = await this.repository.findCaseById(row.id);
      if (current.submissionId !== submissionId) throw changedMeanwhile(row);
    }
    await this.changed(row.profileId);
  }

  /** A hosted verification link: a new attempt at the partner, or the one already opened. */
  async redirectLink(acting: ActingContext, key: CaseKey): Promise<{ submissionId: string; url: string }> {
    const row = await this.caseToChange(acting, key);
    if (row.method === "redirect" && row.submissionId && row.hostedFlowUrl && row.status !== "rejected")
      return { submissionId: row.submissionId, url: row.hostedFlowUrl };
    if (row.status !== "not_started") throw notOpen(row);
    return this.hostedLink(row);
  }

  /** The subject opened the hosted flow: the attempt is under way (pending). Again: nothing changes. */
  async redirectOpened(acting: ActingContext, key: CaseKey): Promise<void> {
    const row = await this.caseToChange(acting, key);
    if (row.method !== "redirect" || !row.submissionId)
      throw fieldError("country", `has no hosted ${flowName(key)} link: ask for one first`);
    if (row.status === "not_started") await this.move(row, { status: "pending" });
  }

  /**
   * The subject finished the hosted flow: in review until the partner's decision is observed, which is asked for at
   * once. Again: nothing changes.
   */
  async redirectFinished(acting: ActingContext, key: CaseKey): Promise<void> {
    const row = await this.caseToChange(acting, key);
    if (row.method !== "redirect" || !row.submissionId)
      throw fieldError("country", `has no hosted ${flowName(key)} link: ask for one first`);
    if (row.status !== "not_started" && row.status !== "pending") return;
    await this.move(row, { status: "in_review", nextCheckAt: new Date() });
  }

  /**
   * Submits and sends in one step (BR level 1, an imported token): `send` hands the attempt to the partner and
   * answers its id; in review until the partner's decision is observed.
   */
  async submitAndSend(
    acting: ActingContext,
    row: KycCaseRow,
    method: "api" | "token_import",
    send: (customer: KycCustomer) => Promise<string>,
  ): Promise<{ submissionId: string }> {
    await this.authorizeCase(acting, row);
    if (row.status !== "not_started") throw notOpen(row);
    const partnerAttemptId = await send(customerOf(row));
    const submissionId = await this.recordAttempt(row, {
      status: "in_review",
      method,
      partnerAttemptId,
      hostedFlowUrl: null,
      nextCheckAt: this.nextCheck(),
    });
    return { submissionId };
  }

  /** Opens the partner's hosted KYB of a BR company, which is under review once its pages are done. */
  async startHostedReview(acting: ActingContext, row: KycCaseRow): Promise<HostedKyc & { submissionId: string }> {
    await this.authorizeCase(acting, row);
    if (row.status !== "not_started") throw notOpen(row);
    return this.openHostedFlow(row, "in_review");
  }

  /**
   * Registers an ultimate beneficial owner of a company case with the partner (`register` answers its id there),
   * keeping only its ids: null when the identification document already identifies one of the subject's owners
   * (asked before the partner is).
   */
  async addBeneficialOwner(
    acting: ActingContext,
    row: KycCaseRow,
    register: (customer: KycCustomer) => Promise<string>,
    documents: { identificationDocumentId: string; selfieDocumentId?: string },
  ): Promise<{ id: string } | null> {
    await this.authorizeCase(acting, row);
    const { subjectProfileId } = acting;
    if (await this.repository.isIdentificationDocumentUsed(subjectProfileId, documents.identificationDocumentId))
      return null;
    const providerOwnerId = await register(customerOf(row));
    const id = randomUUID();
    const stored = await this.repository.insertBeneficialOwner({
      id,
      profileId: subjectProfileId,
      kycCaseId: row.id,
      providerOwnerId,
      identificationDocumentId: documents.identificationDocumentId,
      selfieDocumentId: documents.selfieDocumentId ?? null,
    });
    return stored ? { id } : null;
  }

  /** The provider's ids of the subject's beneficial owners of a case, by their ids here; others are absent. */
  async beneficialOwnerIds(subjectProfileId: string, row: KycCaseRow, ids: string[]): Promise<Map<string, string>> {
    const owners = await this.repository.findBeneficialOwners(subjectProfileId, row.id, ids);
    return new Map(owners.map((owner) => [owner.id, owner.providerOwnerId]));
  }

  /** Starts over after a rejection: a new hosted link for a redirect flow, otherwise a fresh case to submit to. */
  async retry(acting: ActingContext, key: CaseKey): Promise<{ hostedLink: HostedLink | null }> {
    const row = await this.caseToChange(acting, key);
    if (row.status !== "rejected") throw fieldError("country", `has no failed ${flowName(key)} submission to retry`);
    if (row.method === "redirect") return { hostedLink: await this.hostedLink(row) };
    await this.move(row, {
      status: "not_started",
      submissionId: null,
      method: null,
      partnerAttemptId: null,
      hostedFlowUrl: null,
      nextCheckAt: null,
      decidedAt: null,
      relatedPersonIds: null,
    });
    return { hostedLink: null };
  }

  /** A new hosted link (of a case not started, or rejected): an attempt whose pages the subject has yet to open. */
  private async hostedLink(row: KycCaseRow): Promise<HostedLink> {
    const { submissionId, url } = await this.openHostedFlow(row, "not_started");
    return { submissionId, url };
  }

  /** Opens a hosted attempt at the partner; the partner's pages lead it, so its progress is observed from now on. */
  private async openHostedFlow(
    row: KycCaseRow,
    status: "not_started" | "in_review",
  ): Promise<HostedKyc & { submissionId: string }> {
    const hosted = await this.provider.startHostedFlow(customerOf(row));
    const submissionId = await this.recordAttempt(row, {
      status,
      method: "redirect",
      partnerAttemptId: hosted.attemptId,
      hostedFlowUrl: hosted.url,
      nextCheckAt: this.nextCheck(),
      // A rejected case starts over: its decision and declared persons were the old attempt's.
      ...(row.status === "rejected" && { decidedAt: null, relatedPersonIds: null }),
    });
    return { ...hosted, submissionId };
  }

  /**
   * Asks the partner where a case's attempt stands and applies what it says, forward only: an observation at or
   * behind the case's status changes nothing but when the next check is due. Made by the reconciler, never inside a
   * transaction. True when the case moved.
   */
  async observe(row: KycCaseRow, signal?: AbortSignal): Promise<boolean> {
    if (!row.partnerAttemptId) return false;
    const observation = await this.provider.observe(customerOf(row), row.partnerAttemptId, signal);
    return this.apply(row, observation);
  }

  private async apply(row: KycCaseRow, observation: KycObservation): Promise<boolean> {
    const expected = { id: row.id, status: row.status, partnerAttemptId: row.partnerAttemptId };
    const current = row.status as KycStatus;
    // A caller's own report (opened, finished) may be ahead of the partner's; a decided case never moves again, and a
    // submission found not sent is its caller's to send again.
    if (isDecided(current) || OBSERVED_RANK[observation.status] <= OBSERVED_RANK[current]) {
      const watched = !isDecided(current) && !(current === "pending" && row.method === "api");
      await this.repository.updateCaseIf(expected, { nextCheckAt: watched ? this.nextCheck() : null });
      return false;
    }
    const decided = isDecided(observation.status);
    const moved = await this.repository.updateCaseIf(expected, {
      status: observation.status,
      statusReason: observation.status === "rejected" ? observation.reason : null,
      decidedAt: decided ? new Date() : null,
      nextCheckAt: decided ? null : this.nextCheck(),
    });
    if (moved) await this.changed(row.profileId);
    return moved;
  }

  private nextCheck(): Date {
    return new Date(Date.now() + this.checkIntervalMs);
  }

  /** The case a change is about, once the corridor and customer type are authorized; NOT_FOUND before the customer exists. */
  async caseToChange(acting: ActingContext, key: CaseKey): Promise<KycCaseRow> {
    await this.delegation.authorizeCorridor(acting, key.corridor, key.customerType);
    return this.caseOf(acting, key);
  }

  /** A case the caller read itself (the BR flows), once its corridor and customer type are authorized. */
  private authorizeCase(acting: ActingContext, row: KycCaseRow): Promise<void> {
    return this.delegation.authorizeCorridor(acting, row.corridor as Corridor, row.customerType as CustomerType);
  }

  /** Stores the partner's new attempt on the case as read, under a new submission id of ours, which it answers. */
  private async recordAttempt(
    row: KycCaseRow,
    attempt: Omit<Parameters<KycRepository["updateCaseIf"]>[1], "submissionId">,
  ): Promise<string> {
    const submissionId = randomUUID();
    await this.move(row, { ...attempt, submissionId });
    return submissionId;
  }

  /** Applies a change if the case is still as read; another request changed it first otherwise (400, read again). */
  private async move(row: KycCaseRow, data: Parameters<KycRepository["updateCaseIf"]>[1]): Promise<void> {
    if (!(await this.repository.updateCaseIf({ id: row.id, status: row.status, submissionId: row.submissionId }, data)))
      throw changedMeanwhile(row);
    await this.changed(row.profileId);
  }
}

/** How far an attempt has come: what an observation must exceed to move a case. */
const OBSERVED_RANK: Record<KycStatus, number> = {
  not_started: 0,
  pending: 1,
  in_review: 2,
  approved: 3,
  rejected: 3,
};

const isDecided = (status: KycStatus) => status === "approved" || status === "rejected";
