import { AUDIT_TARGET_TYPES, auditEventView, OPERATOR_ACTIONS, OPERATOR_CHANNELS } from "../../audit/types.js";
import { connectionType } from "./connection.js";
import { enumOf, namedEnumOf } from "./enums.js";
import { registerGraphQLEnum } from "./output-type.js";

registerGraphQLEnum(enumOf(OPERATOR_CHANNELS), {
  name: "OperatorChannel",
  description: "How the operator made a change.",
  valuesConfig: {
    REST: { description: "The REST operator surface (/v1/admin)." },
    GRAPHQL: { description: "An operator GraphQL operation." },
    CLI: { description: "The operator CLI (npm run -s admin)." },
  },
});

/** manager.created is MANAGER_CREATED, signing-key.rotated SIGNING_KEY_ROTATED. */
const auditName = (value: string) => value.replace(/[.-]/g, "_").toUpperCase();

registerGraphQLEnum(namedEnumOf(OPERATOR_ACTIONS, auditName), {
  name: "AuditAction",
  description: "What an operator change did (REST spells MANAGER_CREATED as manager.created).",
  valuesConfig: {
    MANAGER_CREATED: { description: "A profile was enabled as a manager." },
    MANAGER_UPDATED: { description: "A manager's policy was changed, or the manager disabled." },
    PRICING_ASSIGNED: { description: "A pricing profile was assigned to a profile." },
    PARTNER_CREATED: { description: "A partner was created." },
    PARTNER_ACTIVATED: { description: "A partner was reactivated." },
    PARTNER_DEACTIVATED: { description: "A partner was deactivated: its credentials stopped." },
    PARTNER_CREDENTIAL_ISSUED: { description: "A partner-managed credential was issued." },
    SIGNING_KEY_ROTATED: { description: "The webhook signing key was rotated." },
  },
});

registerGraphQLEnum(namedEnumOf(AUDIT_TARGET_TYPES, auditName), {
  name: "AuditTargetType",
  description: "What kind of record an operator change changed (REST spells PRICING_ASSIGNMENT as pricing-assignment).",
  valuesConfig: {
    MANAGER: { description: "A manager's policy (its id is the profile's)." },
    PRICING_ASSIGNMENT: { description: "A profile's pricing assignment (its id is the profile's)." },
    PARTNER: { description: "A partner." },
    API_CREDENTIAL: { description: "An API credential." },
    SIGNING_KEY: { description: "The webhook signing key." },
  },
});

export const AuditEventConnection = connectionType(auditEventView);
