import { z } from "zod";
import { idInput } from "../output.js";
import { bestQuoteInput, quoteInput, quoteView } from "../quotes/types.js";
import { createWidgetSessionInput, widgetSessionView } from "../widget-sessions/types.js";
import { defineOpenOperation } from "./operation.js";

/**
 * Quotes and widget sessions are open to anyone: a caller without a credential (or with a public key) acts for
 * no subject, and runs with no acting context; keys and sessions attribute (and own) what they create.
 */
const QUOTES = { requires: ["QUOTE"], delegation: "DELEGATED" } as const;

export const createQuote = defineOpenOperation(QUOTES, {
  name: "createQuote",
  summary: "Price a conversion with the subject's pricing; the quote is valid 10 minutes",
  input: quoteInput,
  output: quoteView,
  run: (app, acting, input) => app.quotes.create(acting, input),
});

export const createBestQuote = defineOpenOperation(QUOTES, {
  name: "createBestQuote",
  summary: "Price every candidate network and keep the quote of the one that pays out the most",
  input: bestQuoteInput,
  output: quoteView,
  run: (app, acting, input) => app.quotes.createBest(acting, input),
});

export const getQuote = defineOpenOperation(QUOTES, {
  name: "getQuote",
  summary: "Get a quote the caller may see: its own, or one nobody owns; NOT_FOUND for any other",
  input: z.object({ id: idInput("The UUID of the quote to read.") }),
  output: quoteView,
  run: (app, acting, { id }) => app.quotes.get(acting, id),
});

export const createWidgetSession = defineOpenOperation(QUOTES, {
  name: "createWidgetSession",
  summary: "Create a hosted widget session, for a locked quote or for the widget to quote",
  input: createWidgetSessionInput,
  output: widgetSessionView,
  run: (app, acting, input) => app.widgetSessions.create(acting, input),
});
