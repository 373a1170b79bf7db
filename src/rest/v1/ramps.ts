import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { RAMP_PHASES, RAMP_STATUSES } from "../../reference-data/ramp-phases.js";
import type { RampView } from "../../ramps/types.js";
import {
  getRampErrorLogs,
  getRampHistory,
  getRampHistoryOfWallet,
  getRampStatus,
  registerRamp,
  startRamp,
  updateRamp,
} from "../../operations/ramps.js";
import { isoDateTime, jsonSchema } from "../http.js";
import { operationRoute } from "../operation-route.js";
import { quoteTermFields, withReferenceFeeNames } from "./quotes.js";

const phase = z.enum(RAMP_PHASES);
const status = z.enum(RAMP_STATUSES);
const looseObject = z.object({}).catchall(z.unknown());
/** A ramp's fields the reference types as plain optional strings: left out, not null, when there is none. */
const OPTIONAL_STRINGS = ["countryCode", "walletAddress", "sessionId", "transactionHash", "transactionExplorerLink"];
const ramp = z.object({
  id: z.uuid(),
  quoteId: z.uuid(),
  type: z.enum(["BUY", "SELL"]),
  currentPhase: phase,
  status,
  ...quoteTermFields,
  countryCode: z.string().optional(),
  walletAddress: z.string().optional(),
  sessionId: z.uuid().optional(),
  fiatAccountId: z.uuid().nullable(),
  paymentInstructions: z
    .object({
      method: z.string(),
      amount: z.string(),
      currency: z.string(),
      reference: z.string(),
      beneficiary: z.string(),
      account: z.string().optional().describe("The account to pay into (a CLABE, a bank account number)."),
    })
    .nullable()
    .describe("BUY: how to pay the fiat in."),
  depositQrCode: z.string().nullable().describe("PIX BR Code (copy and paste), for PIX payments."),
  unsignedTxs: z.array(looseObject).describe("SELL: what the user signs and returns with POST /v1/ramp/update."),
  transactionHash: z.string().optional(),
  transactionExplorerLink: z.string().optional(),
  expiresAt: isoDateTime.describe("The deadline for starting the ramp."),
  startedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
const rampError = z.object({
  timestamp: isoDateTime,
  phase,
  error: z.string(),
  details: z.string().nullable(),
  recoverable: z.boolean(),
});
const history = z.object({
  totalCount: z.string().describe("The number of ramps in the history (a decimal string, as the reference has it)."),
  transactions: z.array(
    z.object({
      id: z.uuid(),
      type: z.enum(["BUY", "SELL"]),
      from: z.string(),
      to: z.string(),
      fromAmount: z.string(),
      toAmount: z.string(),
      fromCurrency: z.string(),
      toCurrency: z.string(),
      status,
      currentPhase: phase,
      date: isoDateTime,
      expiresAt: isoDateTime,
      walletAddress: z.string().optional(),
      externalTxHash: z.string().optional(),
      externalTxExplorerLink: z.string().optional(),
    }),
  ),
});

/** A ramp as the reference's history lists it, under its own field names. */
function toHistoryEntry(ramp: RampView) {
  return {
    id: ramp.id,
    type: ramp.type,
    from: ramp.from,
    to: ramp.to,
    fromAmount: ramp.inputAmount,
    toAmount: ramp.outputAmount,
    fromCurrency: ramp.inputCurrency,
    toCurrency: ramp.outputCurrency,
    status: ramp.status,
    currentPhase: ramp.currentPhase,
    date: ramp.createdAt,
    expiresAt: ramp.expiresAt,
    ...(ramp.walletAddress !== null && { walletAddress: ramp.walletAddress }),
    ...(ramp.type === "BUY" && ramp.transactionHash !== null && { externalTxHash: ramp.transactionHash }),
    ...(ramp.type === "BUY" &&
      ramp.transactionExplorerLink !== null && { externalTxExplorerLink: ramp.transactionExplorerLink }),
  };
}

/** A ramp as the reference shapes it: its optional strings left out rather than null. */
const toRamp = (view: RampView) =>
  Object.fromEntries(
    Object.entries(withReferenceFeeNames(view)).filter(
      ([field, value]) => value !== null || !OPTIONAL_STRINGS.includes(field),
    ),
  );

/** Ramps (CONTRACT.md, Ramp domain): secret keys and sessions, for themselves or a managed child. */
export function rampRoutes(server: FastifyInstance, app: App) {
  const tags = ["Ramps"];

  operationRoute(server, app, registerRamp, {
    method: "POST",
    url: "/v1/ramp/register",
    tags,
    status: 201,
    response: jsonSchema(ramp),
    reply: toRamp,
    errors: [400, 401, 403, 404, 409],
  });

  operationRoute(server, app, updateRamp, {
    method: "POST",
    url: "/v1/ramp/update",
    tags,
    response: jsonSchema(ramp),
    reply: toRamp,
    errors: [400, 401, 403, 404, 409],
  });

  operationRoute(server, app, startRamp, {
    method: "POST",
    url: "/v1/ramp/start",
    tags,
    response: jsonSchema(ramp),
    reply: toRamp,
    errors: [400, 401, 403, 404, 409],
  });

  for (const [operation, url] of [
    [getRampHistory, "/v1/ramp/history"],
    [getRampHistoryOfWallet, "/v1/ramp/history/:walletAddress"],
  ] as const)
    operationRoute(server, app, operation, {
      method: "GET",
      url,
      tags,
      response: jsonSchema(history),
      errors: [400, 401, 403],
      reply: (page) => ({ totalCount: String(page.totalCount), transactions: page.ramps.map(toHistoryEntry) }),
    });

  operationRoute(server, app, getRampStatus, {
    method: "GET",
    url: "/v1/ramp/:id",
    tags,
    response: jsonSchema(ramp),
    reply: toRamp,
    errors: [401, 403, 404],
    cachedResults: true,
  });

  operationRoute(server, app, getRampErrorLogs, {
    method: "GET",
    url: "/v1/ramp/:id/errors",
    tags,
    response: jsonSchema(z.array(rampError)),
    errors: [401, 403, 404],
  });
}
