import type { z } from "zod";
import { outputObject } from "../../output.js";
import { outputType } from "./output-type.js";

/**
 * The payload object a mutation answers, `<Mutation>Payload`, holding `fields`: a payload rather than the bare
 * object lets the mutation add fields later without breaking its callers (as Relay and Apollo expect). Payloads
 * that are an operation's whole output (CreateBrazilSubaccountPayload, RequestOtpPayload, ...) are declared with it.
 */
export function payloadType<Shape extends z.ZodRawShape>(mutation: string, fields: Shape) {
  const name = `${mutation.charAt(0).toUpperCase()}${mutation.slice(1)}Payload`;
  return outputType(outputObject(name, `The outcome of ${mutation}.`, fields));
}
