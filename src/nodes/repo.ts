import type { Reads } from "../db/statements.js";
import type { NodeKind } from "./types.js";

/**
 * Each kind's table, filtered as its own lookup filters (the ids are random UUIDs, so at most one matches):
 * the subject's ramps; its quotes and those nobody owns, which any caller may read; its managed children,
 * deleted ones included.
 */
const KIND_OF_OWNED_ID = `SELECT 'ramp' AS "kind" FROM "Ramp" WHERE "id" = $1 AND "profileId" = $2
UNION ALL SELECT 'quote' FROM "Quote" WHERE "id" = $1 AND ("ownerProfileId" = $2 OR "ownerProfileId" IS NULL)
UNION ALL SELECT 'managedProfile' FROM "Profile" WHERE "id" = $1 AND "managerProfileId" = $2`;

/** What kind of object the id names among those the subject may look up, in one statement; null for none. */
export async function findKindOfOwnedId(reads: Reads, id: string, subjectProfileId: string): Promise<NodeKind | null> {
  return (await reads.one<{ kind: NodeKind }>(KIND_OF_OWNED_ID, [id, subjectProfileId]))?.kind ?? null;
}
