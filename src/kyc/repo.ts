import type { InferResult } from "kysely";
import { query } from "../db/query.js";
import { inTransaction, isUniqueViolation } from "../db/tx.js";
import type { Prisma } from "../generated/prisma/client.js";
import { Repository } from "../db/repository.js";

export type KycCaseRow = Prisma.KycCaseGetPayload<object>;

/**
 * What a subject's KYC state is made of: its cases, oldest first, whether it signs in with an email of its own,
 * and which of its customers (individual or business) it chose to act as.
 */
export interface SubjectKyc {
  cases: KycCaseRow[];
  /** A direct profile's verified login email (children only have a contact email): EU's verification. */
  hasLoginEmail: boolean;
  /** The customer type a direct profile chose to act as (the active entity), if it chose. */
  activeCustomerType: string | null;
}

/**
 * The rows of subjects' KYC states (one per case, or one without a case, whose case columns are all null), of
 * one profile or several.
 */
const subjectKycRows = (subjects: string | readonly string[]) =>
  query
    .selectFrom("Profile")
    .leftJoin("KycCase", "KycCase.profileId", "Profile.id")
    .leftJoin("CustomerEntitySelection", "CustomerEntitySelection.profileId", "Profile.id")
    .select((row) => [
      "Profile.id as subjectId",
      row.and([row("Profile.email", "is not", null), row("Profile.deletedAt", "is", null)]).as("hasLoginEmail"),
      "CustomerEntitySelection.customerType as activeCustomerType",
    ])
    .selectAll("KycCase")
    .where((row) =>
      typeof subjects === "string" ? row("Profile.id", "=", subjects) : row("Profile.id", "in", subjects),
    )
    .orderBy("KycCase.createdAt", "asc")
    .orderBy("KycCase.id", "asc");

type SubjectKycRow = InferResult<ReturnType<typeof subjectKycRows>>[number];

/** Whether a left-joined case was found: its id is null only when every one of its columns is. */
const isCase = (columns: { [Field in keyof KycCaseRow]: KycCaseRow[Field] | null }): columns is KycCaseRow =>
  columns.id !== null;

/** One subject's KYC state from its rows (none for an unknown profile). */
const subjectKycOf = (rows: readonly SubjectKycRow[]): SubjectKyc => ({
  // SQLite answers the comparison as 0 or 1.
  hasLoginEmail: rows.length > 0 && Boolean(rows[0]!.hasLoginEmail),
  activeCustomerType: rows[0]?.activeCustomerType ?? null,
  cases: rows.flatMap(
    ({ subjectId: _subjectId, hasLoginEmail: _hasLoginEmail, activeCustomerType: _chosen, ...kycCase }) =>
      isCase(kycCase) ? [kycCase] : [],
  ),
});

/** The provider's ids of the related persons a case's current API KYB submission declared (none otherwise). */
export const relatedPersonIdsOf = (row: KycCaseRow): string[] =>
  row.method === "api" && row.relatedPersonIds ? (JSON.parse(row.relatedPersonIds) as string[]) : [];

/** The partners' names of a KYC or KYB attempt in their callbacks (Avenia's, then Alfredpay's). */
const KYC_CALLBACK_SUBJECTS = ["kycAttempt", "kyc", "kyb"];

/** Customers' KYC/KYB cases, their beneficial owners and files: what the KYC module's services and reconciler read and change. */
export class KycRepository extends Repository {
  insertCase(data: Prisma.KycCaseUncheckedCreateInput) {
    return this.db.kycCase.create({ data });
  }

  findCaseById(id: string) {
    return this.db.kycCase.findUniqueOrThrow({ where: { id } });
  }

  /** A subject's case in a corridor as one customer type, or null. */
  findCase(profileId: string, corridor: string, customerType: string) {
    return this.db.kycCase.findUnique({
      where: { profileId_corridor_customerType: { profileId, corridor, customerType } },
    });
  }

  /** A subject's KYC state in one statement; an unknown or deleted profile has no cases and no login email. */
  async findSubjectKyc(profileId: string): Promise<SubjectKyc> {
    return subjectKycOf(await this.reads.all(subjectKycRows(profileId)));
  }

  /** `findSubjectKyc` of several subjects (a manager's children) in one statement, by profile id. */
  async findSubjectKycOfMany(profileIds: readonly string[]): Promise<Map<string, SubjectKyc>> {
    const rowsOf = new Map<string, SubjectKycRow[]>(profileIds.map((id) => [id, []]));
    if (profileIds.length > 0)
      for (const row of await this.reads.all(subjectKycRows(profileIds))) rowsOf.get(row.subjectId)?.push(row);
    return new Map([...rowsOf].map(([id, rows]) => [id, subjectKycOf(rows)]));
  }

