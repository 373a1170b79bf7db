import { createBestQuote, createQuote, createWidgetSession, getQuote } from "../../operations/quotes.js";
import { bestQuoteInput, quoteInput, quoteView } from "../../quotes/types.js";
import { createWidgetSessionInput, widgetSessionView } from "../../widget-sessions/types.js";
import { operationField, operationResolver } from "../operation-field.js";
import { inputType } from "../types/input-type.js";

const CreateQuoteInput = inputType("CreateQuoteInput", quoteInput, {
  description: "What to price: the direction, the two sides of the conversion and the amount.",
});

const CreateBestQuoteInput = inputType("CreateBestQuoteInput", bestQuoteInput, {
  description: "What to price, with the candidate networks to compare.",
});

const CreateWidgetSessionInput = inputType("CreateWidgetSessionInput", createWidgetSessionInput, {
  description:
    "Either quoteId (a locked quote) or rampType, network, inputAmount and externalSessionId (the widget quotes).",
  // The locked form's fields first; not the reference's partnerId, since attribution comes from the credentials.
  fields: [
    ...(["quoteId", "callbackUrl", "externalSessionId", "walletAddressLocked", "rampType", "network"] as const),
    ...(["inputAmount", "fiat", "cryptoLocked", "paymentMethod", "countryCode"] as const),
  ],
});

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
