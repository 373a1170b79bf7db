import { z } from "zod";
import { idField, instantField, named, outputObject, pagination } from "../output.js";
import { listPage, omissible, uuid } from "../validation.js";
import { describedEnum } from "../enums.js";

/** An audit name in GraphQL: manager.created is MANAGER_CREATED, signing-key.rotated SIGNING_KEY_ROTATED. */
const auditName = (value: string) => value.replace(/[.-]/g, "_").toUpperCase();

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

describedEnum("AuditAction", OPERATOR_ACTIONS, {
  description: "What an operator change did (REST spells MANAGER_CREATED as manager.created).",
  graphqlName: auditName,
  meanings: {
    "manager.created": "A profile was enabled as a manager.",
    "manager.updated": "A manager's policy was changed, or the manager disabled.",
    "pricing.assigned": "A pricing profile was assigned to a profile.",
    "partner.created": "A partner was created.",
    "partner.activated": "A partner was reactivated.",
    "partner.deactivated": "A partner was deactivated: its credentials stopped.",
    "partner.credential.issued": "A partner-managed credential was issued.",
    "signing-key.rotated": "The webhook signing key was rotated.",
  },
});

type OperatorActionName = (typeof OPERATOR_ACTIONS)[number];

const OPERATOR_CHANNELS = ["rest", "graphql", "cli"] as const;

describedEnum("OperatorChannel", OPERATOR_CHANNELS, {
  description: "How the operator made a change.",
  meanings: {
    rest: "The REST operator surface (/v1/admin).",
    graphql: "An operator GraphQL operation.",
    cli: "The operator CLI (npm run -s admin).",
  },
});

/** The kinds of record operator changes touch (a manager's and a pricing assignment's id is the profile's). */
export const AUDIT_TARGET_TYPES = [
  "manager",
  "pricing-assignment",
  "partner",
  "api-credential",
  "signing-key",
] as const;

describedEnum("AuditTargetType", AUDIT_TARGET_TYPES, {
  description: "What kind of record an operator change changed (REST spells PRICING_ASSIGNMENT as pricing-assignment).",
  graphqlName: auditName,
  meanings: {
    manager: "A manager's policy (its id is the profile's).",
    "pricing-assignment": "A profile's pricing assignment (its id is the profile's).",
    partner: "A partner.",
    "api-credential": "An API credential.",
    "signing-key": "The webhook signing key.",
  },
});

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

const auditActorView = outputObject(
  "AuditActor",
  "Who made an operator change. Every operator shares the operator token, so over HTTP the request tells changes apart.",
  {
    channel: named("OperatorChannel", z.enum(OPERATOR_CHANNELS)).describe("How the change was made."),
    requestId: z.string().nullable().describe("REST and GraphQL: the request's X-Request-ID."),
    clientAddress: z.string().nullable().describe("REST and GraphQL: the client address the request came from."),
    osUser: z.string().nullable().describe("CLI: the OS account that ran the command."),
  },
);

/** One recorded change, its actor with every field present (null where its channel has none). */
const auditEventView = outputObject(
  "AuditEvent",
  "One change the operator made, recorded in the change's own transaction.",
  {
    id: idField("The event's id (UUID)."),
    at: instantField("When the change was made."),
    actor: auditActorView.describe("Who made it."),
    action: named("AuditAction", z.enum(OPERATOR_ACTIONS)).describe("What was done."),
    targetType: named("AuditTargetType", z.enum(AUDIT_TARGET_TYPES)).describe("What kind of record changed."),
    targetId: idField("The changed record's id (a manager's or pricing assignment's is the profile id)."),
    details: named("JSONObject", z.record(z.string(), z.custom<AuditDetail>())).describe(
      "The ids and settings the change set; never secrets or personal data.",
    ),
  },
);
export type AuditEventView = z.output<typeof auditEventView>;

/** A page of audit events. */
export const auditEventList = z.object({ events: z.array(auditEventView), pagination });

export const auditEventQuery = listPage.extend({
  action: named("AuditAction", omissible(z.enum(OPERATOR_ACTIONS))).describe("Only events of this action."),
  targetId: named("ID", omissible(uuid())).describe(
    "Only events about this record (a profile, partner, credential or signing key id).",
  ),
});
export type AuditEventQuery = z.output<typeof auditEventQuery>;
