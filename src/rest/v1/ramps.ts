import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { RAMP_PHASES, RAMP_STATUSES } from "../../reference-data/ramp-phases.js";
import { rampView, type RampView } from "../../ramps/types.js";
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
import { leftOutWhenNull } from "../wire-form.js";
import { referenceFeeNamed, withReferenceFeeNames } from "./quotes.js";

const phase = z.enum(RAMP_PHASES);
const status = z.enum(RAMP_STATUSES);
/** A ramp's fields the reference types as plain optional strings: left out, not null, when there is none. */
const OPTIONAL_STRINGS = ["countryCode", "walletAddress", "sessionId", "transactionHash", "transactionExplorerLink"];
const ramp = referenceFeeNamed(rampView).extend(
  Object.fromEntries(
    Object.entries(rampView.shape)
      .filter(([field]) => OPTIONAL_STRINGS.includes(field))
      .map(([field, schema]) => [field, leftOutWhenNull(schema)]),
  ),
);
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
    errors: [401, 403, 404],
  });
}
