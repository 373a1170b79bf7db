import { randomUUID } from "node:crypto";
import type { ActingContext, Delegation } from "../auth/delegation.js";
import type { Db } from "../db/client.js";
import type { Reads } from "../db/statements.js";
import type { EventBus } from "../events/bus.js";
import { busInvalidatedCache, type RevocableCache } from "../cache/revocable-cache.js";
import { isUniqueViolation } from "../db/tx.js";
import { fieldError } from "../validation.js";
import { AppError } from "../errors.js";
import type { ProfileService } from "../profiles/service.js";
import type { BeneficialOwnerToRegister, KycProvider, KycStatus, KycSubmission } from "../providers/ports.js";
import type { Corridor, CustomerType } from "../reference-data/corridors.js";
import * as repo from "./repo.js";

/** Which status a subject shows in a corridor when it has several cases there (individual and business). */
const STATUS_RANK: Record<KycStatus, number> = { approved: 4, in_review: 3, pending: 2, rejected: 1, not_started: 0 };

const customerNotFound = () => new AppError("NOT_FOUND", "Customer not found.");

/** What a KYC/KYB operation is about: the corridor and the customer type (KYC: individual, KYB: business). */
export interface CaseKey {
  corridor: Corridor;
  customerType: CustomerType;
}

/** A subject's case in one corridor as this module hands it out. */
export type KycCase = repo.KycCaseRow;

/**
 * Customers and their KYC/KYB cases with the provider, per subject, corridor and customer type (CONTRACT.md,
 * KYC/KYB and fiat accounts). Every state change is a conditional update on the state it was read in, so
 * concurrent requests cannot both start or decide an attempt. The provider's decision takes effect when it
 * is due; reads apply it then, so no worker is needed. Why a case was rejected is kept for support only.
 *
 * Operations that change a case are bound to its corridor and customer type: for a managed child, the
 * manager's current policy and the child's customer type apply. Reads skip the corridor policy.
 */
export class KycService {
  /** Each subject's cases and login email, dropped on every instance when one of its cases changes. */
  private readonly subjects: RevocableCache<repo.SubjectKyc>;
  /** The statuses of each cached state above that has no decision to come (dropped with the state). */
  private readonly settledStatuses = new WeakMap<repo.SubjectKyc, Readonly<Record<Corridor, KycStatus>>>();

  constructor(
    private readonly db: Db,
    private readonly reads: Reads,
    private readonly bus: EventBus,
    private readonly provider: KycProvider,
    private readonly delegation: Delegation,
    private readonly profiles: ProfileService,
    cacheTtlMs: number,
  ) {
    this.subjects = busInvalidatedCache(bus, cacheTtlMs);
  }

  /**
   * The subject's status in a corridor, as ramps and ramp-info see it: the most advanced of its cases there.
   * EU has no provider case: the verified login email (every sign-in proves it) is the verification, and
   * managed children never have one.
   */
  async corridorStatus(subjectProfileId: string, corridor: Corridor): Promise<KycStatus> {
    return (await this.corridorStatuses(subjectProfileId))[corridor];
  }

  /**
   * `corridorStatus` of every corridor at once (ramp-info). While the subject's cases are unchanged and none
   * has a decision still to come, the answer cannot change: it is the same object each time, made once.
   */
  async corridorStatuses(subjectProfileId: string): Promise<Readonly<Record<Corridor, KycStatus>>> {
    const kyc = await this.subjectKyc(subjectProfileId);
    const settled = this.settledStatuses.get(kyc);
    if (settled) return settled;
    const statuses: Record<Corridor, KycStatus> = {
      AR: "not_started",
      BR: "not_started",
      CO: "not_started",
      EU: kyc.hasLoginEmail ? "approved" : "not_started",
      MX: "not_started",
      US: "not_started",
    };
    const now = new Date();
    for (const row of kyc.cases) {
      const status = withDueDecision(row, now).status as KycStatus;
      const corridor = row.corridor as Corridor;
      if (STATUS_RANK[status] > STATUS_RANK[statuses[corridor]]) statuses[corridor] = status;
    }
    if (!kyc.cases.some((row) => decisionToCome(row, now))) this.settledStatuses.set(kyc, statuses);
    return statuses;
  }