  /**
   * Records the customer type a subject acts as, once: true when it is now the recorded one (chosen by this
   * call or before), false when another was chosen first. The primary key decides between concurrent choices.
   */
  async chooseCustomerType(profileId: string, customerType: string): Promise<boolean> {
    try {
      await this.db.customerEntitySelection.create({ data: { profileId, customerType } });
      return true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const chosen = await this.db.customerEntitySelection.findUniqueOrThrow({ where: { profileId } });
      return chosen.customerType === customerType;
    }
  }

  /** A subject's case by its provider customer id (the BR subaccount id), or null. */
  findCaseByCustomer(profileId: string, providerCustomerId: string) {
    return this.db.kycCase.findFirst({ where: { profileId, providerCustomerId } });
  }

  /** A subject's case whose current attempt is `submissionId`, or null. */
  findCaseBySubmission(profileId: string, submissionId: string) {
    return this.db.kycCase.findFirst({ where: { profileId, submissionId } });
  }

  /**
   * Moves a case on only if it is still as it was read (`expected`): concurrent requests cannot both
   * start an attempt, or decide one twice. True when this call moved it.
   */
  async updateCaseIf(
    expected: {
      id: string;
      status?: string;
      submissionId?: string | null;
      partnerAttemptId?: string | null;
      nextCheckAt?: Date | null;
    },
    data: Prisma.KycCaseUpdateManyMutationInput,
  ): Promise<boolean> {
    const { count } = await this.db.kycCase.updateMany({ where: expected, data });
    return count === 1;
  }

  /**
   * Stores a beneficial owner's ids: false when its identification document already identifies another owner
   * (the unique key decides between concurrent registrations).
   */
  async insertBeneficialOwner(owner: Prisma.KybBeneficialOwnerUncheckedCreateInput): Promise<boolean> {
    try {
      await this.db.kybBeneficialOwner.create({ data: owner });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Whether one of a subject's beneficial owners is identified by this document. */
  async isIdentificationDocumentUsed(profileId: string, identificationDocumentId: string) {
    return (await this.db.kybBeneficialOwner.count({ where: { profileId, identificationDocumentId } })) > 0;
  }

  /** A subject's beneficial owners of a case among these ids (the others are not its). */
  findBeneficialOwners(profileId: string, kycCaseId: string, ids: string[]) {
    return this.db.kybBeneficialOwner.findMany({ where: { profileId, kycCaseId, id: { in: ids } } });
  }

  /** Records a file an owner sent for a submission (its bytes already stored). */
  async insertFile(
    profileId: string,
    file: Omit<Prisma.DomesticKycFileUncheckedCreateInput, "profileId">,
  ): Promise<void> {
    await this.db.domesticKycFile.create({ data: { ...file, profileId } });
  }

  /** The files an owner sent for one of its submissions, oldest first; none for another owner's. */
  findSubmissionFiles(profileId: string, submissionId: string) {
    return this.db.domesticKycFile.findMany({
      where: { profileId, submissionId },
      orderBy: [{ uploadedAt: "asc" }, { id: "asc" }],
    });
  }

  /** Cases whose partner attempt is due to be checked, soonest first. */
  findCasesDueForCheck(now: Date, limit: number) {
    return this.db.kycCase.findMany({
      where: { nextCheckAt: { lte: now } },
      orderBy: { nextCheckAt: "asc" },
      take: limit,
    });
  }

  /**
   * Applies the stored KYC callbacks not applied yet, oldest first: each brings the check of its attempt's case
   * forward to `now` (the partner is then asked, so a callback's copies, its order and its content cannot move a case
   * wrongly) and is marked applied, in one transaction. How many were found.
   */
  async applyKycCallbacks(now: Date, limit: number): Promise<number> {
    // Read outside a transaction: most passes find none, and a transaction would hold SQLite's one writer.
    const callbacks = await this.db.partnerCallback.findMany({
      where: { appliedAt: null, subjectKind: { in: KYC_CALLBACK_SUBJECTS } },
      orderBy: { receivedAt: "asc" },
      take: limit,
      select: { id: true, subjectId: true },
    });
    if (!callbacks.length) return 0;
    await inTransaction(this.db, async (tx) => {
      await tx.kycCase.updateMany({
        where: {
          partnerAttemptId: { in: callbacks.map((callback) => callback.subjectId) },
          nextCheckAt: { not: null },
        },
        data: { nextCheckAt: now },
      });
      await tx.partnerCallback.updateMany({
        where: { id: { in: callbacks.map((callback) => callback.id) }, appliedAt: null },
        data: { appliedAt: now },
      });
    });
    return callbacks.length;
  }
}
