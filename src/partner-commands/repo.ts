import type { Queryable } from "../db/tx.js";
import type { Prisma } from "../generated/prisma/client.js";
import type { OrderKind } from "../providers/order-observations.js";
import type { CommandState } from "./types.js";

/*
 * The money-command ledger's statements. None is owner-scoped: a command is reached only through its ramp, by
 * registration (which read the ramp under its owner first) and by the processor (a worker over every owner's
 * ramps, as the ramp repository's work lists are); no caller ever names a command.
 */

export type PartnerCommandRow = Prisma.PartnerCommandGetPayload<object>;

/** A claim as its holder knows it: `claimedUntil` fences it, since a takeover moves it. */
export interface HeldCommand {
  id: string;
  claimedUntil: Date;
}

const UNSETTLED: CommandState[] = ["intended", "unknown"];

/** Records the intent to send, claimed: a second intent for the ramp's command fails on the unique (rampId, kind). */
export function insertIntent(
  db: Queryable,
  command: { id: string; rampId: string; kind: OrderKind; partner: string; reference: string; claimedUntil: Date },
) {
  return db.partnerCommand.create({ data: { ...command, state: "intended", attempts: 1 } });
}

export function findCommand(db: Queryable, rampId: string, kind: OrderKind): Promise<PartnerCommandRow | null> {
  return db.partnerCommand.findUnique({ where: { rampId_kind: { rampId, kind } } });
}

/**
 * Takes over an unsettled command whose claim lapsed, if no other caller did since it was read (state and claim as
 * read). `forSend` counts the send the new holder makes at once.
 */
export async function takeOver(
  db: Queryable,
  seen: { id: string; state: string; claimedUntil: Date },
  claimedUntil: Date,
  forSend: boolean,
): Promise<boolean> {
  const { count } = await db.partnerCommand.updateMany({
    where: { id: seen.id, state: seen.state, claimedUntil: seen.claimedUntil },
    data: { claimedUntil, ...(forSend && { attempts: { increment: 1 } }) },
  });
  return count === 1;
}

/** Renews a claim still held for the send its holder is about to make, counting it. */
export async function renewForSend(db: Queryable, held: HeldCommand, claimedUntil: Date): Promise<boolean> {
  const { count } = await db.partnerCommand.updateMany({
    where: { ...held, state: { in: UNSETTLED } },
    data: { claimedUntil, attempts: { increment: 1 } },
  });
  return count === 1;
}

/**
 * Settles the command as accepted unless it is settled already. Not fenced by the claim: that the partner made the
 * order is a fact whoever holds the command, and the partner's id keeps it from being bound to two commands.
 */
export async function recordAccepted(
  db: Queryable,
  id: string,
  order: { partnerOrderId: string; answer: string },
  settledAt: Date,
): Promise<boolean> {
  const { count } = await db.partnerCommand.updateMany({
    where: { id, state: { in: UNSETTLED } },
    data: { ...order, state: "accepted", settledAt, claimedUntil: settledAt, lastError: null },
  });
  return count === 1;
}

/** Settles a command still held as refused. */
export async function recordRefused(
  db: Queryable,
  held: HeldCommand,
  lastError: string,
  settledAt: Date,
): Promise<boolean> {
  const { count } = await db.partnerCommand.updateMany({
    where: { ...held, state: { in: UNSETTLED } },
    data: { state: "refused", lastError, settledAt, claimedUntil: settledAt },
  });
  return count === 1;
}

/**
 * Gives a command still held back unsettled, for the next caller to look up at once: as `unknown` when a send may
 * have reached the partner, in its state as it was otherwise (the call surely never left, or a lookup failed).
 */
export async function releaseUnsettled(
  db: Queryable,
  held: HeldCommand,
  change: { lastError: string; state?: "unknown" },
  now: Date,
): Promise<boolean> {
  const { count } = await db.partnerCommand.updateMany({
    where: { ...held, state: { in: UNSETTLED } },
    data: { ...change, claimedUntil: now },
  });
  return count === 1;
}
