import type { InferResult } from "kysely";
import { query } from "../db/query.js";
import type { Reads } from "../db/statements.js";
import type { Db } from "../db/client.js";
import { inTransaction, isUniqueViolation, type Queryable } from "../db/tx.js";
import { Prisma } from "../generated/prisma/client.js";

export type KycCaseRow = Prisma.KycCaseGetPayload<object>;

export function insertCase(db: Queryable, data: Prisma.KycCaseUncheckedCreateInput) {
  return db.kycCase.create({ data });
}

export function findCaseById(db: Queryable, id: string) {
  return db.kycCase.findUniqueOrThrow({ where: { id } });
}

/** A subject's case in a corridor as one customer type, or null. */
export function findCase(db: Queryable, profileId: string, corridor: string, customerType: string) {
  return db.kycCase.findUnique({ where: { profileId_corridor_customerType: { profileId, corridor, customerType } } });
}

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

/** A subject's KYC state in one statement; an unknown or deleted profile has no cases and no login email. */
export async function findSubjectKyc(reads: Reads, profileId: string): Promise<SubjectKyc> {
  return subjectKycOf(await reads.all(subjectKycRows(profileId)));
}

/** `findSubjectKyc` of several subjects (a manager's children) in one statement, by profile id. */
export async function findSubjectKycOfMany(
  reads: Reads,
  profileIds: readonly string[],
): Promise<Map<string, SubjectKyc>> {
  const rowsOf = new Map<string, SubjectKycRow[]>(profileIds.map((id) => [id, []]));
  if (profileIds.length > 0)
    for (const row of await reads.all(subjectKycRows(profileIds))) rowsOf.get(row.subjectId)?.push(row);
  return new Map([...rowsOf].map(([id, rows]) => [id, subjectKycOf(rows)]));
}

/**
 * Records the customer type a subject acts as, once: true when it is now the recorded one (chosen by this
 * call or before), false when another was chosen first. The primary key decides between concurrent choices.
 */
export async function chooseCustomerType(db: Queryable, profileId: string, customerType: string): Promise<boolean> {
  try {
    await db.customerEntitySelection.create({ data: { profileId, customerType } });
    return true;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const chosen = await db.customerEntitySelection.findUniqueOrThrow({ where: { profileId } });
    return chosen.customerType === customerType;
  }
}

/** A subject's case by its provider customer id (the BR subaccount id), or null. */
export function findCaseByCustomer(db: Queryable, profileId: string, providerCustomerId: string) {
  return db.kycCase.findFirst({ where: { profileId, providerCustomerId } });
}

/** A subject's case whose current attempt is `submissionId`, or null. */
export function findCaseBySubmission(db: Queryable, profileId: string, submissionId: string) {
  return db.kycCase.findFirst({ where: { profileId, submissionId } });
}

/**
 * Moves a case on only if it is still as it was read (`expected`): concurrent requests cannot both
 * start an attempt, or decide one twice. True when this call moved it.
 */
export async function updateCaseIf(
  db: Queryable,
  expected: {
    id: string;
    status?: string;
    submissionId?: string | null;
    partnerAttemptId?: string | null;
    nextCheckAt?: Date | null;
  },
  data: Prisma.KycCaseUpdateManyMutationInput,
): Promise<boolean> {
  const { count } = await db.kycCase.updateMany({ where: expected, data });
  return count === 1;
}

/**
 * Stores a beneficial owner's ids: false when its identification document already identifies another owner
 * (the unique key decides between concurrent registrations).
 */
export async function insertBeneficialOwner(
  db: Queryable,
  owner: Prisma.KybBeneficialOwnerUncheckedCreateInput,
): Promise<boolean> {
  try {
    await db.kybBeneficialOwner.create({ data: owner });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** Whether one of a subject's beneficial owners is identified by this document. */
export async function isIdentificationDocumentUsed(db: Queryable, profileId: string, identificationDocumentId: string) {
  return (await db.kybBeneficialOwner.count({ where: { profileId, identificationDocumentId } })) > 0;
}

/** A subject's beneficial owners of a case among these ids (the others are not its). */
export function findBeneficialOwners(db: Queryable, profileId: string, kycCaseId: string, ids: string[]) {
  return db.kybBeneficialOwner.findMany({ where: { profileId, kycCaseId, id: { in: ids } } });
}

/** The provider's ids of the related persons a case's current API KYB submission declared (none otherwise). */
export const relatedPersonIdsOf = (row: KycCaseRow): string[] =>
  row.method === "api" && row.relatedPersonIds ? (JSON.parse(row.relatedPersonIds) as string[]) : [];

/** Records a file an owner sent for a submission (its bytes already stored). */
export async function insertFile(
  db: Queryable,
  profileId: string,
  file: Omit<Prisma.DomesticKycFileUncheckedCreateInput, "profileId">,
): Promise<void> {
  await db.domesticKycFile.create({ data: { ...file, profileId } });
}

/** The files an owner sent for one of its submissions, oldest first; none for another owner's. */
export function findSubmissionFiles(db: Queryable, profileId: string, submissionId: string) {
  return db.domesticKycFile.findMany({
    where: { profileId, submissionId },
    orderBy: [{ uploadedAt: "asc" }, { id: "asc" }],
  });
}

/** Cases whose partner attempt is due to be checked, soonest first. */
export function findCasesDueForCheck(db: Queryable, now: Date, limit: number) {
  return db.kycCase.findMany({ where: { nextCheckAt: { lte: now } }, orderBy: { nextCheckAt: "asc" }, take: limit });
}

/** The partners' names of a KYC or KYB attempt in their callbacks (Avenia's, then Alfredpay's). */
const KYC_CALLBACK_SUBJECTS = ["kycAttempt", "kyc", "kyb"];

/**
 * Applies the stored KYC callbacks not applied yet, oldest first: each brings the check of its attempt's case
 * forward to `now` (the partner is then asked, so a callback's copies, its order and its content cannot move a case
 * wrongly) and is marked applied, in one transaction. How many were found.
 */
export async function applyKycCallbacks(db: Db, now: Date, limit: number): Promise<number> {
  // Read outside a transaction: most passes find none, and a transaction would hold SQLite's one writer.
  const callbacks = await db.partnerCallback.findMany({
    where: { appliedAt: null, subjectKind: { in: KYC_CALLBACK_SUBJECTS } },
    orderBy: { receivedAt: "asc" },
    take: limit,
    select: { id: true, subjectId: true },
  });
  if (!callbacks.length) return 0;
  await inTransaction(db, async (tx) => {
    await tx.kycCase.updateMany({
      where: { partnerAttemptId: { in: callbacks.map((callback) => callback.subjectId) }, nextCheckAt: { not: null } },
      data: { nextCheckAt: now },
    });
    await tx.partnerCallback.updateMany({
      where: { id: { in: callbacks.map((callback) => callback.id) }, appliedAt: null },
      data: { appliedAt: now },
    });
  });
  return callbacks.length;
}
