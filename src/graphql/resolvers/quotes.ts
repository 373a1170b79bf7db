import { createBestQuote, createQuote, createWidgetSession, getQuote } from "../../operations/quotes.js";
import { quoteView } from "../../quotes/types.js";
import { widgetSessionView } from "../../widget-sessions/types.js";
import { operationField, operationResolver } from "../operation-field.js";
import { CreateBestQuoteInput, CreateQuoteInput, CreateWidgetSessionInput } from "../types/ramps.js";

/** Quotes and widget sessions: anyone may ask; keys and sessions attribute (and own) what they create. */
export const QuotesResolver = operationResolver("QuotesResolver", [
  operationField(getQuote, {
    query: "quote",
    nullable: true,
  }),
  operationField(createQuote, {
    mutation: "createQuote",
    payload: { quote: quoteView.describe("The priced quote.") },
    args: { input: { type: () => CreateQuoteInput } },
  }),
  operationField(createBestQuote, {
    mutation: "createBestQuote",
    payload: { quote: quoteView.describe("The quote of the network that pays out the most.") },
    args: { input: { type: () => CreateBestQuoteInput } },
  }),
  operationField(createWidgetSession, {
    mutation: "createWidgetSession",
    payload: { widgetSession: widgetSessionView.describe("The new widget session and its URL.") },
    args: { input: { type: () => CreateWidgetSessionInput } },
  }),
]);