  /** Every case of the subject, oldest first, with the provider's decisions that are due. */
  async casesOf(subjectProfileId: string): Promise<repo.KycCaseRow[]> {
    return (await this.onboardingState(subjectProfileId)).cases;
  }

  /**
   * `casesOf` of several subjects (a manager's children in one list), by subject: from memory, the others in
   * one statement.
   */
  async casesOfMany(subjectProfileIds: readonly string[]): Promise<Map<string, KycCase[]>> {
    const now = new Date();
    const states = await this.subjects.loadMany(subjectProfileIds, async (missing) => {
      const read = await repo.findSubjectKycOfMany(this.reads, missing);
      return new Map([...read].map(([id, value]) => [id, { value, tags: [kycTag(id)] }]));
    });
    return new Map([...states].map(([id, { cases }]) => [id, cases.map((row) => withDueDecision(row, now))]));
  }

  /** `casesOf`, and the customer type the subject chose to act as (onboarding status). */
  async onboardingState(
    subjectProfileId: string,
  ): Promise<{ cases: repo.KycCaseRow[]; activeCustomerType: string | null }> {
    const now = new Date();
    const { cases, activeCustomerType } = await this.subjectKyc(subjectProfileId);
    return { cases: cases.map((row) => withDueDecision(row, now)), activeCustomerType };
  }

  /**
   * Records which of its customers (individual or business) the subject acts as; choosing the same again
   * changes nothing. The choice is final: another one is refused.
   */
  async chooseCustomerType(subjectProfileId: string, customerType: CustomerType): Promise<void> {
    if (!(await repo.chooseCustomerType(this.db, subjectProfileId, customerType)))
      throw new AppError("ACTIVE_ENTITY_CHOSEN");
    await this.changed(subjectProfileId);
  }

  /** The CPF or CNPJ of the subject's approved Brazilian case, if any. */
  async verifiedBrazilianTaxId(subjectProfileId: string): Promise<string | null> {
    return (
      (await this.casesOf(subjectProfileId)).find(
        (row) => row.corridor === "BR" && row.status === "approved" && row.taxId,
      )?.taxId ?? null
    );
  }

  /** The subject's KYC state: from memory, or one statement. */
  private async subjectKyc(subjectProfileId: string): Promise<repo.SubjectKyc> {
    const loaded = await this.subjects.load(subjectProfileId, async () => ({
      value: await repo.findSubjectKyc(this.reads, subjectProfileId),
      tags: [kycTag(subjectProfileId)],
    }));
    return loaded!;
  }

  /** Tells every instance that the subject's cases changed (after the change is stored). */
  private async changed(subjectProfileId: string): Promise<void> {
    await this.bus.publish("cacheInvalidated", { tag: kycTag(subjectProfileId) });
  }

  /** Creates the provider customer of the subject for a corridor and customer type (one each). */
  async createCustomer(acting: ActingContext, key: CaseKey, brazilianTaxId?: string): Promise<repo.KycCaseRow> {
    await this.delegation.authorizeCorridor(acting, key.corridor, key.customerType);
    const exists = () => fieldError("country", `already has a ${key.customerType} customer in ${key.corridor}`);
    if (await repo.findCase(this.db, acting.subjectProfileId, key.corridor, key.customerType)) throw exists();
    const subject = await this.profiles.kycSubject(acting.subjectProfileId);
    if (!subject) throw new AppError("NOT_FOUND", "Profile not found.");
    const providerCustomerId = await this.provider.createCustomer({ ...key, contactEmail: subject.email });
    try {
      const created = await repo.insertCase(this.db, {
        id: randomUUID(),
        profileId: acting.subjectProfileId,
        corridor: key.corridor,
        customerType: key.customerType,
        providerCustomerId,
        contactEmail: subject.email,
        status: "not_started",
        taxId: brazilianTaxId ?? null,
      });
      await this.changed(acting.subjectProfileId);
      return created;
    } catch (error) {
      if (isUniqueViolation(error)) throw exists();
      throw error;
    }
  }

  /** The subject's case (decision applied); NOT_FOUND before its customer exists. A read: no corridor policy. */
  async caseOf(acting: ActingContext, key: CaseKey): Promise<repo.KycCaseRow> {
    const row = await repo.findCase(this.db, acting.subjectProfileId, key.corridor, key.customerType);
    if (!row) throw customerNotFound();
    return this.current(row);
  }

