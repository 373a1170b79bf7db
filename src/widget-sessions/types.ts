import { z } from "zod";
import { RAMP_TYPES } from "../quotes/types.js";
import { country, cryptocurrency, FIAT_SYMBOLS, NETWORKS, PAYMENT_METHOD_IDS } from "../reference-data/catalog.js";
import { idField, named, outputObject } from "../output.js";
import { amount, countryCode, uuid, walletAddress } from "../validation.js";

const webUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2048);
const externalSessionId = z.string().min(1).max(128);
const common = {
  callbackUrl: webUrl
    .optional()
    .describe("An http(s) URL, at most 2048 characters, the widget returns the user to once the ramp is created."),
  externalSessionId: externalSessionId
    .optional()
    .describe("Your own reference for the session, 1 to 128 characters; required without quoteId."),
  walletAddressLocked: walletAddress()
    .optional()
    .describe("A wallet address the user cannot change in the widget, at most 128 characters."),
};
/** Attribution comes from the caller's credentials; the reference's `partnerId` is accepted and ignored. */
const ignoredAttribution = { partnerId: z.string().max(256).optional() };

/** The refresh form's parameters it cannot do without. */
const refreshRequired = {
  rampType: z.enum(RAMP_TYPES),
  network: z.enum(NETWORKS),
  inputAmount: amount("must be a positive decimal string"),
  externalSessionId,
};
const LOCKED_FIELDS = new Set(["quoteId", ...Object.keys(common), ...Object.keys(ignoredAttribution)]);

/**
 * Either a locked quote, or the parameters the widget quotes with (the reference's two forms), as one object
 * of every field either form has. A body naming `quoteId` is the locked form, anything else the refresh form,
 * so errors name the fields of the form meant (a union would only say "Invalid input" for the whole body): the
 * other form's fields are unknown keys, and the refresh form requires its parameters.
 */
export const createWidgetSessionInput = z
  .strictObject({
    quoteId: named("ID", uuid())
      .optional()
      .describe(
        "Locks the widget to this quote (one the caller may see); then only callbackUrl, externalSessionId and walletAddressLocked may join it.",
      ),
    rampType: named("RampDirection", refreshRequired.rampType.optional()).describe(
      "Without quoteId: the direction to quote (required).",
    ),
    network: named("Network", refreshRequired.network.optional()).describe(
      "Without quoteId: the network to quote on (required).",
    ),
    inputAmount: named("Decimal", refreshRequired.inputAmount.optional()).describe(
      "Without quoteId: the amount to quote (required).",
    ),
    ...common,
    fiat: named("FiatCurrencySymbol", z.enum(FIAT_SYMBOLS))
      .optional()
      .describe("Without quoteId: the fiat to quote in."),
    cryptoLocked: z
      .string()
      .max(16)
      .optional()
      .describe("Without quoteId: a token of the chosen network (exact symbol) that the user cannot change."),
    paymentMethod: named("PaymentMethodId", z.enum(PAYMENT_METHOD_IDS))
      .optional()
      .describe("Without quoteId: the payment method."),
    countryCode: countryCode()
      .refine((code) => country(code) !== undefined, "must be a supported country")
      .optional()
      .describe("Without quoteId: a supported country's ISO 3166-1 alpha-2 code, in capitals."),
    ...ignoredAttribution,
  })
  .superRefine(
    (form, context) => {
      const locked = "quoteId" in form;
      const refused = (key: string) => context.issues.some((issue) => issue.path?.[0] === key);
      const missing = locked
        ? []
        : Object.entries(refreshRequired).filter(
            ([key]) => form[key as keyof typeof form] === undefined && !refused(key),
          );
      // The form meant refuses the keys it lacks in one issue, as a strict object of its own would, and says
      // nothing of their values.
      const unknown = locked ? Object.keys(form).filter((key) => !LOCKED_FIELDS.has(key)) : [];
      const kept: typeof context.issues = [];
      for (const issue of context.issues) {
        const [key] = issue.path ?? [];
        if (key === undefined && issue.code === "unrecognized_keys") unknown.push(...issue.keys);
        else if (!(locked && key !== undefined && !LOCKED_FIELDS.has(String(key)))) kept.push(issue);
      }
      context.issues.splice(0, context.issues.length, ...kept);
      for (const [key, schema] of missing)
        for (const issue of schema.safeParse(undefined).error!.issues)
          context.addIssue({ ...issue, path: [key], continue: false });
      if (unknown.length) context.addIssue({ code: "unrecognized_keys", keys: unknown, input: form, continue: false });
    },
    // Even after other fields' issues (a refresh form missing a parameter says so with them), on an object.
    { when: ({ value }) => typeof value === "object" && value !== null && !Array.isArray(value) },
  )
  .refine((form) => form.cryptoLocked === undefined || cryptocurrency(form.cryptoLocked, form.network!) !== undefined, {
    path: ["cryptoLocked"],
    message: "must be a token on the chosen network",
  })
  .describe(
    "Either quoteId (a locked quote) or rampType, network, inputAmount and externalSessionId (the widget quotes); the two forms' fields do not mix.",
  );

export type WidgetSessionInput = z.output<typeof createWidgetSessionInput>;

export const widgetSessionView = outputObject(
  "WidgetSession",
  "A hosted widget session; ramps and webhooks may refer to it.",
  {
    sessionId: idField("The session's UUID, which ramps, webhooks and ramp events name."),
    url: z.string().describe("The hosted widget's URL for this session (it carries sessionId as a query parameter)."),
  },
);
export type WidgetSessionView = z.output<typeof widgetSessionView>;
