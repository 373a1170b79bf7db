import type { Queryable, Tx } from "../db/tx.js";
import type { Prisma } from "../generated/prisma/client.js";
import type { RampPhase } from "./phases.js";

const WITH_QUOTE = { quote: true } as const;
export type RampRow = Prisma.RampGetPayload<{ include: typeof WITH_QUOTE }>;

export function insertRamp(tx: Tx, data: Prisma.RampUncheckedCreateInput): Promise<RampRow> {
  return tx.ramp.create({ data, include: WITH_QUOTE });
}

/** The subject's ramp; another profile's is null (callers answer NOT_FOUND). */
export function findRamp(db: Queryable, rampId: string, subjectProfileId: string): Promise<RampRow | null> {
  return db.ramp.findFirst({ where: { id: rampId, profileId: subjectProfileId }, include: WITH_QUOTE });
}

/** Ramps by id, for batched loading (GraphQL); only the subject's are returned. */
export function findRamps(db: Queryable, rampIds: readonly string[], subjectProfileId: string): Promise<RampRow[]> {
  return db.ramp.findMany({ where: { id: { in: [...rampIds] }, profileId: subjectProfileId }, include: WITH_QUOTE });
}

/** The subject's history: ramps that left their initial phase, newest first. */
export async function listHistory(db: Queryable, subjectProfileId: string, page: { limit: number; offset: number }) {
  const where = { profileId: subjectProfileId, currentPhase: { not: "initial" } };
  const [ramps, total] = await Promise.all([
    db.ramp.findMany({ where, include: WITH_QUOTE, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: page.offset, take: page.limit }),
    db.ramp.count({ where }),
  ]);
  return { ramps, total };
}

export function listErrors(db: Queryable, rampId: string) {
  return db.rampErrorLog.findMany({ where: { rampId }, orderBy: { createdAt: "asc" } });
}

/** Error logs of several ramps at once (GraphQL lists). */
export function listErrorsOfRamps(db: Queryable, rampIds: readonly string[]) {
  return db.rampErrorLog.findMany({ where: { rampId: { in: [...rampIds] } }, orderBy: { createdAt: "asc" } });
}

export function insertError(tx: Tx, entry: { rampId: string; phase: RampPhase; error: string; details: string; recoverable: boolean; at: Date }) {
  const { at, ...data } = entry;
  return tx.rampErrorLog.create({ data: { id: crypto.randomUUID(), ...data, createdAt: at } });
}

/**
 * Moves a ramp on only if it is still where the caller saw it (phase, the step it was due for, the revision):
 * the one guard that keeps concurrent starts, updates and processors from applying a change twice.
 */
export async function updateRampIf(
  tx: Tx,
  expected: { id: string; currentPhase: RampPhase; nextStepAt?: Date | null; revision?: number; startDeadlineAfter?: Date },
  data: Prisma.RampUncheckedUpdateManyInput,
): Promise<RampRow | null> {
  const { id, currentPhase, nextStepAt, revision, startDeadlineAfter } = expected;
  const { count } = await tx.ramp.updateMany({
    where: {
      id,
      currentPhase,
      ...(nextStepAt !== undefined ? { nextStepAt } : {}),
      ...(revision !== undefined ? { revision } : {}),
      ...(startDeadlineAfter !== undefined ? { startDeadline: { gt: startDeadlineAfter } } : {}),
    },
    data,
  });
  return count === 1 ? tx.ramp.findUniqueOrThrow({ where: { id }, include: WITH_QUOTE }) : null;
}

/** Started ramps whose next provider step is due (the processor's work list; not owner-scoped). */
export function findDueRamps(db: Queryable, now: Date, limit: number): Promise<RampRow[]> {
  return db.ramp.findMany({ where: { nextStepAt: { lte: now } }, include: WITH_QUOTE, orderBy: { nextStepAt: "asc" }, take: limit });
}

/** Ramps never started within their window (the processor times them out). */
export function findUnstartedPastDeadline(db: Queryable, now: Date, limit: number): Promise<RampRow[]> {
  return db.ramp.findMany({ where: { currentPhase: "initial", startDeadline: { lte: now } }, include: WITH_QUOTE, take: limit });
}

/** The subject's ramps completed since a moment (terminal ramps never change again, so updatedAt is completion). */
export function findCompletedSince(db: Queryable, subjectProfileId: string, corridors: string[], since: Date) {
  return db.ramp.findMany({
    where: { profileId: subjectProfileId, status: "COMPLETE", corridor: { in: corridors }, updatedAt: { gte: since } },
    select: { corridor: true, type: true, quote: { select: { inputAmount: true, outputAmount: true } } },
  });
}
