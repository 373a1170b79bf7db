import type { z } from "zod";
import type { App } from "../app.js";
import { AppError } from "../errors.js";
import type { CallbackDelivery, CallbackOutcome } from "../partner-callbacks/service.js";
import { alfredpayCallback } from "../providers/alfredpay/callbacks.js";
import { aveniaCallback } from "../providers/avenia/callbacks.js";
import type { PartnerCallbackFacts } from "../providers/callback-port.js";
import { parseInput } from "../validation.js";
import type { PartnerSignatureRule } from "./operation.js";

/**
 * A partner's callback, defined once: the envelope it must fit, its access rule (the partner's signature) and
 * the service call. Partner-facing: served over REST only, documented in the OpenAPI document as such.
 */
export interface PartnerCallbackOperation {
  readonly name: string;
  readonly summary: string;
  readonly access: PartnerSignatureRule;
  /** The envelope, read into the facts stored beside the body. */
  readonly input: z.ZodType<PartnerCallbackFacts>;
  run(app: App, facts: PartnerCallbackFacts, delivery: CallbackDelivery): Promise<CallbackOutcome>;
}

export const receiveAveniaCallback: PartnerCallbackOperation = {
  name: "receiveAveniaCallback",
  summary: "Receive an Avenia webhook (partner-facing)",
  access: { partnerSignature: "Avenia" },
  input: aveniaCallback,
  run: (app, facts, delivery) => app.partnerCallbacks.receive("Avenia", delivery, facts),
};

export const receiveAlfredpayCallback: PartnerCallbackOperation = {
  name: "receiveAlfredpayCallback",
  summary: "Receive an Alfredpay callback (partner-facing)",
  access: { partnerSignature: "Alfredpay" },
  input: alfredpayCallback,
  run: (app, facts, delivery) => app.partnerCallbacks.receive("Alfredpay", delivery, facts),
};

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a verified delivery's body (INVALID_JSON unless it is JSON in UTF-8, so the stored text is its bytes),
 * validates it as the operation's envelope (VALIDATION_FAILED, per field), then runs the operation.
 */
export function performCallback(
  operation: PartnerCallbackOperation,
  app: App,
  delivery: CallbackDelivery,
): Promise<CallbackOutcome> {
  let body: unknown;
  try {
    body = JSON.parse(utf8.decode(delivery.rawBody));
  } catch {
    throw new AppError("INVALID_JSON");
  }
  return operation.run(app, parseInput(operation.input, body), delivery);
}