  /** The subject's case by its provider customer id (the BR subaccount id), or null. */
  async caseByCustomer(acting: ActingContext, providerCustomerId: string): Promise<repo.KycCaseRow | null> {
    const row = await repo.findCaseByCustomer(this.db, acting.subjectProfileId, providerCustomerId);
    return row && this.current(row);
  }

  /** The subject's case whose current attempt this is, or null. */
  async caseBySubmission(acting: ActingContext, submissionId: string): Promise<repo.KycCaseRow | null> {
    const row = await repo.findCaseBySubmission(this.db, acting.subjectProfileId, submissionId);
    return row && this.current(row);
  }

  hostedFlowUrl(attemptId: string, customerType: CustomerType): string {
    return this.provider.hostedFlowUrl(attemptId, customerType);
  }

  /** The provider's liveness check for a selfie (its page and session token). */
  livenessCheck(selfieId: string): { url: string; validationToken: string } {
    return this.provider.livenessCheck(selfieId);
  }

  /**
   * Records an API submission's information (pending): the provider decides on it when it is sent.
   * Giving information again before sending replaces the attempt. A KYB submission's related persons
   * (their full names) get the provider's ids, kept with the attempt for their documents.
   */
  async submitInformation(
    acting: ActingContext,
    key: CaseKey,
    names: string[],
    relatedPersons: string[] = [],
  ): Promise<{ submissionId: string }> {
    const row = await this.changeable(acting, key);
    if (!(row.status === "not_started" || (row.status === "pending" && row.method === "api"))) throw this.notOpen(row);
    const decision = await this.provider.submit(this.submission(row, "api", names, relatedPersons));
    const submissionId = randomUUID();
    await this.move(row, {
      status: "pending",
      method: "api",
      submissionId,
      pendingOutcome: decision.outcome,
      pendingReason: decision.reason,
      decisionDelayMs: decision.decideAfterMs,
      relatedPersonIds: relatedPersons.length ? JSON.stringify(decision.relatedPersonIds) : null,
    });
    return { submissionId };
  }

  /** Sends the API submission for review: the provider's decision takes effect after its delay. */
  async sendSubmission(acting: ActingContext, key: CaseKey, submissionId: string): Promise<void> {
    const row = await this.changeable(acting, key);
    if (row.submissionId !== submissionId || row.method !== "api")
      throw new AppError("NOT_FOUND", "Submission not found.");
    if (row.status !== "pending") throw this.notOpen(row);
    await this.move(row, { status: "in_review", decisionDueAt: new Date(Date.now() + (row.decisionDelayMs ?? 0)) });
  }

  /**
   * The case whose current API submission this is, while it takes files (given, not sent yet), once the corridor
   * and customer type are authorized. Any other submission is NOT_FOUND (another owner's too).
   */
  async submissionTakingFiles(
    acting: ActingContext,
    key: CaseKey,
    submissionId: string,
  ): Promise<repo.KycCaseRow & { submissionId: string }> {
    const row = await this.changeable(acting, key);
    if (row.submissionId !== submissionId || row.method !== "api")
      throw new AppError("NOT_FOUND", "Submission not found.");
    return this.takingFiles(row, "submissionId");
  }

  /**
   * The business case whose current API submission declared this related person, while it takes files; a person
   * of no such submission is NOT_FOUND (another owner's too).
   */
  async relatedPersonTakingFiles(
    acting: ActingContext,
    key: CaseKey,
    relatedPersonId: string,
  ): Promise<repo.KycCaseRow & { submissionId: string }> {
    const row = await this.changeable(acting, key);
    if (!repo.relatedPersonIdsOf(row).includes(relatedPersonId))
      throw new AppError("NOT_FOUND", "Related person not found.");
    return this.takingFiles(row, "relatedPersonId");
  }

  /** A submission takes files until it is sent: what the provider reviews is what it had then. */
  private takingFiles(row: repo.KycCaseRow, field: string): repo.KycCaseRow & { submissionId: string } {
    if (row.status !== "pending" || !row.submissionId)
      throw fieldError(
        field,
        `names a ${flowName(row)} submission that is ${row.status.replace("_", " ")}: it takes no files now`,
      );
    return { ...row, submissionId: row.submissionId };
  }

