import { corridorEnum, customerTypeEnum } from "../../reference-data/corridors.js";
import { managerPolicyView } from "../../auth/delegation.js";
import {
  createManagedProfileInput,
  managerPolicyInput,
  managedProfileView,
  type ManagedProfileView,
} from "../../managed-profiles/types.js";
import { createPartnerApiCredential } from "../../operations/credentials.js";
import { inputType } from "./input-type.js";
import { Node } from "./node.js";
import { graphqlEnum, outputType } from "./output-type.js";

export const CorridorEnum = graphqlEnum(corridorEnum);
export const CustomerTypeEnum = graphqlEnum(customerTypeEnum);

export const ManagedProfile = outputType(managedProfileView, { implements: [Node] });
export type ManagedProfile = ManagedProfileView;

export const Manager = outputType(managerPolicyView);

export const CreateManagedProfileInput = inputType("CreateManagedProfileInput", createManagedProfileInput, {
  description: "A new managed child; sending the same values again returns the existing child.",
});

export const ManagerPolicyInput = inputType("ManagerPolicyInput", managerPolicyInput, {
  description: "A manager's whole corridor policy; it replaces the previous one.",
});

export const PartnerCredentialInput = inputType("PartnerCredentialInput", createPartnerApiCredential.input, {
  description: "A partner-managed credential: the profile it is bound to, and optional name and expiry.",
  fields: ["profileId", "name", "expiresAt"], // the partner is an argument of its own
});
