import { AUDIT_TARGET_TYPES, OPERATOR_ACTIONS, OPERATOR_CHANNELS } from "../../audit/types.js";
import { described, enumOf, namedEnumOf } from "./enums.js";
import { registerGraphQLEnum } from "./output-type.js";

registerGraphQLEnum(enumOf(OPERATOR_CHANNELS), {
  name: "OperatorChannel",
  description: "How the operator made a change.",
  valuesConfig: described({
    REST: "The REST operator surface (/v1/admin).",
    GRAPHQL: "An operator GraphQL operation.",
    CLI: "The operator CLI (npm run -s admin).",
  }),
});

/** manager.created is MANAGER_CREATED, signing-key.rotated SIGNING_KEY_ROTATED. */
const auditName = (value: string) => value.replace(/[.-]/g, "_").toUpperCase();

registerGraphQLEnum(namedEnumOf(OPERATOR_ACTIONS, auditName), {
  name: "AuditAction",
  description: "What an operator change did (REST spells MANAGER_CREATED as manager.created).",
  valuesConfig: described({
    MANAGER_CREATED: "A profile was enabled as a manager.",
    MANAGER_UPDATED: "A manager's policy was changed, or the manager disabled.",
    PRICING_ASSIGNED: "A pricing profile was assigned to a profile.",
    PARTNER_CREATED: "A partner was created.",
    PARTNER_ACTIVATED: "A partner was reactivated.",
    PARTNER_DEACTIVATED: "A partner was deactivated: its credentials stopped.",
    PARTNER_CREDENTIAL_ISSUED: "A partner-managed credential was issued.",
    SIGNING_KEY_ROTATED: "The webhook signing key was rotated.",
  }),
});

registerGraphQLEnum(namedEnumOf(AUDIT_TARGET_TYPES, auditName), {
  name: "AuditTargetType",
  description: "What kind of record an operator change changed (REST spells PRICING_ASSIGNMENT as pricing-assignment).",
  valuesConfig: described({
    MANAGER: "A manager's policy (its id is the profile's).",
    PRICING_ASSIGNMENT: "A profile's pricing assignment (its id is the profile's).",
    PARTNER: "A partner.",
    API_CREDENTIAL: "An API credential.",
    SIGNING_KEY: "The webhook signing key.",
  }),
});
