import { Arg, Ctx, ID, Query, Resolver } from "type-graphql";
import { DELEGATION_RULES, type ActingContext } from "../../auth/delegation.js";
import type { NodeKind } from "../../nodes/types.js";
import { findNodeKind, NODE_LOOKUPS } from "../../operations/nodes.js";
import type { AnyOperation } from "../../operations/operation.js";
import { Acting } from "../acting.js";
import type { GraphQLContext } from "../context.js";
import { Performs, performField } from "../operation-field.js";
import { asNode, Node } from "../types/node.js";
import { toRamp } from "./ramps.js";

/** Performs a kind's own lookup as its own field would: that lookup's tasks checked, its delegation rule applied. */
async function lookUp<Result>(lookup: AnyOperation<Result>, context: GraphQLContext, input: object) {
  const { principal, selector, app } = context;
  app.delegation.checkCaller(principal, selector, lookup.access.requires);
  const acting = await app.delegation.resolve(principal, selector, DELEGATION_RULES[lookup.access.delegation]);
  return performField(lookup, context, acting, input);
}

/** How each kind is answered: its own lookup, as the GraphQL type its own field returns. */
const ANSWERS: Record<NodeKind, (context: GraphQLContext, id: string) => Promise<object>> = {
  ramp: async (context, id) => asNode("Ramp", toRamp(await lookUp(NODE_LOOKUPS.ramp, context, { id }))),
  quote: async (context, id) => asNode("Quote", await lookUp(NODE_LOOKUPS.quote, context, { id })),
  managedProfile: async (context, profileId) =>
    asNode("ManagedProfile", await lookUp(NODE_LOOKUPS.managedProfile, context, { profileId })),
};

@Resolver()
export class NodeResolver {
  @Query(() => Node, {
    nullable: true,
    description:
      "The object with this id, answered as its type's own field answers it (ramp, quote, managedProfile); null, with a NOT_FOUND error, for an id the caller may not see.",
  })
  @Performs(findNodeKind)
  async node(
    @Arg("id", () => ID, { description: "The object's id (UUID), the same as over REST." }) id: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    return ANSWERS[await performField(findNodeKind, context, acting, { id })](context, id);
  }
}
