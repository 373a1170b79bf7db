import { z } from "zod";
import { instant, isObject, text } from "../../validation.js";
import type { PartnerCallbackFacts } from "../callback-port.js";

/*
 * Avenia's webhook envelopes (spec decision 5, facts §1.4). Only the fields we store are required; the rest of the
 * object travels on in the stored body, and fields Avenia adds break nothing.
 */

/** A ticket or a KYC attempt as a callback carries it. */
const changedObject = z.looseObject({ id: text("line"), status: text("label"), updatedAt: instant() });

const ticketCallback = z.looseObject({
  subscription: z.literal("TICKET"),
  subAccountId: text("line"),
  data: z.looseObject({ ticket: changedObject }),
});

const kycCallback = z.looseObject({
  subscription: z.literal("KYC"),
  subAccountId: text("line"),
  data: z.looseObject({ attempt: changedObject }),
});

/**
 * The event shape `{event: {accountId, subscription, data}}` read as the management shape `{subscription,
 * subAccountId, data}`: the same callback under other names.
 */
function asManagementShape(body: unknown): unknown {
  if (!isObject(body) || !isObject(body.event)) return body;
  const { accountId, subscription, data } = body.event;
  return { subscription, subAccountId: accountId, data };
}

/** An Avenia callback about a ticket or a KYC (or KYB) attempt, in either envelope shape. */
export const aveniaCallback = z.preprocess(
  asManagementShape,
  z
    .discriminatedUnion("subscription", [ticketCallback, kycCallback], {
      error: (issue) => (issue.code === "invalid_union" ? "must be TICKET or KYC" : undefined),
    })
    .transform((callback): PartnerCallbackFacts => {
      const [subjectKind, object] =
        callback.subscription === "TICKET"
          ? (["ticket", callback.data.ticket] as const)
          : (["kycAttempt", callback.data.attempt] as const);
      return {
        subjectKind,
        subjectId: object.id,
        partnerStatus: object.status,
        partnerCustomerId: callback.subAccountId,
        updatedAt: object.updatedAt,
      };
    }),
);
