import type { GraphQLResolveInfo } from "graphql";
import { Args, Ctx, FieldResolver, Info, Query, Resolver, Root } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import type { RampErrorView, RampView } from "../../ramps/types.js";
import { getRampHistory, getRampStatus, registerRamp, startRamp, updateRamp } from "../../operations/ramps.js";
import { operationField, operationResolver, Performs, performField } from "../operation-field.js";
import type { GraphQLContext } from "../context.js";
import { Acting } from "../acting.js";
import { selects } from "../selection.js";
import { pageConnection } from "../types/connection.js";
import {
  historyInputOf,
  Ramp,
  RampConnection,
  RampError,
  RampHistoryArgs,
  RegisterRampInput,
  UpdateRampInput,
} from "../types/ramps.js";
import { rampView } from "../../ramps/types.js";

/** The GraphQL ramp of each service view; cached views are shared by requests, so each is converted once. */
const rampOfView = new WeakMap<RampView, Ramp>();

/** The GraphQL ramp, an instance of its type: type-graphql copies any other object into one for each of its field resolvers. */
export function toRamp(view: RampView): Ramp {
  let ramp = rampOfView.get(view);
  if (!ramp) {
    ramp = Object.assign(new Ramp(), view);
    rampOfView.set(view, ramp);
  }
  return ramp;
}

/** Error logs a request's ramp pages read with the page, by ramp id (the ramps themselves are shared, so not on them). */
const errorsReadWithPage = new WeakMap<GraphQLContext, Map<string, RampErrorView[]>>();

/** Ramps of the acting subject (itself, or a managed child through the selector or the child's own key). */
export const RampsResolver = operationResolver("RampsResolver", [
  operationField(getRampStatus, {
    query: "ramp",
    nullable: true,
    toResult: toRamp,
  }),
  operationField(registerRamp, {
    mutation: "registerRamp",
    payload: { ramp: rampView.describe("The registered ramp.") },
    args: { input: { type: () => RegisterRampInput } },
    toResult: (view) => ({ ramp: toRamp(view) }),
  }),
  operationField(updateRamp, {
    mutation: "updateRamp",
    payload: { ramp: rampView.describe("The ramp with what was added.") },
    args: { input: { type: () => UpdateRampInput } },
    toResult: (view) => ({ ramp: toRamp(view) }),
  }),
  operationField(startRamp, {
    mutation: "startRamp",
    payload: { ramp: rampView.describe("The started ramp.") },
    toResult: (view) => ({ ramp: toRamp(view) }),
  }),
]);

/**
 * The ramp history, which reads the page's error logs with it when they are asked for, and a ramp's error log:
 * batched reads no operation's field declares.
 */
@Resolver(() => Ramp)
export class RampHistoryResolver {
  @Query(() => RampConnection, { description: "The subject's ramp history, newest first." })
  @Performs(getRampHistory)
  async ramps(
    @Args() args: RampHistoryArgs,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const input = historyInputOf(args);
    const page = await performField(getRampHistory, context, acting, input);
    const ramps = page.ramps.map(toRamp);
    if (selects(info, ["edges", "node", "errors"])) {
      const errors = await context.app.ramps.errorsOfRamps(ramps.map(({ id }) => id));
      const known = errorsReadWithPage.get(context) ?? new Map<string, RampErrorView[]>();
      for (const [rampId, log] of errors) known.set(rampId, log);
      errorsReadWithPage.set(context, known);
    }
    return pageConnection(ramps, { ...input, total: page.totalCount }, args);
  }

  @FieldResolver(() => [RampError], {
    description: "The ramp's error log, oldest first (read once for a whole page of ramps).",
  })
  errors(@Root() ramp: Ramp, @Ctx() context: GraphQLContext): RampError[] | Promise<RampError[]> {
    // A page read them already; a single ramp (or a subscription's) asks the batch loader.
    return errorsReadWithPage.get(context)?.get(ramp.id) ?? context.loaders.rampErrors.load(ramp.id);
  }
}