  /** A hosted verification link: a new attempt, or the one already opened. */
  async redirectLink(acting: ActingContext, key: CaseKey): Promise<{ submissionId: string; url: string }> {
    const row = await this.changeable(acting, key);
    if (row.status === "pending" && row.method === "redirect" && row.submissionId) {
      return { submissionId: row.submissionId, url: this.provider.hostedFlowUrl(row.submissionId, key.customerType) };
    }
    if (row.status !== "not_started") throw this.notOpen(row);
    const submissionId = randomUUID();
    await this.move(row, {
      method: "redirect",
      submissionId,
      pendingOutcome: null,
      pendingReason: null,
      decisionDelayMs: null,
    });
    return { submissionId, url: this.provider.hostedFlowUrl(submissionId, key.customerType) };
  }

  /** The subject opened the hosted flow: the attempt is under way (pending). Again: nothing changes. */
  async redirectOpened(acting: ActingContext, key: CaseKey): Promise<void> {
    const row = await this.changeable(acting, key);
    if (row.method !== "redirect" || !row.submissionId)
      throw fieldError("country", `has no hosted ${flowName(key)} link: ask for one first`);
    if (row.status === "not_started") await this.move(row, { status: "pending" });
  }

  /** The subject finished the hosted flow: the provider decides (in_review until it is due). Again: nothing changes. */
  async redirectFinished(acting: ActingContext, key: CaseKey): Promise<void> {
    const row = await this.changeable(acting, key);
    if (row.method !== "redirect" || !row.submissionId)
      throw fieldError("country", `has no hosted ${flowName(key)} link: ask for one first`);
    if (row.status !== "not_started" && row.status !== "pending") return;
    const decision = await this.provider.submit(this.submission(row, "redirect", []));
    await this.move(row, {
      status: "in_review",
      pendingOutcome: decision.outcome,
      pendingReason: decision.reason,
      decisionDelayMs: decision.decideAfterMs,
      decisionDueAt: new Date(Date.now() + decision.decideAfterMs),
    });
  }

  /**
   * Submits and sends in one step (BR level 1, an imported token): in review at once, decided after the
   * provider's delay.
   */
  async submitAndSend(
    acting: ActingContext,
    row: repo.KycCaseRow,
    method: KycSubmission["method"],
    names: string[],
    extra: Pick<KycSubmission, "beneficialOwnerIds" | "rejectionRequested"> = {},
  ): Promise<{ submissionId: string }> {
    await this.delegation.authorizeCorridor(acting, row.corridor as Corridor, row.customerType as CustomerType);
    if (row.status !== "not_started") throw this.notOpen(row);
    const decision = await this.provider.submit({ ...this.submission(row, method, names), ...extra });
    const submissionId = randomUUID();
    await this.move(row, {
      status: "in_review",
      method,
      submissionId,
      pendingOutcome: decision.outcome,
      pendingReason: decision.reason,
      decisionDelayMs: decision.decideAfterMs,
      decisionDueAt: new Date(Date.now() + decision.decideAfterMs),
    });
    return { submissionId };
  }

