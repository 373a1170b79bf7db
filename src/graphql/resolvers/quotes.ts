import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import type { QuoteView } from "../../quotes/types.js";
import { Auth } from "../auth-directive.js";
import { type GraphQLContext, OptionalActing } from "../context.js";
import {
  CreateBestQuoteInput,
  CreateQuoteInput,
  CreateWidgetSessionInput,
  Quote,
  toDirection,
  toRampType,
  WidgetSession,
} from "../types/ramps.js";
import { serviceInput } from "./ramps.js";

const toQuote = (view: QuoteView): Quote => ({ ...view, rampType: toDirection(view.rampType) });

/** Quotes and widget sessions: anyone may ask; keys and sessions attribute (and own) what they create. */
@Resolver(() => Quote)
export class QuotesResolver {
  @Query(() => Quote, { description: "A quote the caller may see: its own, or one nobody owns." })
  @Auth({ requires: ["QUOTE"], delegation: "DELEGATED" })
  async quote(
    @Arg("id", () => ID) id: string,
    @OptionalActing() acting: ActingContext | null,
    @Ctx() context: GraphQLContext,
  ) {
    return toQuote(await context.app.quotes.get(acting, id));
  }

  @Mutation(() => Quote, { description: "Prices a conversion with the subject's pricing; valid 10 minutes." })
  @Auth({ requires: ["QUOTE"], delegation: "DELEGATED" })
  async createQuote(
    @Arg("input", () => CreateQuoteInput) input: CreateQuoteInput,
    @OptionalActing() acting: ActingContext | null,
    @Ctx() context: GraphQLContext,
  ) {
    return toQuote(
      await context.app.quotes.create(acting, serviceInput({ ...input, rampType: toRampType(input.rampType) })),
    );
  }

  @Mutation(() => Quote, { description: "Prices every candidate network and keeps the one that pays out the most." })
  @Auth({ requires: ["QUOTE"], delegation: "DELEGATED" })
  async createBestQuote(
    @Arg("input", () => CreateBestQuoteInput) input: CreateBestQuoteInput,
    @OptionalActing() acting: ActingContext | null,
    @Ctx() context: GraphQLContext,
  ) {
    return toQuote(
      await context.app.quotes.createBest(acting, serviceInput({ ...input, rampType: toRampType(input.rampType) })),
    );
  }

  @Mutation(() => WidgetSession, {
    description: "A hosted widget session, for a locked quote or for the widget to quote.",
  })
  @Auth({ requires: ["QUOTE"], delegation: "DELEGATED" })
  async createWidgetSession(
    @Arg("input", () => CreateWidgetSessionInput) input: CreateWidgetSessionInput,
    @OptionalActing() acting: ActingContext | null,
    @Ctx() context: GraphQLContext,
  ) {
    return context.app.widgetSessions.create(
      acting,
      serviceInput({ ...input, rampType: input.rampType == null ? undefined : toRampType(input.rampType) }),
    );
  }
}
