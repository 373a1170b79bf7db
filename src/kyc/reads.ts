import type { ActingContext } from "../auth/delegation.js";
import type { Caches } from "../cache/caches.js";
import type { RevocableCache } from "../cache/revocable-cache.js";
import { AppError } from "../errors.js";
import type { KycStatus } from "../providers/kyc-port.js";
import type { Corridor, CustomerType } from "../reference-data/corridors.js";
import type { KycCaseRow, KycRepository, SubjectKyc } from "./repo.js";
import { customerViewOf, type CustomerView } from "./types.js";

/** Which status a subject shows in a corridor when it has several cases there (individual and business). */
const STATUS_RANK: Record<KycStatus, number> = { approved: 4, in_review: 3, pending: 2, rejected: 1, not_started: 0 };

/** What a KYC/KYB operation is about: the corridor and the customer type (KYC: individual, KYB: business). */
export interface CaseKey {
  corridor: Corridor;
  customerType: CustomerType;
}

/**
 * A subject's KYC/KYB cases as read: what ramps, ramp-info, onboarding and the lists see (each subject's cases from
 * memory, dropped on every instance when one changes), and single cases looked up for a change. Reads skip the
 * corridor policy. KycService adds the changes.
 */
export class KycReads {
  /** Each subject's cases and login email, dropped on every instance when one of its cases changes. */
  private readonly subjects: RevocableCache<SubjectKyc>;
  /** The statuses of each cached state above, made once (dropped with the state). */
  private readonly statusesOf = new WeakMap<SubjectKyc, Readonly<Record<Corridor, KycStatus>>>();

  constructor(
    protected readonly repository: KycRepository,
    private readonly caches: Caches,
  ) {
    this.subjects = caches.define("kycSubjects");
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
   * `corridorStatus` of every corridor at once (ramp-info). While the subject's cases are unchanged, the answer
   * cannot change: it is the same object each time, made once.
   */
  async corridorStatuses(subjectProfileId: string): Promise<Readonly<Record<Corridor, KycStatus>>> {
    const kyc = await this.subjectKyc(subjectProfileId);
    const made = this.statusesOf.get(kyc);
    if (made) return made;
    const statuses: Record<Corridor, KycStatus> = {
      AR: "not_started",
      BR: "not_started",
      CO: "not_started",
      EU: kyc.hasLoginEmail ? "approved" : "not_started",
      MX: "not_started",
      US: "not_started",
    };
    for (const row of kyc.cases) {
      const status = row.status as KycStatus;
      const corridor = row.corridor as Corridor;
      if (STATUS_RANK[status] > STATUS_RANK[statuses[corridor]]) statuses[corridor] = status;
    }
    this.statusesOf.set(kyc, statuses);
    return statuses;
  }

  /** Every case of the subject, oldest first. */
  async casesOf(subjectProfileId: string): Promise<KycCaseRow[]> {
    return (await this.onboardingState(subjectProfileId)).cases;
  }

  /** The subject's customers, one per case, oldest first. */
  async customersOf(subjectProfileId: string): Promise<CustomerView[]> {
    return (await this.casesOf(subjectProfileId)).map(customerViewOf);
  }

  /**
   * `customersOf` of several subjects (a manager's children in one list), by subject: from memory, the others in
   * one statement.
   */
  async customersOfMany(subjectProfileIds: readonly string[]): Promise<Map<string, CustomerView[]>> {
    const states = await this.subjects.loadMany(subjectProfileIds, async (missing) => {
      const read = await this.repository.findSubjectKycOfMany(missing);
      return new Map([...read].map(([id, value]) => [id, { value, tags: [kycTag(id)] }]));
    });
    return new Map([...states].map(([id, { cases }]) => [id, cases.map(customerViewOf)]));
  }

  /** `casesOf`, and the customer type the subject chose to act as (onboarding status). */
  async onboardingState(subjectProfileId: string): Promise<{ cases: KycCaseRow[]; activeCustomerType: string | null }> {
    const { cases, activeCustomerType } = await this.subjectKyc(subjectProfileId);
    return { cases, activeCustomerType };
  }

  /** The subject's customer at the corridor's partner: its approved case's (an individual's before a business's). */
  async approvedCustomer(subjectProfileId: string, corridor: Corridor): Promise<string | null> {
    const approved = (await this.casesOf(subjectProfileId)).filter(
      (row) => row.corridor === corridor && row.status === "approved",
    );
    return (approved.find((row) => row.customerType === "individual") ?? approved[0])?.providerCustomerId ?? null;
  }

  /** The CPF or CNPJ of the subject's approved Brazilian case, if any. */
  async verifiedBrazilianTaxId(subjectProfileId: string): Promise<string | null> {
    return (
      (await this.casesOf(subjectProfileId)).find(
        (row) => row.corridor === "BR" && row.status === "approved" && row.taxId,
      )?.taxId ?? null
    );
  }

  /** The subject's case; NOT_FOUND before its customer exists. A read: no corridor policy. */
  async caseOf(acting: ActingContext, key: CaseKey): Promise<KycCaseRow> {
    const row = await this.repository.findCase(acting.subjectProfileId, key.corridor, key.customerType);
    if (!row) throw new AppError("NOT_FOUND", "Customer not found.");
    return row;
  }

  /** The subject's case by its provider customer id (the BR subaccount id), or null. */
  caseByCustomer(acting: ActingContext, providerCustomerId: string): Promise<KycCaseRow | null> {
    return this.repository.findCaseByCustomer(acting.subjectProfileId, providerCustomerId);
  }

  /** The subject's case whose current attempt this is, or null. */
  caseBySubmission(acting: ActingContext, submissionId: string): Promise<KycCaseRow | null> {
    return this.repository.findCaseBySubmission(acting.subjectProfileId, submissionId);
  }

  /** Tells every instance that the subject's cases changed (after the change is stored). */
  protected async changed(subjectProfileId: string): Promise<void> {
    await this.caches.invalidate(kycTag(subjectProfileId));
  }

  /** The subject's KYC state: from memory, or one statement. */
  private async subjectKyc(subjectProfileId: string): Promise<SubjectKyc> {
    const loaded = await this.subjects.load(subjectProfileId, async () => ({
      value: await this.repository.findSubjectKyc(subjectProfileId),
      tags: [kycTag(subjectProfileId)],
    }));
    return loaded!;
  }
}

/** Tags the cached KYC state of a subject (its own namespace: a KYC step drops nothing else). */
const kycTag = (subjectProfileId: string) => `kyc:${subjectProfileId}`;