  /**
   * Registers an ultimate beneficial owner of a company case with the provider, keeping only its ids: null when
   * the identification document already identifies one of the subject's owners (asked before the provider is).
   */
  async addBeneficialOwner(
    acting: ActingContext,
    row: repo.KycCaseRow,
    person: Omit<BeneficialOwnerToRegister, "customerId">,
    documents: { identificationDocumentId: string; selfieDocumentId?: string },
  ): Promise<{ id: string } | null> {
    await this.delegation.authorizeCorridor(acting, row.corridor as Corridor, row.customerType as CustomerType);
    const { subjectProfileId } = acting;
    if (await repo.isIdentificationDocumentUsed(this.db, subjectProfileId, documents.identificationDocumentId))
      return null;
    const providerOwnerId = await this.provider.registerBeneficialOwner({
      customerId: row.providerCustomerId,
      ...person,
    });
    const id = randomUUID();
    const stored = await repo.insertBeneficialOwner(this.db, {
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
  async beneficialOwnerIds(
    subjectProfileId: string,
    row: repo.KycCaseRow,
    ids: string[],
  ): Promise<Map<string, string>> {
    const owners = await repo.findBeneficialOwners(this.db, subjectProfileId, row.id, ids);
    return new Map(owners.map((owner) => [owner.id, owner.providerOwnerId]));
  }

  /** Starts over after a rejection: a new hosted link for a redirect flow, otherwise a fresh case to submit to. */
  async retry(acting: ActingContext, key: CaseKey): Promise<{ submissionId: string; url: string } | { success: true }> {
    const row = await this.changeable(acting, key);
    if (row.status !== "rejected") throw fieldError("country", `has no failed ${flowName(key)} submission to retry`);
    const redirect = row.method === "redirect";
    const submissionId = redirect ? randomUUID() : null;
    await this.move(row, {
      status: "not_started",
      submissionId,
      method: redirect ? "redirect" : null,
      decidedAt: null,
      pendingOutcome: null,
      pendingReason: null,
      decisionDelayMs: null,
      relatedPersonIds: null,
    });
    return submissionId
      ? { submissionId, url: this.provider.hostedFlowUrl(submissionId, key.customerType) }
      : { success: true };
  }

  /** The case a change is about, once the corridor and customer type are authorized; NOT_FOUND before the customer exists. */
  private async changeable(acting: ActingContext, key: CaseKey): Promise<repo.KycCaseRow> {
    await this.delegation.authorizeCorridor(acting, key.corridor, key.customerType);
    return this.caseOf(acting, key);
  }

  private submission(
    row: repo.KycCaseRow,
    method: KycSubmission["method"],
    names: string[],
    relatedPersons: string[] = [],
  ): KycSubmission {
    return {
      corridor: row.corridor as Corridor,
      customerType: row.customerType as CustomerType,
      method,
      contactEmail: row.contactEmail,
      names,
      relatedPersons,
    };
  }

  /** Applies a change if the case is still as read; another request changed it first otherwise (400, read again). */
  private async move(row: repo.KycCaseRow, data: Parameters<typeof repo.updateCaseIf>[2]): Promise<void> {
    if (!(await repo.updateCaseIf(this.db, { id: row.id, status: row.status, submissionId: row.submissionId }, data))) {
      throw fieldError("country", `${flowName(row)} changed meanwhile: read its status and try again`);
    }
    await this.changed(row.profileId);
  }

  private notOpen(row: repo.KycCaseRow): AppError {
    return fieldError(
      "country",
      `${flowName(row)} is ${row.status.replace("_", " ")}: no new submission is possible now`,
    );
  }

  /**
   * The case with its provider decision stored once due (a conditional update: decided once), before a
   * change is made on it. Reads need no write: `withDueDecision` gives the same answer.
   */
  private async current(row: repo.KycCaseRow, now = new Date()): Promise<repo.KycCaseRow> {
    const decision = dueDecision(row, now);
    if (!decision) return row;
    if (
      await repo.updateCaseIf(this.db, { id: row.id, status: row.status, decisionDueAt: row.decisionDueAt }, decision)
    )
      return { ...row, ...decision };
    return repo.findCaseById(this.db, row.id);
  }
}

/** Tags the cached KYC state of a subject (its own namespace: a KYC step drops nothing else). */
const kycTag = (subjectProfileId: string) => `kyc:${subjectProfileId}`;

/** What the provider's decision changes on a case once it is due (taking effect when it was due); null before. */
function dueDecision(row: repo.KycCaseRow, now: Date) {
  if (!row.decisionDueAt || row.decisionDueAt > now || !row.pendingOutcome) return null;
  return {
    status: row.pendingOutcome,
    statusReason: row.pendingReason,
    decidedAt: row.decisionDueAt,
    pendingOutcome: null,
    pendingReason: null,
    decisionDelayMs: null,
    decisionDueAt: null,
  };
}

/** The provider's decision on the case is known and not yet due: the case will change by itself. */
const decisionToCome = (row: repo.KycCaseRow, now: Date) =>
  !!row.pendingOutcome && !!row.decisionDueAt && row.decisionDueAt > now;

/** The case as it stands now, its due decision applied (reads: nothing is written). */
function withDueDecision(row: repo.KycCaseRow, now: Date): repo.KycCaseRow {
  const decision = dueDecision(row, now);
  return decision ? { ...row, ...decision } : row;
}

const flowName = (key: { customerType: string }) => (key.customerType === "business" ? "KYB" : "KYC");
