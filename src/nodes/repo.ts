import { sql } from "kysely";
import { query } from "../db/query.js";
import type { Reads } from "../db/statements.js";
import type { NodeKind } from "./types.js";

/** A kind's name, as the row of its table that the id names answers it. */
const kind = (name: NodeKind) => sql.lit(name).as("kind");

/**
 * What kind of object the id names among those the subject may look up, in one statement; null for none. Each
 * kind's table is filtered as its own lookup filters (the ids are random UUIDs, so at most one matches): the
 * subject's ramps; its quotes and those nobody owns, which any caller may read; its managed children, deleted
 * ones included.
 */
export async function findKindOfOwnedId(reads: Reads, id: string, subjectProfileId: string): Promise<NodeKind | null> {
  const found = await reads.one(
    query
      .selectFrom("Ramp")
      .select(kind("ramp"))
      .where("id", "=", id)
      .where("profileId", "=", subjectProfileId)
      .unionAll(
        query
          .selectFrom("Quote")
          .select(kind("quote"))
          .where("id", "=", id)
          .where((quote) =>
            quote.or([quote("ownerProfileId", "=", subjectProfileId), quote("ownerProfileId", "is", null)]),
          ),
      )
      .unionAll(
        query
          .selectFrom("Profile")
          .select(kind("managedProfile"))
          .where("id", "=", id)
          .where("managerProfileId", "=", subjectProfileId),
      ),
  );
  return found?.kind ?? null;
}
