import { z } from "zod";
import { text } from "../../validation.js";
import type { PartnerCallbackFacts } from "../callback-port.js";

/*
 * Alfredpay's callback envelope, `{type, data}` with the object a GET would answer (spec decision 7). Only the
 * fields we store are required; the rest travels on in the stored body.
 */

const order = z.looseObject({ transactionId: text("line"), customerId: text("line"), status: text("label") });
/** A KYC or KYB status answer, with the ids the agreed callback adds to it (which submission, whose). */
const verification = z.looseObject({ submissionId: text("line"), customerId: text("line"), status: text("label") });

/** A callback of `type` about the object `data` reads, which its field `id` names. */
const callback = <Type extends string, Id extends string>(
  type: Type,
  data: z.ZodType<Record<Id, string> & { customerId: string; status: string }>,
  id: Id,
) =>
  z.looseObject({ type: z.literal(type), data }).transform(({ data }): PartnerCallbackFacts => ({
    subjectKind: type,
    subjectId: data[id],
    partnerStatus: data.status,
    partnerCustomerId: data.customerId,
  }));

/** An Alfredpay callback about an order (onramp, offramp) or a verification (kyc, kyb). */
export const alfredpayCallback = z.discriminatedUnion(
  "type",
  [
    callback("onramp", order, "transactionId"),
    callback("offramp", order, "transactionId"),
    callback("kyc", verification, "submissionId"),
    callback("kyb", verification, "submissionId"),
  ],
  { error: (issue) => (issue.code === "invalid_union" ? "must be onramp, offramp, kyc or kyb" : undefined) },
);
