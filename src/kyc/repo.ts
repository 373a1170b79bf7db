import type { Queryable } from "../db/tx.js";
import type { Prisma } from "../generated/prisma/client.js";

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

/** A subject's cases in a corridor (individual and business). */
export function findCasesInCorridor(db: Queryable, profileId: string, corridor: string) {
  return db.kycCase.findMany({ where: { profileId, corridor }, orderBy: { createdAt: "asc" } });
}

/** A subject's cases in every corridor. */
export function findCasesOf(db: Queryable, profileId: string) {
  return db.kycCase.findMany({ where: { profileId }, orderBy: { createdAt: "asc" } });
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
export async function updateCaseIf(db: Queryable, expected: { id: string; status: string; submissionId?: string | null; decisionDueAt?: Date | null }, data: Prisma.KycCaseUpdateManyMutationInput): Promise<boolean> {
  const { count } = await db.kycCase.updateMany({ where: expected, data });
  return count === 1;
}

/** Whether the profile signs in with an email of its own (a direct profile; children only have a contact email). */
export async function hasLoginEmail(db: Queryable, profileId: string): Promise<boolean> {
  const profile = await db.profile.findUnique({ where: { id: profileId }, select: { email: true, deletedAt: true } });
  return Boolean(profile?.email && !profile.deletedAt);
}
