import { z } from "zod";
import { listPage, omissible, uuid } from "../validation.js";

/** Every change the operator can make, by the stable name its audit event carries. */
export const OPERATOR_ACTIONS = [
  "manager.created",
  "manager.updated",
  "pricing.assigned",
  "partner.created",
  "partner.activated",
  "partner.deactivated",
  "partner.credential.issued",
  "signing-key.rotated",
] as const;
type OperatorActionName = (typeof OPERATOR_ACTIONS)[number];

export const OPERATOR_CHANNELS = ["rest", "graphql", "cli"] as const;

/** The kinds of record operator changes touch (a manager's and a pricing assignment's id is the profile's). */
export const AUDIT_TARGET_TYPES = [
  "manager",
  "pricing-assignment",
  "partner",
  "api-credential",
  "signing-key",
] as const;

/**
 * Who made an operator change. Every operator shares one token, so over HTTP the request is what tells
 * changes apart (and leads to its log line); the CLI runs as an OS account.
 */
export type OperatorActor =
  { channel: "rest" | "graphql"; requestId: string; clientAddress: string } | { channel: "cli"; osUser: string };

/** A value of an event's details: ids and settings only. */
type AuditDetail = string | boolean | null | readonly string[];

/** What an operator change records besides who and when: never secrets or personal data. */
export interface OperatorChange {
  action: OperatorActionName;
  targetType: (typeof AUDIT_TARGET_TYPES)[number];
  targetId: string;
  details: Record<string, AuditDetail>;
}

export interface AuditEventView {
  id: string;
  at: Date;
  /** The actor with every field present, null where its channel has none. */
  actor: {
    channel: OperatorActor["channel"];
    requestId: string | null;
    clientAddress: string | null;
    osUser: string | null;
  };
  action: OperatorActionName;
  targetType: OperatorChange["targetType"];
  targetId: string;
  details: Record<string, AuditDetail>;
}

export const auditEventQuery = listPage.extend({
  action: omissible(z.enum(OPERATOR_ACTIONS)).describe("Only events of this action."),
  targetId: omissible(uuid()).describe(
    "Only events about this record (a profile, partner, credential or signing key id).",
  ),
});
export type AuditEventQuery = z.output<typeof auditEventQuery>;
