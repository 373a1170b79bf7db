import { z } from "zod";
import type { NodeKind } from "../nodes/types.js";
import { getManagedProfile } from "./managed-profiles.js";
import { uuid } from "../validation.js";
import { defineOperation, type AccessRule, type AnyOperation } from "./operation.js";
import { getQuote } from "./quotes.js";
import { getRampStatus } from "./ramps.js";

/** Each kind's own lookup by id: what answers an id once its kind is known, under that lookup's access rule. */
export const NODE_LOOKUPS = {
  ramp: getRampStatus,
  quote: getQuote,
  managedProfile: getManagedProfile,
} as const satisfies Record<NodeKind, AnyOperation>;

/**
 * Every task of every lookup: a caller allowed to ask is allowed each lookup's tasks too, so no refusal of its
 * kind of credential after an id is found tells that the id exists.
 */
function everyTaskOf(lookups: readonly AnyOperation[]): AccessRule["requires"] {
  const [first, ...others] = new Set(lookups.flatMap((lookup) => lookup.access.requires));
  return [first!, ...others];
}

export const findNodeKind = defineOperation({
  name: "findNodeKind",
  summary: "Find which kind of the subject's objects an id names",
  access: { requires: everyTaskOf(Object.values(NODE_LOOKUPS)), delegation: "DELEGATED" },
  input: z.object({ id: uuid() }),
  run: (app, acting, { id }) => app.nodes.kindOf(acting.subjectProfileId, id),
});
