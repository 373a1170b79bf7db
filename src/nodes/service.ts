import type { Reads } from "../db/statements.js";
import { AppError } from "../errors.js";
import { canonicalId } from "../validation.js";
import * as repo from "./repo.js";
import type { NodeKind } from "./types.js";

/** Objects named by their id alone (GraphQL's node(id)): which kind an id names, for its own lookup to answer. */
export class NodeService {
  constructor(private readonly reads: Reads) {}

  /** The kind of the subject's object with this id; NOT_FOUND for any other id, another owner's included. */
  async kindOf(subjectProfileId: string, id: string): Promise<NodeKind> {
    const canonical = canonicalId(id);
    const kind = canonical && (await repo.findKindOfOwnedId(this.reads, canonical, subjectProfileId));
    if (!kind) throw new AppError("NOT_FOUND");
    return kind;
  }
}
