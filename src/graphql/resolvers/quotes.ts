import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import { createBestQuote, createQuote, createWidgetSession, getQuote } from "../../operations/quotes.js";
import type { GraphQLContext } from "../context.js";
import { OptionalActing } from "../acting.js";
import { Performs, performField } from "../operation-field.js";
import { CreateBestQuoteInput, CreateQuoteInput, CreateWidgetSessionInput, Quote } from "../types/ramps.js";
import { quoteView } from "../../quotes/types.js";
import { widgetSessionView } from "../../widget-sessions/types.js";
import { payloadType } from "../types/payload.js";

const CreateQuotePayload = payloadType("createQuote", { quote: quoteView.describe("The priced quote.") });
const CreateBestQuotePayload = payloadType("createBestQuote", {
  quote: quoteView.describe("The quote of the network that pays out the most."),
});
const CreateWidgetSessionPayload = payloadType("createWidgetSession", {
  widgetSession: widgetSessionView.describe("The new widget session and its URL."),
});

/** Quotes and widget sessions: anyone may ask; keys and sessions attribute (and own) what they create. */
@Resolver(() => Quote)
export class QuotesResolver {
  @Query(() => Quote, {
    nullable: true,
    description:
      "A quote the caller may see: its own, or one nobody owns (null, with a NOT_FOUND error, for any other).",
  })
  @Performs(getQuote)
  async quote(
    @Arg("id", () => ID, { description: "The UUID of the quote to read." }) id: string,
    @OptionalActing() acting: ActingContext | null,
    @Ctx() context: GraphQLContext,
  ) {
    return performField(getQuote, context, acting, { id });
  }

  @Mutation(() => CreateQuotePayload, {
    description: "Prices a conversion with the subject's pricing; valid 10 minutes.",
  })
  @Performs(createQuote)
  async createQuote(
    @Arg("input", () => CreateQuoteInput, { description: "The conversion to price." })
    input: InstanceType<typeof CreateQuoteInput>,
    @OptionalActing() acting: ActingContext | null,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof CreateQuotePayload>> {
    const quote = await performField(createQuote, context, acting, input);
    return { quote };
  }

  @Mutation(() => CreateBestQuotePayload, {
    description: "Prices every candidate network and keeps the one that pays out the most.",
  })
  @Performs(createBestQuote)
  async createBestQuote(
    @Arg("input", () => CreateBestQuoteInput, { description: "The conversion to price and the networks to compare." })
    input: InstanceType<typeof CreateBestQuoteInput>,
    @OptionalActing() acting: ActingContext | null,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof CreateBestQuotePayload>> {
    const quote = await performField(createBestQuote, context, acting, input);
    return { quote };
  }

  @Mutation(() => CreateWidgetSessionPayload, {
    description: "A hosted widget session, for a locked quote or for the widget to quote.",
  })
  @Performs(createWidgetSession)
  async createWidgetSession(
    @Arg("input", () => CreateWidgetSessionInput, {
      description: "A locked quote, or the parameters the widget quotes with.",
    })
    input: InstanceType<typeof CreateWidgetSessionInput>,
    @OptionalActing() acting: ActingContext | null,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof CreateWidgetSessionPayload>> {
    const widgetSession = await performField(createWidgetSession, context, acting, input);
    return { widgetSession };
  }
}
