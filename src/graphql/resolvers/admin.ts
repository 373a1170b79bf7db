import { partnerView } from "../../admin/types.js";
import { managerPolicyView } from "../../auth/delegation.js";
import { managerPolicyInput } from "../../managed-profiles/types.js";
import { issuedCredential } from "../../credentials/types.js";
import {
  createPartner,
  getManagerPolicy,
  getPricingAssignment,
  listAuditEvents,
  setManagerPolicy,
  setPricingAssignment,
  updatePartner,
} from "../../operations/admin.js";
import { createPartnerApiCredential } from "../../operations/credentials.js";
import { pricingAssignmentView } from "../../quotes/pricing-assignments.js";
import { operationField, operationResolver } from "../operation-field.js";
import { inputType } from "../types/input-type.js";

const ManagerPolicyInput = inputType("ManagerPolicyInput", managerPolicyInput, {
  description: "A manager's whole corridor policy; it replaces the previous one.",
});

const PartnerCredentialInput = inputType("PartnerCredentialInput", createPartnerApiCredential.input, {
  description: "A partner-managed credential: the profile it is bound to, and optional name and expiry.",
  fields: ["profileId", "name", "expiresAt"], // the partner is an argument of its own
});

/** The operator surface, for the operator token only. */
export const AdminResolver = operationResolver("AdminResolver", [
  operationField(getManagerPolicy, {
    query: "manager",
    nullable: true,
  }),
  operationField(setManagerPolicy, {
    mutation: "putManager",
    payload: { manager: managerPolicyView.describe("The manager's policy now.") },
    args: { policy: { type: () => ManagerPolicyInput }, profileId: {} },
    toInput: ({ profileId, policy }) => ({ profileId, ...(policy as object) }),
    toResult: ({ manager }) => ({ manager }),
  }),
  operationField(getPricingAssignment, {
    query: "pricingAssignment",
    nullable: true,
  }),
  operationField(setPricingAssignment, {
    mutation: "assignPricingProfile",
    payload: { pricingAssignment: pricingAssignmentView.describe("The profile's pricing assignment now.") },
  }),
  operationField(createPartner, {
    mutation: "createPartner",
    payload: { partner: partnerView.describe("The new partner.") },
  }),
  operationField(updatePartner, {
    mutation: "setPartnerActive",
    payload: { partner: partnerView.describe("The partner, activated or deactivated.") },
  }),
  operationField(createPartnerApiCredential, {
    mutation: "issuePartnerCredential",
    payload: {
      credential: issuedCredential.describe(
        "The partner-managed credential with its secret value, shown only this once.",
      ),
    },
    args: { input: { type: () => PartnerCredentialInput }, partnerId: {} },
  }),
  operationField(listAuditEvents, {
    query: "auditEvents",
    args: { targetId: {}, action: {} },
    page: "events",
  }),
]);
