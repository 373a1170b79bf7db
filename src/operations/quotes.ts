import { z } from "zod";
import type { ActingContext } from "../auth/delegation.js";
import { bestQuoteInput, quoteInput } from "../quotes/types.js";
import { createWidgetSessionInput } from "../widget-sessions/types.js";
import { defineOperation, type Operation } from "./operation.js";

const QUOTES = { requires: ["QUOTE"], delegation: "DELEGATED" } as const;

/**
 * Quotes and widget sessions are open to anyone: a caller without a credential (or with a public key) acts for
 * no subject, and runs with no acting context; keys and sessions attribute (and own) what they create.
 */
const openOperation = <Input extends z.ZodObject, Result>(
  operation: Omit<Operation<Input, Result, ActingContext | null>, "access" | "withoutSubject">,
) => defineOperation<Input, Result, ActingContext | null>({ ...operation, access: QUOTES, withoutSubject: true });

export const createQuote = openOperation({
  name: "createQuote",
  summary: "Create a quote",
  input: quoteInput,
  run: (app, acting, input) => app.quotes.create(acting, input),
});

export const createBestQuote = openOperation({
  name: "createBestQuote",
  summary: "Create a quote on the network that pays out the most",
  input: bestQuoteInput,
  run: (app, acting, input) => app.quotes.createBest(acting, input),
});

export const getQuote = openOperation({
  name: "getQuote",
  summary: "Get a quote",
  input: z.object({ id: z.string() }),
  run: (app, acting, { id }) => app.quotes.get(acting, id),
});

export const createWidgetSession = openOperation({
  name: "createWidgetSession",
  summary: "Create a hosted widget session",
  input: createWidgetSessionInput,
  run: (app, acting, input) => app.widgetSessions.create(acting, input),
});
