import { z } from "zod";
import { auditEventList, auditEventQuery } from "../audit/types.js";
import { partnerInput, partnerStateInput, partnerView, pricingInput } from "../admin/types.js";
import { managerPolicyView } from "../auth/delegation.js";
import { idInput, pagination } from "../output.js";
import { pricingAssignmentView } from "../quotes/pricing-assignments.js";
import { managerPolicyInput } from "../managed-profiles/types.js";
import { emailAddress } from "../identity/types.js";
import { listPage } from "../validation.js";
import { defineOperatorOperation } from "./operation.js";

/** The profile an operator task is about (an ID in GraphQL). */
const profileId = idInput;

export const setManagerPolicy = defineOperatorOperation({
  name: "setManagerPolicy",
  summary: "Enable a profile as a manager, change its policy or disable it",
  input: managerPolicyInput.extend({
    profileId: profileId("The profile to enable or update (UUID); a managed child cannot be one."),
  }),
  run: (app, operator, { profileId, ...policy }) => app.admin.putManager(operator, profileId, policy),
});

export const getManagerPolicy = defineOperatorOperation({
  name: "getManagerPolicy",
  summary: "Get a profile's manager policy; NOT_FOUND when the profile is not a manager",
  input: z.object({ profileId: profileId("The profile whose policy to read (UUID).") }),
  output: managerPolicyView,
  run: (app, _operator, { profileId }) => app.admin.getManager(profileId),
});

export const setPricingAssignment = defineOperatorOperation({
  name: "setPricingAssignment",
  summary: "Assign a pricing profile to any profile",
  input: pricingInput.extend({ profileId: profileId("The profile to assign it to (UUID).") }),
  output: pricingAssignmentView,
  run: (app, operator, { profileId, ...assignment }) => app.admin.assignPricing(operator, profileId, assignment),
});

export const getPricingAssignment = defineOperatorOperation({
  name: "getPricingAssignment",
  summary: "Get the pricing profile assigned to a profile; NOT_FOUND for an unknown profile",
  input: z.object({ profileId: profileId("The profile whose assignment to read (UUID).") }),
  output: pricingAssignmentView,
  run: (app, _operator, { profileId }) => app.admin.getPricing(profileId),
});

export const createPartner = defineOperatorOperation({
  name: "createPartner",
  summary: "Create an active partner",
  input: partnerInput,
  output: partnerView,
  run: (app, operator, input) => app.admin.createPartner(operator, input),
});

export const updatePartner = defineOperatorOperation({
  name: "updatePartner",
  summary: "Activate or deactivate a partner: deactivating it stops its credentials at once",
  input: partnerStateInput.extend({ partnerId: idInput("The partner to change (UUID).") }),
  output: partnerView,
  run: (app, operator, { partnerId, ...state }) => app.admin.setPartnerActive(operator, partnerId, state),
});

export const listAuditEvents = defineOperatorOperation({
  name: "listAuditEvents",
  summary: "List the operator's changes, newest first",
  input: auditEventQuery,
  output: auditEventList,
  run: (app, _operator, query) => app.admin.auditEvents(query),
});

export const findProfilesByEmail = defineOperatorOperation({
  name: "findProfilesByEmail",
  summary: "Find the profiles an email belongs to",
  input: z.object({ email: emailAddress }),
  run: (app, _operator, { email }) => app.admin.findProfiles(email),
});

export const listManagers = defineOperatorOperation({
  name: "listManagers",
  summary: "List managers and their policies",
  input: listPage,
  output: z.object({ managers: z.array(managerPolicyView), pagination }),
  run: (app, _operator, page) => app.admin.listManagers(page),
});

export const listPartners = defineOperatorOperation({
  name: "listPartners",
  summary: "List partners",
  input: listPage,
  output: z.object({ partners: z.array(partnerView), pagination }),
  run: (app, _operator, page) => app.admin.listPartners(page),
});

export const listPricingAssignments = defineOperatorOperation({
  name: "listPricingAssignments",
  summary: "List pricing assignments",
  input: listPage,
  output: z.object({ pricingAssignments: z.array(pricingAssignmentView), pagination }),
  run: (app, _operator, page) => app.admin.listPricing(page),
});
