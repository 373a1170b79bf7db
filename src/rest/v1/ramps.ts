import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { DELEGATED } from "../../auth/delegation.js";
import { RAMP_PHASES, RAMP_STATUSES } from "../../ramps/phases.js";
import type { RampView } from "../../ramps/types.js";
import { actingOf, errorResponses, isoDateTime, jsonSchema } from "../http.js";
import { quoteTermFields } from "./quotes.js";

const phase = z.enum(RAMP_PHASES);
const status = z.enum(RAMP_STATUSES);
const looseObject = z.object({}).catchall(z.unknown());
const ramp = z.object({
  id: z.uuid(),
  quoteId: z.uuid(),
  type: z.enum(["BUY", "SELL"]),
  currentPhase: phase,
  status,
  ...quoteTermFields,
  walletAddress: z.string().nullable(),
  sessionId: z.uuid().nullable(),
  fiatAccountId: z.uuid().nullable(),
  paymentInstructions: z
    .object({
      method: z.string(),
      amount: z.string(),
      currency: z.string(),
      reference: z.string(),
      beneficiary: z.string(),
    })
    .nullable()
    .describe("BUY: how to pay the fiat in."),
  depositQrCode: z.string().nullable().describe("PIX BR Code (copy and paste), for PIX payments."),
  unsignedTxs: z.array(looseObject).describe("SELL: what the user signs and returns with POST /v1/ramp/update."),
  transactionHash: z.string().nullable(),
  transactionExplorerLink: z.string().nullable(),
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
      walletAddress: z.string().nullable(),
      externalTxHash: z.string().nullable(),
      externalTxExplorerLink: z.string().nullable(),
    }),
  ),
});
const registerBody = z.object({
  quoteId: z.uuid(),
  destinationAddress: z.string().optional().describe("BUY: where the tokens go."),
  fiatAccountId: z.uuid().optional(),
  sessionId: z.uuid().optional().describe("A widget session (POST /v1/session/create)."),
  signingAccounts: z.array(z.object({ address: z.string(), type: z.enum(["EVM", "Substrate"]) })).optional(),
  additionalData: looseObject
    .optional()
    .describe("SELL: walletAddress (the tokens' source). BRL: taxId, a deprecated cross-check."),
});
const updateBody = z.object({
  rampId: z.uuid(),
  presignedTxs: z.array(looseObject),
  additionalData: looseObject.nullable().optional(),
});
const startBody = z.object({ rampId: z.uuid() });
const idParams = z.object({ id: z.string() });

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
    walletAddress: ramp.walletAddress,
    externalTxHash: ramp.type === "BUY" ? ramp.transactionHash : null,
    externalTxExplorerLink: ramp.type === "BUY" ? ramp.transactionExplorerLink : null,
  };
}

/** Ramps (CONTRACT.md, Ramp domain): secret keys and sessions, for themselves or a managed child. */
export function rampRoutes(server: FastifyInstance, app: App) {
  const config = { capabilities: ["RAMP_OPERATIONS"] as const, delegation: DELEGATED };
  const tags = ["Ramps"];
  const id = (request: { params: unknown }) => (request.params as { id: string }).id;

  server.post("/v1/ramp/register", {
    config,
    schema: {
      operationId: "registerRamp",
      summary: "Register a ramp from a quote",
      tags,
      body: jsonSchema(registerBody, "input"),
      response: { 201: jsonSchema(ramp), ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request, reply) => reply.code(201).send(await app.ramps.register(actingOf(request), request.body)),
  });

  server.post("/v1/ramp/update", {
    config,
    schema: {
      operationId: "updateRamp",
      summary: "Add signed transactions and hashes to a ramp",
      tags,
      body: jsonSchema(updateBody, "input"),
      response: { 200: jsonSchema(ramp), ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) => app.ramps.update(actingOf(request), request.body),
  });

  server.post("/v1/ramp/start", {
    config,
    schema: {
      operationId: "startRamp",
      summary: "Start processing a ramp",
      tags,
      body: jsonSchema(startBody, "input"),
      response: { 200: jsonSchema(ramp), ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) => app.ramps.start(actingOf(request), request.body),
  });

  server.get("/v1/ramp/history", {
    config,
    schema: {
      operationId: "getRampHistory",
      summary: "List the subject's ramps",
      tags,
      querystring: jsonSchema(z.object({ limit: z.string().optional(), offset: z.string().optional() }), "input"),
      response: { 200: jsonSchema(history), ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => {
      const page = await app.ramps.history(actingOf(request), request.query);
      return { totalCount: String(page.totalCount), transactions: page.ramps.map(toHistoryEntry) };
    },
  });

  server.get("/v1/ramp/:id", {
    config,
    schema: {
      operationId: "getRampStatus",
      summary: "Get a ramp's status",
      tags,
      params: jsonSchema(idParams, "input"),
      response: { 200: jsonSchema(ramp), ...errorResponses(401, 403, 404) },
    },
    handler: (request) => app.ramps.get(actingOf(request), id(request)),
  });

  server.get("/v1/ramp/:id/errors", {
    config,
    schema: {
      operationId: "getRampErrorLogs",
      summary: "Get a ramp's error log",
      tags,
      params: jsonSchema(idParams, "input"),
      response: { 200: jsonSchema(z.array(rampError)), ...errorResponses(401, 403, 404) },
    },
    handler: (request) => app.ramps.errors(actingOf(request), id(request)),
  });
}
